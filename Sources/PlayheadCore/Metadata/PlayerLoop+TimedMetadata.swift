import PlayheadHLS

/// Subscribed tags: each playlist the loop takes in (the first, every reload, a switched variant's) is
/// scanned, and each tag not seen before becomes a `timedMetadata` event and a report entry.
extension MediaPlayer {
    /// Reports the subscribed tags of the segments `tracker` lists now (its last `listed` segments), its
    /// date ranges when `#EXT-X-DATERANGE` is subscribed, and, once the playlist has ended, the tags after
    /// its last segment.
    func reportTimedMetadata(_ tracker: LivePlaylistTracker, listed: Int) {
        guard !configuration.subscribedTags.isEmpty else { return }
        if state.timedMetadataScanner == nil {
            // The CLI and the daemon refuse a name without '#'; here such a name is only skipped.
            state.timedMetadataScanner = try? TimedMetadataScanner(tags: configuration.subscribedTags.filter { $0.hasPrefix("#") && $0.count > 1 })
        }
        guard var scanner = state.timedMetadataScanner else { return }
        let segments = Array(tracker.segments.suffix(listed))
        let end = tracker.endListSeen ? tracker.segments.last?.endSeconds : nil
        let found = scanner.scan(segments, trailing: tracker.playlist.trailingTags, endSeconds: end, dateRanges: tracker.playlist.dateRanges)
        state.timedMetadataScanner = scanner
        for metadata in found {
            report.timedMetadata.append(metadata)
            bus.post(.timedMetadata(metadata))
        }
    }
}
