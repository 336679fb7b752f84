/// What to do with an ad break that normal playback reaches (PSDK `PTAdBreakPolicyType`).
public enum AdBreakPolicy: String, Sendable, Equatable, Codable {
    /// Play the break.
    case play
    /// Jump over it to the content after it.
    case skip
}

/// What to do when a seek lands inside an ad (PSDK `PTAdPolicyType`).
public enum AdSeekPolicy: String, Sendable, Equatable, Codable {
    /// Play from the start of the ad the seek landed in (PSDK `PLAY_FROM_AD_BEGIN`).
    case playFromAdStart
    /// Play from the start of the break (PSDK `PLAY_FROM_AD_BREAK_BEGIN`).
    case playFromBreakStart
    /// Play from exactly where the seek landed (PSDK `PLAY`).
    case playFromSeekPoint
    /// Play from the start of the next ad of the break, or after the break from its last ad
    /// (PSDK `SKIP_TO_NEXT_AD_IN_BREAK`).
    case skipToNextAd
    /// Skip the break: land immediately after it (PSDK `SKIP`).
    case skipBreak
}

/// Why the selector is asked (PSDK `PTAdPolicyMode`).
public enum AdPolicyMode: String, Sendable, Equatable, Codable {
    /// Normal playback reached a break.
    case play
    /// A seek (also a start at a saved position, a seek from 0).
    case seek
}

/// When a break counts as watched (PSDK `PTAdMetadata.adBreakAsWatched`).
public enum AdBreakWatchedPolicy: String, Sendable, Equatable, Codable {
    /// As soon as its first ad is entered (the PSDK's default).
    case onBegin
    /// Once it has played to its end.
    case onEnd
    /// Never: every break plays every time.
    case never
}

/// The context of one selector call (PSDK `PTAdPolicyInfo`). All times are virtual seconds.
public struct AdPolicyInfo: Sendable, Equatable {
    /// The timeline, with each break's `watched` flag.
    public var timeline: AdTimeline
    /// The breaks concerned, by index, in timeline order: for ``AdPolicySelector/selectAdBreaksToPlay(_:)``
    /// the breaks a seek passed over; for ``AdPolicySelector/selectPolicyForAdBreak(_:)`` the break
    /// reached; for ``AdPolicySelector/selectPolicyForSeekIntoAd(_:)`` the break landed in.
    public var breakIndices: [Int]
    /// The ad a seek landed in (its index in the break), for seek-into-ad calls.
    public var adIndex: Int?
    /// Where playback is (the seek's origin).
    public var currentVirtualSeconds: Double
    /// Where the seek asked to go, for seeks.
    public var seekToVirtualSeconds: Double?
    /// Play or seek.
    public var mode: AdPolicyMode

    /// Creates the context.
    public init(timeline: AdTimeline, breakIndices: [Int], adIndex: Int? = nil, currentVirtualSeconds: Double,
                seekToVirtualSeconds: Double? = nil, mode: AdPolicyMode) {
        self.timeline = timeline
        self.breakIndices = breakIndices
        self.adIndex = adIndex
        self.currentVirtualSeconds = currentVirtualSeconds
        self.seekToVirtualSeconds = seekToVirtualSeconds
        self.mode = mode
    }

    /// Whether this is a seek towards later times.
    public var isForwardSeek: Bool { mode == .seek && (seekToVirtualSeconds ?? currentVirtualSeconds) > currentVirtualSeconds }
    /// The breaks concerned.
    public var adBreaks: [AdBreak] { breakIndices.map { timeline.breaks[$0] } }
}

/// What the player does next, from a ``AdPolicySelector`` decision (see ``AdPolicySelector/planSeek(_:fromVirtual:toVirtual:)``).
///
/// Playback goes to ``startVirtualSeconds``. When ``breaksToPlay`` holds more than one break, the
/// player plays each from its start, in order; after the last it goes to ``resumeVirtualSeconds``
/// when set, else plays on.
public struct AdPlaybackPlan: Sendable, Equatable {
    /// Where playback goes now, virtual seconds.
    public var startVirtualSeconds: Double
    /// The breaks about to play, by index, in order (empty when playback lands in content).
    public var breaksToPlay: [Int]
    /// Where to go once ``breaksToPlay`` have played (a seek's target); `nil` to play on.
    public var resumeVirtualSeconds: Double?

    /// Creates a plan.
    public init(startVirtualSeconds: Double, breaksToPlay: [Int] = [], resumeVirtualSeconds: Double? = nil) {
        self.startVirtualSeconds = startVirtualSeconds
        self.breaksToPlay = breaksToPlay
        self.resumeVirtualSeconds = resumeVirtualSeconds
    }
}
