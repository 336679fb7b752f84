/// The request line and headers of one HTTP/1.x request, as the server parsed them.
struct HTTPRequestHead: Equatable {
    /// `GET`, `HEAD`, ...
    var method: String
    /// The request target as sent, e.g. `/media/a.ts?x=1`.
    var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// Header names lower-cased; a repeated header keeps the values joined with ", ".
    var headers: [String: String]

    /// The target's path, percent-decoded, without query or fragment. An absolute-form target
    /// (`http://host:port/a.ts`, as sent to proxies) gives its path. A path with a malformed escape
    /// (``malformedEscape``) is given as sent, not decoded.
    var path: String {
        let raw = rawPath
        return Self.percentDecoded(raw).decoded ?? raw
    }

    /// The first `%` in the target's path not followed by two hex digits, with what follows it (up to two
    /// bytes), e.g. `%zz`; nil when every escape is well formed.
    var malformedEscape: String? { Self.percentDecoded(rawPath).malformed }

    /// Why the request cannot be answered whatever it names, or nil: an HTTP/1.1 request needs exactly
    /// one Host header (RFC 9112 §3.2; a Host value holds no comma, so one is two headers joined), and
    /// a path's percent-escapes must be well formed.
    var badRequestReason: String? {
        if version == "HTTP/1.1" {
            guard let host = headers["host"] else { return "an HTTP/1.1 request needs a Host header" }
            if host.contains(",") { return "more than one Host header" }
        }
        if let malformedEscape {
            return "the path has a malformed percent-escape \"\(malformedEscape)\" (% must be followed by two hex digits)"
        }
        return nil
    }

    /// The target's path as sent (still percent-encoded), without query or fragment.
    private var rawPath: String {
        var raw = Substring(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        raw = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let lowered = raw.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let authority = raw[raw.index(raw.startIndex, offsetBy: lowered.hasPrefix("http://") ? 7 : 8)...]
            raw = authority.firstIndex(of: "/").map { authority[$0...] } ?? "/"
        }
        return String(raw)
    }

    /// The target's query as sent (not decoded), without `?` or fragment; `nil` when there is none.
    var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let rest = target[target.index(after: mark)...]
        return String(rest.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whether the connection may stay open after the response.
    var keepAlive: Bool {
        let connection = headers["connection"]?.lowercased() ?? ""
        if connection.contains("close") { return false }
        return version == "HTTP/1.1" || connection.contains("keep-alive")
    }

    /// Where the head in `buffer` ends: the range of the blank line's line ends (CRLF CRLF, or bare LFs,
    /// which RFC 9112 lets a server accept); nil while it has not arrived.
    static func end(in buffer: [UInt8]) -> Range<Int>? {
        var index = buffer.startIndex
        while let lf = buffer[index...].firstIndex(of: 10) {
            let next = lf + 1
            if next < buffer.endIndex, buffer[next] == 10 { return (lf > 0 && buffer[lf - 1] == 13 ? lf - 1 : lf)..<(next + 1) }
            if next + 1 < buffer.endIndex, buffer[next] == 13, buffer[next + 1] == 10 {
                return (lf > 0 && buffer[lf - 1] == 13 ? lf - 1 : lf)..<(next + 2)
            }
            index = next
        }
        return nil
    }

    /// Parses the bytes before the blank line (without it); `nil` when malformed. Lines may end with
    /// CRLF or a bare LF.
    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPRequestHead? {
        // Split on bytes: as Characters, CR LF is one grapheme.
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            .map { Substring(String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self)) }.makeIterator()
        guard let requestLine = lines.next() else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        while let line = lines.next() {
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            let trimmed = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            headers[name] = headers[name].map { "\($0), \(trimmed)" } ?? trimmed
        }
        return HTTPRequestHead(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
    }

    /// `text` with its `%XX` escapes decoded; or, at the first `%` not followed by two hex digits, nil
    /// and that escape as sent (the `%` and up to two bytes after it).
    private static func percentDecoded(_ text: String) -> (decoded: String?, malformed: String?) {
        let source = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < source.count {
            guard source[index] == UInt8(ascii: "%") else {
                bytes.append(source[index])
                index += 1
                continue
            }
            let escape = source[index..<min(index + 3, source.count)]
            guard escape.count == 3, let high = hexValue(escape[index + 1]), let low = hexValue(escape[index + 2]) else {
                return (nil, String(decoding: escape, as: UTF8.self))
            }
            bytes.append(high << 4 | low)
            index += 3
        }
        return (String(decoding: bytes, as: UTF8.self), nil)
    }

    /// The value of one ASCII hex digit, nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// What a `Range` header asks of a resource of a given size.
enum RangeRequest: Equatable {
    /// No usable range: send the whole resource with 200 (also for multi-range and malformed values).
    case whole
    /// Send bytes `first...last` with 206.
    case partial(first: Int, last: Int)
    /// The range starts past the end: 416.
    case unsatisfiable

    /// Interprets `bytes=a-b`, `bytes=a-` and `bytes=-n` against a resource of `size` bytes. Positions are
    /// plain digits (RFC 9110 §14.1.1: no sign, no space; anything else makes the header invalid, so
    /// ignored); a number too large for `Int` is past the end of any file: a last position clamps to the
    /// end, a suffix selects the whole file, a first position is unsatisfiable.
    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { self = .whole; return }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { self = .whole; return }
        if spec[0].isEmpty {
            guard let suffix = Self.position(spec[1]) else { self = .whole; return }
            // A suffix of no bytes, or of an empty resource, selects nothing (RFC 9110 §14.1.3).
            self = size == 0 || suffix == 0 ? .unsatisfiable : .partial(first: max(0, size - suffix), last: size - 1)
            return
        }
        guard let first = Self.position(spec[0]) else { self = .whole; return }
        var last = size - 1
        if !spec[1].isEmpty {
            guard let asked = Self.position(spec[1]), asked >= first else { self = .whole; return }
            last = min(asked, size - 1)
        }
        self = first >= size ? .unsatisfiable : .partial(first: first, last: last)
    }

    /// A byte position: one or more ASCII digits, `Int.max` when they overflow it; nil for anything else.
    private static func position(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text) ?? Int.max
    }
}
