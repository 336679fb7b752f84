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
        self.packets = packets
        self.damage = damage
        self.discontinuity = discontinuity
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
