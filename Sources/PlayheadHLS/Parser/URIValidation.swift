/// RFC 3986 checks of the URIs a playlist gives (URI lines and `URI` attributes), for warnings: a
/// character that must be percent-encoded (a space, `"`, `|`, non-ASCII…), which players commonly
/// encode themselves, and a malformed scheme or authority (`http://[bad`, a port that is not a
/// number), which leaves the URI unresolvable.
enum URIValidation {
    /// What is wrong with a URI.
    enum Problem: Equatable {
        /// A character that a URI must percent-encode, or a `%` not followed by two hex digits (the
        /// payload says which, and where).
        case needsEncoding(String)
        /// The scheme or authority cannot be read.
        case malformed(String)
    }

    /// The punctuation a URI may carry outside a host's IP literal: unreserved and reserved
    /// characters but `[` and `]` (RFC 3986 2.2, 2.3).
    private static let allowedPunctuation: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in "-._~:/?#@!$&'()*+,;=".utf8 { table[Int(b)] = true }
        return table
    }()

    /// The first problem of `uri`, or nil when it is a valid URI-reference.
    static func problem(in uri: String) -> Problem? {
        var copy = uri
        return copy.withUTF8 { problem(in: $0) }
    }

    private static func problem(in u: UnsafeBufferPointer<UInt8>) -> Problem? {
        var i = 0
        // Scheme: the text before the first ':' that comes before any '/', '?' or '#'.
        if let colon = u.firstIndex(where: { $0 == c(":") || $0 == c("/") || $0 == c("?") || $0 == c("#") }),
           u[colon] == c(":"), colon > 0 {
            let scheme = u[..<colon]
            guard isAlpha(scheme.first!), scheme.dropFirst().allSatisfy({ isAlpha($0) || isDigit($0) || $0 == c("+") || $0 == c("-") || $0 == c(".") })
            else {
                return .malformed("'\(String(decoding: scheme.prefix(20), as: UTF8.self))' before ':' is not a scheme")
            }
            i = colon + 1
        }
        // Authority: after "//", up to the path, query or fragment.
        if i + 1 < u.count, u[i] == c("/"), u[i + 1] == c("/") {
            let start = i + 2
            var end = start
            while end < u.count, u[end] != c("/"), u[end] != c("?"), u[end] != c("#") { end += 1 }
            if let problem = authorityProblem(u, start, end) { return problem }
            i = end
        }
        // Path, query and fragment.
        while i < u.count {
            if let what = invalid(u, i) { return .needsEncoding(what) }
            i += 1
        }
        return nil
    }

    /// `[userinfo@]host[:port]`, host a bracketed IP literal or a registered name.
    private static func authorityProblem(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Problem? {
        var hostStart = start
        if let at = u[start..<end].lastIndex(of: c("@")) {
            for k in start..<at {
                if let what = invalid(u, k) { return .needsEncoding(what) }
            }
            hostStart = at + 1
        }
        var portStart: Int?
        if hostStart < end, u[hostStart] == c("[") {
            guard let close = u[hostStart..<end].firstIndex(of: c("]")) else {
                return .malformed("'[' opens an IP literal that is not closed")
            }
            if close + 1 < end {
                guard u[close + 1] == c(":") else { return .malformed("the host's IP literal is followed by more than a port") }
                portStart = close + 2
            }
        } else {
            let colon = u[hostStart..<end].firstIndex(of: c(":"))
            for k in hostStart..<(colon ?? end) {
                let b = u[k]
                if b == c("[") || b == c("]") || invalid(u, k) != nil || b == c(":") {
                    return .malformed("the host has \(describe(u, k)) at byte \(k + 1)")
                }
            }
            portStart = colon.map { $0 + 1 }
        }
        if let p = portStart, !u[p..<end].allSatisfy(isDigit) {
            return .malformed("the port '\(String(decoding: u[p..<end].prefix(20), as: UTF8.self))' is not a number")
        }
        return nil
    }

    /// What is wrong with the byte at `k`, and where (nil when a URI may have it there).
    private static func invalid(_ u: UnsafeBufferPointer<UInt8>, _ k: Int) -> String? {
        let b = u[k]
        if isAlpha(b) || isDigit(b) { return nil }
        if b == c("%") {
            guard k + 2 < u.count, isHex(u[k + 1]), isHex(u[k + 2]) else {
                return "'%' at byte \(k + 1) is not followed by two hex digits (a literal '%' is written %25)"
            }
            return nil
        }
        if allowedPunctuation[Int(b)] { return nil }
        return "\(describe(u, k)) at byte \(k + 1) must be percent-encoded"
    }

    /// A character named for a message.
    private static func describe(_ u: UnsafeBufferPointer<UInt8>, _ k: Int) -> String {
        switch u[k] {
        case c(" "): "a space"
        case c("\t"): "a tab"
        case 0x80...: "a non-ASCII character"
        case let b: "'\(Character(Unicode.Scalar(b)))'"
        }
    }

    private static func c(_ s: Unicode.Scalar) -> UInt8 { UInt8(s.value) }
    private static func isAlpha(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
    private static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b) }
}

extension PlaylistParser {
    /// Warns about a URI that is not a valid URI-reference (RFC 3986); it is kept as written. One
    /// with a variable left undefined is not checked (that is warned already).
    mutating func checkURI(_ uri: String, line: Int) {
        guard defines.isEmpty || !uri.contains("{$"), let problem = URIValidation.problem(in: uri) else { return }
        let shown = uri.count > 60 ? uri.prefix(60) + "…" : Substring(uri)
        switch problem {
        case .needsEncoding(let what):
            warn(line, "bad-uri", "'\(shown)' is not a valid URI (RFC 3986): \(what)")
        case .malformed(let what):
            warn(line, "bad-uri", "'\(shown)' is a malformed URI: \(what); it cannot be resolved")
        }
    }
}
