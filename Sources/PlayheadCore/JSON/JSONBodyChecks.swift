import Foundation

/// What a JSON parser does not say by itself, in words: where a malformed document (a request body, an ad
/// map, a service's answer) goes wrong and why, or which key it gives twice (both found by ``JSONSyntax``).
public enum JSONBodyChecks {
    /// What is wrong with `body` and where: "it goes wrong at line L, column C (byte offset B): why" (1-based
    /// line and column, the offset counted from 0), "it ends too soon: why", or for well-formed JSON "PATH is
    /// given twice (the second at line L, …)"; nil when it is JSON with distinct keys (with `duplicates` false,
    /// when it is JSON: a key given twice is let pass, for documents read leniently).
    public static func problem(_ body: Data, duplicates: Bool = true) -> String? {
        guard let failure = JSONSyntax.check([UInt8](body)) else { return nil }
        if let path = failure.duplicateKey {
            return duplicates ? "\(path) is given twice (the second at \(position(of: failure.offset, in: body)))" : nil
        }
        if failure.offset >= body.count { return "it ends too soon: " + failure.reason }
        return "it goes wrong at " + position(of: failure.offset, in: body) + ": " + failure.reason
    }

    /// A member's step in a path: `.name` for a plain name, `["a.b"]` for any other (a dot, a space, empty).
    public static func member(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        if plain { return "." + key }
        let quoted = (try? JSONEncoder().encode(key)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(key)\""
        return "[\(quoted)]"
    }

    /// "line L, column C (byte offset B)" of byte `offset` of `body`.
    public static func position(of offset: Int, in body: Data) -> String {
        let before = body.prefix(offset)
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
        let column = String(decoding: body[lineStart..<(body.startIndex + offset)], as: UTF8.self).count + 1
        return "line \(line), column \(column) (byte offset \(offset))"
    }
}
