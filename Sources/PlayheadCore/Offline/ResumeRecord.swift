import Foundation
import PlayheadNet

/// What a download keeps beside a partial file (`PATH.playhead-part`) so that the next attempt can ask for
/// the rest: `PATH.playhead-resume`, a small JSON sidecar written atomically (``AtomicFile``) after the
/// partial file's bytes were flushed.
///
/// Its presence means: the partial file's first ``size`` bytes are the first bytes of the resource the
/// validators name. It is written only when a transfer stopped (interruption, transfer failure, retry),
/// removed before a partial file is truncated for a restart, and removed with the partial file once the
/// file is complete; a partial file without it (a process killed outright before it was written) is not
/// trusted and is deleted. Appending to a partial file keeps the claim true, so the sidecar may stay
/// meanwhile. The manifest is not involved: a file with a partial part stays `pending`.
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
    /// restarts the file (the check that remains when the server gave no validator for `If-Range`).
    var length: Int?

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
    /// holds at least the bytes it names; nil otherwise.
    static func read(for path: String) -> ResumeRecord? {
        guard let data = FileManager.default.contents(atPath: path + suffix),
              let record = try? JSONDecoder().decode(ResumeRecord.self, from: data), record.size > 0,
              let partSize = (try? FileManager.default.attributesOfItem(atPath: path + AtomicFile.temporarySuffix))?[.size] as? Int,
              partSize >= record.size else { return nil }
        return record
    }

    /// Writes the record for the file at `path` atomically.
    func write(for path: String) throws(DownloadError) {
        let data: Data
        do { data = try JSONEncoder().encode(self) } catch { throw .folder(path: path + Self.suffix, detail: "cannot encode: \(error)") }
        try AtomicFile.write(Array(data), to: path + Self.suffix)
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
