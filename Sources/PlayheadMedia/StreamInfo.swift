import CFFmpeg

/// The kind of an elementary stream.
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    /// Pictures.
    case video
    /// Sound.
    case audio
    /// Subtitles or captions carried as a stream.
    case subtitle
    /// Timed metadata such as ID3 in MPEG-TS.
    case data
    /// Anything else.
    case other

    init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        case AVMEDIA_TYPE_DATA: self = .data
        default: self = .other
        }
    }
}

/// A rational number as FFmpeg uses for time bases and frame rates.
public struct Rational: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Numerator.
    public var num: Int32
    /// Denominator.
    public var den: Int32

    /// Creates `num/den`.
    public init(_ num: Int32, _ den: Int32) { self.num = num; self.den = den }
    init(_ q: AVRational) { self.init(q.num, q.den) }

    var av: AVRational { AVRational(num: num, den: den) }
    /// The value as a double; 0 when the denominator is 0.
    public var doubleValue: Double { den == 0 ? 0 : Double(num) / Double(den) }
    /// `num/den`.
    public var description: String { "\(num)/\(den)" }
}

/// What the demuxer knows of one elementary stream of a segment.
public struct StreamInfo: Sendable, Equatable {
    /// Index of the stream in its segment's container.
    public var index: Int
    /// Container-level id (the PID for MPEG-TS, the track id for MP4).
    public var id: Int
    /// Video, audio, …
    public var kind: MediaKind
    /// FFmpeg's codec name (`h264`, `aac`, …).
    public var codecName: String
    /// The time base of this stream's timestamps.
    public var timeBase: Rational
    /// Frame rate guessed by libavformat (video only), if known.
    public var frameRate: Rational?
    /// Picture width and height (video only), 0 when unknown.
    public var width: Int
    /// Picture height (video only), 0 when unknown.
    public var height: Int
    /// Sample rate (audio only), 0 when unknown.
    public var sampleRate: Int
    /// Channel count (audio only), 0 when unknown.
    public var channels: Int
    /// Bits of the container's timestamps before they wrap: 33 for MPEG-TS, 64 for MP4 (the ffmpeg
    /// CLI corrects an input's start time to the streams it uses only below 64).
    public var ptsWrapBits: Int = 64
}
