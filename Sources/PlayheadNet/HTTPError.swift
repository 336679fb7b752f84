/// The phase of a transfer a timeout cut short.
public enum TimeoutPhase: String, Sendable, Equatable, CustomStringConvertible {
    /// Establishing the connection (DNS, TCP, TLS) took too long.
    case connect
    /// No body byte arrived in time.
    case firstByte
    /// The whole transfer took too long.
    case total
    /// The body had started, then no byte came for too long.
    case stall

    /// The phase's name as used in reports (`connect`, `first byte`, `total`).
    public var description: String {
        switch self {
        case .connect: "connect"
        case .firstByte: "first byte"
        case .total: "total"
        case .stall: "stall"
        }
    }
}

/// Why an ``HTTPClient`` request failed. Every case carries the URL asked for; descriptions name it.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200...299. `bodyPrefix` holds the start of the error
    /// body (at most ``HTTPClientConfiguration/errorBodyPrefixBytes`` bytes).
    case status(url: String, code: Int, bodyPrefix: [UInt8])
    /// libcurl failed the transfer (`curlCode` is its `CURLcode`, `message` its explanation), or the
    /// response did not match the byte range asked for (`CURLE_RANGE_ERROR`, 33).
    case transport(url: String, curlCode: Int, message: String)
    /// A timeout fired in `phase`, after `after` seconds (the configured limit).
    case timeout(url: String, phase: TimeoutPhase, after: Double)
    /// The awaiting task was cancelled, or the client was shut down while the request was under way.
    case cancelled(url: String)
    /// libcurl could not parse the URL or does not support its scheme (only http, https and file are
    /// allowed).
    case invalidURL(String)
    /// The body grew past `limit` bytes (``HTTPClientConfiguration/maxBodyBytes``) and the transfer was
    /// stopped there.
    case tooLarge(url: String, limit: Int)

    /// The URL the request was made for.
    public var url: String {
        switch self {
        case .status(let url, _, _), .transport(let url, _, _), .timeout(let url, _, _), .cancelled(let url), .tooLarge(let url, _):
            url
        case .invalidURL(let url):
            url
        }
    }

    /// Whether trying again may help: 5xx, 408 and 429 statuses, transport failures and timeouts.
    /// Other 4xx statuses, cancellation, bad URLs and bodies over the limit are final.
    public var isRetryable: Bool {
        switch self {
        case .status(_, let code, _): code >= 500 || code == 408 || code == 429
        case .transport, .timeout: true
        case .cancelled, .invalidURL, .tooLarge: false
        }
    }

    /// Whether a timeout (of any phase) ended the transfer.
    public var isTimeout: Bool {
        if case .timeout = self { true } else { false }
    }

    /// One line naming the URL and what went wrong, e.g. `HTTP 404 for http://host/a.ts`.
    public var description: String {
        let url = Self.shortened(url)
        switch self {
        case .status(_, let code, let bodyPrefix):
            let snippet = Self.printableSnippet(bodyPrefix)
            return "HTTP \(code) for \(url)" + (snippet.isEmpty ? "" : ": \(snippet)")
        case .transport(_, let curlCode, let message):
            return "transfer of \(url) failed (curl \(curlCode)): \(message)"
        case .timeout(_, let phase, let after):
            return "\(phase) timeout after \(after) s for \(url)"
        case .cancelled:
            return "request for \(url) was cancelled"
        case .invalidURL:
            return "invalid or unsupported URL: \(url)"
        case .tooLarge(_, let limit):
            return "the body of \(url) is larger than \(limit) bytes (the client's limit); stopped there"
        }
    }

    /// Most characters of a URL a description shows: longer ones keep their start and end around a
    /// count of what was left out (QA: a 300 kB URL was echoed whole in one error line).
    public static let longestURLShown = 512

    /// `url` as descriptions show it: whole up to ``longestURLShown`` characters, else its first 384
    /// and last 96 characters around how many were left out.
    static func shortened(_ url: String) -> String {
        guard url.count > longestURLShown else { return url }
        return "\(url.prefix(384))…[\(url.count - 480) characters]…\(url.suffix(96))"
    }

    /// Up to 80 characters of the body (an ellipsis says there was more), if it looks like text; otherwise empty. An HTML page gives its
    /// `<title>` (a server's "404 Not Found"), not its markup; one without a title gives nothing.
    static func printableSnippet(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.drop { $0.isWhitespace }.prefix(15).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<head") || start.hasPrefix("<title") {
            guard let open = text.range(of: "<title>", options: .caseInsensitive),
                  let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex) else { return "" }
            let title = text[open.upperBound..<close.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return printableSnippet(Array(title.utf8))
        }
        let head = bytes.prefix(80)
        guard !head.isEmpty, head.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }) else {
            return ""
        }
        return String(decoding: head, as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ") + (bytes.count > head.count ? "…" : "")
    }
}
