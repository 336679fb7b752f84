import Foundation

/// Where a request path leads below the served folder.
enum FilePath: Equatable {
    /// The file's real path (symbolic links resolved), inside the folder.
    case file(String)
    /// The path, or a symbolic link on it, leads outside the folder.
    case outside
    /// The path cannot name a file: not absolute, or with a NUL or other control character.
    case bad(String)

    /// Resolves a percent-decoded request `path` against `root`: `.` and `..` segments are removed
    /// (RFC 3986 §5.2.4; one that climbs above the root is `.outside`), then symbolic links are followed
    /// and the result must still be inside the root's real path. A path to nothing resolves to where the
    /// file would be (its existence is the caller's question).
    static func resolve(_ path: String, root: String) -> FilePath {
        guard path.hasPrefix("/") else { return .bad("the request target \(path) is not an absolute path") }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .bad("the path has a control character (%00–%1F or %7F)")
        }
        var kept: [Substring] = []
        for segment in path.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..":
                guard !kept.isEmpty else { return .outside }
                kept.removeLast()
            default: kept.append(segment)
            }
        }
        let realRoot = realPath(root) ?? root
        let joined = realRoot + "/" + kept.joined(separator: "/")
        // A missing file has no real path: the folders above it are checked instead.
        guard let real = realPath(joined) ?? realPath((joined as NSString).deletingLastPathComponent)
            .map({ $0 + "/" + (joined as NSString).lastPathComponent }) else { return .file(joined) }
        return real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") ? .file(real) : .outside
    }

    /// `realpath(3)`, nil when the path does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
