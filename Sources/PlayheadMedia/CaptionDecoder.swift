import CFFmpeg

/// One closed caption as shown: from `start` to `end` (seconds, on the timeline of the frames fed), `text`
/// plain (rows joined with newlines, no styling or position).
public struct CaptionCue: Sendable, Equatable, Codable {
    /// When the caption appears, seconds.
    public var start: Double
    /// When it goes, seconds.
    public var end: Double
    /// The caption's text, one line a caption row.
    public var text: String

    /// A cue from its parts.
    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// CEA-608 closed captions to text, by FFmpeg's own `cc_dec` decoder (`AV_CODEC_ID_EIA_608`, through
/// `avcodec_decode_subtitle2`), as `ffmpeg -f lavfi -i "movie=FILE[out0+subcc]"` reads them.
///
/// Feed it each video frame's ``DecodedFrame/closedCaptions`` (the A/53 `cc_data` triplets) with the
/// frame's presentation time, frames in presentation order; cues come out once complete: a caption is
/// handed out when the screen next changes (the next caption, an erase), with the time it appeared and
/// the time it went. ``finish()`` hands out the caption still shown at the end.
///
/// Covered: one CEA-608 caption channel a decoder, CC1 or CC2 on line-21 field 1, CC3 or CC4 on field 2 (cc_dec
/// reads the two data channels of a field as one, so the other channel's pairs are made padding first and a
/// CC2 or CC4 control code is handed over as its CC1 twin; the text channels T1–T4 and XDS are ignored); pop-on, roll-up and
/// paint-on captions as cc_dec buffers them (not its `real_time` mode), the basic, special and extended
/// character sets, rows joined by newlines (styling, colour and position dropped). Not covered: CEA-708
/// (DTVCC) services, whose triplets (cc_type 2 and 3) cc_dec skips; captions carried in other ways
/// (SCTE-20, MPEG-2 user data formats other than A/53 that the video decoder does not export).
///
/// Timing follows cc_dec's buffered mode, quirks included: a pop-on caption starts at the frame of its End
/// Of Caption code and ends at the next erase or EOC; a roll-up or paint-on screen is handed out at the next
/// carriage return or erase, timed from the screen change before it (so a roll-up row shows from the
/// previous carriage return, and the first screen from time 0, before the stream's first frame); the
/// caption left on screen at the end is given, by ``finish()``, the duration of the one before it (cc_dec's
/// drain), or 20 ms a character when there was none. No cue is open-ended (cc_dec's `real_time` mode, not
/// used).
///
/// Not thread-safe: use on one task.
public final class CaptionDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// FFmpeg's complaints (negative codes) since the decoder was made, for diagnostics.
    public private(set) var errors = 0

    /// The time base of the packets: microseconds, FFmpeg's `AV_TIME_BASE`, what subtitles come out in.
    private static let microseconds: Double = 1_000_000

    /// The caption channel decoded: 1–4 for CC1–CC4.
    public let channel: Int

    /// Opens FFmpeg's `cc_dec` for caption channel `channel` (1–4: CC1–CC4, its field chosen by `data_field`;
    /// buffered, not real time).
    /// - Throws: `MediaError` when this FFmpeg has no EIA-608 decoder or it cannot be opened.
    public init(channel: Int = 1) throws(MediaError) {
        precondition((1...4).contains(channel), "CEA-608 caption channels are CC1–CC4")
        self.channel = channel
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_EIA_608) else { throw .decoderNotFound(codec: "eia_608") }
        guard let context = avcodec_alloc_context3(codec), let packet = av_packet_alloc() else {
            throw .outOfMemory("caption decoder")
        }
        self.context = context
        self.packet = packet
        context.pointee.pkt_timebase = AVRational(num: 1, den: Int32(Self.microseconds))
        var options: OpaquePointer?
        av_dict_set(&options, "data_field", channel <= 2 ? "first" : "second", 0)
        defer { av_dict_free(&options) }
        let code = avcodec_open2(context, codec, &options)
        if code < 0 { throw .decoderOpenFailed(codec: "eia_608", code: code, message: AVError.message(code)) }
    }

    deinit {
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    /// Decodes the captions of a decoded video frame (nothing when it has none or no timestamp).
    public func decode(_ frame: DecodedFrame) -> [CaptionCue] {
        guard let data = frame.closedCaptions, let seconds = frame.ptsSeconds else { return [] }
        return decode(ccData: data, at: seconds)
    }

    /// Decodes one frame's `cc_data` triplets presented at `seconds`; returns the cues completed by them.
    /// Malformed data (bad parity, a partial triplet) is skipped as cc_dec skips it.
    public func decode(ccData: [UInt8], at seconds: Double) -> [CaptionCue] {
        let whole = ccData.count - ccData.count % 3
        guard whole > 0, let packet else { return [] }
        let ccData = ownChannel(Array(ccData[..<whole]))
        av_packet_unref(packet)
        guard av_new_packet(packet, Int32(whole)) >= 0 else { errors += 1; return [] }
        ccData.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: whole) }
        let pts = Int64((seconds * Self.microseconds).rounded())
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        defer { av_packet_unref(packet) }
        return run(packet)
    }

    /// The data channel of the decoder's field that its pairs belong to now (1 or 2): a control code names its
    /// channel (first byte 0x10–0x17 the field's first, CC1 or CC3; 0x18–0x1F its second, CC2 or CC4); the
    /// characters after it go to that channel.
    private var dataChannel = 1

    /// `ccData` as cc_dec must see it for this decoder's channel: in its field (cc_type 0 for CC1/CC2, 1 for
    /// CC3/CC4), the other data channel's pairs made padding, and for CC2/CC4 each control code moved to its
    /// first-channel twin (bit 3 of its first byte cleared, the parity bit flipped so a good pair stays good and a
    /// bad one bad). cc_dec reads both channels of a field as one: a caption sent on CC2 came out as CC1, and the
    /// two interleaved gave garbled text.
    func ownChannel(_ ccData: [UInt8]) -> [UInt8] {
        var data = ccData
        let field: UInt8 = channel <= 2 ? 0 : 1
        let wanted = channel % 2 == 1 ? 1 : 2
        for at in stride(from: 0, to: data.count - 2, by: 3) {
            guard data[at] & 0x04 != 0, data[at] & 0x03 == field else { continue }
            let first = data[at + 1] & 0x7F
            let control = (0x10...0x1F).contains(first)
            if control { dataChannel = first & 0x08 == 0 ? 1 : 2 }
            if dataChannel != wanted {
                data[at + 1] = 0x80
                data[at + 2] = 0x80
            } else if wanted == 2, control {
                data[at + 1] = (data[at + 1] & ~0x08) ^ 0x80
            }
        }
        return data
    }

    /// Hands out the caption still on screen, at the end of the stream (cc_dec's drain), then forgets the
    /// screen as ``reset()`` does, so the decoder can go on with another stream.
    public func finish() -> [CaptionCue] {
        guard let packet else { return [] }
        av_packet_unref(packet)  // no data: a drain
        let cues = run(packet)
        reset()
        return cues
    }

    /// Forgets the screen and the captions in progress (a seek).
    public func reset() {
        dataChannel = 1
        guard let context else { return }
        avcodec_flush_buffers(context)
    }

    private func run(_ packet: UnsafeMutablePointer<AVPacket>) -> [CaptionCue] {
        guard let context else { return [] }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let code = avcodec_decode_subtitle2(context, &subtitle, &got, packet)
        if code < 0 { errors += 1 }
        guard got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let base = subtitle.pts == noPTS ? 0 : Double(subtitle.pts) / Self.microseconds
        let start = base + Double(subtitle.start_display_time) / 1000
        // A display time of UInt32.max (-1) is open-ended: cc_dec's real-time mode, not used here.
        let end = subtitle.end_display_time == UInt32.max ? start : base + Double(subtitle.end_display_time) / 1000
        var cues: [CaptionCue] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index], let ass = rect.pointee.ass else { continue }
            let text = Self.plainText(ass: String(cString: ass))
            if !text.isEmpty { cues.append(CaptionCue(start: start, end: end, text: text)) }
        }
        return cues
    }

    /// The plain text of an ASS event as FFmpeg's subtitle decoders write it (`ReadOrder, Layer, Style,
    /// Name, MarginL, MarginR, MarginV, Effect, Text`, or a whole `Dialogue:` line of a script): the text
    /// field with `{…}` override blocks removed, `\N` and `\n` as newlines, `\h` as a space.
    public static func plainText(ass event: String) -> String {
        var line = Substring(event)
        var fields = 8  // before Text in a decoder's event
        if line.hasPrefix("Dialogue:") {
            line = line.dropFirst("Dialogue:".count)
            fields = 9  // Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect
        }
        for _ in 0..<fields {
            guard let comma = line.firstIndex(of: ",") else { return "" }
            line = line[line.index(after: comma)...]
        }
        var out = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "{", let close = line[index...].firstIndex(of: "}") {
                index = line.index(after: close)
                continue
            }
            if character == "\\", line.index(after: index) < line.endIndex {
                let next = line[line.index(after: index)]
                switch next {
                case "N", "n": out.append("\n")
                case "h": out.append(" ")
                default: out.append(character); out.append(next)
                }
                index = line.index(index, offsetBy: 2)
                continue
            }
            out.append(character)
            index = line.index(after: index)
        }
        while out.hasSuffix("\r") || out.hasSuffix("\n") { out.removeLast() }
        return out
    }
}
