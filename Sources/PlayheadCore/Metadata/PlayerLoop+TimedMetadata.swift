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

    /// Reports the timed ID3 of a content fMP4 segment: its top-level `emsg` boxes of the CMAF ID3 scheme
    /// (libavformat skips them), once each, at their presentation time (version 1) or at that many ticks
    /// after the segment's first media (version 0); times as ``reportID3(_:tracked:segmentStart:spanStart:)``.
    func reportEventMessages(_ bytes: [UInt8], tracked: TrackedSegment, segmentStart: Double, spanStart: Double) {
        guard ContainerFormat.sniff(bytes) == .mp4 else { return }
        for box in EventMessageBox.boxes(in: bytes) where box.schemeIdURI == EventMessageBox.id3Scheme {
            guard let pts = box.seconds(segmentStartSeconds: spanStart), let tag = ID3Tag(box.messageData) else { continue }
            guard state.id3Seen.insert("\(tracked.mediaSequence)#emsg#\(box.id)#\(box.presentationTime)#\(box.messageData.hashValue)").inserted else { continue }
            let metadata = TimedMetadata(id: TimedMetadata.unique("ID3@\(tracked.mediaSequence)", in: &state.timedMetadataIDs), name: nil,
                                         timeSeconds: segmentStart + pts - spanStart, type: .id3, metadata: tag.keyValues,
                                         content: Data(box.messageData).base64EncodedString(), mediaSequence: tracked.mediaSequence)
            report.timedMetadata.append(metadata)
            bus.post(.timedMetadata(metadata))
        }
    }

    /// Reports the timed-ID3 packets of a content segment just demuxed (every one, subscribed or not, as
    /// the PSDK reports ID3 metadata), once each: `segmentStart` is the content time of the segment's
    /// first media, `spanStart` that media's timestamp in seconds.
    func reportID3(_ demuxed: DemuxedSegment, tracked: TrackedSegment, segmentStart: Double, spanStart: Double) {
        let streams = Set(demuxed.streams.filter { $0.kind == .data && $0.codecName == "timed_id3" }.map(\.index))
        guard !streams.isEmpty else { return }
        for packet in demuxed.packets where streams.contains(packet.streamIndex) {
            guard let pts = packet.pts, let bytes = ID3Tag.tagBytes(ofTimedID3Packet: packet.bytes), let tag = ID3Tag(bytes) else { continue }
            guard state.id3Seen.insert("\(tracked.mediaSequence)#\(pts)#\(bytes.hashValue)").inserted else { continue }
            let seconds = segmentStart + Double(pts) * packet.timeBase.doubleValue - spanStart
            let metadata = TimedMetadata(id: TimedMetadata.unique("ID3@\(tracked.mediaSequence)", in: &state.timedMetadataIDs), name: nil, timeSeconds: seconds,
                                         type: .id3, metadata: tag.keyValues, content: Data(bytes).base64EncodedString(),
                                         mediaSequence: tracked.mediaSequence)
            report.timedMetadata.append(metadata)
            bus.post(.timedMetadata(metadata))
        }
    }
}
