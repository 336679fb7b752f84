import PlayheadHLS

/// From where on an undeclared timestamp jump anchors a discontinuity sequence afresh.
struct TimestampRebase {
    /// The discontinuity sequence the jump happened in.
    let discontinuitySequence: Int
    /// The media sequence of the segment the timestamps jumped at; it and the later segments of the
    /// sequence use ``anchorKey``.
    let fromMediaSequence: Int
    /// The anchor key they use instead of the discontinuity sequence.
    let anchorKey: Int
}

/// How the last content segment buffered ended, against where the playlist ends it.
struct ContentSegmentEnd {
    /// Its media sequence number.
    let mediaSequence: Int
    /// The anchor key its timestamps were placed under.
    let anchorKey: Int
    /// The content end of its media minus the end the playlist gives it, in seconds.
    let driftSeconds: Double
}

extension MediaPlayer {
    /// Anchor keys of undeclared timestamp jumps count up from here, far above any discontinuity
    /// sequence a playlist may number (the parser stops at 2^53 − 1).
    static let rebasedAnchorKeyBase = Int.max / 2

    /// How far back a segment's first timestamp may land from where the segment before ended (after
    /// the playlist's own distance between them) before it counts as a jump: its frames would overlap
    /// frames already placed. Packagers overlap a few frames at most.
    static let backwardTimestampJumpSeconds = 1.0

    /// How far ahead it may land (``TimestampAnchor/forwardJumpLimitSeconds(targetDurationSeconds:)``).
    func forwardTimestampJumpSeconds() -> Double {
        TimestampAnchor.forwardJumpLimitSeconds(targetDurationSeconds: state.tracker?.targetDurationSeconds ?? 0)
    }

    /// The anchor key of a content segment: its discontinuity sequence, or the key of an undeclared
    /// timestamp jump at or before it. A segment that follows the last one buffered (the next media
    /// sequence, no EXT-X-DISCONTINUITY) but whose first timestamp lands more than
    /// ``backwardTimestampJumpSeconds`` before or ``forwardTimestampJumpSeconds()`` after where that
    /// one's timestamps say (an encoder restart or a splice the packager did not mark) is placed as after a discontinuity, where the playlist puts
    /// it, and reported as damage, with HLS_SEGMENT_ERROR and a `timestampJump` event. Before, its frames were
    /// placed by the old anchor: a jump back put them in the past, all presented at one instant.
    func anchorKey(for tracked: TrackedSegment, firstPTS: Double, url: String, now: Double) -> Int {
        let rebase = state.timestampRebases
            .filter { $0.discontinuitySequence == tracked.discontinuitySequence && $0.fromMediaSequence <= tracked.mediaSequence }
            .max { $0.fromMediaSequence < $1.fromMediaSequence }
        let key = rebase?.anchorKey ?? tracked.discontinuitySequence
        guard let last = state.lastContentEnd, last.mediaSequence == tracked.mediaSequence - 1, last.anchorKey == key,
              !tracked.segment.discontinuity,
              let drift = anchor.driftSeconds(forPTS: firstPTS, discontinuitySequence: key, segmentStartSeconds: tracked.startSeconds)
        else { return key }
        let jumpSeconds = drift - last.driftSeconds
        guard jumpSeconds < -Self.backwardTimestampJumpSeconds || jumpSeconds > forwardTimestampJumpSeconds() else { return key }
        let fresh = Self.rebasedAnchorKeyBase + state.timestampRebases.count
        state.timestampRebases.append(TimestampRebase(discontinuitySequence: tracked.discontinuitySequence,
                                                      fromMediaSequence: tracked.mediaSequence, anchorKey: fresh))
        let jump = (jumpSeconds * 1000).rounded() / 1000
        let description = "timestamps jump by \(jump) s from the segment before (media sequence \(tracked.mediaSequence), "
            + "no EXT-X-DISCONTINUITY); the segment is placed where the playlist puts it, as after a discontinuity"
        report.damage.append("\(url): \(description)")
        notify(.hlsSegmentError, metadata: ["URL": url, "DESCRIPTION": description], now: now)
        bus.post(.custom(name: "timestampJump", payload: ["mediaSequence": String(tracked.mediaSequence), "seconds": String(jump)]))
        return fresh
    }

    /// Where a content segment's timestamps are pinned when its anchor key is new (the first segment after
    /// an EXT-X-DISCONTINUITY or an undeclared jump): where the playlist starts it, or, when the segment
    /// right before it (the media sequence before, buffered last) ran past its listed end, where that
    /// media really ended. EXTINF is a hint: an EXTINF that undercounts the media before a discontinuity
    /// (rounded values, 4 s for 4.004 s of 29.97 fps video) put the new run's first frames before the old
    /// run's last ones, and they were never presented (3 of 60 frames lost for 0.1 s). A run that starts
    /// later than the media before it ended (an EXTINF that overcounts) stays where the playlist puts it.
    /// A run moved is said in a `timelineShift` event.
    func continuationStart(of tracked: TrackedSegment, anchorKey key: Int) -> Double {
        guard !anchor.isPinned(discontinuitySequence: key), let last = state.lastContentEnd,
              last.mediaSequence == tracked.mediaSequence - 1, last.anchorKey != key else { return tracked.startSeconds }
        let start = TimestampAnchor.continuationStart(listedStart: tracked.startSeconds, previousDrift: last.driftSeconds,
                                                      limit: forwardTimestampJumpSeconds())
        if start != tracked.startSeconds {
            // Said, not silent: times taken from the playlist (cues, server-side ad events) are that much early here.
            let shift = ((start - tracked.startSeconds) * 1000).rounded() / 1000
            bus.post(.custom(name: "timelineShift", payload: ["mediaSequence": String(tracked.mediaSequence), "seconds": String(shift),
                "message": "the run from media sequence \(tracked.mediaSequence) starts \(shift) s later than the playlist says (the media "
                    + "before it ran past its EXTINFs); times read from the playlist are that much early there"]))
        }
        return start
    }
}
