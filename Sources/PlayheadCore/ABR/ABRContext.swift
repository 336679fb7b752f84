/// What a policy sees before choosing the next segment's rendition.
public struct ABRContext: Sendable {
    /// The ladder's bitrates in bits per second, ascending; policies answer an index into it.
    public var ladderBitsPerSecond: [Int]
    /// Index of the segment about to be fetched (0 for the first).
    public var segmentIndex: Int
    /// Duration of one segment in seconds.
    public var segmentSeconds: Double
    /// Seconds of media buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// The forward-buffer target: the loader stops fetching when this much is buffered.
    public var maxBufferSeconds: Double
    /// Ladder index of the previous segment; nil before the first.
    public var lastIndex: Int?
    /// Measured transfers, most recent last (the player may keep only a recent window).
    public var samples: [ThroughputSample]
    /// Bytes of upcoming chunks, per upcoming chunk (the next first), per rung; nil when unknown.
    public var upcomingChunkBytes: [[Int]]?
    /// Share of frames dropped by the renderer recently, in [0, 1].
    public var droppedFrameRatio: Double
    /// Session time in seconds.
    public var sessionSeconds: Double

    /// Creates a context. Everything but the ladder has a neutral default (first segment, 4 s segments,
    /// empty buffer with a 60 s target, no history).
    public init(ladderBitsPerSecond: [Int], segmentIndex: Int = 0, segmentSeconds: Double = 4,
                bufferSeconds: Double = 0, maxBufferSeconds: Double = 60, lastIndex: Int? = nil,
                samples: [ThroughputSample] = [], upcomingChunkBytes: [[Int]]? = nil,
                droppedFrameRatio: Double = 0, sessionSeconds: Double = 0) {
        self.ladderBitsPerSecond = ladderBitsPerSecond
        self.segmentIndex = segmentIndex
        self.segmentSeconds = segmentSeconds
        self.bufferSeconds = bufferSeconds
        self.maxBufferSeconds = maxBufferSeconds
        self.lastIndex = lastIndex
        self.samples = samples
        self.upcomingChunkBytes = upcomingChunkBytes
        self.droppedFrameRatio = droppedFrameRatio
        self.sessionSeconds = sessionSeconds
    }

    /// The highest index whose bitrate is at most `bitsPerSecond`; 0 when none is.
    public func highestIndex(atMost bitsPerSecond: Double) -> Int {
        var best = 0
        for (index, rate) in ladderBitsPerSecond.enumerated() where Double(rate) <= bitsPerSecond { best = index }
        return best
    }

    /// Bytes of the chunk `ahead` chunks from now (0 = the next) at rung `index`: from
    /// ``upcomingChunkBytes`` when known, else bitrate × segment duration.
    public func chunkBytes(ahead: Int, index: Int) -> Double {
        if let table = upcomingChunkBytes, ahead < table.count, index < table[ahead].count {
            return Double(table[ahead][index])
        }
        return Double(ladderBitsPerSecond[index]) * segmentSeconds / 8
    }

    /// How many upcoming chunks are known to exist; nil when the table is unknown (open-ended).
    public var knownUpcomingCount: Int? { upcomingChunkBytes?.count }
}
