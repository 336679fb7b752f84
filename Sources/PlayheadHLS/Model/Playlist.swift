/// A parsed HLS playlist: either multivariant (master) or media.
public enum Playlist: Sendable, Equatable {
    /// A multivariant playlist (EXT-X-STREAM-INF and friends).
    case multivariant(MultivariantPlaylist)
    /// A media playlist (segments).
    case media(MediaPlaylist)

    /// The multivariant playlist, if this is one.
    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let m) = self { return m }
        return nil
    }

    /// The media playlist, if this is one.
    public var media: MediaPlaylist? {
        if case .media(let m) = self { return m }
        return nil
    }

    /// EXT-X-VERSION of either kind.
    public var version: Int? {
        switch self {
        case .multivariant(let m): m.version
        case .media(let m): m.version
        }
    }
}

/// The result of parsing: the playlist and the warnings found on the way.
public struct ParsedPlaylist: Sendable, Equatable {
    /// The playlist.
    public var playlist: Playlist
    /// Problems that players tolerate, in line order.
    public var warnings: [PlaylistWarning]

    /// Creates a result.
    public init(playlist: Playlist, warnings: [PlaylistWarning] = []) {
        self.playlist = playlist
        self.warnings = warnings
    }
}

extension Playlist: Codable {
    private enum CodingKeys: String, CodingKey { case type }

    /// Decodes a playlist whose `type` field is `multivariant` or `media`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "multivariant": self = .multivariant(try MultivariantPlaylist(from: decoder))
        case "media": self = .media(try MediaPlaylist(from: decoder))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown type \(other)")
        }
    }

    /// Encodes the playlist's fields flat, with `type` naming the kind.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .multivariant(let m):
            try c.encode("multivariant", forKey: .type)
            try m.encode(to: encoder)
        case .media(let m):
            try c.encode("media", forKey: .type)
            try m.encode(to: encoder)
        }
    }
}
