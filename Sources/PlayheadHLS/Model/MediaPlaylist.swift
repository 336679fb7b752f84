/// EXT-X-PLAYLIST-TYPE.
public enum PlaylistType: String, Sendable, Equatable, Codable {
    /// `VOD`: the playlist cannot change.
    case vod
    /// `EVENT`: segments can only be appended.
    case event
}

/// EXT-X-START: the preferred point at which to start playing.
public struct StartPoint: Sendable, Equatable, Codable {
    /// TIME-OFFSET in seconds; negative values count from the end of the playlist.
    public var timeOffset: Double
    /// PRECISE=YES: start exactly at the offset rather than at the segment containing it.
    public var precise: Bool

    /// Creates a start point.
    public init(timeOffset: Double, precise: Bool = false) {
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// A media playlist: a list of media segments and what applies to them.
public struct MediaPlaylist: Sendable, Equatable, Codable {
    /// EXT-X-VERSION, absent when the tag is missing (the protocol then implies 1).
    public var version: Int?
    /// EXT-X-TARGETDURATION in seconds.
    public var targetDuration: Int?
    /// EXT-X-MEDIA-SEQUENCE: the media sequence number of the first segment (0 when absent).
    public var mediaSequence: Int
    /// EXT-X-DISCONTINUITY-SEQUENCE (0 when absent).
    public var discontinuitySequence: Int
    /// EXT-X-PLAYLIST-TYPE.
    public var playlistType: PlaylistType?
    /// EXT-X-ENDLIST present.
    public var endList: Bool
    /// EXT-X-I-FRAMES-ONLY present.
    public var iFramesOnly: Bool
    /// EXT-X-INDEPENDENT-SEGMENTS present.
    public var independentSegments: Bool
    /// EXT-X-START.
    public var start: StartPoint?
    /// EXT-X-ALLOW-CACHE (deprecated, kept): YES → true, NO → false.
    public var allowCache: Bool?
    /// EXT-X-SERVER-CONTROL.
    public var serverControl: ServerControl?
    /// EXT-X-PART-INF.
    public var partInf: PartInformation?
    /// EXT-X-SKIP of a delta update; segments then start at `mediaSequence + skippedSegments`.
    public var skip: SkipInformation?
    /// EXT-X-DEFINE tags in order.
    public var defines: [VariableDefinition]
    /// The media segments in order.
    public var segments: [MediaSegment]
    /// EXT-X-DATERANGE tags in order.
    public var dateRanges: [DateRange]
    /// EXT-X-PART tags after the last segment (the segment being produced).
    public var trailingParts: [PartialSegment]
    /// EXT-X-PRELOAD-HINT tags.
    public var preloadHints: [PreloadHint]
    /// EXT-X-RENDITION-REPORT tags.
    public var renditionReports: [RenditionReport]
    /// Unknown tags after the last segment.
    public var trailingTags: [UnknownTag]

    /// Creates an empty media playlist.
    public init(version: Int? = nil, targetDuration: Int? = nil, mediaSequence: Int = 0,
                discontinuitySequence: Int = 0, playlistType: PlaylistType? = nil, endList: Bool = false,
                iFramesOnly: Bool = false, independentSegments: Bool = false, start: StartPoint? = nil,
                allowCache: Bool? = nil, serverControl: ServerControl? = nil, partInf: PartInformation? = nil,
                skip: SkipInformation? = nil, defines: [VariableDefinition] = [], segments: [MediaSegment] = [],
                dateRanges: [DateRange] = [], trailingParts: [PartialSegment] = [],
                preloadHints: [PreloadHint] = [], renditionReports: [RenditionReport] = [],
                trailingTags: [UnknownTag] = []) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.endList = endList
        self.iFramesOnly = iFramesOnly
        self.independentSegments = independentSegments
        self.start = start
        self.allowCache = allowCache
        self.serverControl = serverControl
        self.partInf = partInf
        self.skip = skip
        self.defines = defines
        self.segments = segments
        self.dateRanges = dateRanges
        self.trailingParts = trailingParts
        self.preloadHints = preloadHints
        self.renditionReports = renditionReports
        self.trailingTags = trailingTags
    }

    /// Sum of the segment durations in seconds, a negative EXTINF counting as 0 (as on the player's
    /// timeline; the segment keeps the value it was given).
    public var totalDurationSeconds: Double { segments.reduce(0) { $0 + max(0, $1.duration) } }
}
