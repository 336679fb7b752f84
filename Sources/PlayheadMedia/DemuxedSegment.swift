/// One segment demuxed into packets, waiting to be decoded (or, in demux mode, presented from its
/// packet timestamps). Keeps its container open: decoders are set up from its codec parameters.
///
/// Not thread-safe: use on one task.
public final class DemuxedSegment {
    let demuxer: Demuxer
    /// Every packet of the segment, in container order.
    public let packets: [Packet]
    /// Damage found while demuxing and, later, decoding this segment.
    public internal(set) var damage: [MediaDamage]
    /// The segment follows an EXT-X-DISCONTINUITY.
    public let discontinuity: Bool

    init(demuxer: Demuxer, packets: [Packet], damage: [MediaDamage], discontinuity: Bool) {
        self.demuxer = demuxer
        Self.fillMissingDurations(packets)
        self.packets = packets
        self.damage = damage
        self.discontinuity = discontinuity
    }

    /// Gives a duration to packets the container left without one. An fMP4 fragment demuxed on its own
    /// leaves its last sample of each stream at 0 (its duration comes from the next fragment), and TS
    /// leaves reordered B-frames at 0, so the segment's media ended one frame early: ads were placed a
    /// frame short (content resumed under the ad's last frame) and the drift line counted a frame per
    /// segment missing. Such a packet gets the stream's most common duration in the segment, or, when no
    /// packet has one, the most common gap between its timestamps (not the gap to the next timestamp:
    /// with B-frames the next one in display order may be in the next segment, and a frame got two
    /// frames' time).
    static func fillMissingDurations(_ packets: [Packet]) {
        guard packets.contains(where: { $0.duration <= 0 && $0.pts != nil }) else { return }
        let byStream = Dictionary(grouping: packets.filter { $0.pts != nil }, by: \.streamIndex)
        for (_, stream) in byStream where stream.contains(where: { $0.duration <= 0 }) {
            var counts: [Int64: Int] = [:]
            for packet in stream where packet.duration > 0 { counts[packet.duration, default: 0] += 1 }
            if counts.isEmpty {
                let ordered = stream.map { $0.pts! }.sorted()
                for (a, b) in zip(ordered, ordered.dropFirst()) where b > a { counts[b - a, default: 0] += 1 }
            }
            guard let common = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key else { continue }
            for packet in stream where packet.duration <= 0 { packet.raw.pointee.duration = common }
        }
    }

    /// The segment's elementary streams.
    public var streams: [StreamInfo] { demuxer.streams }

    /// First and end presentation time, in seconds of media timestamps, of the first stream of
    /// `kind`; nil when it has no timed packet. End is the latest `pts + duration`.
    public func timeSpan(of kind: MediaKind) -> (start: Double, end: Double)? {
        guard let index = streams.first(where: { $0.kind == kind })?.index else { return nil }
        var start = Double.infinity, end = -Double.infinity
        for packet in packets where packet.streamIndex == index {
            guard let pts = packet.pts else { continue }
            let unit = packet.timeBase.doubleValue
            start = min(start, Double(pts) * unit)
            end = max(end, Double(pts + max(packet.duration, 0)) * unit)
        }
        return start.isFinite ? (start, end) : nil
    }
}
