import Foundation

/// Writes files so that a reader (or a resumed download) sees either the old file or the whole new one:
/// the bytes go to a temporary file beside it, flushed, then renamed over it.
public enum AtomicFile {
    /// The suffix of temporary files; a run deletes those an interrupted one left.
    public static let temporarySuffix = ".playhead-part"

    /// Writes `bytes` to `path` atomically, creating the parent folder when needed.
    /// `sync: false` skips the flush to the disk (the file survives the process, not a crash of the machine).
    /// - Throws: `DownloadError.folder` naming the path and the system's reason.
    public static func write(_ bytes: [UInt8], to path: String, sync: Bool = true) throws(DownloadError) {
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: parent, detail: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = path + temporarySuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .folder(path: temporary, detail: "cannot write: \(String(cString: strerror(errno)))") }
        var failure = FileOutput.writeAll(bytes, to: fd)
        if failure == 0, sync, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .folder(path: path, detail: "cannot write: \(String(cString: strerror(failure)))")
        }
    }
}
