import PlayheadMedia

/// Content segments waiting for the segments before them: the first segment after a seek, the session's
/// start, a return from a break or a switch of rendition did not begin with a keyframe (long GOPs cut into short segments), so
/// decoding it alone showed damaged pictures (HEVC) or nothing until the next keyframe, seconds later
/// (H.264). The segments before it are fetched, back to one that holds a keyframe, and decoded first;
/// their frames are before the target and are not presented.
struct Preroll {
    /// The segments held, in playback order (the one wanted last).
    var held: [BufferedSegment]
    /// The wanted segment's media sequence number, entry and placement, and what of it is presented.
    let sequence: Int
    let tracked: TrackedSegment
    let placement: Placement
    let presented: (start: Double, end: Double)?
    /// What the timestamp-jump check knew after the wanted segment (restored once the earlier ones are in).
    let lastContentEnd: ContentSegmentEnd?
    /// Source seconds up to which media was already loaded before the wanted segment (after a switch of
    /// rendition: the rung before's); nothing of the earlier segments before it is presented.
    let loadedUpTo: Double?
    /// The earlier segment to fetch next.
    var next: Int
}

extension MediaPlayer {
    /// The most segments fetched before a wanted one to reach a keyframe.
    static let prerollSegmentLimit = 5

    /// Whether `segment` begins with a keyframe of its video (true when it has no video).
    static func beginsWithKeyframe(_ segment: BufferedSegment) -> Bool {
        segment.demuxed.packets.first { $0.kind == .video }?.isKeyframe ?? true
    }

    /// Whether `segment` holds a keyframe of its video anywhere (true when it has no video): decoding from
    /// its start reaches a clean picture before the segments after it.
    static func holdsKeyframe(_ segment: BufferedSegment) -> Bool {
        let video = segment.demuxed.packets.filter { $0.kind == .video }
        return video.isEmpty || video.contains { $0.isKeyframe }
    }

    /// The segment before `sequence` to decode first, if it can help: listed, not a gap, in the same
    /// discontinuity (its timestamps run on into the wanted one's).
    func prerollCandidate(before sequence: Int, of tracked: TrackedSegment) -> Int? {
        guard let previous = state.tracker?.segment(mediaSequence: sequence - 1), !previous.segment.gap, !tracked.segment.discontinuity,
              previous.discontinuitySequence == tracked.discontinuitySequence else { return nil }
        return previous.mediaSequence
    }

    /// Called with a content segment just buffered: true when it was held back because decoding must start
    /// earlier (the caller then stops there); false when it plays as it is.
    func holdForPreroll(_ sequence: Int, tracked: TrackedSegment, placement: Placement, presented: (start: Double, end: Double)?) -> Bool {
        guard state.needsKeyframe else { return false }
        state.needsKeyframe = false
        guard configuration.mode == .decode, let segment = buffer.forward.last, segment.tracked.mediaSequence == sequence,
              !Self.beginsWithKeyframe(segment), let previous = prerollCandidate(before: sequence, of: tracked),
              let held = buffer.removeLast() else { return false }
        state.preroll = Preroll(held: [held], sequence: sequence, tracked: tracked, placement: placement, presented: presented,
                                lastContentEnd: state.lastContentEnd, loadedUpTo: state.loadedEnd.map { $0 - placement.offset }, next: previous)
        bus.post(.custom(name: "prerollStarted", payload: [
            "mediaSequence": String(sequence), "fetching": String(previous),
            "reason": "the segment does not begin with a keyframe; decoding starts in an earlier one",
        ]))
        return true
    }

    /// An earlier segment fetched for a preroll: buffered; if it holds no keyframe either (and the
    /// limit allows) the one before it is wanted; otherwise the held segments follow it and the wanted one
    /// is done (``segmentDone(_:tracked:placement:presented:now:)``).
    func prerollSegmentArrived(_ transfer: NetworkTransfer, sequence: Int, now: Double) {
        guard var preroll = state.preroll, let tracked = state.tracker?.segment(mediaSequence: sequence) else { return }
        recordSegment(transfer, mediaSequence: sequence, now: now)
        var placement = preroll.placement
        placement.clipEnd = nil
        // Only decoded: nothing before the wanted segment's first media is presented (after a switch of
        // rendition, that time was shown from the rung before).
        if let wanted = preroll.held.last {
            let start = max(wanted.timelineStart - placement.offset, preroll.loadedUpTo ?? -.infinity)
            placement.clipStart = max(placement.clipStart ?? start, start)
        }
        _ = bufferSegment(transfer, tracked: tracked, placement: placement, now: now)
        if let segment = buffer.forward.last, segment.tracked.mediaSequence == sequence, !Self.holdsKeyframe(segment),
           preroll.held.count < Self.prerollSegmentLimit, let previous = prerollCandidate(before: sequence, of: tracked),
           let earlier = buffer.removeLast() {
            preroll.held.insert(earlier, at: 0)
            preroll.next = previous
            state.preroll = preroll
            return
        }
        // Decoding starts at this segment's keyframe: the pictures before it reference frames never fetched
        // (they decoded to damage, reported as such).
        if let segment = buffer.forward.last, segment.tracked.mediaSequence == sequence, !Self.beginsWithKeyframe(segment) {
            segment.skipVideoUntilKeyframe = true
        }
        finishPreroll(preroll, now: now)
    }

    /// A preroll segment could not be fetched (or is no longer listed): the held segments play as they are.
    func prerollFailed(now: Double) {
        guard let preroll = state.preroll else { return }
        finishPreroll(preroll, now: now)
    }

    /// Puts the held segments back after what was fetched before them, and the wanted segment is done.
    private func finishPreroll(_ preroll: Preroll, now: Double) {
        for segment in preroll.held { buffer.append(segment) }
        state.lastContentEnd = preroll.lastContentEnd
        state.preroll = nil
        segmentDone(preroll.sequence, tracked: preroll.tracked, placement: preroll.placement, presented: preroll.presented, now: now)
    }
}
