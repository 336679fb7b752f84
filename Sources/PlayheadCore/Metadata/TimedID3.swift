import PlayheadMedia

/// A timed-ID3 tag found in a segment's media: a timed-ID3 packet of MPEG-TS, or a CMAF `emsg` box of the
/// ID3 scheme in fMP4 (libavformat skips those), with its time in seconds of the segment's media timestamps.
struct TimedID3 {
    /// Its time, seconds of the media's timestamps.
    var mediaSeconds: Double
    /// The ID3 tag's bytes.
    var bytes: [UInt8]
    /// The tag parsed.
    var tag: ID3Tag
    /// What tells it from the other tags of its segment (a segment loaded again gives the same).
    var key: String

    /// The timed ID3 of a segment: `demuxed` its packets, `body` its bytes (for `emsg` boxes), `spanStart`
    /// the timestamp, seconds, of its first media (where a version-0 box's time counts from).
    static func found(in demuxed: DemuxedSegment, body: [UInt8], spanStart: Double) -> [TimedID3] {
        var found: [TimedID3] = []
        let streams = Set(demuxed.streams.filter { $0.kind == .data && $0.codecName == "timed_id3" }.map(\.index))
        for packet in demuxed.packets where streams.contains(packet.streamIndex) {
            guard let pts = packet.pts, let bytes = ID3Tag.tagBytes(ofTimedID3Packet: packet.bytes), let tag = ID3Tag(bytes) else { continue }
            found.append(TimedID3(mediaSeconds: Double(pts) * packet.timeBase.doubleValue, bytes: bytes, tag: tag, key: "\(pts)#\(bytes.hashValue)"))
        }
        guard ContainerFormat.sniff(body) == .mp4 else { return found }
        for box in EventMessageBox.boxes(in: body) where box.schemeIdURI == EventMessageBox.id3Scheme {
            guard let seconds = box.seconds(segmentStartSeconds: spanStart), let tag = ID3Tag(box.messageData) else { continue }
            found.append(TimedID3(mediaSeconds: seconds, bytes: box.messageData, tag: tag,
                                  key: "emsg#\(box.id)#\(box.presentationTime)#\(box.messageData.hashValue)"))
        }
        return found
    }
}
