import Foundation

/// One query parameter of a heartbeat call, in the guide's naming: a type prefix (`s:` text, `l:`
/// whole number) and a dotted-colon name such as `s:event:type`.
public struct HeartbeatParameter: Sendable, Equatable {
    /// The name, e.g. `l:event:playhead`.
    public var name: String
    /// The value, not yet percent-encoded.
    public var value: String

    /// Creates a parameter.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Builds heartbeat call URLs: `BASE/?name=value&…`, names and values percent-encoded for a query.
public enum HeartbeatURL {
    /// The tracking server as a base URL without a trailing slash: an `http`/`https` URL as given, a
    /// bare host (`collector.example` or `host:port`) as `http://host`; nil when it is neither.
    public static func base(_ server: String) -> String? {
        let trimmed = server.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        let full = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: full), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil else { return nil }
        return full.hasSuffix("/") ? String(full.dropLast()) : full
    }

    /// Whether `text`, read as a URL, has a query or a fragment (which ``base(_:)`` refuses).
    static func hasQueryOrFragment(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: trimmed.contains("://") ? trimmed : "http://" + trimmed) else { return false }
        return components.query != nil || components.fragment != nil
    }

    /// The call URL: `base` (from ``base(_:)``), `/`, then the parameters as a query in their order.
    public static func url(base: String, parameters: [HeartbeatParameter]) -> String {
        base + "/?" + parameters.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Characters left as they are in a query name or value (RFC 3986 unreserved, plus `:`).
    static let kept = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:")

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: kept) ?? text }
}
