import Foundation

/// The JSON printed by `playhead inspect vast --json` (schema in docs/vast-json.md): either
/// `{"kind": "vast", "vast": …}`, `{"kind": "vmap", "vmap": …}` or `{"kind": "error", "error": …}`.
public struct AdDocumentReport: Encodable, Sendable {
    /// The parsed document, when parsing succeeded.
    public var document: AdDocument?
    /// The parse failure, when it did not.
    public var error: VASTError?

    /// A report of a parsed document.
    public init(_ document: AdDocument) {
        self.document = document
        self.error = nil
    }

    /// A report of a failure.
    public init(error: VASTError) {
        self.document = nil
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, kind, vast, vmap, error }

    /// The schema's version, bumped when a field changes meaning or disappears.
    public static let schemaVersion = 1

    /// Encodes as described in docs/vast-json.md.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        switch (document, error) {
        case (.vast(let vast)?, _):
            try container.encode("vast", forKey: .kind)
            try container.encode(vast, forKey: .vast)
        case (.vmap(let vmap)?, _):
            try container.encode("vmap", forKey: .kind)
            try container.encode(vmap, forKey: .vmap)
        case (nil, let error):
            try container.encode("error", forKey: .kind)
            try container.encodeIfPresent(error, forKey: .error)
        }
    }

    /// Pretty-printed JSON with sorted keys and unescaped slashes, as UTF-8.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{\"kind\":\"error\"}".utf8))
    }
}
