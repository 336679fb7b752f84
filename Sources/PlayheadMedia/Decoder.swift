import CFFmpeg

/// One libavcodec decoder for one elementary stream, kept across the segments of a rendition.
///
/// Not thread-safe: use on one task.
final class Decoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    /// Kind of the stream decoded.
    let kind: MediaKind
    /// Index of the stream in the current segment's container.
    var streamIndex: Int
    /// Time base of the packets sent and frames received.
    private(set) var timeBase: Rational
    /// The stream parameters it was opened with, to tell whether another segment's stream fits.
    private let opened: StreamParameters

    /// Opens a decoder for `stream`, copying its codec parameters.
    init(stream: UnsafeMutablePointer<AVStream>, threads: Int) throws(MediaError) {
        let par = stream.pointee.codecpar!
        let codecID = par.pointee.codec_id
        kind = MediaKind(par.pointee.codec_type)
        timeBase = Rational(stream.pointee.time_base)
        streamIndex = Int(stream.pointee.index)
        opened = StreamParameters(stream)
        let name = String(cString: avcodec_get_name(codecID))
        guard let codec = avcodec_find_decoder(codecID) else { throw .decoderNotFound(codec: name) }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw .outOfMemory("decoder")
        }
        self.context = context
        self.frame = frame
        var code = avcodec_parameters_to_context(context, par)
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = Int32(threads)
        if code >= 0 { code = avcodec_open2(context, codec, nil) }
        if code < 0 {
            throw .decoderOpenFailed(codec: name, code: code, message: AVError.message(code))
        }
    }

    /// Whether packets of `stream` (another segment's) can go on through this decoder: the same codec and
    /// time base, and no other codec configuration (extradata, picture size, sample rate, channels) where
    /// both sides state one. An fMP4 rendition's SPS/PPS live in its initialization section, so another
    /// rendition's packets need a decoder opened with that rendition's extradata.
    func accepts(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        opened.fits(StreamParameters(stream))
    }

    deinit {
        avcodec_free_context(&context)
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    /// Sends `packet` (nil drains) and hands each frame that comes out to `body`, which must not keep
    /// the pointer. Returns the decoder's complaint about the packet, if any; decoding goes on.
    /// Most errors a drain reads past before it gives up on the frames after them.
    static let maxDrainErrors = 64

    func decode(_ packet: Packet?, _ body: (UnsafeMutablePointer<AVFrame>) -> Void) -> (code: Int32, message: String)? {
        guard let context else { return nil }
        var complaint: (Int32, String)?
        var code = avcodec_send_packet(context, packet?.raw)
        if code < 0, code != AVError.again, code != AVError.eof {
            complaint = (code, AVError.message(code))
        }
        var errors = 0
        while true {
            code = avcodec_receive_frame(context, frame)
            if code == AVError.again || code == AVError.eof { break }
            if code < 0 {
                complaint = complaint ?? (code, AVError.message(code))
                // Draining, an error is one frame's: the frames after it still come (frame threads hand them out in
                // order). Stopping there lost them: a cut last fMP4 segment gave 2 frames fewer than FFmpeg (QA42 #6).
                if packet == nil, errors < Self.maxDrainErrors {
                    errors += 1
                    continue
                }
                break
            }
            body(frame)
            av_frame_unref(frame)
        }
        if packet == nil { avcodec_flush_buffers(context) }
        return complaint
    }
}

/// What a decoder is opened for, as far as it decides whether another segment's stream fits it.
private struct StreamParameters: Equatable {
    var codecID: AVCodecID
    var timeBase: Rational
    var extradata: [UInt8]
    var width: Int32
    var height: Int32
    var sampleRate: Int32
    var channels: Int32

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let par = stream.pointee.codecpar.pointee
        codecID = par.codec_id
        timeBase = Rational(stream.pointee.time_base)
        extradata = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(par.extradata_size, 0)))) } ?? []
        width = par.width
        height = par.height
        sampleRate = par.sample_rate
        channels = par.ch_layout.nb_channels
    }

    /// Same codec and time base; every other field equal where both are known (non-empty, non-zero).
    func fits(_ other: StreamParameters) -> Bool {
        func agree<T: Equatable>(_ a: T, _ b: T, unknown: T) -> Bool { a == unknown || b == unknown || a == b }
        return codecID == other.codecID && timeBase == other.timeBase
            && agree(extradata, other.extradata, unknown: []) && agree(width, other.width, unknown: 0)
            && agree(height, other.height, unknown: 0) && agree(sampleRate, other.sampleRate, unknown: 0)
            && agree(channels, other.channels, unknown: 0)
    }
}
