/// A sub-range of a resource, as given by EXT-X-BYTERANGE or a BYTERANGE attribute.
///
/// The offset is always resolved: when the playlist omits it, it is the byte after the end of
/// the previous sub-range of the same resource (RFC 8216bis 4.4.4.2).
public struct ByteRange: Sendable, Equatable, Hashable, Codable {
    /// Length of the sub-range in bytes.
    public var length: Int
    /// Offset of the first byte of the sub-range from the start of the resource, in bytes.
    public var offset: Int

    /// Creates a byte range.
    /// - Parameters:
    ///   - length: length in bytes.
    ///   - offset: offset of the first byte in bytes.
    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// The offset of the byte after the sub-range.
    public var endOffset: Int { offset + length }
}

/// The encryption method of an EXT-X-KEY or EXT-X-SESSION-KEY tag.
public enum KeyMethod: Sendable, Equatable, Hashable, Codable {
    /// `NONE`: segments are not encrypted.
    case none
    /// `AES-128`: whole segments encrypted with AES-128 CBC.
    case aes128
    /// `SAMPLE-AES`: samples encrypted inside the segment.
    case sampleAES
    /// `SAMPLE-AES-CTR`: samples encrypted with AES CTR (used by some DRM systems).
    case sampleAESCTR
    /// Any other method, kept as written.
    case other(String)

    /// Creates a method from its playlist spelling.
    /// - Parameter text: the enumerated string, e.g. `AES-128`.
    public init(_ text: String) {
        switch text {
        case "NONE": self = .none
        case "AES-128": self = .aes128
        case "SAMPLE-AES": self = .sampleAES
        case "SAMPLE-AES-CTR": self = .sampleAESCTR
        default: self = .other(text)
        }
    }

    /// The playlist spelling of the method.
    public var text: String {
        switch self {
        case .none: "NONE"
        case .aes128: "AES-128"
        case .sampleAES: "SAMPLE-AES"
        case .sampleAESCTR: "SAMPLE-AES-CTR"
        case .other(let text): text
        }
    }

    /// Decodes the method from its playlist spelling.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the method as its playlist spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// An encryption key in force for a segment (EXT-X-KEY) or announced by EXT-X-SESSION-KEY.
public struct SegmentKey: Sendable, Equatable, Hashable, Codable {
    /// The encryption method.
    public var method: KeyMethod
    /// The key URI (variables substituted), absent for `NONE`.
    public var uri: String?
    /// The initialization vector bytes (16 for AES-128), absent when the IV is derived from the
    /// media sequence number.
    public var iv: [UInt8]?
    /// KEYFORMAT; absent means `identity`.
    public var keyFormat: String?
    /// KEYFORMATVERSIONS as written (slash-separated integers), absent means `1`.
    public var keyFormatVersions: String?

    /// Creates a key.
    public init(method: KeyMethod, uri: String? = nil, iv: [UInt8]? = nil,
                keyFormat: String? = nil, keyFormatVersions: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
    }

    /// True when KEYFORMAT is absent or `identity`.
    public var isIdentityFormat: Bool { keyFormat == nil || keyFormat == "identity" }

    private enum CodingKeys: String, CodingKey { case method, uri, iv, keyFormat, keyFormatVersions }

    /// Decodes a key; `iv` is a `0x`-prefixed hexadecimal string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(KeyMethod.self, forKey: .method)
        uri = try c.decodeIfPresent(String.self, forKey: .uri)
        if let hex = try c.decodeIfPresent(String.self, forKey: .iv) {
            guard let bytes = HexBytes.decode(Substring(hex)) else {
                throw DecodingError.dataCorruptedError(forKey: .iv, in: c, debugDescription: "bad hex IV")
            }
            iv = bytes
        }
        keyFormat = try c.decodeIfPresent(String.self, forKey: .keyFormat)
        keyFormatVersions = try c.decodeIfPresent(String.self, forKey: .keyFormatVersions)
    }

    /// Encodes a key; `iv` becomes a `0x`-prefixed hexadecimal string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method, forKey: .method)
        try c.encodeIfPresent(uri, forKey: .uri)
        try c.encodeIfPresent(iv.map(HexBytes.encode), forKey: .iv)
        try c.encodeIfPresent(keyFormat, forKey: .keyFormat)
        try c.encodeIfPresent(keyFormatVersions, forKey: .keyFormatVersions)
    }
}

/// The Media Initialization Section in force for a segment (EXT-X-MAP).
public struct MediaInitializationSection: Sendable, Equatable, Hashable, Codable {
    /// URI of the initialization section (variables substituted).
    public var uri: String
    /// The sub-range of the resource; absent means the whole resource. An absent offset is
    /// resolved to 0.
    public var byteRange: ByteRange?
    /// The keys in force where the EXT-X-MAP tag stands (RFC 8216bis 4.4.4.5: the EXT-X-KEY that applies to
    /// the tag encrypts the section), identity first; empty when it is in the clear. A later EXT-X-KEY
    /// changes the segments' keys, not this section's.
    public var keys: [SegmentKey]

    /// Creates an initialization section.
    public init(uri: String, byteRange: ByteRange? = nil, keys: [SegmentKey] = []) {
        self.uri = uri
        self.byteRange = byteRange
        self.keys = keys
    }

    /// The key that decrypts the section: the identity key in force at the tag, nil when none (or `NONE`).
    public var key: SegmentKey? {
        keys.first { $0.isIdentityFormat && $0.method != .none }
    }

    private enum CodingKeys: String, CodingKey { case uri, byteRange, keys }

    /// Decodes a section; `keys` may be absent (empty).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        uri = try c.decode(String.self, forKey: .uri)
        byteRange = try c.decodeIfPresent(ByteRange.self, forKey: .byteRange)
        keys = try c.decodeIfPresent([SegmentKey].self, forKey: .keys) ?? []
    }

    /// Encodes a section; `keys` only when there are some.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uri, forKey: .uri)
        try c.encodeIfPresent(byteRange, forKey: .byteRange)
        if !keys.isEmpty { try c.encode(keys, forKey: .keys) }
    }
}

/// A tag the parser does not know (for example `#EXT-X-CUE-OUT:30`), kept as written.
///
/// `line` records where the tag was read; it is provenance and does not take part in equality.
public struct UnknownTag: Sendable, Equatable, Hashable, Codable {
    /// The tag name without the leading `#`, e.g. `EXT-X-CUE-OUT`.
    public var name: String
    /// Everything after the first `:`, or absent when the tag has no `:`.
    public var value: String?
    /// The 1-based line number the tag was read from (0 when built in code).
    public var line: Int

    /// Creates an unknown tag.
    public init(name: String, value: String?, line: Int = 0) {
        self.name = name
        self.value = value
        self.line = line
    }

    /// Compares name and value only.
    public static func == (lhs: UnknownTag, rhs: UnknownTag) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    /// Hashes name and value only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }
}

/// A media segment of a media playlist, with everything in force for it resolved.
public struct MediaSegment: Sendable, Equatable, Codable {
    /// The segment URI (variables substituted, not resolved against a base URL).
    public var uri: String
    /// EXTINF duration in seconds.
    public var duration: Double
    /// EXTINF title, absent when empty.
    public var title: String?
    /// EXT-X-BYTERANGE with the offset resolved; absent means the whole resource.
    public var byteRange: ByteRange?
    /// True when EXT-X-DISCONTINUITY precedes the segment.
    public var discontinuity: Bool
    /// EXT-X-PROGRAM-DATE-TIME given for this segment (not extrapolated).
    public var programDateTime: ProgramDateTime?
    /// The key in force (KEYFORMAT identity preferred); `method == .none` after `METHOD=NONE`;
    /// absent when no EXT-X-KEY was seen.
    public var key: SegmentKey?
    /// Further keys in force at the same time with other KEYFORMATs (usually empty).
    public var otherKeys: [SegmentKey]
    /// The Media Initialization Section in force.
    public var map: MediaInitializationSection?
    /// True when EXT-X-GAP marks the segment as missing.
    public var gap: Bool
    /// EXT-X-BITRATE in force, in kilobits per second.
    public var bitrateKbps: Int?
    /// Unknown tags that precede the segment (after the previous segment's URI).
    public var tags: [UnknownTag]
    /// EXT-X-PART partial segments that make up the segment.
    public var parts: [PartialSegment]
    /// The media sequence number of the segment.
    public var mediaSequence: Int
    /// The discontinuity sequence number of the segment.
    public var discontinuitySequence: Int

    /// Creates a segment; every field but the URI and duration has a neutral default.
    public init(uri: String, duration: Double, title: String? = nil, byteRange: ByteRange? = nil,
                discontinuity: Bool = false, programDateTime: ProgramDateTime? = nil,
                key: SegmentKey? = nil, otherKeys: [SegmentKey] = [],
                map: MediaInitializationSection? = nil, gap: Bool = false, bitrateKbps: Int? = nil,
                tags: [UnknownTag] = [], parts: [PartialSegment] = [],
                mediaSequence: Int = 0, discontinuitySequence: Int = 0) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.key = key
        self.otherKeys = otherKeys
        self.map = map
        self.gap = gap
        self.bitrateKbps = bitrateKbps
        self.tags = tags
        self.parts = parts
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
    }

    /// All keys in force: `key` followed by `otherKeys`.
    public var keys: [SegmentKey] { (key.map { [$0] } ?? []) + otherKeys }
}
