import Foundation

/// The ``DirectoryLock`` on a download folder, so that two runs (two downloads, or a download and a
/// `--verify`) never write one folder's files and manifest at once; the folder is made when missing.
final class FolderLock {
    private let lock: DirectoryLock

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
        do {
            lock = try DirectoryLock(path: folder)
        } catch {
            switch error {
            case .busy: throw .folder(path: folder, detail: "another playhead download (or --verify) is using this folder: wait for it to end")
            case let .system(reason): throw .folder(path: folder, detail: reason)
            }
        }
    }
}
