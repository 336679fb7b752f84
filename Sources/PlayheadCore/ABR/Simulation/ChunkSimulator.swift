/// One chunk of a simulated session.
public struct ChunkRecord: Sendable, Equatable, Codable {
    /// Chunk index (0 first).
    public var index: Int
    /// Ladder index fetched.
    public var rung: Int
    /// Bytes fetched.
    public var bytes: Int
    /// Seconds from request to last byte.
    public var downloadSeconds: Double
    /// Seconds stalled waiting for this chunk (for chunk 0: the startup delay).
    public var rebufferSeconds: Double
    /// Seconds buffered once the chunk was in (after any sleep).
    public var bufferSeconds: Double
    /// Seconds slept after it because the buffer was full.
    public var sleepSeconds: Double
}

/// A simulated session: the chunks and how they are scored.
public struct ChunkSession: Sendable, Equatable {
    /// Every chunk, in order.
    public var records: [ChunkRecord]
    /// The ladder played.
    public var ladderBitsPerSecond: [Int]
    /// Seconds of media per chunk.
    public var segmentSeconds: Double
    /// Leading chunks left out of the scores.
    public var unscoredLeadingChunks: Int

    /// Creates a session from its records.
    public init(records: [ChunkRecord], ladderBitsPerSecond: [Int], segmentSeconds: Double, unscoredLeadingChunks: Int) {
        self.records = records
        self.ladderBitsPerSecond = ladderBitsPerSecond
        self.segmentSeconds = segmentSeconds
        self.unscoredLeadingChunks = unscoredLeadingChunks
    }

    private var scored: ArraySlice<ChunkRecord> { records.dropFirst(unscoredLeadingChunks) }

    /// Total QoE over the scored chunks (the first scored chunk's smoothness term is against the chunk
    /// before it).
    public func qoe(_ metric: QoEMetric) -> Double {
        let utilities = metric.utilities(ladderBitsPerSecond)
        var total = 0.0
        for (position, record) in records.enumerated() where position >= unscoredLeadingChunks {
            let previous = position > 0 ? records[position - 1].rung : record.rung
            total += metric.reward(utility: utilities[record.rung], previousUtility: utilities[previous],
                                   rebufferSeconds: record.rebufferSeconds)
        }
        return total
    }

    /// Mean bitrate of the scored chunks in bits per second.
    public var averageBitsPerSecond: Double {
        let chunks = scored
        guard !chunks.isEmpty else { return 0 }
        return chunks.reduce(0) { $0 + Double(ladderBitsPerSecond[$1.rung]) } / Double(chunks.count)
    }

    /// Seconds stalled over the scored chunks.
    public var rebufferSeconds: Double { scored.reduce(0) { $0 + $1.rebufferSeconds } }

    /// Stalled share of the scored span: rebuffer / (rebuffer + media seconds).
    public var rebufferRatio: Double {
        let media = Double(scored.count) * segmentSeconds
        let stall = rebufferSeconds
        return media + stall > 0 ? stall / (media + stall) : 0
    }

    /// Rung changes between consecutive chunks, over the scored chunks.
    public var switchCount: Int {
        var count = 0
        for position in max(1, unscoredLeadingChunks)..<max(1, records.count)
        where records[position].rung != records[position - 1].rung { count += 1 }
        return count
    }
}

/// The chunk-level trace-driven simulator: `fixed_env.py`'s conventions, driving the player's own
/// ``ABRController`` (so the policies are the very types the player runs).
public enum ChunkSimulator {
    /// Plays `video` over `trace` with `policy`.
    /// - Parameters:
    ///   - policy: The policy (reset before use).
    ///   - controls: Controls around it; when its initial bitrate is nil, the settings' is used.
    ///   - trace: The bandwidth trace.
    ///   - video: Ladder and chunk sizes.
    ///   - settings: The simulator's conventions. Default: the literature's.
    public static func run(policy: any ABRPolicy, controls: ABRControls = .init(), trace: BandwidthTrace,
                           video: ChunkVideo, settings: ChunkSimulationSettings = .init()) -> ChunkSession {
        var policy = policy
        policy.reset()
        var controls = controls
        if controls.initialBitsPerSecond == nil { controls.initialBitsPerSecond = settings.initialBitsPerSecond }
        var controller = ABRController(policy: policy, controls: controls)
        return run(trace: trace, video: video, settings: settings) { controller.select($0).index }
    }

    /// Plays a fixed rung sequence (such as the optimum's) over `trace`.
    public static func replay(rungs: [Int], trace: BandwidthTrace, video: ChunkVideo,
                              settings: ChunkSimulationSettings = .init()) -> ChunkSession {
        run(trace: trace, video: video, settings: settings) { rungs[min($0.segmentIndex, rungs.count - 1)] }
    }

    /// The loop itself: `choose` answers a ladder index for each context.
    public static func run(trace: BandwidthTrace, video: ChunkVideo, settings: ChunkSimulationSettings,
                           choose: (ABRContext) -> Int) -> ChunkSession {
        let link = settings.link(trace)
        let count = min(settings.chunkCount, video.chunkBytes.count)
        var state = PlaybackState()
        var records: [ChunkRecord] = []
        var samples: [ThroughputSample] = []
        var last: Int?
        for index in 0..<count {
            let context = ABRContext(
                ladderBitsPerSecond: video.ladderBitsPerSecond, segmentIndex: index, segmentSeconds: video.segmentSeconds,
                bufferSeconds: state.bufferSeconds, maxBufferSeconds: settings.maxBufferSeconds, lastIndex: last,
                samples: samples, upcomingChunkBytes: Array(video.chunkBytes[index..<count]),
                droppedFrameRatio: 0, sessionSeconds: state.sessionSeconds)
            let rung = min(max(choose(context), 0), video.ladderBitsPerSecond.count - 1)
            let bytes = video.chunkBytes[index][rung]
            let started = state.sessionSeconds
            let outcome = state.download(bytes: bytes, segmentSeconds: video.segmentSeconds, link: link, settings: settings)
            samples.append(ThroughputSample(bytes: bytes, seconds: outcome.downloadSeconds,
                                            endSeconds: started + outcome.downloadSeconds))
            records.append(ChunkRecord(index: index, rung: rung, bytes: bytes, downloadSeconds: outcome.downloadSeconds,
                                       rebufferSeconds: outcome.rebufferSeconds, bufferSeconds: state.bufferSeconds,
                                       sleepSeconds: outcome.sleepSeconds))
            last = rung
        }
        return ChunkSession(records: records, ladderBitsPerSecond: video.ladderBitsPerSecond,
                            segmentSeconds: video.segmentSeconds, unscoredLeadingChunks: settings.unscoredLeadingChunks)
    }
}
