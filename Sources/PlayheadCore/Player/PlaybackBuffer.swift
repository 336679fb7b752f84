import PlayheadMedia

/// A demuxed segment in the buffer, placed on the content timeline.
final class BufferedSegment {
    /// The packets and the open container.
    let demuxed: DemuxedSegment
    /// Where the playlist puts the segment.
    let tracked: TrackedSegment
    /// Timeline time of its first presented media, master kind (true timestamps, anchored, clipped).
    let timelineStart: Double
    /// Timeline time of the end of its presented media.
    let timelineEnd: Double
    /// Bytes fetched for it.
    let byteCount: Int
    /// The URL it was fetched from (damage found while decoding names it).
    let url: String
    /// Its source and where that source sits on the timeline.
    var placement: Placement
    /// The key its timestamps are anchored under: its discontinuity sequence, or the key of an
    /// undeclared timestamp jump at or before it (see ``MediaPlayer/anchorKey(for:firstPTS:url:now:)``).
    let anchorKey: Int
    /// Index of the next packet to hand to the renderer.
    var nextPacket = 0
    /// Its video packets before its first keyframe are not decoded (decoding starts here, at that keyframe:
    /// a preroll, or a seek restarting in the buffer).
    var skipVideoUntilKeyframe = false

    init(demuxed: DemuxedSegment, tracked: TrackedSegment, timelineStart: Double, timelineEnd: Double, byteCount: Int,
         placement: Placement, anchorKey: Int? = nil, url: String? = nil) {
        self.url = url ?? tracked.segment.uri
        self.placement = placement
        self.anchorKey = anchorKey ?? tracked.discontinuitySequence
        self.demuxed = demuxed
        self.tracked = tracked
        self.timelineStart = timelineStart
        self.timelineEnd = timelineEnd
        self.byteCount = byteCount
    }

    var isConsumed: Bool { nextPacket >= demuxed.packets.count }

    /// Where its media of each kind ends on the timeline (its timestamps laid on its placement, which follows
    /// its master kind); worked out once.
    lazy var timelineEnds: [MediaKind: Double] = {
        let master: MediaKind = demuxed.streams.contains { $0.kind == .video } ? .video : .audio
        guard let masterSpan = demuxed.timeSpan(of: master) else { return [:] }
        var ends: [MediaKind: Double] = [:]
        for kind in [MediaKind.video, .audio] {
            if let span = demuxed.timeSpan(of: kind) { ends[kind] = timelineStart + (span.end - masterSpan.start) }
        }
        return ends
    }()
}

/// The forward buffer of demuxed segments in playback order, and a capped back buffer of segments
/// already handed to the renderer. Levels are in seconds of demuxed media on the playback timeline.
final class PlaybackBuffer {
    private(set) var forward: [BufferedSegment] = []
    private(set) var back: [BufferedSegment] = []
    /// Seconds of media kept behind the playhead.
    let backBufferSeconds: Double

    init(backBufferSeconds: Double) { self.backBufferSeconds = backBufferSeconds }

    /// Adds a segment at the end.
    func append(_ segment: BufferedSegment) { forward.append(segment) }

    /// Takes the last segment added back out (it waits for the segments before it; see ``Preroll``).
    func removeLast() -> BufferedSegment? { forward.popLast() }

    /// Content time where the buffered media ends (nil when nothing is buffered).
    var bufferedEnd: Double? { forward.last?.timelineEnd }

    /// Seconds of each kind of media (video, audio) buffered ahead of `position`: where the last forward
    /// segment holding that kind ends it (``BufferedSegment/timelineEnds``); no entry for a kind none holds.
    func levels(at position: Double) -> [MediaKind: Double] {
        var levels: [MediaKind: Double] = [:]
        for segment in forward.reversed() where levels.count < 2 {
            for (kind, end) in segment.timelineEnds where levels[kind] == nil { levels[kind] = max(0, end - position) }
        }
        return levels
    }

    /// Seconds of media buffered ahead of `position`.
    func level(at position: Double) -> Double {
        guard let end = bufferedEnd else { return 0 }
        return max(0, end - position)
    }

    /// The next packet in playback order and the segment it belongs to; moves consumed segments to the back buffer.
    func nextPacket() -> (Packet, BufferedSegment)? {
        while let first = forward.first {
            if first.isConsumed {
                back.append(forward.removeFirst())
                continue
            }
            let packet = first.demuxed.packets[first.nextPacket]
            first.nextPacket += 1
            return (packet, first)
        }
        return nil
    }

    /// The next packet if it belongs to `segment` (the rest of one segment, in order).
    func nextPacket(within segment: BufferedSegment) -> (Packet, BufferedSegment)? {
        guard let first = forward.first, first === segment, !first.isConsumed else { return nil }
        return nextPacket()
    }

    /// Whether every buffered packet has been handed out.
    var isDrained: Bool { forward.allSatisfy(\.isConsumed) }

    /// Drops back-buffer segments that end more than `backBufferSeconds` before `position`.
    func trimBack(position: Double) {
        back.removeAll { $0.timelineEnd < position - backBufferSeconds }
    }

    /// Rewinds for a seek to timeline time `target` inside the media held (the back buffer, then the
    /// forward buffer): the segment holding it (or, when that one begins without a keyframe, the last one
    /// before it that holds one; none held, and the answer is false) and every one after it are handed out again from their first
    /// packet, and those before it stay behind. Only an unbroken run of content qualifies
    /// (consecutive media sequences, each starting within 0.1 s of where the one before ended, or up to
    /// 0.5 s before it, from the segment whose first media is at or before `target` to the last);
    /// otherwise nothing changes and
    /// the answer is false.
    func rewind(toTimeline target: Double) -> Bool {
        let held = back + forward
        guard let last = held.last, target < last.timelineEnd,
              var index = held.lastIndex(where: { $0.timelineStart <= target + 1e-6 }) else { return false }
        // Decoding starts at a keyframe: from an earlier segment held when this one begins without one.
        if !MediaPlayer.beginsWithKeyframe(held[index]) {
            // None held: the seek fetches, and its preroll goes back to a keyframe (decoding from this
            // segment showed nothing until its keyframe, half a second after the target).
            guard let keyed = held[..<index].lastIndex(where: MediaPlayer.holdsKeyframe) else { return false }
            index = keyed
            held[keyed].skipVideoUntilKeyframe = !MediaPlayer.beginsWithKeyframe(held[keyed])
        }
        let run = held[index...]
        guard run.allSatisfy({ $0.placement.source == .content }) else { return false }
        // (A segment cut by time may begin with B-frames shown before its cut: an overlap, not a hole.)
        for (before, after) in zip(run, run.dropFirst())
        where after.tracked.mediaSequence != before.tracked.mediaSequence + 1 || after.timelineStart - before.timelineEnd > 0.1
            || after.timelineStart - before.timelineEnd < -0.5 {
            return false
        }
        for segment in run { segment.nextPacket = 0 }
        back = Array(held[..<index])
        forward = Array(run)
        return true
    }

    /// Empties both buffers (a seek or a stop).
    func clear() {
        forward = []
        back = []
    }
}
