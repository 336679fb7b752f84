/// Anchors media timestamps to the content timeline, one anchor per discontinuity sequence.
///
/// The first true PTS seen in a discontinuity sequence is pinned to the content start of the
/// segment it came from; every later PTS of that sequence lands at the anchor plus its distance
/// from the anchor's PTS. Timestamps that jump at a discontinuity (an encoder restart, an ad)
/// therefore do not move the timeline, and neither does the wrap-around of MPEG-TS 33-bit
/// timestamps (2^33 ticks of 90 kHz, about 26.5 hours): each PTS is unwrapped against the previous
/// one of its sequence, taking the nearest of its wrapped values.
///
/// Pass, for the first segment of a sequence, the segment's earliest PTS first (its first
/// keyframe); frames presented before it then come out slightly before the segment's start.
/// Pure value: no clock, no I/O.
public struct TimestampAnchor: Sendable, Equatable {
    /// The period of MPEG-TS timestamps: 2^33 ticks of a 90 kHz clock, in seconds (95 443.717…).
    public static let mpegTSWrapPeriodSeconds: Double = 8_589_934_592.0 / 90_000.0

    /// The pin of one discontinuity sequence.
    struct Pin: Sendable, Equatable {
        /// The unwrapped PTS that was pinned, in seconds.
        var ptsSeconds: Double
        /// The content time it was pinned to, in seconds.
        var contentSeconds: Double
        /// The last PTS seen, unwrapped (it may exceed the wrap period), in seconds.
        var lastUnwrappedPTSSeconds: Double
    }

    /// The period after which timestamps wrap, in seconds; nil when they never do.
    public let wrapPeriodSeconds: Double?
    /// Pins by discontinuity sequence number.
    var pins: [Int: Pin] = [:]

    /// Creates an anchor for MPEG-TS timestamps (wrapping every ``mpegTSWrapPeriodSeconds``).
    public init() {
        wrapPeriodSeconds = Self.mpegTSWrapPeriodSeconds
    }

    /// Creates an anchor with another wrap period.
    /// - Parameter wrapPeriodSeconds: the wrap period in seconds; nil for timestamps that do not
    ///   wrap (fragmented MP4's 64-bit decode times).
    public init(wrapPeriodSeconds: Double?) {
        self.wrapPeriodSeconds = wrapPeriodSeconds
    }

    /// The content time of a media timestamp, pinning the discontinuity sequence on first sight.
    /// - Parameters:
    ///   - ptsSeconds: the presentation timestamp in seconds, as read from the stream (wrapped).
    ///   - discontinuitySequence: the discontinuity sequence of the segment it came from.
    ///   - segmentStartSeconds: the content start of that segment, in seconds
    ///     (``TrackedSegment/startSeconds``); used only to pin a sequence seen for the first time.
    /// - Returns: the content time in seconds.
    public mutating func contentSeconds(forPTS ptsSeconds: Double, discontinuitySequence: Int,
                                        segmentStartSeconds: Double) -> Double {
        guard var pin = pins[discontinuitySequence] else {
            pins[discontinuitySequence] = Pin(ptsSeconds: ptsSeconds, contentSeconds: segmentStartSeconds,
                                              lastUnwrappedPTSSeconds: ptsSeconds)
            return segmentStartSeconds
        }
        let unwrapped = unwrap(ptsSeconds, near: pin.lastUnwrappedPTSSeconds)
        pin.lastUnwrappedPTSSeconds = unwrapped
        pins[discontinuitySequence] = pin
        return pin.contentSeconds + (unwrapped - pin.ptsSeconds)
    }

    /// How far a timestamp lands from where the playlist puts it: the content time the anchor gives
    /// a PTS minus `segmentStartSeconds`. Read the segment's first PTS against its start to see how
    /// much EXTINF durations have drifted from the media. Does not pin anything.
    /// - Parameters:
    ///   - ptsSeconds: the presentation timestamp in seconds, as read from the stream.
    ///   - discontinuitySequence: the discontinuity sequence of the segment it came from.
    ///   - segmentStartSeconds: the content start the playlist gives, in seconds.
    /// - Returns: the drift in seconds (positive: the media is later than the playlist says), or
    ///   nil when the sequence has no pin yet.
    public func driftSeconds(forPTS ptsSeconds: Double, discontinuitySequence: Int,
                             segmentStartSeconds: Double) -> Double? {
        guard let pin = pins[discontinuitySequence] else { return nil }
        let unwrapped = unwrap(ptsSeconds, near: pin.lastUnwrappedPTSSeconds)
        return pin.contentSeconds + (unwrapped - pin.ptsSeconds) - segmentStartSeconds
    }

    /// The content time of a media timestamp in a sequence already pinned, without moving the anchor
    /// (subtitle cues, whose times come with their own file); nil when the sequence has no pin yet.
    /// - Parameters:
    ///   - ptsSeconds: the timestamp in seconds (wrapped as the stream's are).
    ///   - discontinuitySequence: the discontinuity sequence it belongs to.
    /// - Returns: the content time in seconds, or nil.
    public func pinnedContentSeconds(forPTS ptsSeconds: Double, discontinuitySequence: Int) -> Double? {
        guard let pin = pins[discontinuitySequence] else { return nil }
        return pin.contentSeconds + (unwrap(ptsSeconds, near: pin.lastUnwrappedPTSSeconds) - pin.ptsSeconds)
    }

    /// How far ahead of where the segment before ended a segment's first timestamp may land before it is a
    /// jump, not drift: one target duration, at least 5 s (a hole in the media, such as a damaged segment start,
    /// stays under it; an encoder restart with a new time base does not). Also the largest drift a run after a
    /// discontinuity is moved by (``continuationStart(listedStart:previousDrift:limit:)``).
    public static func forwardJumpLimitSeconds(targetDurationSeconds: Double) -> Double { max(5, targetDurationSeconds) }

    /// Where to pin a sequence seen for the first time: at `listedStart` (where the playlist starts its first
    /// segment), or later by `previousDrift` when the segment just before it ran that far past its listed end (its
    /// media's end minus the playlist's) and no further than `limit`. An EXTINF that undercounts before a
    /// discontinuity would otherwise put the new run's first frames before the old run's last ones.
    /// - Parameters:
    ///   - listedStart: the playlist's start of the sequence's first segment, in seconds.
    ///   - previousDrift: the drift of the segment right before it (same source, next media sequence), if known.
    ///   - limit: the largest drift taken, in seconds (a larger one is no rounding).
    /// - Returns: the content time to pin the sequence at.
    public static func continuationStart(listedStart: Double, previousDrift: Double?, limit: Double) -> Double {
        guard let drift = previousDrift, drift > 1e-6, drift <= limit else { return listedStart }
        return listedStart + drift
    }

    /// Whether a discontinuity sequence has been pinned.
    /// - Parameter discontinuitySequence: the discontinuity sequence number.
    public func isPinned(discontinuitySequence: Int) -> Bool { pins[discontinuitySequence] != nil }

    /// Forgets the pins of sequences before a number (their segments have left the window).
    /// - Parameter discontinuitySequence: the first sequence number to keep.
    public mutating func forgetPins(before discontinuitySequence: Int) {
        pins = pins.filter { $0.key >= discontinuitySequence }
    }

    /// The value of `ptsSeconds` plus a whole number of wrap periods nearest to `referenceSeconds`.
    func unwrap(_ ptsSeconds: Double, near referenceSeconds: Double) -> Double {
        guard let period = wrapPeriodSeconds, period > 0 else { return ptsSeconds }
        let periods = ((referenceSeconds - ptsSeconds) / period).rounded()
        return ptsSeconds + periods * period
    }
}
