/// Tuning of ``LivePlaylistTracker``, as plain data.
///
/// Every default is a named static with its unit in the name, so a reader can find where a number
/// comes from and a test can change one value without restating the others.
public struct LivePlaylistSettings: Sendable, Equatable {
    /// Default of ``stuckAfterTargetDurations``: 3.5 target durations without a change.
    ///
    /// A server that is merely slow to publish a segment is late by a fraction of a target duration;
    /// three and a half leaves room for one or two late segments before the player gives up waiting.
    public static let defaultStuckAfterTargetDurations: Double = 3.5
    /// Default of ``startTargetDurationsFromEnd``: 3, the distance from the end of a live playlist
    /// inside which RFC 8216bis section 6.3.3 says a client should not start.
    public static let defaultStartTargetDurationsFromEnd: Double = 3
    /// Default of ``programDateTimeToleranceSeconds``: 0.5 s.
    public static let defaultProgramDateTimeToleranceSeconds: Double = 0.5
    /// Default of ``fallbackTargetDurationSeconds``: 6 s (used only when a playlist has neither
    /// EXT-X-TARGETDURATION nor any segment).
    public static let defaultFallbackTargetDurationSeconds: Double = 6

    /// A playlist that has not changed for this many target durations is stuck
    /// (``LivePlaylistTracker/isStuck(at:)``).
    public var stuckAfterTargetDurations: Double
    /// Without EXT-X-START or SERVER-CONTROL HOLD-BACK, a live start is this many target durations
    /// before the live edge; this is also the hold-back of the seekable window.
    public var startTargetDurationsFromEnd: Double
    /// When a new segment's EXT-X-PROGRAM-DATE-TIME places it further than this from where the
    /// EXTINF sum places it, the date wins (with a warning).
    public var programDateTimeToleranceSeconds: Double
    /// The target duration assumed when the playlist gives none and has no segment to measure.
    public var fallbackTargetDurationSeconds: Double

    /// Creates settings; every parameter defaults to its named static.
    /// - Parameters:
    ///   - stuckAfterTargetDurations: see ``stuckAfterTargetDurations``.
    ///   - startTargetDurationsFromEnd: see ``startTargetDurationsFromEnd``.
    ///   - programDateTimeToleranceSeconds: see ``programDateTimeToleranceSeconds``.
    ///   - fallbackTargetDurationSeconds: see ``fallbackTargetDurationSeconds``.
    public init(stuckAfterTargetDurations: Double = defaultStuckAfterTargetDurations,
                startTargetDurationsFromEnd: Double = defaultStartTargetDurationsFromEnd,
                programDateTimeToleranceSeconds: Double = defaultProgramDateTimeToleranceSeconds,
                fallbackTargetDurationSeconds: Double = defaultFallbackTargetDurationSeconds) {
        self.stuckAfterTargetDurations = stuckAfterTargetDurations
        self.startTargetDurationsFromEnd = startTargetDurationsFromEnd
        self.programDateTimeToleranceSeconds = programDateTimeToleranceSeconds
        self.fallbackTargetDurationSeconds = fallbackTargetDurationSeconds
    }
}
