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
    /// (`http://host:port/a.ts`, as sent to proxies) gives its path.
    var path: String {
        var raw = Substring(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        raw = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let lowered = raw.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let authority = raw[raw.index(raw.startIndex, offsetBy: lowered.hasPrefix("http://") ? 7 : 8)...]
            raw = authority.firstIndex(of: "/").map { authority[$0...] } ?? "/"
        }
        return Self.percentDecoded(String(raw))
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

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
