/// One ad inside a server-stitched stream: where it plays on the content timeline, and what to call
/// while it plays (MediaTailor's client-side tracking `ads[]` entry, or one discontinuity-bounded
/// stretch of a cued break).
public struct SSAIAd: Sendable, Equatable, Codable {
    /// The ad's id (`adId`, or `<availId>-<n>` for an ad read from playlist markers).
    public var id: String
    /// The ad's title (`adTitle`), empty when none was given.
    public var title: String
    /// Where the ad starts on the content timeline, seconds.
    public var startSeconds: Double
    /// How long it plays, seconds.
    public var durationSeconds: Double
    /// Beacon URLs by event (`impression`, `start`, `firstQuartile`, `midpoint`, `thirdQuartile`,
    /// `complete`, `skip`, `pause`, `resume`, …).
    public var trackingEvents: [String: [String]]
    /// Where a click leads (`ClickThrough`), if anywhere.
    public var clickThrough: String?
    /// URLs called when the ad is clicked (`ClickTracking`).
    public var clickTracking: [String]

    /// Creates an ad.
    public init(id: String, title: String = "", startSeconds: Double, durationSeconds: Double,
                trackingEvents: [String: [String]] = [:], clickThrough: String? = nil, clickTracking: [String] = []) {
        self.id = id
        self.title = title
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
        self.trackingEvents = trackingEvents
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
    }

    /// Where the ad ends on the content timeline, seconds.
    public var endSeconds: Double { startSeconds + durationSeconds }
}

/// One ad break (an avail) of a server-stitched stream, with the ads it holds.
public struct SSAIAvail: Sendable, Equatable, Codable {
    /// Where the avail was learnt from.
    public enum Source: String, Sendable, Codable {
        /// The tracking document (MediaTailor-style JSON).
        case tracking
        /// The playlist's cue markers (`#EXT-X-CUE-OUT`/`-IN`, `#EXT-X-DATERANGE` SCTE35-OUT), split into
        /// ads at discontinuities.
        case markers
    }

    /// The avail's id (`availId`, or the cue's id).
    public var id: String
    /// Where it starts on the content timeline, seconds.
    public var startSeconds: Double
    /// How long it lasts, seconds; `nil` while a live break's end is not known yet.
    public var durationSeconds: Double?
    /// Its ads in play order.
    public var ads: [SSAIAd]
    /// Beacon URLs of the break itself by event (`breakStart`, `breakEnd`: `adBreakTrackingEvents`).
    public var trackingEvents: [String: [String]]
    /// Where it was learnt from.
    public var source: Source

    /// Creates an avail.
    public init(id: String, startSeconds: Double, durationSeconds: Double?, ads: [SSAIAd],
                trackingEvents: [String: [String]] = [:], source: Source) {
        self.id = id
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
        self.ads = ads
        self.trackingEvents = trackingEvents
        self.source = source
    }

    /// Where it ends, seconds: its start plus its duration; `nil` while it is open.
    public var endSeconds: Double? { durationSeconds.map { startSeconds + $0 } }

    /// Whether `seconds` of content time lies inside the avail (an open avail runs on for ever).
    public func contains(_ seconds: Double, slack: Double = 1e-3) -> Bool {
        seconds >= startSeconds - slack && endSeconds.map { seconds < $0 - slack } ?? true
    }

    /// The index of the ad holding `seconds`: the last whose start is at or before it and whose end is after it.
    public func adIndex(at seconds: Double, slack: Double = 1e-3) -> Int? {
        ads.lastIndex { seconds >= $0.startSeconds - slack && seconds < $0.endSeconds - slack }
    }
}
