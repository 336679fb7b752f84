/// Receives decoded frames' raw data. Called by RenditionDecoder for each frame when set in its options
/// (``RenditionDecoderOptions/dump``), on the decoding task, in decode output order.
public protocol FrameDumpSink: AnyObject {
    /// A decoded picture; its buffers are valid only during the call.
    func video(_ frame: RawVideoFrame)
    /// Decoded sound; its buffers are valid only during the call.
    func audio(_ frame: RawAudioFrame)
    /// Finishes the files (patching headers) and reports the first error met while writing.
    /// - Throws: ``DumpError`` naming the file.
    func close() throws(DumpError)
}

/// A decoded picture, packed as FFmpeg's `rawvideo` does: the planes one after another, no line padding
/// (`av_image_copy_to_buffer` with alignment 1). Valid only during the sink's call.
public struct RawVideoFrame {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// FFmpeg's pixel format name, e.g. `yuv420p`.
    public var pixelFormatName: String
    /// All planes, packed.
    public var packed: UnsafeRawBufferPointer
    /// Each plane, as a slice of ``packed`` (Y, U, V for planar YUV).
    public var planes: [UnsafeRawBufferPointer]
    /// Presentation timestamp in `timeBase` units, if known.
    public var pts: Int64?
    /// Time base of `pts`.
    public var timeBase: Rational
    /// The stream's frame rate as libavformat guessed it, if known.
    public var frameRate: Rational?
    /// Sample (pixel) aspect ratio; `0/1` when unknown.
    public var sampleAspectRatio: Rational
    /// FFmpeg's colour range name: `tv` (limited), `pc` (full) or `unknown`.
    public var colorRangeName: String
    /// FFmpeg's chroma location name: `left`, `center`, `topleft`, … or `unspecified`.
    public var chromaLocationName: String
    /// Whether the picture is interlaced.
    public var isInterlaced: Bool
    /// For an interlaced picture, whether the top field comes first.
    public var topFieldFirst: Bool

    /// Creates a frame description; the buffers must outlive its use.
    public init(width: Int, height: Int, pixelFormatName: String, packed: UnsafeRawBufferPointer,
                planes: [UnsafeRawBufferPointer], pts: Int64?, timeBase: Rational, frameRate: Rational?,
                sampleAspectRatio: Rational, colorRangeName: String, chromaLocationName: String,
                isInterlaced: Bool, topFieldFirst: Bool) {
        self.width = width
        self.height = height
        self.pixelFormatName = pixelFormatName
        self.packed = packed
        self.planes = planes
        self.pts = pts
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.sampleAspectRatio = sampleAspectRatio
        self.colorRangeName = colorRangeName
        self.chromaLocationName = chromaLocationName
        self.isInterlaced = isInterlaced
        self.topFieldFirst = topFieldFirst
    }
}

/// Decoded sound as the decoder gave it: one plane per channel for planar sample formats (`fltp`), one
/// interleaved plane otherwise (`s16`). Valid only during the sink's call.
public struct RawAudioFrame {
    /// Samples per channel.
    public var sampleCount: Int
    /// Sample rate in Hz.
    public var sampleRate: Int
    /// Number of channels.
    public var channels: Int
    /// FFmpeg's sample format name, e.g. `fltp`.
    public var sampleFormatName: String
    /// The sample data, `sampleCount` samples per channel.
    public var planes: [UnsafeRawBufferPointer]
    /// Presentation timestamp in `timeBase` units, if known.
    public var pts: Int64?
    /// Time base of `pts`.
    public var timeBase: Rational

    /// Creates a frame description; the buffers must outlive its use.
    public init(sampleCount: Int, sampleRate: Int, channels: Int, sampleFormatName: String,
                planes: [UnsafeRawBufferPointer], pts: Int64?, timeBase: Rational) {
        self.sampleCount = sampleCount
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormatName = sampleFormatName
        self.planes = planes
        self.pts = pts
        self.timeBase = timeBase
    }
}
