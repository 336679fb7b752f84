import Foundation

/// A video as the chunk-level simulator sees it: a ladder and every chunk's size at every rung.
public struct ChunkVideo: Sendable, Equatable {
    /// Pensieve's test ladder: 300, 750, 1200, 1850, 2850, 4300 kbit/s.
    public static let pensieveLadderBitsPerSecond = [300_000, 750_000, 1_200_000, 1_850_000, 2_850_000, 4_300_000]
    /// Pensieve's chunk duration: 4 s (`VIDEO_CHUNCK_LEN`).
    public static let defaultSegmentSeconds = 4.0

    /// Bitrates of the rungs in bits per second, ascending.
    public var ladderBitsPerSecond: [Int]
    /// Bytes of each chunk (outer) at each rung (inner).
    public var chunkBytes: [[Int]]
    /// Duration of every chunk in seconds.
    public var segmentSeconds: Double

    /// Creates a video.
    public init(ladderBitsPerSecond: [Int], chunkBytes: [[Int]], segmentSeconds: Double = defaultSegmentSeconds) {
        self.ladderBitsPerSecond = ladderBitsPerSecond
        self.chunkBytes = chunkBytes
        self.segmentSeconds = segmentSeconds
    }

    /// A constant-bitrate video: every chunk is exactly bitrate × duration.
    public static func constantBitrate(ladderBitsPerSecond: [Int] = pensieveLadderBitsPerSecond, chunkCount: Int,
                                       segmentSeconds: Double = defaultSegmentSeconds) -> ChunkVideo {
        let row = ladderBitsPerSecond.map { Int((Double($0) * segmentSeconds / 8).rounded()) }
        return ChunkVideo(ladderBitsPerSecond: ladderBitsPerSecond, chunkBytes: Array(repeating: row, count: chunkCount),
                          segmentSeconds: segmentSeconds)
    }

    /// Reads Pensieve's `video_size_0` … `video_size_N` (one byte count a line, rung 0 the lowest) from
    /// `directory`, for the ladder given.
    /// - Throws: ``TraceError/unreadable(path:reason:)`` when a file is missing, ``TraceError/badNumber(trace:line:text:)``
    ///   for a bad line, ``TraceError/tooFewSamples(trace:count:)`` when the files disagree in length.
    public static func loadPensieveSizes(directory: String, ladderBitsPerSecond: [Int] = pensieveLadderBitsPerSecond,
                                         segmentSeconds: Double = defaultSegmentSeconds) throws(TraceError) -> ChunkVideo {
        var columns: [[Int]] = []
        for rung in ladderBitsPerSecond.indices {
            let path = (directory as NSString).appendingPathComponent("video_size_\(rung)")
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw .unreadable(path: path, reason: error.localizedDescription)
            }
            var sizes: [Int] = []
            for (number, line) in text.split(whereSeparator: BandwidthTrace.isLineEnd).enumerated() {
                let field = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first ?? ""
                guard let bytes = Int(field), bytes >= 0 else {
                    throw .badNumber(trace: path, line: number + 1, text: String(line))
                }
                sizes.append(bytes)
            }
            columns.append(sizes)
        }
        let count = columns.map(\.count).min() ?? 0
        guard count > 0, columns.allSatisfy({ $0.count == count }) else { throw .tooFewSamples(trace: directory, count: count) }
        let rows = (0..<count).map { chunk in columns.map { $0[chunk] } }
        return ChunkVideo(ladderBitsPerSecond: ladderBitsPerSecond, chunkBytes: rows, segmentSeconds: segmentSeconds)
    }
}

/// The literature's simulator conventions (Pensieve `test/fixed_env.py`), as data.
public struct ChunkSimulationSettings: Sendable, Equatable {
    /// Chunks played: 48 (`TOTAL_VIDEO_CHUNCK`; the size files hold 49).
    public static let defaultChunkCount = 48
    /// Buffer cap: 60 s (`BUFFER_THRESH`); above it the client sleeps.
    public static let defaultMaxBufferSeconds = 60.0
    /// Sleep granularity when the buffer is full: 0.5 s (`DRAIN_BUFFER_SLEEP_TIME`).
    public static let defaultDrainSleepSeconds = 0.5
    /// The first chunk's rung: the one at or below 750 kbit/s (`DEFAULT_QUALITY = 1`).
    public static let defaultInitialBitsPerSecond = 750_000
    /// Chunks left out of the QoE sum at the start: 1 (Pensieve's `plot_results.py` sums rewards from
    /// the second chunk, so the fixed first chunk and the startup delay do not count).
    public static let defaultUnscoredLeadingChunks = 1

    /// Chunks played (at most the video's chunk count).
    public var chunkCount = defaultChunkCount
    /// Buffer cap in seconds.
    public var maxBufferSeconds = defaultMaxBufferSeconds
    /// Sleep granularity in seconds.
    public var drainSleepSeconds = defaultDrainSleepSeconds
    /// The first chunk's bitrate (through ``ABRControls/initialBitsPerSecond``).
    public var initialBitsPerSecond = defaultInitialBitsPerSecond
    /// Leading chunks not scored.
    public var unscoredLeadingChunks = defaultUnscoredLeadingChunks
    /// Round trip per chunk.
    public var roundTripSeconds = SimulatedLink.defaultRoundTripSeconds
    /// Payload share of the trace's throughput.
    public var payloadFactor = SimulatedLink.defaultPayloadFactor
    /// Where the trace resumes after its end.
    public var wrapRule = SimulatedLink.defaultWrapRule
    /// Whether the round trip counts towards a stall: true in `fixed_env.py` (rebuffer = delay − buffer);
    /// Pensieve's `dp.cc` counts only the data time after the first chunk (false), so set false to compare.
    public var roundTripStalls = true

    /// The literature's conventions.
    public init() {}

    /// The link these settings describe over `trace`.
    public func link(_ trace: BandwidthTrace) -> SimulatedLink {
        SimulatedLink(trace: trace, roundTripSeconds: roundTripSeconds, payloadFactor: payloadFactor, wrapRule: wrapRule)
    }
}
