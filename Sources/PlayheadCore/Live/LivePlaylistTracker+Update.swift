import PlayheadHLS

extension LivePlaylistTracker {
    /// Merges a reload of the playlist.
    ///
    /// - Segments already tracked keep their start, duration and discontinuity number.
    /// - A new segment starts where the one before it ended. When media sequence numbers were
    ///   skipped (segments published and removed between two loads), each missed segment is
    ///   assumed to last one target duration, with a warning. A jump larger than the time since the
    ///   last load allows (the missed segments would span more than that time plus two target
    ///   durations) is a renumbering origin (a failover, an encoder restart), not missed segments: the
    ///   new segments continue at the live edge after an implied discontinuity, with a warning, so
    ///   their timestamps are pinned afresh rather than placed far ahead of the media.
    /// - When both the new segment and an earlier tracked segment carry EXT-X-PROGRAM-DATE-TIME and
    ///   the dates place the new segment more than
    ///   ``LivePlaylistSettings/programDateTimeToleranceSeconds`` away from that EXTINF-based start,
    ///   the date-based start is used (with a warning), unless it would not come after the previous
    ///   segment's start (then the EXTINF start stays, with a warning).
    /// - Segments before the reload's EXT-X-MEDIA-SEQUENCE are dropped and reported. With
    ///   EXT-X-SKIP (delta update), skipped segments are the tracked ones and are kept.
    /// - A reload that lists a segment already seen (same URI and byte range, one of a kind in the
    ///   window, the reload and the recently removed segments) under another media sequence number,
    ///   every such segment agreeing on the difference, is a renumbered origin (a failover to an
    ///   origin that numbers differently): the tracker keeps its own numbering (see
    ///   ``mediaSequenceShift``), with a warning, and plays on without a discontinuity.
    /// - A reload whose media sequence went back (EXT-X-MEDIA-SEQUENCE lower than before, or a last
    ///   segment older than one already seen) and that lists a segment already seen is stale,
    ///   typically a cached copy: it is reported in a warning and otherwise ignored; it counts as
    ///   unchanged. One that went back and lists no segment seen before (in the window or the last
    ///   ``removedHistoryLimit`` removed) is an origin that restarted its numbering: its segments
    ///   continue at the live edge after an implied discontinuity, with a warning.
    /// - A discontinuity sequence that disagrees with what is known is reported; new segments are
    ///   renumbered to follow the known numbering.
    /// - Parameters:
    ///   - reloaded: the parsed reload.
    ///   - seconds: when it was loaded, in the caller's seconds (the start of the request).
    /// - Returns: what changed.
    public mutating func update(with reloaded: MediaPlaylist, loadedAt seconds: Double) -> PlaylistUpdate {
        let elapsedSeconds = seconds - lastLoadSeconds
        lastLoadSeconds = seconds
        var result = PlaylistUpdate()
        lastStaleReload = nil
        followRenumbering(of: reloaded, warnings: &result.warnings)
        var reloadedFirst = reloaded.mediaSequence + mediaSequenceShift
        var reloadedLast = (reloaded.segments.last?.mediaSequence ?? reloaded.mediaSequence - 1) + mediaSequenceShift
        var offset: Int
        var continuesAtLiveEdge = false
        if reloadedFirst < firstAvailableMediaSequence || reloadedLast < highestMediaSequence {
            let wentBack = "media sequence went back: the reload starts at \(reloadedFirst) and ends at \(reloadedLast), "
                + "after \(firstAvailableMediaSequence) to \(highestMediaSequence) was seen"
            guard let first = reloaded.segments.first, !listsSeenSegment(reloaded) else {
                result.warnings.append(wentBack + "; the reload is ignored as stale")
                lastStaleReload = wentBack
                lastLoadChanged = false
                return result
            }
            // Nothing listed was seen before: the origin restarted its numbering.
            mediaSequenceShift = highestMediaSequence + 1 - first.mediaSequence
            reloadedFirst = reloaded.mediaSequence + mediaSequenceShift
            reloadedLast = (reloaded.segments.last?.mediaSequence ?? first.mediaSequence) + mediaSequenceShift
            discontinuityShift = (segments.last?.discontinuitySequence ?? 0) + 1 - first.discontinuitySequence
            impliedDiscontinuities += 1
            offset = discontinuityShift
            continuesAtLiveEdge = true
            result.warnings.append(wentBack + ", and it lists no segment seen before: taken as an origin that restarted its "
                + "numbering, the new segments continue at the live edge after a discontinuity (tracker numbers from \(reloadedFirst))")
        } else {
            offset = discontinuityOffset(for: reloaded, warnings: &result.warnings)
            if let firstNew = reloaded.segments.first(where: { $0.mediaSequence + mediaSequenceShift > highestMediaSequence }) {
                let firstNewSequence = firstNew.mediaSequence + mediaSequenceShift
                let missedCount = firstNewSequence - highestMediaSequence - 1
                if Double(missedCount) * targetDurationSeconds > max(0, elapsedSeconds) + 2 * targetDurationSeconds {
                    continuesAtLiveEdge = true
                    impliedDiscontinuities += 1
                    discontinuityShift += 1
                    offset += 1
                    result.warnings.append("media sequence jumped from \(highestMediaSequence) to \(firstNewSequence) in "
                        + "\(elapsedSeconds) s, more than could have been published: taken as a renumbering, the new "
                        + "segments continue at the live edge after a discontinuity")
                }
            }
        }
        for segment in reloaded.segments where segment.mediaSequence + mediaSequenceShift > highestMediaSequence {
            let sequence = segment.mediaSequence + mediaSequenceShift
            // After a renumbering the first new segment starts at the live edge; the next follow it.
            let startSeconds = continuesAtLiveEdge && result.newSegments.isEmpty
                ? liveEdgeSeconds : startSeconds(forNew: segment, sequence: sequence, warnings: &result.warnings)
            segments.append(TrackedSegment(mediaSequence: sequence,
                                           discontinuitySequence: segment.discontinuitySequence + offset,
                                           startSeconds: startSeconds, durationSeconds: segment.duration,
                                           segment: segment))
            result.newSegments.append(sequence)
            highestMediaSequence = sequence
        }
        let removedCount = segments.prefix { $0.mediaSequence < reloadedFirst }.count
        if removedCount > 0 {
            emptyWindowEdgeSeconds = liveEdgeSeconds
            let removed = segments.prefix(removedCount)
            result.removedSegments = removed.map(\.mediaSequence)
            remember(removed)
            segments.removeFirst(removedCount)
        }
        if reloaded.endList && !endListSeen {
            endListSeen = true
            result.endListAdded = true
        }
        playlist = reloaded
        firstAvailableMediaSequence = reloadedFirst
        result.changed = !result.newSegments.isEmpty || !result.removedSegments.isEmpty || result.endListAdded
        lastLoadChanged = result.changed
        if result.changed { lastChangeSeconds = seconds }
        return result
    }

    /// How much to add to the reload's discontinuity sequence numbers to follow the known
    /// numbering: compared on the first segment the reload shares with the window, or, when the
    /// reload continues right after the last tracked segment, on the number that segment implies;
    /// otherwise (and when they agree) the discontinuities implied at renumberings.
    private func discontinuityOffset(for reloaded: MediaPlaylist, warnings: inout [String]) -> Int {
        let shared = reloaded.segments.first { self.segment(mediaSequence: $0.mediaSequence + mediaSequenceShift) != nil }
        let check: (mediaSequence: Int, knownSequence: Int, reloadedSequence: Int)
        if let shared, let known = self.segment(mediaSequence: shared.mediaSequence + mediaSequenceShift) {
            check = (known.mediaSequence, known.discontinuitySequence, shared.discontinuitySequence)
        } else if let next = reloaded.segments.first, let last = segments.last,
                  next.mediaSequence + mediaSequenceShift == last.mediaSequence + 1 {
            let expected = last.discontinuitySequence + (next.discontinuity ? 1 : 0)
            check = (last.mediaSequence + 1, expected, next.discontinuitySequence)
        } else {
            return discontinuityShift
        }
        guard check.knownSequence != check.reloadedSequence + discontinuityShift else { return discontinuityShift }
        warnings.append("discontinuity sequence mismatch at media sequence \(check.mediaSequence): "
            + "the reload says \(check.reloadedSequence), \(check.knownSequence) was known; "
            + "new segments follow the known numbering")
        return check.knownSequence - check.reloadedSequence
    }

    /// The content start of a segment seen for the first time (see ``update(with:loadedAt:)``).
    /// - Parameters:
    ///   - segment: the segment as the reload lists it.
    ///   - sequence: its media sequence number on the tracker's numbering.
    ///   - warnings: where to report a jump or a program date-time disagreement.
    private func startSeconds(forNew segment: MediaSegment, sequence: Int, warnings: inout [String]) -> Double {
        var extinfStartSeconds = liveEdgeSeconds
        let missedCount = sequence - highestMediaSequence - 1
        if missedCount > 0 {
            extinfStartSeconds += Double(missedCount) * targetDurationSeconds
            warnings.append("media sequence jumped from \(highestMediaSequence) to \(sequence): "
                + "\(missedCount) segment(s) never seen, each assumed to last the target duration")
        }
        guard let previous = segments.last else { return extinfStartSeconds }
        guard let date = segment.programDateTime,
              let reference = segments.last(where: { $0.segment.programDateTime != nil }),
              let referenceDate = reference.segment.programDateTime else { return extinfStartSeconds }
        let dateStartSeconds = reference.startSeconds + (date.secondsSince1970 - referenceDate.secondsSince1970)
        let disagreementSeconds = dateStartSeconds - extinfStartSeconds
        guard abs(disagreementSeconds) > settings.programDateTimeToleranceSeconds else { return extinfStartSeconds }
        guard dateStartSeconds > previous.startSeconds else {
            warnings.append("program date-time of media sequence \(sequence) would place it "
                + "before media sequence \(previous.mediaSequence); the EXTINF sum is kept")
            return extinfStartSeconds
        }
        warnings.append("program date-time of media sequence \(sequence) disagrees with the "
            + "EXTINF sum by \(disagreementSeconds) s; the date is used")
        return dateStartSeconds
    }
}
