import CFFmpeg

/// One segment demuxed into packets, waiting to be decoded (or, in demux mode, presented from its
/// packet timestamps). Keeps its container open: decoders are set up from its codec parameters.
///
/// Not thread-safe: use on one task.
public final class DemuxedSegment {
    let demuxer: Demuxer
    /// Another container whose streams this segment carries too (a demuxed audio rendition's, see
    /// ``replacing(_:with:from:)``), its stream indices moved up by ``joinedIndexOffset``.
    let joined: Demuxer?
    /// The kinds taken from `joined` (the segment's own streams of these kinds are left out).
    let joinedKinds: Set<MediaKind>
    /// Every packet of the segment, in container order.
    public let packets: [Packet]
    /// Damage found while demuxing and, later, decoding this segment.
    public internal(set) var damage: [MediaDamage]
    /// The segment follows an EXT-X-DISCONTINUITY.
    public let discontinuity: Bool

    init(demuxer: Demuxer, packets: [Packet], damage: [MediaDamage], discontinuity: Bool,
         joined: Demuxer? = nil, joinedKinds: Set<MediaKind> = []) {
        self.demuxer = demuxer
        self.joined = joined
        self.joinedKinds = joinedKinds
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

    /// The segment's elementary streams (with a joined container: its own but those of the joined
    /// kinds, then the joined container's of those kinds, their indices moved up).
    public var streams: [StreamInfo] {
        guard let joined else { return demuxer.streams }
        return demuxer.streams.filter { !joinedKinds.contains($0.kind) } + joined.streams.filter { joinedKinds.contains($0.kind) }.map {
            var info = $0
            info.index += Self.joinedIndexOffset
            return info
        }
    }

    /// Added to the stream indices of a joined container (and its packets'): above any a segment has.
    public static let joinedIndexOffset = 1000

    /// The raw stream with index `index` (as ``streams`` numbers them), for decoder set-up.
    func stream(at index: Int) -> UnsafeMutablePointer<AVStream> {
        if let joined, index >= Self.joinedIndexOffset { return joined.stream(at: index - Self.joinedIndexOffset) }
        return demuxer.stream(at: index)
    }

    /// This segment with its media of `kinds` taken from `other` instead: its own packets of those kinds
    /// are left out and `packets` (of `other`, which keeps its container open for their decoder) come
    /// in, interleaved by decode time. An HLS variant whose audio is a separate rendition (EXT-X-MEDIA
    /// TYPE=AUDIO with a URI) plays so: each video segment carries the rendition's audio of its time.
    /// The packets given are renumbered to this segment's indices: give each to one segment only.
    public func replacing(_ kinds: Set<MediaKind>, with packets: [Packet], from other: DemuxedSegment) -> DemuxedSegment {
        for packet in packets where packet.streamIndex < Self.joinedIndexOffset {
            packet.raw.pointee.stream_index += Int32(Self.joinedIndexOffset)
        }
        let own = self.packets.filter { !kinds.contains($0.kind) }
        return DemuxedSegment(demuxer: demuxer, packets: RenditionDecoder.interleaved(own + packets), damage: damage,
                              discontinuity: discontinuity, joined: other.demuxer, joinedKinds: kinds)
    }

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
