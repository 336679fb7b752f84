#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation

/// One element of a parsed XML document: a small immutable tree built once by ``XMLTreeBuilder``,
/// then read by the VAST and VMAP parsers. Names keep their namespace prefix (`vmap:AdBreak`).
public struct XMLNode: Sendable, Equatable {
    /// The element's qualified name as written, prefix included.
    public var name: String
    /// The element's attributes, by name as written.
    public var attributes: [String: String]
    /// Child elements in document order.
    public var children: [XMLNode]
    /// Character and CDATA content directly inside this element, concatenated, untrimmed.
    public var text: String
    /// The 1-based line where the element starts, as reported by `XMLParser`.
    public var line: Int
    /// The 1-based column where the element starts, as reported by `XMLParser`.
    public var column: Int

    /// Creates a node; used by the tree builder and by tests.
    public init(name: String, attributes: [String: String] = [:], children: [XMLNode] = [],
                text: String = "", line: Int = 0, column: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.column = column
    }

    /// The name without its namespace prefix (`vmap:AdBreak` → `AdBreak`).
    public var localName: String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The text content with surrounding whitespace removed.
    public var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The trimmed text, or nil when it is empty.
    public var nonEmptyText: String? {
        let value = trimmedText
        return value.isEmpty ? nil : value
    }

    /// Children whose local name is `localName`.
    public func elements(_ localName: String) -> [XMLNode] {
        children.filter { $0.localName == localName }
    }

    /// The first child whose local name is `localName`.
    public func element(_ localName: String) -> XMLNode? {
        children.first { $0.localName == localName }
    }

    /// An attribute's value, trimmed; nil when absent or blank.
    public func attribute(_ name: String) -> String? {
        guard let raw = attributes[name] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// An integer attribute; nil when absent or not an integer.
    public func intAttribute(_ name: String) -> Int? {
        attribute(name).flatMap { Int($0) ?? Double($0).flatMap { $0.isFinite ? Int($0) : nil } }
    }

    /// A boolean attribute (`true`/`1` or `false`/`0`, any case); nil when absent or unrecognised.
    public func boolAttribute(_ name: String) -> Bool? {
        switch attribute(name)?.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// The element serialised back to XML text: attributes sorted by name, text escaped, content
    /// re-emitted in order (text first, then children). Used to keep `<Extension>` payloads raw.
    public var xmlText: String {
        var out = "<" + name
        for key in attributes.keys.sorted() {
            out += " \(key)=\"\(Self.escape(attributes[key] ?? "", quote: true))\""
        }
        if children.isEmpty && text.isEmpty { return out + "/>" }
        out += ">" + Self.escape(text, quote: false)
        for child in children { out += child.xmlText }
        return out + "</\(name)>"
    }

    static func escape(_ value: String, quote: Bool) -> String {
        var out = ""
        for char in value {
            switch char {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quote: out += "&quot;"
            default: out.append(char)
            }
        }
        return out
    }
}
