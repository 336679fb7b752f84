import Foundation

/// What a request body's JSON parser does not say by itself, in words: where a malformed body goes wrong and
/// why, or which key it gives twice (both found by ``JSONSyntax``).
enum JSONBodyChecks {
    /// What is wrong with `body` and where: "it goes wrong at line L, column C (byte offset B): why" (1-based
    /// line and column, the offset counted from 0), "it ends too soon: why", or for well-formed JSON "PATH is
    /// given twice (the second at line L, …)"; nil when it is JSON with distinct keys.
    static func problem(_ body: Data) -> String? {
        guard let failure = JSONSyntax.check([UInt8](body)) else { return nil }
        if let path = failure.duplicateKey { return "\(path) is given twice (the second at \(position(of: failure.offset, in: body)))" }
        if failure.offset >= body.count { return "it ends too soon: " + failure.reason }
        return "it goes wrong at " + position(of: failure.offset, in: body) + ": " + failure.reason
    }

    /// A member's step in a path: `.name` for a plain name, `["a.b"]` for any other (a dot, a space, empty).
    static func member(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        if plain { return "." + key }
        let quoted = (try? JSONEncoder().encode(key)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(key)\""
        return "[\(quoted)]"
    }

    /// "line L, column C (byte offset B)" of byte `offset` of `body`.
    static func position(of offset: Int, in body: Data) -> String {
        let before = body.prefix(offset)
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
        let column = String(decoding: body[lineStart..<(body.startIndex + offset)], as: UTF8.self).count + 1
        return "line \(line), column \(column) (byte offset \(offset))"
    }
}
