import PlayheadMedia

/// A frame waiting for its presentation time, on the playback timeline.
struct PendingFrame {
    /// Video or audio.
    var kind: MediaKind
    /// Playback timeline time of the frame (content plus inserted ads).
    var timelineSeconds: Double
    /// Content or the ad it comes from.
    var source: SpliceSource = .content
    /// Time on its own source (content seconds, or seconds into the ad).
    var sourceSeconds = 0.0
    /// Duration, seconds.
    var durationSeconds: Double
    /// The decoded frame (nil in demux mode, where packets stand in for frames).
    var frame: DecodedFrame?
    /// Media timestamp in seconds: the frame's, or in demux mode the packet's.
    var ptsSeconds: Double?
    /// Whether it is a keyframe: the frame's flag, or in demux mode the packet's.
    var isKeyframe: Bool?
    /// The URL of the segment it came from.
    var segmentURL: String?
}

/// Holds decoded frames until they are due, per kind, in presentation order; counts what was
/// presented, dropped and skipped.
struct FrameQueue {
    private var queues: [MediaKind: [PendingFrame]] = [:]
    private var heads: [MediaKind: Int] = [:]

    /// Adds a frame (frames of one kind come in presentation order).
    mutating func push(_ frame: PendingFrame) { queues[frame.kind, default: []].append(frame) }

    /// The next frame of `kind`, if any.
    func peek(_ kind: MediaKind) -> PendingFrame? {
        let head = heads[kind, default: 0]
        guard let queue = queues[kind], head < queue.count else { return nil }
        return queue[head]
    }

    /// Removes and returns the next frame of `kind`.
    mutating func pop(_ kind: MediaKind) -> PendingFrame? {
        guard let frame = peek(kind) else { return nil }
        let head = heads[kind, default: 0] + 1
        if head > 256, head * 2 > queues[kind]!.count {
            queues[kind]!.removeFirst(head)
            heads[kind] = 0
        } else {
            heads[kind] = head
        }
        return frame
    }

    /// The earliest pending frame over all kinds.
    func earliest() -> PendingFrame? {
        MediaKind.allCases.compactMap { peek($0) }.min { $0.timelineSeconds < $1.timelineSeconds }
    }

    /// Frames of `kind` waiting.
    func count(_ kind: MediaKind) -> Int { (queues[kind]?.count ?? 0) - heads[kind, default: 0] }

    /// Frames waiting, all kinds.
    var count: Int { queues.keys.reduce(0) { $0 + count($1) } }

    /// Forgets every frame.
    mutating func clear() {
        queues = [:]
        heads = [:]
    }
}
