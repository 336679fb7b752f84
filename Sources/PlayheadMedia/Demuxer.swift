import CFFmpeg

/// The container of a segment.
public enum ContainerFormat: String, Sendable {
    /// MPEG-2 transport stream.
    case mpegTS = "mpegts"
    /// ISO BMFF (fMP4/CMAF), with the init section prepended.
    case mp4 = "mp4"
    /// Packed audio (ID3 tag, then frames): ADTS AAC.
    case adts = "aac"
    /// Packed audio: AC-3.
    case ac3 = "ac3"
    /// Packed audio: E-AC-3.
    case eac3 = "eac3"
    /// Packed audio: MPEG audio (MP3).
    case mp3 = "mp3"

    /// Packed audio (RFC 8216bis section 3.4): audio frames after an ID3 tag.
    public var isPackedAudio: Bool { self == .adts || self == .ac3 || self == .eac3 || self == .mp3 }

    /// Guesses the container from the first bytes: a 0x47 sync byte every 188 bytes is TS, an ISO BMFF box
    /// type in bytes 4..<8 is MP4, an ID3 tag or an audio sync word is packed audio, of the codec whose sync
    /// word follows the tags (AAC when none is recognised).
    public static func sniff(_ bytes: [UInt8]) -> ContainerFormat? {
        if bytes.count >= 188, bytes[0] == 0x47, bytes.count < 376 || bytes[188] == 0x47 { return .mpegTS }
        if bytes.count >= 8 {
            let box = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "styp", "moov", "moof", "sidx", "mdat", "free"].contains(box) { return .mp4 }
        }
        let format = PackedAudio.frameFormat(bytes, at: PackedAudio.framesStart(bytes))
        return PackedAudio.isID3(bytes, at: 0) ? format ?? .adts : format
    }

    /// What is wrong with an initialization section (an EXT-X-MAP's bytes) on its own: bytes that begin with
    /// neither an ISO BMFF box nor a TS packet (a BYTERANGE that starts inside the section), a top-level box
    /// that runs past its end (a BYTERANGE that cuts it short), or no moov box; nil when its boxes hold
    /// together and one is a moov, or when it is a TS (or packed audio) section.
    public static func initializationProblem(_ bytes: [UInt8]) -> String? {
        switch sniff(bytes) {
        case .mp4?: break
        case .mpegTS?, .adts?, .ac3?, .eac3?, .mp3?: return nil
        case nil:
            // Neither a box nor a TS packet: a BYTERANGE that starts inside the section, or another file.
            let start = bytes.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return "it begins with neither a top-level ISO BMFF box (ftyp, moov, …) nor an MPEG-TS packet (\(bytes.count) bytes, starting \(start.isEmpty ? "with nothing" : start))"
        }
        let walk = boxes(bytes)
        if let broken = walk.broken {
            guard broken.size >= 8 else { return "its \(broken.type) box at byte \(broken.offset) has an impossible size of \(broken.size) bytes" }
            return "its \(broken.type) box at byte \(broken.offset) is \(broken.size) bytes long, but the section ends \(bytes.count - broken.offset) "
                + "bytes into it (cut short: an EXT-X-MAP BYTERANGE that does not cover the whole section?)"
        }
        let types = walk.whole.map(\.type)
        return types.contains("moov") ? nil : "it has no moov box (its boxes: \(types.joined(separator: ", ")))"
    }

    /// One ISO BMFF box's header: its type, where it starts and how long it says it is.
    typealias BoxHeader = (type: String, offset: Int, size: Int)

    /// The top-level boxes of `bytes` in order, as far as their sizes hold together (at most `limit`): the
    /// whole ones, and the first whose size is impossible or runs past the end. A size of 0 runs to the end;
    /// 1 is followed by a 64-bit size.
    static func boxes(_ bytes: [UInt8], limit: Int = .max) -> (whole: [BoxHeader], broken: BoxHeader?) {
        var whole: [BoxHeader] = []
        var offset = 0
        while offset + 8 <= bytes.count, whole.count < limit {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { ($0 << 8) | Int($1) } }
            if size == 0 { size = bytes.count - offset }
            guard size >= 8, size <= bytes.count - offset else { return (whole, (type, offset, size)) }
            whole.append((type, offset, size))
            offset += size
        }
        return (whole, nil)
    }

    /// The types of the ISO BMFF boxes at the top level of `bytes`, in order, as far as their sizes
    /// hold together (at most 64).
    public static func topLevelBoxes(_ bytes: [UInt8]) -> [String] {
        let walk = boxes(bytes, limit: 64)
        return Array((walk.whole.map(\.type) + (walk.broken.map { [$0.type] } ?? [])).prefix(64))
    }
}

/// Demuxes one segment held in memory (plus its init section for fMP4) with libavformat.
///
/// Not thread-safe: create, read and drop it on one task.
public final class Demuxer {
    private let input: MemoryInput
    private var format: UnsafeMutablePointer<AVFormatContext>?
    /// The segment's elementary streams (MPEG-TS can add one mid-segment, e.g. from damaged data).
    public private(set) var streams: [StreamInfo]
    /// The container that was opened.
    public let container: ContainerFormat?

    /// Opens the segment.
    /// - Parameters:
    ///   - bytes: The segment's (decrypted) bytes; for fMP4, the init section followed by the media.
    ///   - container: The container, or nil to sniff it (and fall back to libavformat's probe).
    ///   - probeStreams: Run `avformat_find_stream_info` (decodes a little to learn codec
    ///     parameters). Not needed for TS and fMP4 carrying H.264/HEVC/AAC: decoders learn them in-band.
    public init(bytes: [UInt8], container: ContainerFormat? = nil, probeStreams: Bool = false) throws(MediaError) {
        let chosen = container ?? ContainerFormat.sniff(bytes)
        var bytes = bytes
        if chosen?.isPackedAudio == true {
            // A damaged ID3 header in front (its size does not read) goes, up to the first frame: the raw demuxers
            // lost the segment's first frames, or all of them, to it.
            if let sync = PackedAudio.frameAfterDamagedTag(bytes) { bytes.removeFirst(sync) }
            bytes = PackedAudio.withoutInnerTags(bytes)
        }
        input = try MemoryInput(bytes: bytes)
        self.container = chosen
        guard var context = avformat_alloc_context() else { throw .outOfMemory("AVFormatContext") }
        context.pointee.pb = input.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var formatPointer: UnsafeMutablePointer<AVFormatContext>? = context
        let inputFormat = chosen.flatMap { av_find_input_format($0.rawValue) }
        let code = avformat_open_input(&formatPointer, nil, inputFormat, nil)
        guard code >= 0, let opened = formatPointer else {
            // avformat_open_input frees the context on failure.
            var message = AVError.message(code)
            if chosen == .mp4, !ContainerFormat.topLevelBoxes(bytes).contains("moov") {
                message += " (fragmented MP4 without a whole initialization section: no moov box; the playlist needs an EXT-X-MAP whose BYTERANGE, if any, covers the moov box)"
            }
            throw .openFailed(code: code, message: message, byteCount: bytes.count)
        }
        context = opened
        format = opened
        if chosen == nil, let name = opened.pointee.iformat.map({ String(cString: $0.pointee.name) }),
           !Self.isSegmentFormat(name) {
            // libavformat reads almost anything (an image, a web page's text): only what HLS carries is a segment.
            avformat_close_input(&format)
            throw .notASegment(format: name, byteCount: bytes.count)
        }
        let name = opened.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        // Packed audio, as sniffed or as libavformat's probe read it (a damaged ID3 tag in front): its raw demuxer
        // times only a segment's first frame unless probed, so it always is.
        isPackedAudio = chosen?.isPackedAudio == true || name.split(separator: ",").contains { Self.rawAudioFormats.contains(String($0)) }
        if probeStreams || isPackedAudio {
            let probe = avformat_find_stream_info(opened, nil)
            if probe < 0 {
                avformat_close_input(&format)
                throw .openFailed(code: probe, message: AVError.message(probe), byteCount: bytes.count)
            }
        }
        if isPackedAudio, let tag = PackedAudio.timestamp(bytes) {
            // Packed audio is timed by its ID3 tag (the raw audio demuxers start every segment at 0), on the
            // MPEG-2 clock, so its timestamps wrap at 33 bits as a TS's do (FFmpeg's HLS demuxer times it so).
            // A start in the last minute before the wrap is taken as negative, as libavformat takes a TS
            // segment's first timestamp there, so a segment across the wrap runs on, and the next follows it.
            let wrap: Int64 = 1 << 33
            let start = tag >= wrap - 60 * 90_000 ? tag - wrap : tag
            startOffsets = (0..<Int(opened.pointee.nb_streams)).map {
                av_rescale_q(start, AVRational(num: 1, den: 90_000), opened.pointee.streams[$0]!.pointee.time_base)
            }
        }
        streams = []
        describeStreams()
    }

    /// Added to each stream's packet timestamps (by stream index): packed audio's ID3 start; nil otherwise.
    private var startOffsets: [Int64]?

    /// Whether the segment is packed audio (raw audio frames, maybe after ID3 tags).
    public private(set) var isPackedAudio = false

    /// Whether the segment is packed audio timed by its ID3 tag's `transportStreamTimestamp`.
    public var isTimedByTag: Bool { startOffsets != nil }

    /// The libavformat demuxers of raw audio frames: what packed audio is read with.
    static let rawAudioFormats: Set<String> = ["aac", "ac3", "eac3", "mp3"]

    /// Describes the container's streams into ``streams``.
    private func describeStreams() {
        guard let format else { return }
        streams = (0..<Int(format.pointee.nb_streams)).map { index in
            var info = Demuxer.describe(format.pointee.streams[index]!, format: format)
            if startOffsets != nil { info.ptsWrapBits = 33 }
            return info
        }
    }

    deinit { avformat_close_input(&format) }

    /// The libavformat demuxers of what an HLS media segment may be (RFC 8216bis section 3): MPEG-TS,
    /// fragmented MP4, packed audio (AAC, MP3, AC-3, E-AC-3). A probe that names any other (`png_pipe`,
    /// `mjpeg`, `tty`) did not find a segment.
    static let segmentFormats: Set<String> = ["mpegts", "mov", "mp4", "aac", "mp3", "ac3", "eac3"]

    /// Whether a libavformat demuxer name (possibly a comma-separated list, as `mov,mp4,m4a,3gp,3g2,mj2`)
    /// is one of ``segmentFormats``.
    static func isSegmentFormat(_ name: String) -> Bool {
        name.split(separator: ",").contains { segmentFormats.contains(String($0)) }
    }

    /// Gives streams that were not probed the codec parameters a probed segment of the same rendition
    /// found (sample rate, frame size, …), so libavformat can time packets that carry no timestamp
    /// (AAC frames after the first in a PES packet). Only streams missing them are touched.
    func adopt(_ known: CodecParameterSet) {
        guard let format else { return }
        for index in 0..<Int(format.pointee.nb_streams) {
            let par = format.pointee.streams[index]!.pointee.codecpar!
            let kind = MediaKind(par.pointee.codec_type)
            guard let source = known.parameters[kind], source.pointee.codec_id == par.pointee.codec_id else { continue }
            let missing = kind == .audio ? par.pointee.sample_rate == 0 : (kind == .video && par.pointee.width == 0)
            if missing { avcodec_parameters_copy(par, source) }
        }
    }

    /// Frees the segment's bytes after the last packet was read (the packets keep their own data).
    func releaseInput() { input.release() }

    /// The raw stream, for decoder set-up inside this module.
    func stream(at index: Int) -> UnsafeMutablePointer<AVStream> { format!.pointee.streams[index]! }

    /// Byte offset of the reader in the segment.
    public var bytePosition: Int64 { format.map { avio_tell($0.pointee.pb) } ?? 0 }

    /// Reads the next packet; nil at the end of the segment.
    public func nextPacket() throws(MediaError) -> Packet? {
        guard let format, let raw = av_packet_alloc() else { throw .outOfMemory("AVPacket") }
        let code = av_read_frame(format, raw)
        if code < 0 {
            var pointer: UnsafeMutablePointer<AVPacket>? = raw
            av_packet_free(&pointer)
            if code == AVError.eof {
                // Once a sample was sought past the segment's end (an fMP4 segment cut short, its trun listing more),
                // an end of file may be one more sample out of reach: libavformat passes it, and the samples after
                // it that are in the bytes are still there to read (the caller bounds how many it tries).
                guard input.wentPastEnd else { return nil }
                throw .samplePastEnd(byteOffset: bytePosition)
            }
            throw .demuxFailed(code: code, message: AVError.message(code), byteOffset: bytePosition)
        }
        let index = Int(raw.pointee.stream_index)
        if index >= streams.count { describeStreams() }
        if let startOffsets, index < startOffsets.count {
            if raw.pointee.pts != noPTS { raw.pointee.pts += startOffsets[index] }
            if raw.pointee.dts != noPTS { raw.pointee.dts += startOffsets[index] }
        }
        let info = streams[index]
        return Packet(raw: raw, timeBase: info.timeBase, kind: info.kind)
    }

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) -> StreamInfo {
        let par = stream.pointee.codecpar!.pointee
        let kind = MediaKind(par.codec_type)
        var rate: Rational?
        if kind == .video {
            let guess = av_guess_frame_rate(format, stream, nil)
            if guess.num > 0, guess.den > 0 { rate = Rational(guess) }
        }
        return StreamInfo(
            index: Int(stream.pointee.index), id: Int(stream.pointee.id), kind: kind,
            codecName: String(cString: avcodec_get_name(par.codec_id)),
            timeBase: Rational(stream.pointee.time_base), frameRate: rate,
            width: Int(par.width), height: Int(par.height),
            sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels),
            ptsWrapBits: Int(stream.pointee.pts_wrap_bits))
    }
}

/// Codec parameters per kind, copied from a probed segment and owned here.
final class CodecParameterSet {
    private(set) var parameters: [MediaKind: UnsafeMutablePointer<AVCodecParameters>] = [:]

    /// Copies the first stream of each kind of `demuxer`.
    init(from demuxer: Demuxer) {
        for info in demuxer.streams where parameters[info.kind] == nil && (info.kind == .video || info.kind == .audio) {
            guard let copy = avcodec_parameters_alloc() else { continue }
            avcodec_parameters_copy(copy, demuxer.stream(at: info.index).pointee.codecpar)
            parameters[info.kind] = copy
        }
    }

    deinit {
        for (_, pointer) in parameters {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = pointer
            avcodec_parameters_free(&owned)
        }
    }
}
