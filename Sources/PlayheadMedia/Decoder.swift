import CFFmpeg

/// One libavcodec decoder for one elementary stream, kept across the segments of a rendition.
///
/// Not thread-safe: use on one task.
final class Decoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The codec this decoder was opened for.
    let codecID: AVCodecID
    /// Kind of the stream decoded.
    let kind: MediaKind
    /// Index of the stream in the current segment's container.
    var streamIndex: Int
    /// Time base of the packets sent and frames received.
    private(set) var timeBase: Rational

    /// Opens a decoder for `stream`, copying its codec parameters.
    init(stream: UnsafeMutablePointer<AVStream>, threads: Int) throws(MediaError) {
        let par = stream.pointee.codecpar!
        codecID = par.pointee.codec_id
        kind = MediaKind(par.pointee.codec_type)
        timeBase = Rational(stream.pointee.time_base)
        streamIndex = Int(stream.pointee.index)
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

    deinit {
        avcodec_free_context(&context)
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    /// Sends `packet` (nil drains) and hands each frame that comes out to `body`, which must not keep
    /// the pointer. Returns the decoder's complaint about the packet, if any; decoding goes on.
    func decode(_ packet: Packet?, _ body: (UnsafeMutablePointer<AVFrame>) -> Void) -> (code: Int32, message: String)? {
        guard let context else { return nil }
        var complaint: (Int32, String)?
        var code = avcodec_send_packet(context, packet?.raw)
        if code < 0, code != AVError.again, code != AVError.eof {
            complaint = (code, AVError.message(code))
        }
        while true {
            code = avcodec_receive_frame(context, frame)
            if code == AVError.again || code == AVError.eof { break }
            if code < 0 {
                complaint = complaint ?? (code, AVError.message(code))
                break
            }
            body(frame)
            av_frame_unref(frame)
        }
        if packet == nil { avcodec_flush_buffers(context) }
        return complaint
    }
}
