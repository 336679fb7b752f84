import PlayheadHLS
import PlayheadNet

/// Why a download stopped; every case names the resource (URL, and line where a playlist is at fault)
/// or the folder it concerns.
public enum DownloadError: Error, CustomStringConvertible {
    /// A playlist could not be fetched, did not parse, or named something unusable.
    case player(PlayheadError)
    /// The playlist is live (no EXT-X-ENDLIST): only VOD is downloaded.
    case live(url: String)
    /// A choice (`--variant`, `--audio`, `--subtitles`) matches nothing in the stream.
    case noMatch(url: String, detail: String)
    /// A file kept failing (after its retries); what was downloaded stays for a resume.
    case transfer(url: String, attempts: Int, HTTPError)
    /// A file arrived but is not what the playlist needs (a key that is not 16 bytes, a resource shorter
    /// than its byte ranges).
    case badFile(url: String, detail: String)
    /// The folder cannot be used: not a download folder, another download's, unreadable manifest, or a
    /// file that cannot be written.
    case folder(path: String, detail: String)
    /// Stopped from outside (a signal); what was downloaded stays for a resume.
    case cancelled

    /// Whether the fault is the caller's (the folder, exit status 2) rather than the stream's (1).
    public var isUsageError: Bool {
        if case .folder = self { return true }
        return false
    }

    /// Whether the download was stopped rather than failed.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// One line naming what went wrong and where.
    public var description: String {
        switch self {
        case let .player(error): return error.description
        case let .live(url): return "\(url) is a live playlist (no EXT-X-ENDLIST): only VOD can be downloaded"
        case let .noMatch(url, detail): return "\(url): \(detail)"
        case let .transfer(url, attempts, error):
            return "\(url) failed after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(error.description)"
        case let .badFile(url, detail): return "\(url): \(detail)"
        case let .folder(path, detail): return "\(path): \(detail)"
        case .cancelled: return "download stopped"
        }
    }
}
