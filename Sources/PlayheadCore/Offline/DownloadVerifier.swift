import Foundation
import PlayheadMedia

/// `playhead download --verify DIR`: re-hashes every file of a download folder against its manifest.
public enum DownloadVerifier {
    /// A file that is not as the manifest says.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Its path inside the folder.
        public var path: String
        /// What is wrong.
        public var detail: String
        /// `path: detail`.
        public var description: String { "\(path): \(detail)" }
    }

    /// What a verification found.
    public struct Result: Sendable {
        /// Files checked (every file the manifest lists).
        public var checked: Int
        /// Files complete and intact.
        public var intact: Int
        /// Files missing, of another size or hash, or never downloaded.
        public var problems: [Problem]
    }

    /// Checks every file of `folder`; damaged or missing files are marked damaged in the manifest (which is
    /// rewritten), so that the next `playhead download` into the folder fetches them again.
    /// - Throws: `DownloadError.folder` when the folder has no readable manifest or it cannot be rewritten, or
    ///   a download into it is under way.
    public static func verify(folder: String) throws(DownloadError) -> Result {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .folder(path: folder, detail: "not a download folder (no such folder)")
        }
        var created = false
        let lock = try FolderLock(folder: folder, createdFolder: &created)
        defer { withExtendedLifetime(lock) {} }
        guard var manifest = try DownloadManifest.read(folder: folder) else {
            throw .folder(path: folder, detail: "not a download folder (no \(DownloadManifest.fileName))")
        }
        var problems: [Problem] = []
        for index in manifest.files.indices {
            let file = manifest.files[index]
            guard file.status == .complete else {
                let kept = ResumeRecord.read(for: folder + "/" + file.path).map { ", \($0.size) bytes kept for a resume" } ?? ""
                problems.append(Problem(path: file.path, detail: file.status == .damaged ? "damaged (found by an earlier --verify)\(kept)"
                                                                                        : "not downloaded yet (from \(file.source)\(kept))"))
                continue
            }
            var detail: String?
            if let found = SHA256.hex(ofFile: folder + "/" + file.path) {
                if found.size != file.size {
                    detail = "\(found.size) bytes, the manifest says \(file.size ?? 0)"
                } else if found.sha256 != file.sha256 {
                    detail = "SHA-256 \(found.sha256), the manifest says \(file.sha256 ?? "none")"
                }
            } else {
                detail = "missing or unreadable"
            }
            if let detail {
                problems.append(Problem(path: file.path, detail: detail))
                manifest.files[index].status = .damaged
            }
        }
        if !problems.isEmpty {
            manifest.status = .pending
            try manifest.write(folder: folder)
        }
        return Result(checked: manifest.files.count, intact: manifest.files.count - problems.count, problems: problems)
    }
}
