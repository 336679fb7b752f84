/// Where a buffered segment or a frame comes from: the main content, or one ad of one break.
public enum SpliceSource: Sendable, Equatable, Hashable {
    /// The main item.
    case content
    /// Ad `adIndex` of the break whose id is `breakId`.
    case ad(breakId: String, adIndex: Int)

    /// Whether this is an ad.
    public var isAd: Bool { if case .ad = self { return true } else { return false } }
}

/// How one loaded segment sits on the playback timeline: its source's time plus `offset` is
/// timeline time, and only frames whose source time falls in `[clipStart, clipEnd)` are presented.
struct Placement: Equatable {
    /// Content or an ad.
    var source: SpliceSource
    /// Timeline seconds = source seconds + offset.
    var offset: Double
    /// Frames starting before this source time are decoded but not presented (nil: no limit).
    var clipStart: Double?
    /// Frames starting at or after this source time are not presented (nil: no limit).
    var clipEnd: Double?

    /// Whether a frame starting at source time `seconds` is presented (a microsecond of slack absorbs
    /// floating-point noise in the timestamp mapping).
    func keeps(_ seconds: Double) -> Bool {
        if let clipStart, seconds < clipStart - 1e-6 { return false }
        if let clipEnd, seconds >= clipEnd - 1e-6 { return false }
        return true
    }

    /// How long a frame starting at source time `seconds` shows: its `duration`, cut at `clipEnd` when it runs
    /// past it (an ad cut to the content it replaces, content cut at a cue: the next source begins there).
    func shownDuration(from seconds: Double, _ duration: Double) -> Double {
        guard let clipEnd, seconds + duration > clipEnd else { return duration }
        return max(0, clipEnd - seconds)
    }

    /// The timeline span of source span `[start, end)` after clipping.
    func timelineSpan(start: Double, end: Double) -> (start: Double, end: Double) {
        let from = max(start, clipStart ?? start), to = min(end, clipEnd ?? end)
        return (from + offset, max(from, to) + offset)
    }
}
