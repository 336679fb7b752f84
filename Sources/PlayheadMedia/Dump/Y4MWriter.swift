/// Writes decoded pictures as YUV4MPEG2 (Y4M): one header line fixed by the first frame
/// (`YUV4MPEG2 W… H… F<num>:<den> I<p|t|b> A<sar> C<colour space> …`), then for each frame `FRAME\n`
/// and its packed planes. The header is the one `ffmpeg -f yuv4mpegpipe` writes for the same frames,
/// including its `XYSCSS=` and `XCOLORRANGE=` extensions. Audio frames are ignored.
///
/// Y4M cannot change size or format mid-file: a frame that differs from the first ends the file with
/// ``DumpError/formatChanged(path:detail:)`` (thrown by ``close()``). Not thread-safe.
public final class Y4MWriter: FrameDumpSink {
    /// Frame rate written when the stream's is unknown: 25/1, as FFmpeg assumes.
    public static let fallbackFrameRate = Rational(25, 1)

    /// The file written.
    public var path: String { file.path }
    /// Frames written so far.
    public private(set) var framesWritten = 0
    private let file: DumpFile
    private var shape: (width: Int, height: Int, format: String)?
    private var failure: DumpError?

    /// Creates (or truncates) the file at `path`.
    /// - Throws: ``DumpError/cannotOpen(path:reason:)``.
    public init(path: String) throws(DumpError) {
        file = try DumpFile(path: path)
    }

    /// Appends one picture (the first also writes the header).
    public func video(_ frame: RawVideoFrame) {
        guard failure == nil else { return }
        do throws(DumpError) {
            if let shape {
                guard shape.width == frame.width, shape.height == frame.height, shape.format == frame.pixelFormatName else {
                    throw .formatChanged(path: path, detail: "frame \(framesWritten) is \(frame.width)x\(frame.height) "
                        + "\(frame.pixelFormatName), the file's header says \(shape.width)x\(shape.height) \(shape.format)")
                }
            } else {
                try file.write(Array(try Self.header(for: frame, path: path).utf8))
                shape = (frame.width, frame.height, frame.pixelFormatName)
            }
            try file.write(Array("FRAME\n".utf8))
            try file.write(frame.packed)
            framesWritten += 1
        } catch {
            failure = error
        }
    }

    /// Ignored: Y4M holds pictures only.
    public func audio(_ frame: RawAudioFrame) {}

    /// Closes the file.
    /// - Throws: The first error met while writing, or a closing error.
    public func close() throws(DumpError) {
        let closing = Result { () throws(DumpError) in try file.close() }
        if let failure { throw failure }
        try closing.get()
    }

    /// The stream header line, newline included, for a stream whose first frame is `frame`.
    /// - Throws: ``DumpError/unsupportedPixelFormat(path:pixelFormat:)``.
    public static func header(for frame: RawVideoFrame, path: String) throws(DumpError) -> String {
        guard let colourSpace = colourSpace(pixelFormatName: frame.pixelFormatName,
                                            chromaLocationName: frame.chromaLocationName) else {
            throw .unsupportedPixelFormat(path: path, pixelFormat: frame.pixelFormatName)
        }
        let rate = frame.frameRate.flatMap { $0.num > 0 && $0.den > 0 ? $0 : nil } ?? fallbackFrameRate
        let interlacing = !frame.isInterlaced ? "p" : frame.topFieldFirst ? "t" : "b"
        let sar = frame.sampleAspectRatio.num == 0 ? "0:0" : "\(frame.sampleAspectRatio.num):\(frame.sampleAspectRatio.den)"
        let fullRange = frame.colorRangeName == "pc" || frame.pixelFormatName.hasPrefix("yuvj")
        let range = fullRange ? " XCOLORRANGE=FULL" : frame.colorRangeName == "tv" ? " XCOLORRANGE=LIMITED" : ""
        return "YUV4MPEG2 W\(frame.width) H\(frame.height) F\(rate.num):\(rate.den) I\(interlacing) A\(sar) "
            + "\(colourSpace)\(range)\n"
    }

    /// The `C…` tag with its `XYSCSS=` extension for a pixel format, or nil when Y4M has none.
    /// 4:2:0 8-bit tags follow the chroma location: `left` is `420mpeg2`, `topleft` is `420paldv`,
    /// anything else `420jpeg` (centred chroma).
    public static func colourSpace(pixelFormatName: String, chromaLocationName: String) -> String? {
        var name = pixelFormatName
        if name.hasPrefix("yuvj") { name = "yuv" + name.dropFirst(4) }
        switch name {
        case "gray": return "Cmono"
        case "gray9le", "gray10le", "gray12le", "gray16le":
            return "Cmono" + name.dropFirst(4).dropLast(2)
        case "yuv420p":
            switch chromaLocationName {
            case "left": return "C420mpeg2 XYSCSS=420MPEG2"
            case "topleft": return "C420paldv XYSCSS=420PALDV"
            default: return "C420jpeg XYSCSS=420JPEG"
            }
        case "yuv411p", "yuv422p", "yuv444p":
            let tag = String(name.dropFirst(3).dropLast())
            return "C\(tag) XYSCSS=\(tag)"
        default:
            // yuv4{20,22,44}p{9,10,12,14,16}le: not official Y4M, but what ffmpeg writes with -strict -1.
            guard name.hasPrefix("yuv4"), name.hasSuffix("le"), name.count >= 11 else { return nil }
            let tag = String(name.dropFirst(3).dropLast(2))
            let chroma = tag.prefix(3)
            let depth = tag.dropFirst(4)
            guard ["420", "422", "444"].contains(chroma), tag.dropFirst(3).first == "p",
                  ["9", "10", "12", "14", "16"].contains(depth) else { return nil }
            return "C\(tag) XYSCSS=\(tag.uppercased())"
        }
    }
}
