import Foundation

/// Gives each remote resource of a download one local file: the last part of its URL path (characters
/// other than letters, digits, `.`, `_` and `-` replaced by `_`) inside its folder, numbered (`2-seg.ts`)
/// when that name is taken by another resource. A resource named twice (the same segment in two places,
/// a byte-range file, a key shared by playlists) keeps its first file. The names depend only on the
/// playlists' order, so the same stream always gets the same layout.
struct LocalNames {
    /// The files so far, in order of first use.
    private(set) var files: [DownloadFile] = []
    private var indexByURL: [String: Int] = [:]
    private var taken: Set<String>

    /// Starts with `reserved` paths (the playlists, the manifest) unavailable.
    init(reserved: Set<String>) { taken = reserved }

    /// Reserves `path` (a playlist the download writes).
    mutating func reserve(_ path: String) { taken.insert(path) }

    /// The local path (inside the download folder) of the resource at `url`, kept in `folder` ("" for
    /// the top); `rangeEnd` is the end of a byte range into it, when the playlist names one.
    mutating func path(for url: String, kind: DownloadFile.Kind, folder: String, rangeEnd: Int?) -> String {
        if let index = indexByURL[url] {
            if let rangeEnd { files[index].rangeEnd = max(files[index].rangeEnd ?? 0, rangeEnd) }
            return files[index].path
        }
        let base = Self.fileName(of: url, kind: kind)
        var path = Self.join(folder, base)
        var number = 2
        while taken.contains(path) {
            path = Self.join(folder, "\(number)-\(base)")
            number += 1
        }
        taken.insert(path)
        indexByURL[url] = files.count
        files.append(DownloadFile(path: path, source: url, kind: kind, rangeEnd: rangeEnd))
        return path
    }

    /// `folder/name`, or `name` at the top.
    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// The longest file name given (ASCII, so bytes): room is left for a number and the temporary suffix.
    static let maximumNameBytes = 200

    /// A safe file name from the URL's last path part.
    static func fileName(of url: String, kind: DownloadFile.Kind) -> String {
        let path = URL(string: url)?.path ?? url
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        var name = String(last.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = kind == .key ? "key.bin" : "file" }
        if name.hasSuffix(AtomicFile.temporarySuffix) { name += "_" }
        // File systems take 255 bytes a name; the temporary suffix and a number must still fit. A long name
        // keeps its start and its extension (the numbering keeps two shortened names apart).
        if name.utf8.count > maximumNameBytes {
            let dot = name.lastIndex(of: ".").map { name[$0...] }.flatMap { $0.count <= 12 ? String($0) : nil } ?? ""
            name = String(name.prefix(maximumNameBytes - dot.count)) + dot
        }
        return name
    }

    /// The URI by which a playlist at `playlistPath` names the file at `filePath` (both inside the folder,
    /// at most one folder deep).
    static func relativeURI(from playlistPath: String, to filePath: String) -> String {
        let playlistFolder = (playlistPath as NSString).deletingLastPathComponent
        let fileFolder = (filePath as NSString).deletingLastPathComponent
        if playlistFolder == fileFolder { return (filePath as NSString).lastPathComponent }
        if playlistFolder.isEmpty { return filePath }
        return "../" + filePath
    }

    /// A folder name for a rendition: `audio-en`, `subtitles-francais`, … (its LANGUAGE, else NAME).
    static func folderName(type: String, label: String) -> String {
        let cleaned = String(label.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
        return type + "-" + (cleaned.isEmpty ? "x" : cleaned)
    }
}
