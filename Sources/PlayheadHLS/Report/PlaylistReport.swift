#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON document of `playhead inspect playlist --json` (schema: docs/playlist-json.md).
///
/// On success it holds the playlist's fields at top level (with `type`), `warnings` and an
/// empty `errors`; on failure only `errors` (one entry with line, column, code and message) and
/// an empty `warnings`.
public struct PlaylistReport: Encodable, Sendable {
    /// One parse error as reported in JSON.
    public struct ReportedError: Encodable, Sendable, Equatable {
        /// 1-based line.
        public var line: Int
        /// 1-based column.
        public var column: Int
        /// Stable error code, e.g. `bad-attribute-list`.
        public var code: String
        /// Human-readable message.
        public var message: String
    }

    /// The playlist, absent when parsing failed.
    public var playlist: Playlist?
    /// Warnings found while parsing.
    public var warnings: [PlaylistWarning]
    /// Errors: empty on success.
    public var errors: [ReportedError]

    /// A report for a successful parse.
    public init(_ parsed: ParsedPlaylist) {
        playlist = parsed.playlist
        warnings = parsed.warnings
        errors = []
    }

    /// A report for a failed parse.
    public init(error: PlaylistParseError) {
        playlist = nil
        warnings = []
        errors = [ReportedError(line: error.line, column: error.column, code: error.code, message: error.message)]
    }

    private enum CodingKeys: String, CodingKey { case warnings, errors }

    /// Encodes the playlist's fields flat, then `warnings` and `errors`.
    public func encode(to encoder: any Encoder) throws {
        try playlist?.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(errors, forKey: .errors)
    }

    /// The encoder settings of the report: sorted keys, pretty printed, slashes not escaped.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// The report as UTF-8 JSON bytes (followed by a newline).
    public func jsonBytes() -> [UInt8] {
        // Encoding these value types cannot fail: no non-finite floats reach the model.
        let data = (try? Self.makeEncoder().encode(self)) ?? Data("{\"errors\":[]}".utf8)
        return Array(data) + [0x0A]
    }
}

extension Playlist {
    /// The `inspect playlist --json` document for this playlist.
    /// - Parameter warnings: the warnings from parsing.
    public func inspectJSON(warnings: [PlaylistWarning]) -> [UInt8] {
        PlaylistReport(ParsedPlaylist(playlist: self, warnings: warnings)).jsonBytes()
    }
}

extension PlaylistParseError {
    /// The `inspect playlist --json` document for a failed parse: `errors: [{line, column, code, message}]`.
    public func inspectJSON() -> [UInt8] { PlaylistReport(error: self).jsonBytes() }
}
