import Foundation
import PlayheadMedia
import PlayheadNet

/// An HTTP body sink that writes a download's file to its temporary name beside the final one and
/// hashes it on the way, so a file of any size passes through a few pieces of memory.
/// ``finish()`` flushes it and renames it into place; ``discard()`` removes it.
///
/// `@unchecked Sendable`: every stored variable is read and written under `lock` only.
final class FileSink: HTTPBodySink, @unchecked Sendable {
    /// The file's final path.
    let path: String
    private let lock = NSLock()
    private var fd: Int32
    private var written = 0
    private var sha: SHA256? = SHA256()
    /// The errno of the first failed write.
    private var failure: Int32 = 0

    /// Opens `path`'s temporary file (creating the parent folder), empty.
    /// - Throws: `DownloadError.folder` naming the path and the system's reason.
    init(path: String) throws(DownloadError) {
        self.path = path
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: parent, detail: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = path + AtomicFile.temporarySuffix
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .folder(path: temporary, detail: "cannot write: \(String(cString: strerror(errno)))") }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard fd >= 0, failure == 0 else { return false }
        failure = FileOutput.writeAll(bytes, to: fd)
        guard failure == 0 else { return false }
        sha?.update(bytes)
        written += bytes.count
        return true
    }

    /// Bytes written so far.
    var size: Int { lock.withLock { written } }

    /// The first write's failure, as a folder error naming the file; nil when every write succeeded.
    var writeFailure: DownloadError? {
        let failure = lock.withLock { self.failure }
        return failure == 0 ? nil : .folder(path: path, detail: "cannot write: \(String(cString: strerror(failure)))")
    }

    /// Flushes the temporary file, renames it over `path` and returns its size and SHA-256.
    /// - Throws: `DownloadError.folder` when a write, the flush or the rename failed (the temporary file is removed).
    func finish() throws(DownloadError) -> (size: Int, sha256: String) {
        if let writeFailure { discard(); throw writeFailure }
        lock.lock()
        var failure: Int32 = fsync(fd) == 0 ? 0 : errno
        close(fd)
        fd = -1
        if failure == 0, rename(path + AtomicFile.temporarySuffix, path) != 0 { failure = errno }
        let digest = failure == 0 ? sha.take()?.finish() : nil
        let size = written
        lock.unlock()
        guard let digest else {
            discard()
            throw .folder(path: path, detail: "cannot write: \(String(cString: strerror(failure == 0 ? EINVAL : failure)))")
        }
        return (size, digest)
    }

    /// Closes and removes the temporary file.
    func discard() {
        lock.withLock {
            if fd >= 0 { close(fd) }
            fd = -1
        }
        unlink(path + AtomicFile.temporarySuffix)
    }
}
