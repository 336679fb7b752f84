import PlayheadHLS

extension LivePlaylistTracker {
    /// What identifies a segment across reloads, whatever its number: its URI and byte range.
    static func identity(of segment: MediaSegment) -> String {
        guard let range = segment.byteRange else { return segment.uri }
        return "\(segment.uri)@\(range.offset)+\(range.length)"
    }

    /// Tracker numbers of the segments seen (the window and ``removedHistory``), by identity; an
    /// identity seen more than once (a slate or an ad played twice) maps to nil, as it names no one segment.
    private func seenSegments() -> [String: Int?] {
        var seen: [String: Int?] = [:]
        let entries = removedHistory + segments.map { (identity: Self.identity(of: $0.segment), mediaSequence: $0.mediaSequence) }
        for entry in entries {
            seen[entry.identity] = seen[entry.identity] == nil ? .some(entry.mediaSequence) : .some(nil)
        }
        return seen
    }

    /// Whether the reload lists any segment seen before (in the window or ``removedHistory``).
    func listsSeenSegment(_ reloaded: MediaPlaylist) -> Bool {
        let seen = seenSegments()
        return reloaded.segments.contains { seen[Self.identity(of: $0)] != nil }
    }

    /// Keeps the tracker's numbering when the origin renumbered its segments: when every segment of
    /// the reload that was seen once before (and is listed once) comes back under the same other
    /// number, at least one of them still in the window, and the reload so renumbered goes on from
    /// the window (neither starts before it nor ends before its last segment), ``mediaSequenceShift``
    /// takes up the difference, with a warning. (A channel that loops a few files under growing
    /// numbers lists files seen long ago under new numbers, but never beside the window's own.)
    mutating func followRenumbering(of reloaded: MediaPlaylist, warnings: inout [String]) {
        let seen = seenSegments()
        let inWindow = Set(segments.map { Self.identity(of: $0.segment) })
        var listed: [String: Int] = [:]
        for segment in reloaded.segments { listed[Self.identity(of: segment), default: 0] += 1 }
        var differences: Set<Int> = []
        var anyInWindow = false
        var example: (uri: String, was: Int, now: Int)?
        for segment in reloaded.segments {
            let identity = Self.identity(of: segment)
            guard listed[identity] == 1, case let .some(.some(known)) = seen[identity] else { continue }
            let now = segment.mediaSequence + mediaSequenceShift
            differences.insert(known - now)
            anyInWindow = anyInWindow || inWindow.contains(identity)
            if known != now, example == nil { example = (segment.uri, known, segment.mediaSequence) }
        }
        guard differences.count == 1, let difference = differences.first, difference != 0, anyInWindow, let example,
              let last = reloaded.segments.last,
              reloaded.mediaSequence + mediaSequenceShift + difference >= firstAvailableMediaSequence,
              last.mediaSequence + mediaSequenceShift + difference >= highestMediaSequence else { return }
        mediaSequenceShift += difference
        warnings.append("the origin renumbered its segments: \(example.uri) was media sequence \(example.was), the reload "
            + "lists it as \(example.now); the tracker keeps its numbering and plays on")
    }

    /// Adds segments that fell off the window to ``removedHistory``, keeping the most recent
    /// ``removedHistoryLimit``.
    mutating func remember(_ removed: ArraySlice<TrackedSegment>) {
        removedHistory += removed.map { (identity: Self.identity(of: $0.segment), mediaSequence: $0.mediaSequence) }
        if removedHistory.count > Self.removedHistoryLimit {
            removedHistory.removeFirst(removedHistory.count - Self.removedHistoryLimit)
        }
    }

    /// This tracker on `other`'s numbering: its media sequence and discontinuity numbers shifted as
    /// `other` shifts the origin's.
    func renumbered(like other: LivePlaylistTracker) -> LivePlaylistTracker {
        var copy = self
        for index in copy.segments.indices {
            copy.segments[index].mediaSequence += other.mediaSequenceShift
            copy.segments[index].discontinuitySequence += other.discontinuityShift
        }
        copy.highestMediaSequence += other.mediaSequenceShift
        copy.firstAvailableMediaSequence += other.mediaSequenceShift
        copy.mediaSequenceShift = other.mediaSequenceShift
        copy.discontinuityShift = other.discontinuityShift
        copy.impliedDiscontinuities = other.impliedDiscontinuities
        return copy
    }
}
