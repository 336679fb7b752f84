/// Why a playlist could not be parsed. Every case carries the 1-based line and column.
public enum PlaylistParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first line is not `#EXTM3U`.
    case missingHeader(line: Int, column: Int)
    /// The input is not valid UTF-8.
    case invalidUTF8(line: Int, column: Int)
    /// The input contains a NUL byte (binary data).
    case binaryData(line: Int, column: Int)
    /// An attribute list is malformed (unterminated quote, missing `=`, bad value…).
    case badAttributeList(line: Int, column: Int, tag: String, reason: String)
    /// A number could not be read.
    case badNumber(line: Int, column: Int, tag: String, text: String)
    /// EXTINF (or its segment tags) at the end of the playlist without a segment URI: the
    /// playlist is truncated.
    case missingSegmentURI(line: Int, column: Int)
    /// EXT-X-STREAM-INF at the end of the playlist without the variant URI line that must follow it: the
    /// playlist is truncated.
    case missingVariantURI(line: Int, column: Int)
    /// Multivariant and media playlist tags are mixed.
    case mixedPlaylistKinds(line: Int, column: Int, tag: String)
    /// A required attribute is missing.
    case missingRequiredAttribute(line: Int, column: Int, tag: String, attribute: String)
    /// A number is well formed but too large to compute with exactly (see ``PlaylistLimits``).
    case valueOutOfRange(line: Int, column: Int, tag: String, text: String, limit: String)
    /// An EXT-X-DEFINE `IMPORT` or `QUERYPARAM` whose source is known but lacks the name.
    case undefinedVariable(line: Int, column: Int, name: String, detail: String)
    /// A `{$name}` reference to a variable that no EXT-X-DEFINE before it declares (RFC 8216bis 4.3: the
    /// client must fail to parse); it was left in the URI, and the fetch failed later with a baffling error.
    case undefinedReference(line: Int, column: Int, name: String)

    /// 1-based line number.
    public var line: Int {
        switch self {
        case .missingHeader(let l, _), .invalidUTF8(let l, _), .binaryData(let l, _),
             .badAttributeList(let l, _, _, _), .badNumber(let l, _, _, _), .missingSegmentURI(let l, _), .missingVariantURI(let l, _),
             .mixedPlaylistKinds(let l, _, _), .missingRequiredAttribute(let l, _, _, _), .valueOutOfRange(let l, _, _, _, _),
             .undefinedVariable(let l, _, _, _), .undefinedReference(let l, _, _):
            l
        }
    }

    /// 1-based column (in UTF-8 bytes).
    public var column: Int {
        switch self {
        case .missingHeader(_, let c), .invalidUTF8(_, let c), .binaryData(_, let c),
             .badAttributeList(_, let c, _, _), .badNumber(_, let c, _, _), .missingSegmentURI(_, let c), .missingVariantURI(_, let c),
             .mixedPlaylistKinds(_, let c, _), .missingRequiredAttribute(_, let c, _, _), .valueOutOfRange(_, let c, _, _, _),
             .undefinedVariable(_, let c, _, _), .undefinedReference(_, let c, _):
            c
        }
    }

    /// A stable identifier of the error kind, e.g. `missing-header`.
    public var code: String {
        switch self {
        case .missingHeader: "missing-header"
        case .invalidUTF8: "invalid-utf8"
        case .binaryData: "binary-data"
        case .badAttributeList: "bad-attribute-list"
        case .badNumber: "bad-number"
        case .missingSegmentURI: "missing-segment-uri"
        case .missingVariantURI: "missing-variant-uri"
        case .mixedPlaylistKinds: "mixed-playlist-kinds"
        case .missingRequiredAttribute: "missing-required-attribute"
        case .valueOutOfRange: "value-out-of-range"
        case .undefinedVariable, .undefinedReference: "undefined-variable"
        }
    }

    /// What went wrong, without the position.
    public var message: String {
        switch self {
        case .missingHeader: "playlist does not start with #EXTM3U"
        case .invalidUTF8: "input is not valid UTF-8"
        case .binaryData: "input contains a NUL byte (binary data)"
        case .badAttributeList(_, _, let tag, let reason): "bad attribute list in #\(tag): \(reason)"
        case .badNumber(_, _, let tag, let text): "bad number '\(text.prefix(40))' in #\(tag)"
        case .missingSegmentURI: "EXTINF without a segment URI at the end of the playlist (truncated?)"
        case .missingVariantURI: "EXT-X-STREAM-INF without a variant URI at the end of the playlist (truncated?)"
        case .mixedPlaylistKinds(_, _, let tag): "#\(tag) mixes multivariant and media playlist tags"
        case .missingRequiredAttribute(_, _, let tag, let attribute): "#\(tag) lacks required attribute \(attribute)"
        case .valueOutOfRange(_, _, let tag, let text, let limit): "'\(text.prefix(40))' in #\(tag) is out of range (\(limit))"
        case .undefinedVariable(_, _, _, let detail): "#EXT-X-DEFINE \(detail)"
        case .undefinedReference(_, _, let name): "{$\(name)} refers to a variable that no EXT-X-DEFINE before it defines"
        }
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Something a player tolerates but a validator reports.
public struct PlaylistWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    /// 1-based line number; nil when the warning concerns the whole playlist (a tag missing from it).
    public var line: Int?
    /// A stable identifier, e.g. `version-too-low` (see docs/playlist-json.md for the list).
    public var code: String
    /// A human-readable explanation.
    public var message: String

    /// Creates a warning (`line` nil for one about the whole playlist).
    public init(line: Int?, code: String, message: String) {
        self.line = line
        self.code = code
        self.message = message
    }

    /// `line L: [code] message`, or `[code] message` for a warning about the whole playlist.
    public var description: String { (line.map { "line \($0): " } ?? "") + "[\(code)] \(message)" }
}
