/// Maps the content time of presented media (true timestamps, anchored) back onto the playlist's own
/// timeline (the EXTINF sums), segment by segment, for what is written in playlist time: server-side ad
/// avails, from the playlist's markers or a tracking document.
///
/// The two timelines part where EXTINFs miscount the media. A run after an EXT-X-DISCONTINUITY goes on
/// where the media before it really ended (``TimestampAnchor/continuationStart(listedStart:previousDrift:limit:)``),
/// so when the content before a stitched ad is listed 0.1 s short, the ad's first frame is 0.1 s after the
/// time the playlist gives the ad, and the content's last three frames lie past it. Compared on content
/// time, the ad started three frames early, on content. Mapped here, each segment's media falls inside its
/// own listed span: its first frame at its listed start, and media that runs past its EXTINF compressed
/// into it. So a frame is inside an avail exactly when its segment is, and an avail that starts at a
/// segment starts at that segment's first frame.
///
/// The player records every content segment it buffers, SSAI or not: a seek finds the segment whose media
/// holds its target here, and a break met again after a seek back is matched against the media it sits
/// between (``MediaPlayer/contentSegment(holding:in:)``).
struct PlaylistTimeMap: Sendable {
    /// One buffered content segment: where its media lies in content time, and its listed span.
    struct Span: Sendable, Equatable {
        /// Its media sequence number.
        var mediaSequence: Int
        /// Content time of its first media (master kind).
        var mediaStart: Double
        /// Content time of the end of its media.
        var mediaEnd: Double
        /// Where the playlist starts it, seconds.
        var listedStart: Double
        /// Its EXTINF, seconds.
        var listedDuration: Double
    }

    /// The segments recorded, in media sequence order (one each: a segment buffered again replaces it).
    private(set) var spans: [Span] = []

    /// The number of leading spans for which `isBefore` holds (it holds for a prefix of them: spans are in media
    /// sequence order, and so in listed and media time).
    private func count(before isBefore: (Span) -> Bool) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(spans[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The recorded span of segment `mediaSequence`, if it was buffered.
    func span(mediaSequence: Int) -> Span? {
        let low = count { $0.mediaSequence < mediaSequence }
        return low < spans.count && spans[low].mediaSequence == mediaSequence ? spans[low] : nil
    }

    /// The recorded span whose media holds content time `seconds`, if any.
    func span(holdingContent seconds: Double) -> Span? {
        let low = count { $0.mediaStart <= seconds + 1e-9 }
        guard low > 0, seconds < spans[low - 1].mediaEnd - 1e-9 else { return nil }
        return spans[low - 1]
    }

    /// Where the playlist lists content time `seconds` that no recorded segment holds: past the last recorded
    /// segment before it, at that segment's listed end plus the media since, counted at that segment's rate of
    /// EXTINF seconds to media seconds (EXTINFs that drift evenly are followed exactly); before every recorded
    /// one, shifted as the first. Nil when nothing was recorded.
    func estimatedPlaylistSeconds(forContent seconds: Double) -> Double? {
        guard let first = spans.first else { return nil }
        let low = count { $0.mediaStart <= seconds + 1e-9 }
        guard low > 0 else { return seconds - (first.mediaStart - first.listedStart) }
        let span = spans[low - 1]
        let length = span.mediaEnd - span.mediaStart
        let rate = length > 0 && span.listedDuration > 0 ? span.listedDuration / length : 1
        return span.listedStart + span.listedDuration + (seconds - span.mediaEnd) * rate
    }

    /// Records a buffered content segment.
    mutating func record(_ span: Span) {
        let low = count { $0.mediaSequence < span.mediaSequence }
        if low < spans.count, spans[low].mediaSequence == span.mediaSequence { spans[low] = span } else { spans.insert(span, at: low) }
    }

    /// The content time where playlist time `seconds` is (the inverse of ``playlistSeconds(forContent:)``): in
    /// the last segment recorded whose listed start is at or before it, its media's start plus the time into it
    /// (scaled up when the media outlasts its EXTINF); past that segment's listed end, its drift carried on.
    /// Nil when no segment was recorded.
    func contentSeconds(forPlaylist seconds: Double) -> Double? {
        guard let first = spans.first else { return nil }
        let low = count { $0.listedStart <= seconds + 1e-9 }
        guard low > 0 else { return seconds + (first.mediaStart - first.listedStart) }
        let span = spans[low - 1]
        let into = seconds - span.listedStart
        guard into <= span.listedDuration + 1e-9 else { return seconds + (span.mediaEnd - span.listedStart - span.listedDuration) }
        let length = span.mediaEnd - span.mediaStart
        let scale = length > span.listedDuration && span.listedDuration > 0 ? length / span.listedDuration : 1
        return span.mediaStart + into * scale
    }

    /// The playlist time of content time `seconds`: in the last segment recorded that starts at or before it,
    /// its listed start plus the time since its media started, scaled down when the media outlasts its EXTINF.
    /// Content time as it is before any segment, or when none was recorded.
    func playlistSeconds(forContent seconds: Double) -> Double {
        let low = count { $0.mediaStart <= seconds + 1e-9 }
        guard low > 0 else { return seconds }
        let span = spans[low - 1]
        let length = span.mediaEnd - span.mediaStart
        let scale = length > span.listedDuration && length > 0 ? span.listedDuration / length : 1
        return span.listedStart + max(0, seconds - span.mediaStart) * scale
    }
}
