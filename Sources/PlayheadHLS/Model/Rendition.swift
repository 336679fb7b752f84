/// TYPE of EXT-X-MEDIA.
public enum MediaType: Sendable, Equatable, Hashable, Codable {
    /// AUDIO.
    case audio
    /// VIDEO.
    case video
    /// SUBTITLES.
    case subtitles
    /// CLOSED-CAPTIONS.
    case closedCaptions
    /// Any other value, kept as written.
    case other(String)

    /// Creates a type from its playlist spelling.
    public init(_ text: String) {
        switch text {
        case "AUDIO": self = .audio
        case "VIDEO": self = .video
        case "SUBTITLES": self = .subtitles
        case "CLOSED-CAPTIONS": self = .closedCaptions
        default: self = .other(text)
        }
    }

    /// The playlist spelling.
    public var text: String {
        switch self {
        case .audio: "AUDIO"
        case .video: "VIDEO"
        case .subtitles: "SUBTITLES"
        case .closedCaptions: "CLOSED-CAPTIONS"
        case .other(let text): text
        }
    }

    /// Decodes from the playlist spelling.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as the playlist spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}

/// EXT-X-MEDIA: an alternative rendition (audio, video, subtitles, closed captions).
public struct Rendition: Sendable, Equatable, Codable {
    /// TYPE.
    public var type: MediaType
    /// GROUP-ID.
    public var groupId: String
    /// NAME.
    public var name: String
    /// LANGUAGE (RFC 5646 tag).
    public var language: String?
    /// ASSOC-LANGUAGE.
    public var assocLanguage: String?
    /// DEFAULT=YES.
    public var `default`: Bool
    /// AUTOSELECT=YES.
    public var autoselect: Bool
    /// FORCED=YES.
    public var forced: Bool
    /// INSTREAM-ID (CC1…CC4, SERVICE1…SERVICE63).
    public var instreamId: String?
    /// URI of the rendition's media playlist; absent when the rendition is in the variant's stream.
    public var uri: String?
    /// CHARACTERISTICS as written (comma-separated UTIs).
    public var characteristics: String?
    /// CHANNELS as written (e.g. `6` or `16/JOC`).
    public var channels: String?
    /// BIT-DEPTH.
    public var bitDepth: Int?
    /// SAMPLE-RATE in hertz.
    public var sampleRateHz: Int?
    /// STABLE-RENDITION-ID.
    public var stableRenditionId: String?

    /// Creates a rendition.
    public init(type: MediaType, groupId: String, name: String, language: String? = nil,
                assocLanguage: String? = nil, default: Bool = false, autoselect: Bool = false,
                forced: Bool = false, instreamId: String? = nil, uri: String? = nil,
                characteristics: String? = nil, channels: String? = nil, bitDepth: Int? = nil,
                sampleRateHz: Int? = nil, stableRenditionId: String? = nil) {
        self.type = type
        self.groupId = groupId
        self.name = name
        self.language = language
        self.assocLanguage = assocLanguage
        self.default = `default`
        self.autoselect = autoselect
        self.forced = forced
        self.instreamId = instreamId
        self.uri = uri
        self.characteristics = characteristics
        self.channels = channels
        self.bitDepth = bitDepth
        self.sampleRateHz = sampleRateHz
        self.stableRenditionId = stableRenditionId
    }
}
