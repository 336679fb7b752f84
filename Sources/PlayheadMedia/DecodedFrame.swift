/// A decoded frame, described by its true timing and, when asked for, its framemd5 hash.
public struct DecodedFrame: Sendable, Equatable {
    /// Video or audio.
    public var kind: MediaKind
    /// Index of the stream in its segment's container.
    public var streamIndex: Int
    /// Presentation timestamp in `timeBase` units (FFmpeg's best-effort timestamp), if known.
    public var pts: Int64?
    /// Time base of `pts` and `duration`.
    public var timeBase: Rational
    /// Duration in `timeBase` units (0 when unknown).
    public var duration: Int64
    /// Whether the decoder marked the frame as a keyframe.
    public var isKeyframe: Bool
    /// Picture type: `I`, `P`, `B`, `S`, `i`, `p`, `b` or `?` (audio: `?`).
    public var pictureType: Character
    /// Picture width in pixels (video), else 0.
    public var width: Int
    /// Picture height in pixels (video), else 0.
    public var height: Int
    /// FFmpeg's pixel or sample format name.
    public var formatName: String
    /// Samples per channel (audio), else 0.
    public var sampleCount: Int
    /// Sample rate in Hz (audio), else 0.
    public var sampleRate: Int
    /// Channel count (audio), else 0.
    public var channels: Int
    /// Whether the decoder flagged the frame as damaged (concealed errors).
    public var isCorrupt: Bool
    /// Size in bytes of the data hashed: packed planes (video) or interleaved s16 samples (audio).
    public var hashedSize: Int
    /// MD5 of the frame exactly as FFmpeg's framemd5 muxer computes it, lowercase hex; nil unless hashing.
    public var md5: String?
    /// Sample (pixel) aspect ratio of a video frame; `0/1` when unknown (FFmpeg's convention).
    public var sampleAspectRatio = Rational(0, 1)
    /// FFmpeg's name of an audio frame's channel layout (`stereo`, `5.1(side)`); nil for video.
    public var channelLayoutName: String? = nil
    /// The frame's data, kept for a dump at presentation (``RenditionDecoderOptions/dumpAtPresentation``);
    /// nil otherwise.
    public var retained: RetainedFrame? = nil
    /// The closed-caption data of a video frame: the ATSC A/53 `cc_data` triplets (`cc_valid`/`cc_type`
    /// byte, two data bytes) that the H.264/HEVC decoder found in the picture's SEI
    /// (`user_data_registered_itu_t_t35`, `GA94`), FFmpeg's `AV_FRAME_DATA_A53_CC`; nil when the frame
    /// has none. ``CaptionDecoder`` turns them into cues.
    public var closedCaptions: [UInt8]? = nil

    /// Presentation time in seconds, if known.
    public var ptsSeconds: Double? { pts.map { Double($0) * timeBase.doubleValue } }
    /// Duration in seconds.
    public var durationSeconds: Double { Double(duration) * timeBase.doubleValue }
}
