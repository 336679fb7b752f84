import PlayheadHLS

/// What the player asks a ``KeyProvider`` for: the key of an EXT-X-KEY (or EXT-X-MAP's) that decrypts a resource.
public struct KeyRequest: Sendable, Equatable {
    /// The key's URI as the playlist writes it (variables substituted).
    public var uri: String
    /// That URI resolved against the playlist's URL (a `data:` URI as written).
    public var url: String
    /// METHOD: `AES-128` or `SAMPLE-AES`.
    public var method: String
    /// KEYFORMAT, nil when the tag gives none (identity).
    public var keyFormat: String?
    /// KEYFORMATVERSIONS, nil when the tag gives none.
    public var keyFormatVersions: String?
    /// The segment or init section the key decrypts.
    public var resourceURL: String

    /// Creates a request.
    public init(uri: String, url: String, method: String, keyFormat: String?, keyFormatVersions: String?, resourceURL: String) {
        self.uri = uri
        self.url = url
        self.method = method
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.resourceURL = resourceURL
    }
}

/// Custom key delivery (F26, the PSDK's key-provider hook): asked for each key before its URI is fetched,
/// once per key URL (the answer is kept, as a fetched key is). A key it gives also opens SAMPLE-AES whose
/// KEYFORMAT is a DRM system's (`skd://` of FairPlay, say): the samples are decrypted as with an identity
/// key, which is what a DRM system's license hands its player.
public protocol KeyProvider: Sendable {
    /// The 16 bytes of the key for `request`, or nil to fetch its URI as usual (a DRM KEYFORMAT is then
    /// unsupported). A thrown error fails the resource as a key that cannot be had does.
    func key(for request: KeyRequest) async throws -> [UInt8]?
}

/// Keys given up front (`--key URI=HEX`; the daemon's `keys`), matched by the key URI as the playlist writes
/// it, else as resolved.
public struct StaticKeyProvider: KeyProvider {
    /// Each key's 16 bytes by URI.
    public var keys: [String: [UInt8]]

    /// Creates a provider of `keys`.
    public init(keys: [String: [UInt8]]) { self.keys = keys }

    /// Creates a provider of `URI=HEX` entries (``entry(_:)``; a URI given twice: the last).
    /// - Throws: the first entry that cannot be read.
    public init(entries: [String]) throws(KeyEntryError) {
        var keys: [String: [UInt8]] = [:]
        for text in entries {
            let entry = try Self.entry(text)
            keys[entry.uri] = entry.key
        }
        self.keys = keys
    }

    /// The key given for the request's URI as written, else as resolved; nil for any other.
    public func key(for request: KeyRequest) -> [UInt8]? { keys[request.uri] ?? keys[request.url] }

    /// Reads `URI=HEX`: a key URI (as the playlist writes it, or resolved) and its 16 bytes as 32 hexadecimal
    /// digits (a `0x` prefix allowed). The URI is everything before the last `=`.
    /// - Throws: a message saying what is wrong with `text`.
    public static func entry(_ text: String) throws(KeyEntryError) -> (uri: String, key: [UInt8]) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw KeyEntryError(text: text, reason: "expected URI=HEX (the key's URI, '=', its 32 hexadecimal digits)")
        }
        var hex = Substring(text[text.index(after: equals)...])
        if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex = hex.dropFirst(2) }
        guard hex.count == 32 else {
            throw KeyEntryError(text: text, reason: "the key has \(hex.count) hexadecimal digits; an AES-128 key has 32 (16 bytes)")
        }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else {
                throw KeyEntryError(text: text, reason: "'\(hex[index..<next])' is not hexadecimal")
            }
            bytes.append(byte)
            index = next
        }
        return (String(text[..<equals]), bytes)
    }
}

/// A `URI=HEX` key entry that cannot be read.
public struct KeyEntryError: Error, Equatable, CustomStringConvertible {
    /// The entry as given.
    public var text: String
    /// What is wrong.
    public var reason: String

    /// "key entry 'TEXT': REASON".
    public var description: String { "key entry '\(text)': \(reason)" }
}
