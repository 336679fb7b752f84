#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a decode's frames into a folder: pictures to `DIR/video.y4m` (``Y4MWriter``), sound to
/// `DIR/audio.wav` (``WAVWriter``). Each file is created with its first frame, so an audio-only stream
/// leaves no `video.y4m`. A Y4M file holds one picture size, format and frame rate: when they change (an ABR
/// switch to another rendition, a discontinuity to 25 fps content), the pictures from there go on in
/// `video.1.y4m`, then `video.2.y4m`, and so on. With ``PictureFormat/png``, each picture is a PNG file of its own instead (`DIR/frames/000001.png`,
/// …, rgb24, any size). Not thread-safe: use on the decoding task.
public final class DirectoryDump: FrameDumpSink {
    /// Name of the video file inside the folder: `video.y4m`.
    public static let videoFileName = "video.y4m"
    /// Name of the audio file inside the folder: `audio.wav`.
    public static let audioFileName = "audio.wav"

    /// How pictures are written.
    public enum PictureFormat: String, Sendable {
        /// One Y4M file of every picture (a new one at each change of size or format).
        case y4m
        /// One PNG file a picture, numbered from 1 in `frames/`.
        case png
    }

    /// The folder written into.
    public let directory: String
    /// How pictures are written.
    public let pictureFormat: PictureFormat
    /// PNG pictures written so far.
    public private(set) var pngCount = 0
    private var videoWriter: Y4MWriter?
    private var videoShape: (width: Int, height: Int, format: String, rate: Rational?)?
    private var audioWriter: WAVWriter?
    private var failure: DumpError?
    /// Every video file written, in order.
    public private(set) var videoPaths: [String] = []

    /// Creates the folder (and its parents) if needed.
    /// - Throws: ``DumpError/cannotOpen(path:reason:)`` naming the folder.
    public init(directory: String, pictures: PictureFormat = .y4m) throws(DumpError) {
        self.directory = directory
        self.pictureFormat = pictures
        try Self.makeFolder(directory)
        if pictures == .png {
            try Self.makeFolder(framesDirectory)
            // Pictures of an earlier run would read as this one's after its last: the numbered ones go (nothing else).
            Self.removeNumberedPictures(in: framesDirectory)
        }
    }

    /// Removes the `NNNNNN.png` files of `folder` (an earlier run's pictures), and nothing else.
    static func removeNumberedPictures(in folder: String) {
        guard let stream = opendir(folder) else { return }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.count == 10, name.hasSuffix(".png"), name.prefix(6).allSatisfy({ $0.isASCII && $0.isNumber }) { names.append(name) }
        }
        closedir(stream)
        for name in names { unlink(folder + "/" + name) }
    }

    /// Where PNG pictures go: `DIR/frames`.
    public var framesDirectory: String { directory + "/frames" }

    /// The path of the `number`th PNG picture (from 1): `DIR/frames/000001.png`.
    public func pngPath(_ number: Int) -> String {
        let digits = String(number)
        return framesDirectory + "/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    /// Where pictures go.
    public var videoPath: String { directory + "/" + Self.videoFileName }
    /// Where sound goes.
    public var audioPath: String { directory + "/" + Self.audioFileName }

    /// Appends a picture to `video.y4m`, creating it with the first one; a picture of another size,
    /// format or known frame rate than the file's closes it and starts the next file (a file's header
    /// names one rate: 25 fps pictures after a discontinuity were written under the first part's 30, and
    /// played 20% fast).
    public func video(_ frame: RawVideoFrame) {
        if pictureFormat == .png {
            writePNG(frame)
            return
        }
        if let shape = videoShape, let writer = videoWriter,
           (shape.width, shape.height, shape.format) != (frame.width, frame.height, frame.pixelFormatName)
            || (shape.rate != nil && frame.frameRate != nil && shape.rate != frame.frameRate) {
            do { try writer.close() } catch { failure = failure ?? error }
            videoWriter = nil
        }
        if videoWriter == nil, failure == nil {
            let path = videoPaths.isEmpty ? videoPath : directory + "/video.\(videoPaths.count).y4m"
            do {
                videoWriter = try Y4MWriter(path: path)
                videoPaths.append(path)
                videoShape = (frame.width, frame.height, frame.pixelFormatName, frame.frameRate)
            } catch { failure = error }
        }
        videoWriter?.video(frame)
    }

    private func writePNG(_ frame: RawVideoFrame) {
        guard failure == nil else { return }
        let path = pngPath(pngCount + 1)
        do throws(DumpError) {
            let png: [UInt8]
            do { png = try RGBImage(frame).pngData() } catch { throw .writeFailed(path: path, reason: error.description) }
            let file = try DumpFile(path: path)
            try file.write(png)
            try file.close()
            pngCount += 1
        } catch {
            failure = error
        }
    }

    /// Appends sound to `audio.wav`, creating it with the first frame.
    public func audio(_ frame: RawAudioFrame) {
        if audioWriter == nil, failure == nil {
            do { audioWriter = try WAVWriter(path: audioPath) } catch { failure = error }
        }
        audioWriter?.audio(frame)
    }

    /// Closes both files (each is finished even if the other fails).
    /// - Throws: The first error: creating a file, then the video file's, then the audio file's.
    public func close() throws(DumpError) {
        let video = Result { () throws(DumpError) in try videoWriter?.close() }
        let audio = Result { () throws(DumpError) in try audioWriter?.close() }
        if let failure { throw failure }
        try video.get()
        try audio.get()
    }

    /// `mkdir -p`.
    private static func makeFolder(_ path: String) throws(DumpError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotOpen(path: path, reason: "not a folder")
        }
    }
}
