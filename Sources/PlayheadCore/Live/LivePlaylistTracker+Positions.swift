import PlayheadHLS

extension LivePlaylistTracker {
    /// Where playback starts, in order of preference:
    /// 1. EXT-X-START: a positive TIME-OFFSET counts from the start of the window, a negative one
    ///    from the live edge; the point is clamped to the window. With PRECISE=YES playback starts
    ///    at the point itself, otherwise at the start of the segment holding it.
    /// 2. Live (no ENDLIST, not VOD): ``holdBackSeconds`` before the live edge (SERVER-CONTROL
    ///    HOLD-BACK, else three target durations), at the start of the segment holding that point,
    ///    so that the start is at least that far from the edge (section 6.3.3).
    /// 3. VOD or ended: the start of the window (0 s for a playlist that never slid).
    /// - Returns: the content time in seconds and the media sequence number of the segment to load
    ///   first. An empty window gives the live edge and the playlist's media sequence number.
    public func startPosition() -> (seconds: Double, mediaSequence: Int) {
        guard let first = segments.first else { return (liveEdgeSeconds, firstAvailableMediaSequence) }
        let windowStartSeconds = first.startSeconds
        let edgeSeconds = liveEdgeSeconds
        if let start = playlist.start {
            let unclamped = start.timeOffset >= 0 ? windowStartSeconds + start.timeOffset
                                                  : edgeSeconds + start.timeOffset
            let pointSeconds = min(max(unclamped, windowStartSeconds), edgeSeconds)
            let holder = segment(atOrBefore: pointSeconds)
            return (start.precise ? pointSeconds : holder.startSeconds, holder.mediaSequence)
        }
        guard isLive else { return (windowStartSeconds, first.mediaSequence) }
        let holder = segment(atOrBefore: max(windowStartSeconds, edgeSeconds - holdBackSeconds))
        return (holder.startSeconds, holder.mediaSequence)
    }

    /// The seekable (DVR) window on the content timeline, in seconds: from the start of the first
    /// segment still available to the live edge minus ``holdBackSeconds`` while live, or to the
    /// live edge once the playlist has ended or is VOD. An event playlist never drops segments, so
    /// its window always reaches back to 0 s. The upper bound never falls below the lower one.
    public func seekableRange() -> ClosedRange<Double> {
        let edgeSeconds = liveEdgeSeconds
        guard let first = segments.first else { return edgeSeconds...edgeSeconds }
        guard isLive else { return first.startSeconds...edgeSeconds }
        return first.startSeconds...max(first.startSeconds, edgeSeconds - holdBackSeconds)
    }

    /// Whether the segment the player needs next has fallen off the front of the window.
    /// - Parameter nextMediaSequence: the media sequence number the player wants to load next.
    public func fellBehind(nextMediaSequence: Int) -> Bool {
        nextMediaSequence < firstAvailableMediaSequence
    }

    /// Where to go after falling behind: the ``startPosition()`` computed on the current window (for
    /// a live stream, the hold-back distance behind the edge), as players do when the live window
    /// has left them behind.
    public func recoveryPosition() -> (seconds: Double, mediaSequence: Int) {
        startPosition()
    }

    /// The segment holding `seconds`, or the last one when `seconds` is at or after the live edge,
    /// or the one before a gap, or the first one before the window. The window must not be empty.
    func segment(atOrBefore seconds: Double) -> TrackedSegment {
        segments[lastIndex(where: { $0.startSeconds <= seconds }) ?? 0]
    }
}

extension LivePlaylistTracker {
    /// This tracker with its content times shifted so that the media sequences it shares with `other`
    /// start where `other` places them: a live variant switch keeps one content timeline (renditions
    /// of one stream share media sequence numbers). Unchanged when they share none. When `other`
    /// follows a renumbered origin, this tracker first takes up its numbering (the origin renumbers
    /// every rendition alike).
    public func aligned(to other: LivePlaylistTracker) -> LivePlaylistTracker {
        guard mediaSequenceShift == 0, other.mediaSequenceShift != 0 || other.discontinuityShift != 0 else {
            return alignedTimes(to: other)
        }
        return renumbered(like: other).alignedTimes(to: other)
    }

    private func alignedTimes(to other: LivePlaylistTracker) -> LivePlaylistTracker {
        guard let common = segments.first(where: { other.segment(mediaSequence: $0.mediaSequence) != nil }),
              let theirs = other.segment(mediaSequence: common.mediaSequence) else {
            // No overlap: continue after the other's last segment if this one follows it.
            guard let first = segments.first, let last = other.segments.last, first.mediaSequence == last.mediaSequence + 1 else { return self }
            return shifted(by: last.endSeconds - first.startSeconds)
        }
        return shifted(by: theirs.startSeconds - common.startSeconds)
    }

    private func shifted(by offset: Double) -> LivePlaylistTracker {
        guard offset != 0 else { return self }
        var copy = self
        for index in copy.segments.indices { copy.segments[index].startSeconds += offset }
        copy.emptyWindowEdgeSeconds += offset
        return copy
    }
}
