import PlayheadHLS
import PlayheadMedia

/// Where a thumbnail's picture came from.
public enum ThumbnailSourceKind: String, Sendable, CaseIterable, Codable {
    /// An I-frame playlist's keyframe (EXT-X-I-FRAME-STREAM-INF or EXT-X-I-FRAMES-ONLY).
    case iframe
    /// A WebVTT thumbnail track's picture (a sprite sheet's tile with `#xywh=`, or a whole picture).
    case vtt
    /// The nearest keyframe at or before the time in the ordinary variant's segment holding it.
    case segment
}

/// A thumbnail: the picture for a time, and where exactly it came from.
public struct Thumbnail: Sendable {
    /// The source used.
    public var source: ThumbnailSourceKind
    /// The playlist or track the entry is listed in.
    public var listURL: String
    /// The entry's index in it (I-frame entry, cue, or media segment).
    public var entryIndex: Int
    /// Where the entry's span starts on the timeline, seconds: the I-frame entry or cue start; for a
    /// segment, the keyframe's own time.
    public var entryStart: Double
    /// The entry's span, seconds (for a segment: the segment's EXTINF).
    public var entryDuration: Double
    /// The media segment or image the picture was decoded from.
    public var resourceURL: String
    /// The byte range fetched of it, if any.
    public var byteRange: ByteRange?
    /// The rectangle cut out of the image (WebVTT `#xywh=`), if any.
    public var rect: ThumbnailRect?
    /// The decoded frame's presentation timestamp and its time base (I-frame and segment sources).
    public var framePTS: Int64?
    /// Time base of ``framePTS``.
    public var timeBase: Rational?
    /// The decoded picture's pixel format (`yuv420p`, `yuvj420p`, …) and size before cropping or scaling.
    public var pixelFormat: String
    /// Width of the decoded picture.
    public var decodedWidth: Int
    /// Height of the decoded picture.
    public var decodedHeight: Int
    /// MD5 as `ffmpeg -f framemd5` computes it: of the decoded frame in its own pixel format (I-frame and
    /// segment sources, ``PlayheadMedia/DecodedFrame/md5``), or of the cropped picture in rgb24 (WebVTT).
    public var md5: String
    /// The picture, rgb24, cropped and scaled as asked.
    public var image: RGBImage

    /// The frame's presentation time in seconds of media timestamps, when known.
    public var frameSeconds: Double? {
        guard let framePTS, let timeBase else { return nil }
        return Double(framePTS) * timeBase.doubleValue
    }
}
