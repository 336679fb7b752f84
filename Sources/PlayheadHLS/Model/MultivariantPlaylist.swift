/// A video resolution (RESOLUTION=WxH), in pixels.
public struct Resolution: Sendable, Equatable, Hashable, Codable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// CLOSED-CAPTIONS of EXT-X-STREAM-INF: a rendition group, or NONE.
public enum ClosedCaptionsReference: Sendable, Equatable, Codable {
    /// The enumerated `NONE`: the variant has no closed captions.
    case none
    /// A GROUP-ID of EXT-X-MEDIA TYPE=CLOSED-CAPTIONS.
    case group(String)

    /// Decodes from a string: `NONE` (enumerated) or the group id.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = text == "NONE" ? .none : .group(text)
    }

    /// Encodes as a string: `NONE` or the group id.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .none: try c.encode("NONE")
        case .group(let id): try c.encode(id)
        }
    }
}

/// Attributes shared by EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF.
public struct VariantStream: Sendable, Equatable, Codable {
    /// URI of the variant's media playlist.
    public var uri: String
    /// BANDWIDTH: peak bit rate in bits per second.
    public var bandwidth: Int
    /// AVERAGE-BANDWIDTH in bits per second.
    public var averageBandwidth: Int?
    /// SCORE: the server's preference (higher is better).
    public var score: Double?
    /// CODECS as written (comma-separated).
    public var codecs: String?
    /// SUPPLEMENTAL-CODECS as written.
    public var supplementalCodecs: String?
    /// RESOLUTION.
    public var resolution: Resolution?
    /// FRAME-RATE in frames per second.
    public var frameRate: Double?
    /// HDCP-LEVEL (TYPE-0, TYPE-1, NONE).
    public var hdcpLevel: String?
    /// ALLOWED-CPC as written.
    public var allowedCPC: String?
    /// VIDEO-RANGE (SDR, HLG, PQ).
    public var videoRange: String?
    /// REQ-VIDEO-LAYOUT as written.
    public var requiredVideoLayout: String?
    /// STABLE-VARIANT-ID.
    public var stableVariantId: String?
    /// AUDIO group id.
    public var audio: String?
    /// VIDEO group id.
    public var video: String?
    /// SUBTITLES group id.
    public var subtitles: String?
    /// CLOSED-CAPTIONS group id or NONE.
    public var closedCaptions: ClosedCaptionsReference?
    /// PATHWAY-ID (content steering).
    public var pathwayId: String?
    /// PROGRAM-ID (removed in protocol version 6, kept).
    public var programId: Int?
    /// Unknown tags preceding this variant.
    public var tags: [UnknownTag]

    /// Creates a variant.
    public init(uri: String, bandwidth: Int, averageBandwidth: Int? = nil, score: Double? = nil,
                codecs: String? = nil, supplementalCodecs: String? = nil, resolution: Resolution? = nil,
                frameRate: Double? = nil, hdcpLevel: String? = nil, allowedCPC: String? = nil,
                videoRange: String? = nil, requiredVideoLayout: String? = nil, stableVariantId: String? = nil,
                audio: String? = nil, video: String? = nil, subtitles: String? = nil,
                closedCaptions: ClosedCaptionsReference? = nil, pathwayId: String? = nil,
                programId: Int? = nil, tags: [UnknownTag] = []) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.score = score
        self.codecs = codecs
        self.supplementalCodecs = supplementalCodecs
        self.resolution = resolution
        self.frameRate = frameRate
        self.hdcpLevel = hdcpLevel
        self.allowedCPC = allowedCPC
        self.videoRange = videoRange
        self.requiredVideoLayout = requiredVideoLayout
        self.stableVariantId = stableVariantId
        self.audio = audio
        self.video = video
        self.subtitles = subtitles
        self.closedCaptions = closedCaptions
        self.pathwayId = pathwayId
        self.programId = programId
        self.tags = tags
    }
}

/// EXT-X-SESSION-DATA: arbitrary session data.
public struct SessionData: Sendable, Equatable, Codable {
    /// DATA-ID, reverse-DNS.
    public var dataId: String
    /// VALUE.
    public var value: String?
    /// URI of a JSON resource.
    public var uri: String?
    /// FORMAT (JSON or RAW).
    public var format: String?
    /// LANGUAGE.
    public var language: String?

    /// Creates session data.
    public init(dataId: String, value: String? = nil, uri: String? = nil, format: String? = nil,
                language: String? = nil) {
        self.dataId = dataId
        self.value = value
        self.uri = uri
        self.format = format
        self.language = language
    }
}

/// EXT-X-CONTENT-STEERING: where to find the steering manifest.
public struct ContentSteering: Sendable, Equatable, Codable {
    /// SERVER-URI.
    public var serverUri: String
    /// PATHWAY-ID to start with.
    public var pathwayId: String?

    /// Creates a content steering reference.
    public init(serverUri: String, pathwayId: String? = nil) {
        self.serverUri = serverUri
        self.pathwayId = pathwayId
    }
}

/// A multivariant (master) playlist: the variants and renditions of a presentation.
public struct MultivariantPlaylist: Sendable, Equatable, Codable {
    /// EXT-X-VERSION.
    public var version: Int?
    /// EXT-X-INDEPENDENT-SEGMENTS present.
    public var independentSegments: Bool
    /// EXT-X-START.
    public var start: StartPoint?
    /// EXT-X-DEFINE tags in order.
    public var defines: [VariableDefinition]
    /// EXT-X-STREAM-INF variants in order.
    public var variants: [VariantStream]
    /// EXT-X-I-FRAME-STREAM-INF variants in order.
    public var iFrameVariants: [VariantStream]
    /// EXT-X-MEDIA renditions in order.
    public var media: [Rendition]
    /// EXT-X-SESSION-DATA tags.
    public var sessionData: [SessionData]
    /// EXT-X-SESSION-KEY tags.
    public var sessionKeys: [SegmentKey]
    /// EXT-X-CONTENT-STEERING.
    public var contentSteering: ContentSteering?
    /// EXT-X-DATERANGE tags (allowed by some servers in multivariant playlists).
    public var dateRanges: [DateRange]
    /// Unknown tags after the last variant.
    public var trailingTags: [UnknownTag]

    /// Creates an empty multivariant playlist.
    public init(version: Int? = nil, independentSegments: Bool = false, start: StartPoint? = nil,
                defines: [VariableDefinition] = [], variants: [VariantStream] = [],
                iFrameVariants: [VariantStream] = [], media: [Rendition] = [], sessionData: [SessionData] = [],
                sessionKeys: [SegmentKey] = [], contentSteering: ContentSteering? = nil,
                dateRanges: [DateRange] = [], trailingTags: [UnknownTag] = []) {
        self.version = version
        self.independentSegments = independentSegments
        self.start = start
        self.defines = defines
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.media = media
        self.sessionData = sessionData
        self.sessionKeys = sessionKeys
        self.contentSteering = contentSteering
        self.dateRanges = dateRanges
        self.trailingTags = trailingTags
    }

    /// The variables this playlist defines that have a value, by name: what its media playlists may
    /// `IMPORT` (the first definition of a name wins, as in substitution).
    public var variableValues: [String: String] {
        var values: [String: String] = [:]
        for definition in defines where values[definition.name] == nil {
            if let value = definition.value { values[definition.name] = value }
        }
        return values
    }
}

extension VariantStream {
    /// RFC 6381 sample-entry prefixes of audio codecs (AAC and MP3 in `mp4a`, AC-3, E-AC-3, AC-4, Opus,
    /// FLAC, ALAC, DTS).
    static let audioCodecPrefixes = ["mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "dtsc", "dtse", "dtsh", "dtsl", "dtsx"]

    /// True when the variant carries audio alone: no RESOLUTION, and CODECS names only audio codecs
    /// (without CODECS nothing is known, and the answer is false).
    public var isAudioOnly: Bool {
        guard resolution == nil, let codecs, !codecs.isEmpty else { return false }
        let names = codecs.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
        return !names.isEmpty && names.allSatisfy { name in Self.audioCodecPrefixes.contains { name.hasPrefix($0) } }
    }
}
