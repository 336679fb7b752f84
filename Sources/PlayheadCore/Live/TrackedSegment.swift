import PlayheadHLS

/// A media segment placed on the content timeline by ``LivePlaylistTracker``.
public struct TrackedSegment: Sendable, Equatable {
    /// The segment's media sequence number.
    public var mediaSequence: Int
    /// The segment's discontinuity sequence number, on the tracker's numbering: when a reload
    /// disagrees with what was already known, the known numbering is kept and new segments are
    /// shifted to follow it (``segment`` keeps the number the server wrote).
    public var discontinuitySequence: Int
    /// Content time at which the segment starts, in seconds. Fixed when the segment is first seen
    /// and never moved by later reloads.
    public var startSeconds: Double
    /// The EXTINF duration in seconds.
    public var durationSeconds: Double
    /// The segment as parsed when it was first seen.
    public var segment: MediaSegment

    /// Creates a tracked segment.
    /// - Parameters:
    ///   - mediaSequence: the media sequence number.
    ///   - discontinuitySequence: the discontinuity sequence number.
    ///   - startSeconds: content start time in seconds.
    ///   - durationSeconds: duration in seconds; a negative one (which the parser accepts with a warning)
    ///     counts as 0, so the timeline never runs backwards.
    ///   - segment: the parsed segment.
    public init(mediaSequence: Int, discontinuitySequence: Int, startSeconds: Double,
                durationSeconds: Double, segment: MediaSegment) {
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds > 0 ? durationSeconds : 0
        self.segment = segment
    }

    /// Content time at which the segment ends, in seconds.
    public var endSeconds: Double { startSeconds + durationSeconds }
}

/// What one reload changed (the result of ``LivePlaylistTracker/update(with:loadedAt:)``).
public struct PlaylistUpdate: Sendable, Equatable {
    /// True when the reload brought new segments, dropped old ones or added EXT-X-ENDLIST; this is
    /// what RFC 8216bis section 6.3.4 calls a changed playlist for the reload interval. Edits to
    /// other tags alone (date ranges, partial segments) do not count.
    public var changed: Bool
    /// Media sequence numbers of the segments seen for the first time, ascending.
    public var newSegments: [Int]
    /// Media sequence numbers of the segments that fell off the front of the window, ascending.
    public var removedSegments: [Int]
    /// True when this reload is the first to carry EXT-X-ENDLIST.
    public var endListAdded: Bool
    /// Problems that were tolerated: media sequence regression or jump, discontinuity sequence
    /// mismatch, EXTINF sums corrected by program date-times. One sentence each.
    public var warnings: [String]

    /// Creates an update; every field defaults to "nothing happened".
    /// - Parameters:
    ///   - changed: see ``changed``.
    ///   - newSegments: see ``newSegments``.
    ///   - removedSegments: see ``removedSegments``.
    ///   - endListAdded: see ``endListAdded``.
    ///   - warnings: see ``warnings``.
    public init(changed: Bool = false, newSegments: [Int] = [], removedSegments: [Int] = [],
                endListAdded: Bool = false, warnings: [String] = []) {
        self.changed = changed
        self.newSegments = newSegments
        self.removedSegments = removedSegments
        self.endListAdded = endListAdded
        self.warnings = warnings
    }
}
