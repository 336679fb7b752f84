/// Why a VAST or VMAP document, or one of its ads, could not be read. Every case carries the
/// position (1-based line and column from `XMLParser`) so messages can point at the input.
///
/// Thrown for document-level failures; ad-level problems (a wrapper without `<VASTAdTagURI>`, an
/// `<Ad>` with neither `<InLine>` nor `<Wrapper>`, a required element missing) are kept instead in
/// ``VASTDocument/warnings`` and the parse goes on.
public enum VASTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not well-formed XML.
    case malformedXML(message: String, line: Int, column: Int)
    /// The root element is neither `<VAST>` nor `<vmap:VMAP>` (or not the one asked for).
    case unexpectedRoot(name: String, expected: String, line: Int, column: Int)
    /// A VAST 1.0 document (`<VideoAdServingTemplate>` root or `version="1.x"`).
    case vast1NotSupported(line: Int, column: Int)
    /// A required element is absent from `parent`.
    case missingElement(name: String, parent: String, line: Int, column: Int)
    /// A required attribute is absent from `element`.
    case missingAttribute(name: String, element: String, line: Int, column: Int)
    /// An element or attribute holds a value that cannot be read (e.g. a `<Duration>` of `abc`).
    case invalidValue(field: String, value: String, line: Int, column: Int)

    /// A stable, machine-readable name for the case (used in JSON output).
    public var code: String {
        switch self {
        case .malformedXML: return "malformedXML"
        case .unexpectedRoot: return "unexpectedRoot"
        case .vast1NotSupported: return "vast1NotSupported"
        case .missingElement: return "missingElement"
        case .missingAttribute: return "missingAttribute"
        case .invalidValue: return "invalidValue"
        }
    }

    /// The 1-based line the problem was found at.
    public var line: Int {
        switch self {
        case .malformedXML(_, let line, _), .unexpectedRoot(_, _, let line, _), .vast1NotSupported(let line, _),
             .missingElement(_, _, let line, _), .missingAttribute(_, _, let line, _), .invalidValue(_, _, let line, _):
            return line
        }
    }

    /// The 1-based column the problem was found at.
    public var column: Int {
        switch self {
        case .malformedXML(_, _, let column), .unexpectedRoot(_, _, _, let column), .vast1NotSupported(_, let column),
             .missingElement(_, _, _, let column), .missingAttribute(_, _, _, let column),
             .invalidValue(_, _, _, let column):
            return column
        }
    }

    /// A one-line human message that names the line and column.
    public var description: String {
        let at = "line \(line), column \(column)"
        switch self {
        case .malformedXML(let message, _, _):
            return "malformed XML at \(at): \(message)"
        case .unexpectedRoot(let name, let expected, _, _):
            return "root element <\(name)> at \(at) is not \(expected)"
        case .vast1NotSupported:
            return "VAST 1.0 is not supported (root <VideoAdServingTemplate> or version 1.x at \(at)); ask the ad server for VAST 2.0 or later"
        case .missingElement(let name, let parent, _, _):
            return "<\(parent)> at \(at) lacks the required <\(name)>"
        case .missingAttribute(let name, let element, _, _):
            return "<\(element)> at \(at) lacks the required attribute \(name)"
        case .invalidValue(let field, let value, _, _):
            return "\(field) at \(at) has an unreadable value \"\(value)\""
        }
    }
}

extension VASTError: Encodable {
    private enum CodingKeys: String, CodingKey { case code, message, line, column }

    /// Encodes as `{code, message, line, column}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(description, forKey: .message)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }
}
