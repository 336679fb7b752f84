import Foundation
import PlayheadHLS
import Testing

/// Locates the shared corpora beside the repository: `#filePath` → repo root → `../shared/corpora`.
enum Corpus {
    static let root: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // file → PlayheadHLSTests → Tests → repo
        let candidates = [
            url.deletingLastPathComponent().appendingPathComponent("shared/corpora"),
            URL(fileURLWithPath: "/work/shared/corpora"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }()

    static let skipComment: Comment = "shared corpora not found beside the repository (../shared/corpora); corpus test skipped"

    /// The `.m3u8` files of a corpus folder, sorted by name.
    static func playlists(_ folder: String) -> [URL] {
        guard let dir = root?.appendingPathComponent(folder),
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return names.filter { $0.hasSuffix(".m3u8") }.sorted().map { dir.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    static func name(_ url: URL) -> String { url.deletingPathExtension().lastPathComponent }
}
