import PlayheadHLS

/// Follows a live (or event, or VOD) media playlist across reloads, per RFC 8216bis section 6.3.4
/// (reloading) and 6.3.3 (where to start).
///
/// Pure logic: it does no I/O and never reads a clock. The caller loads the playlist, parses it,
/// and hands it over with the time of the load (any monotonic seconds, virtual or real); the
/// tracker answers when to load again, where to start, what may be sought, and whether the player
/// fell behind the sliding window.
///
/// Content time: the first segment of the first playlist starts at 0 s and each later segment
/// starts where the one before it ended (see ``update(with:loadedAt:)`` for program date-times and
/// gaps). A segment keeps the start it was first given for as long as it is tracked, so positions
/// handed to the player stay valid across reloads.
///
/// ``segments`` holds the current window: segments that fall off the front of the playlist are
/// reported in ``PlaylistUpdate/removedSegments`` and dropped, so memory stays bounded on a
/// sliding window that runs for hours.
public struct LivePlaylistTracker: Sendable {
    /// The tuning in force.
    public let settings: LivePlaylistSettings
    /// The last playlist accepted (a stale reload, whose media sequence went back, is not accepted).
    public internal(set) var playlist: MediaPlaylist
    /// Every segment of the current window, in media-sequence order, each placed on the content
    /// timeline.
    public internal(set) var segments: [TrackedSegment]
    /// True once any load carried EXT-X-ENDLIST; it stays true.
    public internal(set) var endListSeen: Bool
    /// The time of the last load (first or reload), in the caller's seconds.
    public internal(set) var lastLoadSeconds: Double
    /// The time of the last load that changed the playlist (the first load counts as a change).
    public internal(set) var lastChangeSeconds: Double
    /// Whether the last load changed the playlist.
    public internal(set) var lastLoadChanged: Bool
    /// Why the last reload was ignored as stale (its media sequence went back and it lists segments seen
    /// before); nil when the last reload was taken. Lets a playlist that seems stuck say it did change.
    public internal(set) var lastStaleReload: String? = nil
    /// The highest media sequence number ever tracked (the first playlist's media sequence minus
    /// one while no segment has been seen).
    public internal(set) var highestMediaSequence: Int
    /// The live edge while the window is empty: the end of the last segment that fell off.
    var emptyWindowEdgeSeconds: Double
    /// Discontinuities the tracker implied at renumberings and restarts of the origin (see
    /// ``update(with:loadedAt:)``).
    public internal(set) var impliedDiscontinuities = 0
    /// Added to the playlist's own discontinuity numbers when no tracked segment says otherwise
    /// (it changes where the tracker implies a discontinuity).
    var discontinuityShift = 0
    /// Added to the origin's media sequence numbers to give the tracker's (see
    /// ``update(with:loadedAt:)``): 0 until the origin renumbers its segments. ``TrackedSegment/segment``
    /// keeps the origin's number (it derives the AES-128 IV).
    public internal(set) var mediaSequenceShift = 0
    /// The media sequence number of the first segment the server still lists (EXT-X-MEDIA-SEQUENCE
    /// of the last accepted playlist), on the tracker's numbering.
    public internal(set) var firstAvailableMediaSequence: Int
    /// Segments that fell off the window, most recent last (at most ``removedHistoryLimit``): their
    /// identity and tracker number, to tell a stale copy of the playlist from a renumbered one.
    var removedHistory: [(identity: String, mediaSequence: Int)] = []
    /// How many removed segments ``removedHistory`` keeps.
    static let removedHistoryLimit = 256

    /// Starts tracking from the first load of a media playlist.
    /// - Parameters:
    ///   - first: the parsed playlist.
    ///   - seconds: when it was loaded (measure from the start of the request, as section 6.3.4
    ///     does), in the caller's seconds.
    ///   - settings: the tuning; every value defaults to its ``LivePlaylistSettings`` named static.
    public init(first: MediaPlaylist, loadedAt seconds: Double,
                settings: LivePlaylistSettings = LivePlaylistSettings()) {
        self.settings = settings
        playlist = first
        var startSeconds = 0.0
        segments = first.segments.map { segment in
            let tracked = TrackedSegment(mediaSequence: segment.mediaSequence,
                                         discontinuitySequence: segment.discontinuitySequence,
                                         startSeconds: startSeconds, durationSeconds: segment.duration,
                                         segment: segment)
            startSeconds += tracked.durationSeconds
            return tracked
        }
        endListSeen = first.endList
        lastLoadSeconds = seconds
        lastChangeSeconds = seconds
        lastLoadChanged = true
        highestMediaSequence = first.segments.last?.mediaSequence ?? first.mediaSequence - 1
        firstAvailableMediaSequence = first.mediaSequence
        emptyWindowEdgeSeconds = 0
    }

    /// True while the playlist may still grow: no EXT-X-ENDLIST seen and not `PLAYLIST-TYPE:VOD`.
    /// An event playlist is live until its ENDLIST arrives.
    public var isLive: Bool { !endListSeen && playlist.playlistType != .vod }

    /// EXT-X-TARGETDURATION in seconds; when missing, the longest segment rounded up, else
    /// ``LivePlaylistSettings/fallbackTargetDurationSeconds``.
    public var targetDurationSeconds: Double {
        if let declared = playlist.targetDuration, declared > 0 { return Double(declared) }
        if let longest = segments.map(\.durationSeconds).max(), longest > 0 { return longest.rounded(.up) }
        return settings.fallbackTargetDurationSeconds
    }

    /// How far behind the live edge a live player should stay: SERVER-CONTROL HOLD-BACK when given,
    /// else ``LivePlaylistSettings/startTargetDurationsFromEnd`` target durations (the spec's default
    /// HOLD-BACK is three target durations).
    public var holdBackSeconds: Double {
        if let holdBack = playlist.serverControl?.holdBackSeconds, holdBack >= 0 { return holdBack }
        return settings.startTargetDurationsFromEnd * targetDurationSeconds
    }

    /// The live edge: content time of the end of the last segment, in seconds.
    public var liveEdgeSeconds: Double { segments.last?.endSeconds ?? emptyWindowEdgeSeconds }

    /// When to reload next, in the caller's seconds: one target duration after a load that changed
    /// the playlist (the first load counts), half of one after a load that did not (section 6.3.4).
    /// - Returns: nil once EXT-X-ENDLIST is seen and for VOD: no reload is needed.
    public func nextReloadTime() -> Double? {
        guard isLive else { return nil }
        let waitSeconds = lastLoadChanged ? targetDurationSeconds : targetDurationSeconds / 2
        return lastLoadSeconds + waitSeconds
    }

    /// Whether a live playlist is stuck: unchanged for
    /// ``LivePlaylistSettings/stuckAfterTargetDurations`` target durations (3.5 by default)
    /// counted from the last load that changed it. Never true once the playlist has ended.
    /// - Parameter seconds: the time now, in the caller's seconds.
    public func isStuck(at seconds: Double) -> Bool {
        isLive && seconds - lastChangeSeconds >= settings.stuckAfterTargetDurations * targetDurationSeconds
    }

    /// The segment with a media sequence number, if it is in the window.
    /// - Parameter mediaSequence: the media sequence number.
    public func segment(mediaSequence: Int) -> TrackedSegment? {
        guard let index = lastIndex(where: { $0.mediaSequence <= mediaSequence }),
              segments[index].mediaSequence == mediaSequence else { return nil }
        return segments[index]
    }

    /// The segment holding a content time: the one with `start ≤ t < start + duration` (when
    /// segments overlap, the later one).
    /// - Parameter seconds: content time in seconds.
    /// - Returns: nil before the window, after the live edge, or in a gap between segments.
    public func segment(containing seconds: Double) -> TrackedSegment? {
        guard let index = lastIndex(where: { $0.startSeconds <= seconds }),
              seconds < segments[index].endSeconds else { return nil }
        return segments[index]
    }

    /// The index of the last segment satisfying a predicate that holds for a prefix of the window
    /// (binary search), or nil when it holds for none.
    func lastIndex(where isBefore: (TrackedSegment) -> Bool) -> Int? {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(segments[middle]) { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
