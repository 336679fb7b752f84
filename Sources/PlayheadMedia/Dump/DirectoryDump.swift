#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a decode's frames into a folder: pictures to `DIR/video.y4m` (``Y4MWriter``), sound to
/// `DIR/audio.wav` (``WAVWriter``). Each file is created with its first frame, so an audio-only stream
/// leaves no `video.y4m`. A Y4M file holds one picture size and format: when they change (an ABR switch
/// to another rendition), the pictures from there go on in `video.1.y4m`, then `video.2.y4m`, and so
/// on. Not thread-safe: use on the decoding task.
public final class DirectoryDump: FrameDumpSink {
    /// Name of the video file inside the folder: `video.y4m`.
    public static let videoFileName = "video.y4m"
    /// Name of the audio file inside the folder: `audio.wav`.
    public static let audioFileName = "audio.wav"

    /// The folder written into.
    public let directory: String
    private var videoWriter: Y4MWriter?
    private var videoShape: (width: Int, height: Int, format: String)?
    private var audioWriter: WAVWriter?
    private var failure: DumpError?
    /// Every video file written, in order.
    public private(set) var videoPaths: [String] = []

    /// Creates the folder (and its parents) if needed.
    /// - Throws: ``DumpError/cannotOpen(path:reason:)`` naming the folder.
    public init(directory: String) throws(DumpError) {
        self.directory = directory
        try Self.makeFolder(directory)
    }

    /// Where pictures go.
    public var videoPath: String { directory + "/" + Self.videoFileName }
    /// Where sound goes.
    public var audioPath: String { directory + "/" + Self.audioFileName }

    /// Appends a picture to `video.y4m`, creating it with the first one; a picture of another size or
    /// format than the file's closes it and starts the next file.
    public func video(_ frame: RawVideoFrame) {
        if let shape = videoShape, shape != (frame.width, frame.height, frame.pixelFormatName), let writer = videoWriter {
            do { try writer.close() } catch { failure = failure ?? error }
            videoWriter = nil
        }
        if videoWriter == nil, failure == nil {
            let path = videoPaths.isEmpty ? videoPath : directory + "/video.\(videoPaths.count).y4m"
            do {
                videoWriter = try Y4MWriter(path: path)
                videoPaths.append(path)
                videoShape = (frame.width, frame.height, frame.pixelFormatName)
            } catch { failure = error }
        }
        videoWriter?.video(frame)
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
