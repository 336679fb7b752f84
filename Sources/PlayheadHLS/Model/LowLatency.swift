/// A partial segment (EXT-X-PART), kept for Low-Latency HLS.
public struct PartialSegment: Sendable, Equatable, Codable {
    /// URI of the partial segment.
    public var uri: String
    /// DURATION in seconds.
    public var duration: Double
    /// INDEPENDENT=YES: the part starts with an independent frame.
    public var independent: Bool
    /// BYTERANGE with the offset resolved.
    public var byteRange: ByteRange?
    /// GAP=YES: the part is unavailable.
    public var gap: Bool

    /// Creates a partial segment.
    public init(uri: String, duration: Double, independent: Bool = false,
                byteRange: ByteRange? = nil, gap: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.independent = independent
        self.byteRange = byteRange
        self.gap = gap
    }
}

/// EXT-X-SERVER-CONTROL: what the server supports for live playlist delivery.
public struct ServerControl: Sendable, Equatable, Codable {
    /// CAN-SKIP-UNTIL in seconds: the skip boundary for delta updates.
    public var canSkipUntilSeconds: Double?
    /// CAN-SKIP-DATERANGES=YES.
    public var canSkipDateRanges: Bool
    /// HOLD-BACK in seconds.
    public var holdBackSeconds: Double?
    /// PART-HOLD-BACK in seconds.
    public var partHoldBackSeconds: Double?
    /// CAN-BLOCK-RELOAD=YES.
    public var canBlockReload: Bool

    /// Creates server control values.
    public init(canSkipUntilSeconds: Double? = nil, canSkipDateRanges: Bool = false,
                holdBackSeconds: Double? = nil, partHoldBackSeconds: Double? = nil,
                canBlockReload: Bool = false) {
        self.canSkipUntilSeconds = canSkipUntilSeconds
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBackSeconds = holdBackSeconds
        self.partHoldBackSeconds = partHoldBackSeconds
        self.canBlockReload = canBlockReload
    }
}

/// EXT-X-PART-INF: partial segment information.
public struct PartInformation: Sendable, Equatable, Codable {
    /// PART-TARGET in seconds.
    public var partTargetSeconds: Double

    /// Creates part information.
    public init(partTargetSeconds: Double) { self.partTargetSeconds = partTargetSeconds }
}

/// EXT-X-SKIP: segments skipped by a playlist delta update.
public struct SkipInformation: Sendable, Equatable, Codable {
    /// SKIPPED-SEGMENTS: how many segments were replaced by the tag.
    public var skippedSegments: Int
    /// RECENTLY-REMOVED-DATERANGES: tab-separated IDs, split.
    public var recentlyRemovedDateRanges: [String]

    /// Creates skip information.
    public init(skippedSegments: Int, recentlyRemovedDateRanges: [String] = []) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
    }
}

/// EXT-X-PRELOAD-HINT: a resource the client may request before it is available.
public struct PreloadHint: Sendable, Equatable, Codable {
    /// TYPE, `PART` or `MAP` (or another value kept as written).
    public var type: String
    /// URI of the hinted resource.
    public var uri: String
    /// BYTERANGE-START in bytes.
    public var byteRangeStart: Int?
    /// BYTERANGE-LENGTH in bytes.
    public var byteRangeLength: Int?

    /// Creates a preload hint.
    public init(type: String, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
    }
}

/// EXT-X-RENDITION-REPORT: the state of another rendition's playlist.
public struct RenditionReport: Sendable, Equatable, Codable {
    /// URI of the other media playlist.
    public var uri: String
    /// LAST-MSN: its last media sequence number.
    public var lastMediaSequence: Int?
    /// LAST-PART: its last part index.
    public var lastPart: Int?

    /// Creates a rendition report.
    public init(uri: String, lastMediaSequence: Int? = nil, lastPart: Int? = nil) {
        self.uri = uri
        self.lastMediaSequence = lastMediaSequence
        self.lastPart = lastPart
    }
}
