import CFFmpeg

/// A reference to a decoded frame's data kept past its decoding (`av_frame_clone`: the buffers are
/// shared, not copied), so that it can be dumped when it is presented rather than when it is decoded.
/// Released with the last reference. Immutable after creation, hence `@unchecked Sendable`.
public final class RetainedFrame: @unchecked Sendable, Equatable {
    let frame: UnsafeMutablePointer<AVFrame>
    let kind: MediaKind
    let timeBase: Rational
    let stream: StreamInfo?

    init?(_ source: UnsafeMutablePointer<AVFrame>, kind: MediaKind, timeBase: Rational, stream: StreamInfo?) {
        guard let frame = av_frame_clone(source) else { return nil }
        self.frame = frame
        self.kind = kind
        self.timeBase = timeBase
        self.stream = stream
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    /// The same reference.
    public static func == (lhs: RetainedFrame, rhs: RetainedFrame) -> Bool { lhs === rhs }
}
