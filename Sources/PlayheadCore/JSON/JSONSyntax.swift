import Foundation

/// A JSON syntax check (RFC 8259) that says what is wrong and at which byte, for the daemon's request bodies
/// and the JSON documents the player reads (ad maps, catalogue answers, SSAI tracking): Foundation's parsers
/// take a comma before `}` or `]`, and say "end of file" for a misspelled `true` or name no place for
/// a bad `\u` escape. The body is UTF-8 already (checked before); nesting is limited. Well-formed JSON with a
/// key given twice in one object (JSONDecoder keeps one of them silently) fails too, naming the key's path.
public struct JSONSyntax {
    /// What is wrong, and the byte (counted from 0) where it is seen; `offset == count` at the end. For a key
    /// given twice, `duplicateKey` is its path (`$.ads.zoneId`, `$.tags[2].id`) and `offset` the second one's.
    public struct Failure: Error, Equatable, Sendable {
        /// The byte, counted from 0, where it is seen.
        public var offset: Int
        /// What is wrong.
        public var reason: String
        /// The path of a key given twice, for that failure; nil for a syntax error.
        public var duplicateKey: String? = nil

        /// Creates a failure.
        public init(offset: Int, reason: String, duplicateKey: String? = nil) {
            self.offset = offset
            self.reason = reason
            self.duplicateKey = duplicateKey
        }
    }

    /// The deepest nesting of objects and arrays taken.
    public static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// The first key given twice, said only when the document is well-formed.
    private var duplicate: Failure?

    /// Checks `bytes` as one JSON value, with nothing but whitespace around it.
    public static func check(_ bytes: [UInt8]) -> Failure? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return Failure(offset: 0, reason: "a byte order mark (EF BB BF): JSON is sent without one (RFC 8259 §8.1)")
        }
        var run = JSONSyntax(bytes: bytes)
        do {
            run.skipWhitespace()
            try run.value()
            run.skipWhitespace()
            if run.index < bytes.count { throw Failure(offset: run.index, reason: "more text after the JSON value") }
            return run.duplicate
        } catch {
            return error as? Failure
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> Failure { Failure(offset: offset ?? index, reason: reason) }

    /// The value at `path` (`$` for the document).
    private mutating func value(at path: String = "$") throws(Failure) {
        guard let byte = current else { throw fail("a value should come here, and the text ends") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), at: path)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), at: path)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw fail("expected a value (an object, array, string, number, true, false or null), found \(Self.shown(byte))")
        }
    }

    /// An object (`close` is `}`: members `"key": value`) or an array (`]`: values) at `path`.
    private mutating func container(close: UInt8, at path: String) throws(Failure) {
        let isObject = close == UInt8(ascii: "}")
        var keys: Set<String> = []
        var element = 0
        var memberPath = path
        let open = index
        index += 1
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("objects and arrays nested more than \(Self.maxDepth) deep", at: open) }
        skipWhitespace()
        if current == close {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            if isObject {
                guard current == UInt8(ascii: "\"") else {
                    throw fail(current == nil ? "the object opened at byte \(open) is never closed" : "expected a key in double quotes, found \(Self.shown(current!))")
                }
                let keyStart = index
                try string()
                let token = Data(bytes[keyStart..<index])
                let key = (try? JSONDecoder().decode(String.self, from: token)) ?? String(decoding: token, as: UTF8.self)
                memberPath = path + JSONBodyChecks.member(key)
                if !keys.insert(key).inserted, duplicate == nil {
                    duplicate = Failure(offset: keyStart, reason: "a key given twice", duplicateKey: memberPath)
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail(current == nil ? "a ':' should follow the key, and the text ends" : "expected ':' after the key, found \(Self.shown(current!))") }
                index += 1
                skipWhitespace()
            }
            try value(at: isObject ? memberPath : "\(path)[\(element)]")
            element += 1
            skipWhitespace()
            guard let byte = current else { throw fail("the \(isObject ? "object" : "array") opened at byte \(open) is never closed") }
            if byte == close {
                index += 1
                depth -= 1
                return
            }
            guard byte == UInt8(ascii: ",") else {
                throw fail("expected ',' or '\(Character(UnicodeScalar(close)))', found \(Self.shown(byte))")
            }
            let comma = index
            index += 1
            skipWhitespace()
            if current == close { throw fail("a comma before '\(Character(UnicodeScalar(close)))'", at: comma) }
        }
    }

    private mutating func string() throws(Failure) {
        let open = index
        index += 1
        while true {
            guard let byte = current else { throw fail("the string opened at byte \(open) is never closed") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw fail("a raw control character (\(Self.shown(byte))) in a string: write it as an escape")
            default:
                index += 1
            }
        }
    }

    /// One escape: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\uXXXX` (a UTF-16 surrogate in a pair).
    private mutating func escape() throws(Failure) {
        let start = index
        index += 1
        guard let kind = current else { throw fail("the escape at byte \(start) is cut short by the end of the text", at: start) }
        if Array("\"\\/bfnrt".utf8).contains(kind) {
            index += 1
            return
        }
        guard kind == UInt8(ascii: "u") else { throw fail("\\\(Character(UnicodeScalar(kind))) is no escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are)", at: start) }
        let unit = try hexUnit(at: start)
        if (0xDC00...0xDFFF).contains(unit) { throw fail("\\u\(String(unit, radix: 16, uppercase: true)) is a low surrogate without a high one before it", at: start) }
        guard (0xD800...0xDBFF).contains(unit) else { return }
        let second = index
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw fail("\\u\(String(unit, radix: 16, uppercase: true)) is a high surrogate without a low one after it", at: start)
        }
        index += 1
        let low = try hexUnit(at: second)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw fail("\\u\(String(unit, radix: 16, uppercase: true)) is a high surrogate without a low one after it", at: start)
        }
    }

    /// The four hex digits after `\u` (at `index`, on the `u`), as a UTF-16 code unit.
    private mutating func hexUnit(at start: Int) throws(Failure) -> Int {
        index += 1
        var unit = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Int(String(UnicodeScalar(byte)), radix: 16) else {
                throw fail("\\u needs four hex digits", at: start)
            }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    private mutating func number() throws(Failure) {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - from
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { throw fail("a number with a leading zero", at: start) }
        } else if digits() == 0 {
            throw fail("a digit should follow '-'")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw fail("a digit should follow the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw fail("a digit should follow the exponent's 'e'") }
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw fail("expected \(word)")
        }
        index += expected.count
    }

    /// A byte as a message shows it: the character in quotes, its code for a control character, or "a
    /// non-ASCII character" for the first byte of one (UTF-8 takes several).
    static func shown(_ byte: UInt8) -> String {
        if byte >= 0x80 { return "a non-ASCII character" }
        return byte < 0x20 || byte == 0x7F ? String(format: "U+%04X", byte) : "'\(Character(UnicodeScalar(byte)))'"
    }
}
