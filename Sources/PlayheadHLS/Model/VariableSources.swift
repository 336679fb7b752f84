import Foundation

/// Where the EXT-X-DEFINE `IMPORT` and `QUERYPARAM` variables of a playlist take their values
/// (RFC 8216bis 4.4.2.3).
///
/// A source that is `nil` is unknown (a playlist read on its own, as `inspect` does): a definition
/// that needs it is kept without a value and warned. A source that is known but lacks the name is a
/// parse error, as the RFC requires of a client.
public struct VariableSources: Sendable, Equatable {
    /// The variables of the multivariant playlist that led to this media playlist (for `IMPORT`).
    public var imported: [String: String]?
    /// The query parameters of the URI the playlist was fetched with, percent-decoded (for `QUERYPARAM`).
    public var queryParameters: [String: String]?

    /// Sources given directly.
    public init(imported: [String: String]? = nil, queryParameters: [String: String]? = nil) {
        self.imported = imported
        self.queryParameters = queryParameters
    }

    /// The sources of a playlist fetched from `playlistURL`: its query parameters, and the variables
    /// of the multivariant playlist that named it (nil when none did).
    public init(playlistURL: String, imported: [String: String]? = nil) {
        self.imported = imported
        self.queryParameters = Self.queryParameters(of: playlistURL)
    }

    /// The query parameters of `url` (the first of a repeated name wins; `+` stays `+`, `%XX` is
    /// decoded). A URL without a query has none, which is known, not unknown.
    public static func queryParameters(of url: String) -> [String: String] {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let mark = withoutFragment.firstIndex(of: "?") else { return [:] }
        var parameters: [String: String] = [:]
        for pair in withoutFragment[withoutFragment.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decoded(parts[0])
            guard !name.isEmpty, parameters[name] == nil else { continue }
            parameters[name] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return parameters
    }

    /// `%XX` decoded; text that does not decode stays as it was.
    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
