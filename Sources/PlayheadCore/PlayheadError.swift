import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// An error of the player layer, always naming the resource it concerns.
public enum PlayheadError: Error, CustomStringConvertible {
    /// A transfer failed (status, transport, timeout); the HTTP error names URL and status.
    case network(HTTPError)
    /// A playlist did not parse; the parse error names line and column.
    case playlist(url: String, PlaylistParseError)
    /// A segment could not be opened or decrypted at all.
    case media(url: String, MediaError)
    /// A multivariant playlist was asked for a variant it does not have.
    case noSuchVariant(url: String, detail: String)
    /// A media playlist was needed and something else came back.
    case unexpectedPlaylist(url: String, detail: String)
    /// A reference (URI) could not be turned into a URL.
    case badURL(String, base: String?)
    /// A playlist fetched over http(s) names a local file: refused, so a remote manifest cannot make the
    /// player (a daemon, say) read this machine's files and report what they hold.
    case localFileFromRemote(String, base: String)
    /// A key or init section was needed and unsupported or missing.
    case unsupported(url: String, detail: String)

    /// For a timeout, the limit that ran out, seconds (what the failure costs in session time); nil
    /// for any other failure.
    public var timeoutSeconds: Double? {
        guard case let .network(.timeout(_, _, after)) = self, after.isFinite else { return nil }
        return max(0, after)
    }

    /// A one-line description naming the resource.
    public var description: String {
        switch self {
        case let .network(error): return error.description
        case let .playlist(url, error): return "\(url): \(error.description)"
        case let .media(url, error): return "\(url): \(error.description)"
        case let .noSuchVariant(url, detail): return "\(url): \(detail)"
        case let .unexpectedPlaylist(url, detail): return "\(url): \(detail)"
        case let .badURL(reference, base): return "cannot resolve \"\(reference)\"\(base.map { " against \($0)" } ?? "")"
        case let .localFileFromRemote(url, base): return "\(base) names the local file \(url): a playlist fetched over the network may not read local files"
        case let .unsupported(url, detail): return "\(url): \(detail)"
        }
    }
}
