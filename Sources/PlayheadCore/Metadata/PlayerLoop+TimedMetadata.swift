import Foundation
import PlayheadHLS
import PlayheadMedia

/// Subscribed tags: each playlist the loop takes in (the first, every reload, a switched variant's) is
/// scanned, and each tag not seen before becomes a `timedMetadata` event and a report entry.
extension MediaPlayer {
    /// Reports the subscribed tags of the segments `tracker` lists now (its last `listed` segments), its
    /// date ranges when `#EXT-X-DATERANGE` is subscribed, and, once the playlist has ended, the tags after
    /// its last segment.
    func reportTimedMetadata(_ tracker: LivePlaylistTracker, listed: Int) {
        guard !configuration.subscribedTags.isEmpty else { return }
        if state.timedMetadataScanner == nil {
            // The CLI and the daemon refuse a name that could never match; here such a name is only skipped.
            let valid = configuration.subscribedTags.filter { (try? TimedMetadataScanner.validate($0)) != nil }
            state.timedMetadataScanner = try? TimedMetadataScanner(tags: valid)
        }
        guard var scanner = state.timedMetadataScanner else { return }
        let segments = Array(tracker.segments.suffix(listed))
        let end = tracker.endListSeen ? tracker.segments.last?.endSeconds : nil
        let found = scanner.scan(segments, trailing: tracker.playlist.trailingTags, endSeconds: end, dateRanges: tracker.playlist.dateRanges)
        state.timedMetadataScanner = scanner
        for var metadata in found {
            metadata.id = TimedMetadata.unique(metadata.id, in: &state.timedMetadataIDs)
            report.timedMetadata.append(metadata)
            bus.post(.timedMetadata(metadata))
            noteBackgroundMetadata(metadata)
        }
    }

    /// Reports timed ID3 (``TimedID3``) of the content segment `mediaSequence` (every tag, subscribed or
    /// not, as the PSDK reports ID3 metadata), once each: `segmentStart` is the content time of the
    /// segment's first media, `spanStart` that media's timestamp in seconds. `source` tells the segment's
    /// own tags ("") from those of the audio rendition playing with it.
    func reportTimedID3(_ found: [TimedID3], source: String = "", mediaSequence: Int, segmentStart: Double, spanStart: Double) {
        for item in found {
            guard state.id3Seen.insert("\(source)\(mediaSequence)#\(item.key)").inserted else { continue }
            let metadata = TimedMetadata(id: TimedMetadata.unique("ID3@\(mediaSequence)", in: &state.timedMetadataIDs), name: nil,
                                         timeSeconds: segmentStart + item.mediaSeconds - spanStart, type: .id3, metadata: item.tag.keyValues,
                                         content: Data(item.bytes).base64EncodedString(), mediaSequence: mediaSequence)
            report.timedMetadata.append(metadata)
            bus.post(.timedMetadata(metadata))
        }
    }
}
