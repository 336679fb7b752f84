import Foundation
import PlayheadMedia
import PlayheadNet

/// An HTTP body sink that writes a download's file to its temporary name beside the final one and
/// hashes it on the way, so a file of any size passes through a few pieces of memory.
/// ``finish()`` flushes it and renames it into place; ``keep()`` keeps what came for a resume (see
/// ``ResumeRecord``); ``discard()`` removes it.
///
/// Made with a ``ResumeRecord``, it continues the partial file the record describes: the kept bytes are
/// hashed first, and the body is appended when the answer begins at ``resumeOffset`` (a checked 206),
/// or the file is emptied and the body taken from its start when it begins at 0 (a 200).
///
/// `@unchecked Sendable`: every stored variable is read and written under `lock` only.
final class FileSink: HTTPBodySink, @unchecked Sendable {
    /// What became of a resume once the answer began.
    enum ResumeOutcome: Equatable {
        /// The answer continued the kept bytes (206 from ``FileSink/resumeOffset``).
        case resumed(at: Int)
        /// The answer was the whole resource (200): the kept bytes were dropped, for `reason`.
        case restarted(kept: Int, reason: String)
    }

    /// The file's final path.
    let path: String
    /// The byte the request should ask from (the kept bytes), when resuming.
    let resumeOffset: Int?
    /// The `If-Range` value to send with the resume, when the kept bytes' answer gave a validator.
    let ifRange: String?
    private let lock = NSLock()
    private var fd: Int32
    private var written = 0
    private var sha: SHA256? = SHA256()
    /// The errno of the first failed write.
    private var failure: Int32 = 0
    /// The head of the answer whose bytes the file holds (the kept bytes' record before an answer began).
    private var record: ResumeRecord?
    private var outcome: ResumeOutcome? {
        didSet { if let outcome { told?(outcome) } }
    }
    private let told: (@Sendable (ResumeOutcome) -> Void)?
    private var changedResource: String?

    /// Opens `path`'s temporary file (creating the parent folder): empty, or, with `resume`, holding the
    /// record's bytes (cut to them and hashed). A partial file that cannot be read back is emptied.
    /// `told` hears what became of a resume as the answer begins (on the client's transfer thread).
    /// - Throws: `DownloadError.folder` naming the path and the system's reason.
    init(path: String, resume: ResumeRecord? = nil, told: (@Sendable (ResumeOutcome) -> Void)? = nil) throws(DownloadError) {
        self.path = path
        self.told = told
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: parent, detail: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = path + AtomicFile.temporarySuffix
        if let resume {
            let partial = open(temporary, O_RDWR | O_CLOEXEC)
            var digest: SHA256? = SHA256()
            if partial >= 0, ftruncate(partial, off_t(resume.size)) == 0, Self.hash(partial, count: resume.size, into: &digest) {
                fd = partial
                sha = digest.take()
                resumeOffset = resume.size
                ifRange = resume.ifRange
                record = resume
                written = resume.size
                return
            }
            if partial >= 0 { close(partial) }
            ResumeRecord.remove(for: path)
        }
        resumeOffset = nil
        ifRange = nil
        // No record may outlive the bytes it describes: it goes before they are overwritten.
        ResumeRecord.remove(for: path)
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .folder(path: temporary, detail: "cannot write: \(String(cString: strerror(errno)))") }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    func begin(_ start: HTTPBodyStart) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard fd >= 0, failure == 0 else { return false }
        let kept = resumeOffset ?? 0
        let answer = ResumeRecord(size: 0, start: start)
        if kept > 0, start.offset == kept {
            // Another size, ETag or Last-Modified than the kept bytes' is another file: a server that gave no
            // validator could not be asked If-Range, and one that ignores If-Range sends the new file's rest.
            if let change = record?.change(to: answer) {
                changedResource = change
                return false
            }
            outcome = .resumed(at: kept)
        } else {
            guard start.offset == 0 else { return false }
            if kept > 0 {
                // The record goes before the bytes it describes.
                let change = record?.change(to: answer)
                ResumeRecord.remove(for: path)
                outcome = .restarted(kept: kept, reason: change ?? "the server sent the whole file instead of the rest from byte \(kept)")
                if ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0 { failure = errno; return false }
                sha = SHA256()
                written = 0
            }
        }
        // A body decoded from gzip cannot be resumed by byte offsets of what went over the wire.
        let encoded = start.header("Content-Encoding").map { $0.lowercased() != "identity" } ?? false
        record = encoded ? nil : answer
        // Said at once, as growing: a process killed outright leaves its bytes resumable.
        if var growing = record {
            growing.size = written
            growing.growing = true
            try? growing.write(for: path)
        }
        return true
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

    /// Bytes in the file so far (kept ones included).
    var size: Int { lock.withLock { written } }

    /// How the resource changed since the kept bytes came, when a resume's answer (a 206) said so by its size
    /// or validators: the transfer was stopped, and the file must be fetched whole.
    var resourceChange: String? { lock.withLock { changedResource } }

    /// What became of a resume (nil when none was asked for, or no answer began).
    var resumeOutcome: ResumeOutcome? { lock.withLock { outcome } }

    /// The first write's failure, as a folder error naming the file; nil when every write succeeded.
    var writeFailure: DownloadError? {
        let failure = lock.withLock { self.failure }
        return failure == 0 ? nil : .folder(path: path, detail: "cannot write: \(String(cString: strerror(failure)))")
    }

    /// Flushes the temporary file, renames it over `path`, removes its resume record and returns its size
    /// and SHA-256.
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
        ResumeRecord.remove(for: path)
        return (size, digest)
    }

    /// After a transfer stopped (interrupted, failed): keeps the partial file for a resume, with its
    /// ``ResumeRecord``, when it holds at least one byte of a good answer and every write succeeded (the
    /// bytes are flushed before the record is written); otherwise discards it. Returns the bytes kept.
    @discardableResult
    func keep() -> Int {
        lock.lock()
        let wrote = failure == 0 && fd >= 0 && fsync(fd) == 0
        if fd >= 0 { close(fd) }
        fd = -1
        var kept = record
        kept?.size = written
        lock.unlock()
        guard wrote, let kept, kept.size > 0 else { discard(); return 0 }
        do { try kept.write(for: path) } catch { discard(); return 0 }
        return kept.size
    }

    /// Closes and removes the temporary file and its resume record.
    func discard() {
        lock.withLock {
            if fd >= 0 { close(fd) }
            fd = -1
        }
        ResumeRecord.discardPartial(for: path)
    }

    /// Hashes the first `count` bytes of `fd` into `sha` and leaves the offset at `count`; false when they
    /// cannot be read.
    private static func hash(_ fd: Int32, count: Int, into sha: inout SHA256?) -> Bool {
        guard lseek(fd, 0, SEEK_SET) == 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = count
        while left > 0 {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min(left, $0.count)) }
            if got < 0 { if errno == EINTR { continue }; return false }
            if got == 0 { return false }
            buffer.withUnsafeBytes { sha?.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            left -= got
        }
        return lseek(fd, off_t(count), SEEK_SET) == off_t(count)
    }
}
