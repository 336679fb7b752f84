import Foundation

/// An exclusive advisory lock (`flock`) on a download folder, so that two runs (two downloads, or a
/// download and a `--verify`) never write one folder's files and manifest at once. The lock is on the
/// folder itself, so it leaves no file behind, and the system drops it when the process ends, however it ends.
final class FolderLock {
    private let descriptor: Int32

    /// Locks `folder`, creating it (and its parents) when missing.
    /// - Parameter createdFolder: set to true when this call made the folder.
    /// - Throws: `DownloadError.folder` when the folder cannot be made or opened, or another run holds it.
    init(folder: String, createdFolder: inout Bool) throws(DownloadError) {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                createdFolder = true
            } catch {
                throw .folder(path: folder, detail: "cannot create the folder: \(error.localizedDescription)")
            }
        } else if !isFolder.boolValue {
            throw .folder(path: folder, detail: "is a file, not a folder")
        }
        descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .folder(path: folder, detail: "cannot open: \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let reason = errno == EWOULDBLOCK ? "another playhead download (or --verify) is using this folder: wait for it to end"
                                              : "cannot lock: \(String(cString: strerror(errno)))"
            close(descriptor)
            throw .folder(path: folder, detail: reason)
        }
    }

    deinit { close(descriptor) }
}
