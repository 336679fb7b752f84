/// Why an attribute list or one of its values could not be read.
public struct AttributeListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A quoted string has no closing quote; the column is the opening quote's.
        case unterminatedQuote
        /// An attribute has no `=`.
        case missingEquals
        /// An attribute name is empty.
        case emptyName
        /// Something other than `,` follows a quoted string.
        case unexpectedCharacter
        /// An attribute name appears a second time (RFC 8216bis 4.2: it MUST NOT); the column is the
        /// second one's.
        case duplicateName
        /// A value does not have the expected type (the payload names the type).
        case badValue(expected: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// 1-based column within the attribute-list text.
    public var column: Int
    /// The attribute concerned, when known.
    public var attribute: String?

    /// Creates an error.
    public init(kind: Kind, column: Int, attribute: String? = nil) {
        self.kind = kind
        self.column = column
        self.attribute = attribute
    }

    /// A sentence naming the problem, the attribute and the column.
    public var description: String { "\(problem) at column \(column)" }

    /// The problem and the attribute, without the column (a caller that counts columns from the line's
    /// start gives its own).
    public var problem: String {
        let what: String = switch kind {
        case .unterminatedQuote: "unterminated quoted string"
        case .missingEquals: "attribute without '='"
        case .emptyName: "empty attribute name"
        case .unexpectedCharacter: "unexpected character after quoted string"
        case .duplicateName: "second occurrence of an attribute name"
        case .badValue(let expected): "value is not a valid \(expected)"
        }
        switch attribute {
        case nil: return what
        case ""?: return kind == .missingEquals ? "empty attribute (nothing between two commas)" : what
        case let name?: return "\(what) in attribute \(name)"
        }
    }
}

/// A parsed attribute list (`NAME=VALUE,NAME="VALUE",…`), kept as written with typed accessors.
///
/// Whitespace around names, `=` and `,` is tolerated (some packagers write `A=1, B=2`).
public struct AttributeList: Sendable {
    /// One `NAME=VALUE` pair.
    public struct Entry: Sendable, Equatable {
        /// The attribute name.
        public var name: Substring
        /// The value text without quotes.
        public var text: Substring
        /// True when the value was a quoted string.
        public var quoted: Bool
        /// 1-based column of the value within the list text.
        public var column: Int

        /// The value with its type inferred from the syntax.
        public var value: AttributeValue {
            quoted ? .quotedString(String(text)) : AttributeValue(unquoted: text)
        }
    }

    /// The attributes in order of appearance.
    public var entries: [Entry]

    /// Parses an attribute list.
    /// - Parameter text: the text after the tag's `:`.
    /// - Throws: ``AttributeListError`` for an unterminated quote, a missing `=`, a name given twice and
    ///   the like.
    public static func parse(_ text: Substring) throws(AttributeListError) -> AttributeList {
        let u = text.utf8
        var entries: [Entry] = []
        var i = u.startIndex
        let end = u.endIndex
        func column(_ idx: Substring.UTF8View.Index) -> Int { u.distance(from: u.startIndex, to: idx) + 1 }
        func skipBlanks() {
            while i < end, u[i] == 0x20 || u[i] == 0x09 { i = u.index(after: i) }
        }
        while true {
            skipBlanks()
            guard i < end else { break }
            let nameStart = i
            while i < end, u[i] != UInt8(ascii: "="), u[i] != UInt8(ascii: ",") { i = u.index(after: i) }
            guard i < end, u[i] == UInt8(ascii: "=") else {
                throw AttributeListError(kind: .missingEquals, column: column(nameStart),
                                         attribute: String(trimmed(text[nameStart..<i])))
            }
            let name = trimmed(text[nameStart..<i])
            guard !name.isEmpty else { throw AttributeListError(kind: .emptyName, column: column(nameStart)) }
            if entries.contains(where: { $0.name == name }) {
                throw AttributeListError(kind: .duplicateName, column: column(nameStart), attribute: String(name))
            }
            i = u.index(after: i)
            skipBlanks()
            if i < end, u[i] == UInt8(ascii: "\"") {
                let open = i
                i = u.index(after: i)
                let valueStart = i
                while i < end, u[i] != UInt8(ascii: "\"") { i = u.index(after: i) }
                guard i < end else {
                    throw AttributeListError(kind: .unterminatedQuote, column: column(open), attribute: String(name))
                }
                entries.append(Entry(name: name, text: text[valueStart..<i], quoted: true, column: column(open)))
                i = u.index(after: i)
                skipBlanks()
                if i < end {
                    guard u[i] == UInt8(ascii: ",") else {
                        throw AttributeListError(kind: .unexpectedCharacter, column: column(i), attribute: String(name))
                    }
                    i = u.index(after: i)
                }
            } else {
                let valueStart = i
                while i < end, u[i] != UInt8(ascii: ",") { i = u.index(after: i) }
                entries.append(Entry(name: name, text: trimmed(text[valueStart..<i]), quoted: false,
                                     column: column(valueStart)))
                if i < end { i = u.index(after: i) }
            }
        }
        return AttributeList(entries: entries)
    }

    /// Creates a list from entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// The first entry with that name.
    public func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    /// The value of an attribute with its type inferred, or nil when absent.
    public subscript(_ name: String) -> AttributeValue? { entry(name)?.value }

    /// A quoted-string attribute (an unquoted value is accepted as written).
    public func quotedString(_ name: String) -> String? { entry(name).map { String($0.text) } }

    /// An enumerated-string attribute (a quoted value is accepted as written).
    public func enumeratedString(_ name: String) -> String? { entry(name).map { String($0.text) } }

    /// A decimal-integer attribute.
    /// - Throws: when present but not an integer.
    public func decimalInteger(_ name: String) throws(AttributeListError) -> Int? {
        guard let e = entry(name) else { return nil }
        guard let v = NumberText.decimalInteger(e.text) else { throw bad(e, "decimal-integer") }
        return v
    }

    /// A decimal or signed floating-point attribute.
    /// - Throws: when present but not a number.
    public func signedFloat(_ name: String) throws(AttributeListError) -> Double? {
        guard let e = entry(name) else { return nil }
        guard let v = NumberText.signedFloat(e.text) else { throw bad(e, "signed-decimal-floating-point") }
        return v
    }

    /// A hexadecimal-sequence attribute, as bytes.
    /// - Throws: when present but not `0x` followed by hex digits.
    public func hexadecimal(_ name: String) throws(AttributeListError) -> [UInt8]? {
        guard let e = entry(name) else { return nil }
        guard let v = HexBytes.decode(e.text) else { throw bad(e, "hexadecimal-sequence") }
        return v
    }

    /// A decimal-resolution attribute (`WxH`).
    /// - Throws: when present but not `WxH`.
    public func resolution(_ name: String) throws(AttributeListError) -> Resolution? {
        guard let e = entry(name) else { return nil }
        guard let v = NumberText.resolution(e.text) else { throw bad(e, "decimal-resolution") }
        return v
    }

    /// A `YES`/`NO` attribute: true only for `YES`; nil when absent.
    public func yesNo(_ name: String) -> Bool? { entry(name).map { $0.text == "YES" } }

    private func bad(_ e: Entry, _ expected: String) -> AttributeListError {
        AttributeListError(kind: .badValue(expected: expected), column: e.column, attribute: String(e.name))
    }
}

/// Removes leading and trailing spaces and tabs.
func trimmed(_ s: Substring) -> Substring {
    var u = s.utf8[...]
    while let f = u.first, f == 0x20 || f == 0x09 || f == 0x0D { u = u.dropFirst() }
    while let l = u.last, l == 0x20 || l == 0x09 || l == 0x0D { u = u.dropLast() }
    return Substring(u)
}
