import Foundation
import PlayheadNet

/// What a download keeps beside a partial file (`PATH.playhead-part`) so that the next attempt can ask for
/// the rest: `PATH.playhead-resume`, a small JSON sidecar written atomically (``AtomicFile``).
///
/// Its presence means: the partial file's first ``size`` bytes (every byte, while ``growing``) are the first
/// bytes of the resource the validators name. It is written, growing, when an answer's body begins, and
/// again with the exact size, after the bytes were flushed, when a transfer stops (interruption, failure,
/// retry); it is removed before a partial file is truncated for a restart, and with the partial file once
/// the file is complete. A partial file without it is not trusted and is deleted. The manifest is not
/// involved: a file with a partial part stays `pending`.
struct ResumeRecord: Codable, Equatable {
    /// The sidecar's suffix, after the file's path.
    static let suffix = ".playhead-resume"

    /// The bytes kept: the next request asks from this offset.
    var size: Int
    /// The resource's `ETag` when the bytes came.
    var etag: String?
    /// The resource's `Last-Modified` when the bytes came.
    var lastModified: String?
    /// The whole resource's size, when the answer told it: a resume whose answer gives another size
    /// restarts the file (a server that ignores `If-Range`).
    var length: Int?

    /// Set while an answer's body is being written: the partial file may hold more than ``size`` bytes, every
    /// one of them that answer's (written before the process ended; nil once a stopped transfer recorded
    /// its exact size). So a process killed outright (kill -9) still leaves a partial file to resume.
    var growing: Bool?

    /// How the resource that `answer` describes differs from the one the kept bytes came from: its size, its
    /// ETag, or its Last-Modified (what is known on both sides); nil when nothing known differs.
    func change(to answer: ResumeRecord) -> String? {
        if let was = length, let now = answer.length, was != now { return "the file is now \(now) bytes, not the \(was) its first bytes came from" }
        if let was = etag, let now = answer.etag, was != now { return "the file changed on the server (ETag \(was), now \(now))" }
        if etag == nil || answer.etag == nil, let was = lastModified, let now = answer.lastModified, was != now {
            return "the file changed on the server (Last-Modified \(was), now \(now))"
        }
        return nil
    }

    /// The `If-Range` value: a strong ETag, else Last-Modified (RFC 9110 §13.1.5: a weak tag never
    /// matches); nil when the server gave neither.
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// The validators and the resource's size from the head of the answer whose body is kept.
    init(size: Int, start: HTTPBodyStart) {
        self.size = size
        etag = start.header("ETag")
        lastModified = start.header("Last-Modified")
        if let contentRange = start.header("Content-Range"), let slash = contentRange.lastIndex(of: "/") {
            length = Int(contentRange[contentRange.index(after: slash)...])
        } else if start.status == 200 {
            length = start.header("Content-Length").flatMap { Int($0) }
        }
    }

    /// The record kept for the file at `path` (its final path), when there is one and its partial file
    /// holds at least the bytes it names (a ``growing`` record names every byte the partial file holds); nil
    /// otherwise.
    static func read(for path: String) -> ResumeRecord? {
        if case let .usable(record) = load(for: path) { record } else { nil }
    }

    /// What is beside the file at `path` for a resume.
    enum Kept: Equatable {
        /// No partial file with bytes in it.
        case nothing
        /// A partial file and the record that vouches for its first ``ResumeRecord/size`` bytes.
        case usable(ResumeRecord)
        /// A partial file with bytes that cannot be resumed, and why (said when they are dropped).
        case unusable(String)
    }

    /// The partial file of the file at `path` and its record, judged: usable when the record reads and the
    /// partial file holds at least the bytes it names, no more than the resource's length.
    static func load(for path: String) -> Kept {
        let name = (path as NSString).lastPathComponent
        guard let partSize = (try? FileManager.default.attributesOfItem(atPath: path + AtomicFile.temporarySuffix))?[.size] as? Int,
              partSize > 0 else { return .nothing }
        guard let data = FileManager.default.contents(atPath: path + suffix) else {
            return .unusable("its \(partSize) bytes from an earlier run have no \(name)\(suffix) record to vouch for them")
        }
        guard var record = try? JSONDecoder().decode(ResumeRecord.self, from: data) else {
            return .unusable("its record \(name)\(suffix) does not read as one")
        }
        if record.growing == true {
            record.size = partSize
            record.growing = nil
        }
        guard record.size >= 0 else { return .unusable("its record \(name)\(suffix) names \(record.size) bytes") }
        guard record.size > 0 else { return .nothing }
        if record.size > partSize {
            return .unusable("its record \(name)\(suffix) names \(record.size) bytes, the partial file holds \(partSize)")
        }
        if let length = record.length, record.size > length {
            return .unusable("its record \(name)\(suffix) names \(record.size) bytes of a \(length)-byte file")
        }
        return .usable(record)
    }

    /// Writes the record for the file at `path` atomically; flushed to the disk unless it is ``growing`` (that
    /// one is for a process that dies, not for a machine that does, and is written for every file).
    func write(for path: String) throws(DownloadError) {
        let data: Data
        do { data = try JSONEncoder().encode(self) } catch { throw .folder(path: path + Self.suffix, detail: "cannot encode: \(error)") }
        try AtomicFile.write(Array(data), to: path + Self.suffix, sync: growing != true)
    }

    /// Removes the record of the file at `path` (and its temporary file, if a write was cut).
    static func remove(for path: String) {
        unlink(path + suffix)
        unlink(path + suffix + AtomicFile.temporarySuffix)
    }

    /// Removes the partial file of the file at `path` and its record: the record first, so that a partial
    /// file is never left with a record that no longer describes it.
    static func discardPartial(for path: String) {
        remove(for: path)
        unlink(path + AtomicFile.temporarySuffix)
    }
}
