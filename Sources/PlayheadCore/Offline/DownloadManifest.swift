import Foundation

/// `DIR/download.json`: what a download folder holds and where each file came from. Written before the
/// first segment is fetched (every file listed, pending) and again as files complete, so that a later
/// run fetches only what is missing, and `--verify` can re-hash every file.
public struct DownloadManifest: Sendable, Codable, Equatable {
    /// The manifest's name inside a download folder.
    public static let fileName = "download.json"

    /// The layout's version (1).
    public var format = 1
    /// What was asked for.
    public var request: DownloadRequest
    /// What was chosen from the stream.
    public var chosen: DownloadChoice
    /// `complete` once every file is on disk.
    public var status: DownloadFile.Status
    /// Every file of the folder but this manifest, playlists first.
    public var files: [DownloadFile]

    /// Creates a manifest.
    public init(request: DownloadRequest, chosen: DownloadChoice, status: DownloadFile.Status, files: [DownloadFile]) {
        self.request = request
        self.chosen = chosen
        self.status = status
        self.files = files
    }

    /// Reads `folder`'s manifest; nil when there is none.
    /// - Throws: `DownloadError.folder` when it exists but cannot be read or decoded.
    public static func read(folder: String) throws(DownloadError) -> DownloadManifest? {
        let path = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let manifest: DownloadManifest
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            manifest = try JSONDecoder().decode(DownloadManifest.self, from: data)
        } catch {
            throw .folder(path: path, detail: "not a readable download manifest (remove it, or the folder, to download again): \(error)")
        }
        // A resume writes and --verify reads these paths: each must stay inside the folder.
        for file in manifest.files where !Self.isInside(file.path) {
            throw .folder(path: path, detail: "the manifest names \"\(file.path)\", a path outside the folder: it is not used")
        }
        return manifest
    }

    /// Whether `path` is a relative path that stays inside its folder (no `..` or `.` part, not absolute, not empty).
    static func isInside(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    /// Writes the manifest into `folder` atomically (a temporary file renamed over the old one).
    public func write(folder: String) throws(DownloadError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw .folder(path: folder, detail: "cannot encode the manifest: \(error)") }
        try AtomicFile.write(Array(data) + [0x0A], to: folder + "/" + Self.fileName)
    }

    /// Files still to fetch: not yet on disk, or damaged.
    public var pending: [DownloadFile] { files.filter { $0.status != .complete } }
}

/// One file of a download folder.
public struct DownloadFile: Sendable, Codable, Equatable {
    /// What a file is.
    public enum Kind: String, Sendable, Codable {
        /// A playlist written by the download (`master.m3u8`, each kept media playlist, rewritten).
        case playlist
        /// A media segment (a whole resource: byte ranges into it are kept in the playlist).
        case segment
        /// An EXT-X-MAP init section.
        case initSection = "init"
        /// An AES-128 key.
        case key
    }

    /// Whether a file is on disk.
    public enum Status: String, Sendable, Codable {
        /// Not fetched yet.
        case pending
        /// Found by `--verify` to differ from its size or hash: fetched again by the next run.
        case damaged
        /// On disk, with its size and hash recorded.
        case complete
    }

    /// The path inside the folder, e.g. `variant/seg000.ts`.
    public var path: String
    /// The URL it came from (for a playlist, the original playlist's).
    public var source: String
    /// What it is.
    public var kind: Kind
    /// Pending or complete.
    public var status: Status
    /// Its size in bytes, once complete.
    public var size: Int?
    /// Its SHA-256 (hex), once complete.
    public var sha256: String?
    /// The least size its byte ranges need (the end of the last range into it), for a resource named with
    /// EXT-X-BYTERANGE.
    public var rangeEnd: Int?

    /// Creates a pending file.
    public init(path: String, source: String, kind: Kind, rangeEnd: Int? = nil) {
        self.path = path
        self.source = source
        self.kind = kind
        self.status = .pending
        self.rangeEnd = rangeEnd
    }
}

/// What a download kept of the stream, for the manifest and the summary.
public struct DownloadChoice: Sendable, Codable, Equatable {
    /// The kept variant of a multivariant playlist (nil for a media playlist).
    public var variant: ChosenVariant?
    /// The kept AUDIO renditions.
    public var audio: [ChosenRendition] = []
    /// The kept SUBTITLES renditions.
    public var subtitles: [ChosenRendition] = []
    /// Other kept renditions (VIDEO, CLOSED-CAPTIONS), by type.
    public var other: [ChosenRendition] = []
    /// What the choice had to settle (no variant at or below the bitrate, keys left remote, …).
    public var notes: [String] = []

    /// Creates an empty choice.
    public init() {}
}

/// The kept variant.
public struct ChosenVariant: Sendable, Codable, Equatable {
    /// Its index in the source's list.
    public var index: Int
    /// Its BANDWIDTH.
    public var bandwidth: Int
    /// Its RESOLUTION, e.g. `1280x720`.
    public var resolution: String?
    /// Its CODECS.
    public var codecs: String?
    /// Whether it carries audio only (CODECS name no video).
    public var audioOnly: Bool
    /// Its media playlist's URL.
    public var source: String
    /// Why it was chosen (`--variant`, at or below `--bitrate`, the highest, …).
    public var reason: String
}

/// A kept rendition.
public struct ChosenRendition: Sendable, Codable, Equatable {
    /// TYPE of its EXT-X-MEDIA.
    public var type: String
    /// NAME.
    public var name: String
    /// LANGUAGE.
    public var language: String?
    /// Its playlist's URL (nil for a rendition carried in the variant).
    public var source: String?
    /// Its local playlist (nil for a rendition carried in the variant).
    public var path: String?
}
