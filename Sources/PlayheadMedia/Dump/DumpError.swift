/// Why a frame dump failed. Every case names the file concerned.
///
/// A sink's `video(_:)` and `audio(_:)` cannot throw: a sink keeps its first error, stops writing that
/// file, and throws the error from `close()`.
public enum DumpError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or its folder) could not be created.
    case cannotOpen(path: String, reason: String)
    /// Writing, seeking or closing failed (disk full, I/O error).
    case writeFailed(path: String, reason: String)
    /// The frame's pixel format has no Y4M colour space tag.
    case unsupportedPixelFormat(path: String, pixelFormat: String)
    /// A later frame's size or format differs from the first one's, which the file's header fixed.
    case formatChanged(path: String, detail: String)
    /// Audio conversion to 16-bit PCM (libswresample) failed.
    case conversionFailed(path: String, detail: String)
    /// The WAV data reached the most a RIFF header can describe (about 4 GiB); later samples were dropped
    /// and the file ends, valid, at `limitBytes` of sample data.
    case tooLarge(path: String, limitBytes: Int)

    /// The file the error concerns.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .writeFailed(let path, _), .unsupportedPixelFormat(let path, _),
             .formatChanged(let path, _), .conversionFailed(let path, _), .tooLarge(let path, _):
            path
        }
    }

    /// One line naming the file and what went wrong.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "cannot create \(path): \(reason)"
        case let .writeFailed(path, reason): "cannot write \(path): \(reason)"
        case let .unsupportedPixelFormat(path, format): "\(path): pixel format \(format) cannot be written as Y4M"
        case let .formatChanged(path, detail): "\(path): \(detail); the rest of the stream was not written"
        case let .conversionFailed(path, detail): "\(path): audio conversion failed: \(detail)"
        case let .tooLarge(path, limit): "\(path): WAV data reached the RIFF limit of \(limit) bytes; later samples were dropped"
        }
    }
}
