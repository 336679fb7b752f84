import Foundation

/// The offline optimum on Pensieve's `test/dp.cc` model of a session: the figure the ABR literature
/// normalises against, rebuilt here to cross-check ``OfflineOptimum`` (which follows `fixed_env.py`'s
/// own dynamics exactly).
///
/// The model, as `dp.cc` defines it (single-precision arithmetic throughout, as there):
/// - the trace is resampled on a 50 ms grid (each grid point takes the first sample at or after it) and
///   repeated as far as needed;
/// - a chunk's download time from grid point *t* is a lower bound: the grid steps before the one in which
///   its last byte arrives (payload 0.95 of the throughput);
/// - the 80 ms round trip is added to the clock but counts as a stall only on the first chunk;
/// - the buffer is rounded *up* to the grid and the clock *down* after every chunk; a buffer above 60 s
///   is cut to 60 s and the clock moves on by the excess (no 0.5 s sleep quantum);
/// - 49 chunks, the first at the initial rung, every chunk scored with QoE_lin (the first chunk's
///   rebuffer is its whole finish time).
///
/// The search is exhaustive over grid states (clock, buffer, last rung); states that cannot reach the
/// value of a known sequence even at the top rung without stalls or switches are dropped, which is exact.
/// (`dp.cc` itself drops states by comparing them with the best partial value so far in hash order,
/// which can cut the optimum; so its figure can fall slightly below this one.) Trace time is counted
/// from the trace's first sample; `dp.cc` assumes it is 0.
public struct GridOptimum: Sendable {
    /// The grid step: 0.05 s (`DT`).
    public static let step: Float = 0.05
    /// Chunks in `dp.cc`'s session: 49 (`TOTAL_VIDEO_CHUNCK`).
    public static let defaultChunkCount = 49

    /// Chunks in the session (at most the video's).
    public var chunkCount: Int
    /// The first chunk's rung (`DEFAULT_QUALITY`: 1).
    public var initialRung: Int

    /// The solver's answer.
    public struct Solution: Sendable, Equatable {
        /// The best total QoE_lin on the grid model.
        public var value: Double
        /// Its rung for every chunk.
        public var rungs: [Int]
        /// States kept over all chunks.
        public var stateCount: Int
    }

    /// Creates a solver for `chunkCount` chunks starting at `initialRung`.
    public init(chunkCount: Int = defaultChunkCount, initialRung: Int = 1) {
        self.chunkCount = chunkCount
        self.initialRung = initialRung
    }

    /// The best rung sequence on the grid model of `trace`.
    /// - Parameter knownRungs: a complete sequence (such as ``OfflineOptimum``'s) whose grid value seeds
    ///   the exact prune; without it the search keeps every reachable state.
    public func solve(trace: BandwidthTrace, video: ChunkVideo, knownRungs: [Int]? = nil) -> Solution {
        var model = GridModel(trace: trace, video: video)
        let count = min(chunkCount, video.chunkBytes.count)
        let rates = model.ratesMbps
        let top = rates.max() ?? 0
        var incumbent = -Float.infinity
        if let knownRungs, knownRungs.count == count { incumbent = value(of: knownRungs, model: &model) }

        var layer = GridLayer()
        let first = model.firstChunk(rung: initialRung)
        layer.append(time: first.time, buffer: first.buffer, rung: initialRung, value: first.value, parent: -1)
        var history = RungHistory()
        history.append(rungs: layer.rungs, parents: layer.parents)
        var stateCount = 1
        for chunk in 1..<max(1, count) {
            let remainder = Float(count - 1 - chunk) * top
            var next = GridLayer()
            var slots: [UInt64: Int32] = [:]
            slots.reserveCapacity(layer.count * 2)
            for parent in 0..<layer.count {
                let previous = Int(layer.rungs[parent])
                for rung in rates.indices {
                    let step = model.step(chunk: chunk, time: Int(layer.times[parent]), buffer: Int(layer.buffers[parent]),
                                          rung: rung, previous: previous)
                    let value = step.reward + layer.values[parent]
                    if value + remainder < incumbent - 0.001 { continue }
                    let key = UInt64(step.time) << 32 | UInt64(step.buffer) << 8 | UInt64(rung)
                    if let slot = slots[key] {
                        if value > next.values[Int(slot)] {
                            next.values[Int(slot)] = value
                            next.parents[Int(slot)] = Int32(parent)
                        }
                    } else {
                        slots[key] = Int32(next.count)
                        next.append(time: step.time, buffer: step.buffer, rung: rung, value: value, parent: parent)
                    }
                }
            }
            // A greedy completion of the best state so far tightens the prune for the next chunks.
            if let best = next.values.indices.max(by: { next.values[$0] < next.values[$1] }) {
                incumbent = max(incumbent, next.values[best] + greedyRemainder(
                    time: Int(next.times[best]), buffer: Int(next.buffers[best]), rung: Int(next.rungs[best]),
                    chunk: chunk, count: count, model: &model))
            }
            stateCount += next.count
            history.append(rungs: next.rungs, parents: next.parents)
            layer = next
        }
        guard let best = layer.values.indices.max(by: { layer.values[$0] < layer.values[$1] }) else {
            return Solution(value: -.infinity, rungs: [], stateCount: stateCount)
        }
        let rungs = history.sequence(endingAt: best)
        return Solution(value: Double(layer.values[best]), rungs: rungs, stateCount: stateCount)
    }

    /// The grid model's QoE_lin of playing `rungs` (chunk 0 at `rungs[0]`) over `trace`.
    public func value(of rungs: [Int], trace: BandwidthTrace, video: ChunkVideo) -> Double {
        var model = GridModel(trace: trace, video: video)
        return Double(value(of: rungs, model: &model))
    }

    /// QoE of finishing from a state by always taking the rung with the best immediate reward.
    private func greedyRemainder(time: Int, buffer: Int, rung: Int, chunk: Int, count: Int, model: inout GridModel) -> Float {
        var time = time, buffer = buffer, previous = rung
        var total: Float = 0
        for next in (chunk + 1)..<max(chunk + 1, count) {
            var best = (time: time, buffer: buffer, reward: -Float.infinity)
            var bestRung = 0
            for candidate in model.ratesMbps.indices {
                let step = model.step(chunk: next, time: time, buffer: buffer, rung: candidate, previous: previous)
                if step.reward > best.reward { best = step; bestRung = candidate }
            }
            total += best.reward
            time = best.time
            buffer = best.buffer
            previous = bestRung
        }
        return total
    }

    /// The grid model's QoE_lin of each of `sequences` over `trace` (one model shared by all).
    public func values(of sequences: [[Int]], trace: BandwidthTrace, video: ChunkVideo) -> [Double] {
        var model = GridModel(trace: trace, video: video)
        return sequences.map { Double(value(of: $0, model: &model)) }
    }

    private func value(of rungs: [Int], model: inout GridModel) -> Float {
        guard let head = rungs.first else { return 0 }
        let first = model.firstChunk(rung: head)
        var time = first.time, buffer = first.buffer, total = first.value
        for chunk in rungs.indices.dropFirst() {
            let step = model.step(chunk: chunk, time: time, buffer: buffer, rung: rungs[chunk], previous: rungs[chunk - 1])
            total += step.reward
            time = step.time
            buffer = step.buffer
        }
        return total
    }
}

/// One chunk's grid states, as parallel arrays.
private struct GridLayer {
    var times: [Int32] = []
    var buffers: [Int32] = []
    var rungs: [UInt8] = []
    var values: [Float] = []
    var parents: [Int32] = []
    var count: Int { values.count }

    mutating func append(time: Int, buffer: Int, rung: Int, value: Float, parent: Int) {
        times.append(Int32(time))
        buffers.append(Int32(buffer))
        rungs.append(UInt8(rung))
        values.append(value)
        parents.append(Int32(parent))
    }
}

/// `dp.cc`'s quantised trace and its step, with download times memoised per chunk, grid point and rung.
private struct GridModel {
    static let roundTrip = Float(80) / Float(1000)
    static let chunkSeconds = Float(4000) / Float(1000)
    static let bufferCap = Float(60)
    static let rebufferPenalty = Float(4.3)

    /// Grid times, accumulated in single precision as `dp.cc` does (its buffer reads them too).
    private(set) var times: [Float]
    /// Throughput at each grid point, Mbit/s.
    private var bandwidths: [Float]
    /// Grid points in one period of the trace (index 0 is not repeated).
    private let period: Int
    let ratesMbps: [Float]
    private let ratesKbps: [Int]
    private let chunkBytes: [[Int]]
    /// Memoised download times, by chunk × rung, then grid point; negative when not computed.
    private var downloads: [[Float]]

    init(trace: BandwidthTrace, video: ChunkVideo) {
        let start = trace.times.first ?? 0
        let samples = trace.times.map { Float($0 - start) }
        let last = samples.last ?? 0
        let points = Int((last / GridOptimum.step).rounded(.up))
        var times: [Float] = []
        var clock: Float = 0
        for _ in 0...points {
            times.append(clock)
            clock += GridOptimum.step
        }
        var bandwidths: [Float] = []
        var index = 0
        for time in times {
            while index < samples.count - 1 && samples[index] < time { index += 1 }
            bandwidths.append(Float(trace.megabitsPerSecond[index]))
        }
        self.times = times
        self.bandwidths = bandwidths
        period = max(1, points)
        ratesKbps = video.ladderBitsPerSecond.map { $0 / 1000 }
        ratesMbps = ratesKbps.map { Float($0) / Float(1000) }
        chunkBytes = video.chunkBytes
        downloads = Array(repeating: [], count: video.chunkBytes.count * video.ladderBitsPerSecond.count)
    }

    /// Repeats the trace (as `dp.cc` does) until grid point `index` exists.
    private mutating func extend(through index: Int) {
        while times.count <= index {
            let offset = times[times.count - 1]
            for point in 1...period {
                times.append(times[point] + offset)
                bandwidths.append(bandwidths[point])
            }
        }
    }

    /// Lower-bounded download time of `chunk` at `rung` starting at grid point `time`.
    mutating func downloadSeconds(chunk: Int, time: Int, rung: Int) -> Float {
        let row = chunk * ratesKbps.count + rung
        if time < downloads[row].count, downloads[row][time] >= 0 { return downloads[row][time] }
        let size = Float(chunkBytes[chunk][rung])
        var downloaded: Float = 0
        var spent: Float = 0
        var point = time
        while true {
            extend(through: point + 1)
            downloaded += bandwidths[point] * GridOptimum.step / Float(8) * Float(1_000_000) * Float(0.95)
            point += 1
            if downloaded >= size { break }
            spent += GridOptimum.step
        }
        if downloads[row].count <= time {
            downloads[row].append(contentsOf: repeatElement(-1, count: time + 1 - downloads[row].count))
        }
        downloads[row][time] = spent
        return spent
    }

    /// The first chunk: its finish time is all stall.
    mutating func firstChunk(rung: Int) -> (time: Int, buffer: Int, value: Float) {
        let finish = downloadSeconds(chunk: 0, time: 0, rung: rung) + Self.roundTrip
        let time = Int((finish / GridOptimum.step).rounded(.down))
        let buffer = Int(Self.chunkSeconds / GridOptimum.step)
        return (time, buffer, ratesMbps[rung] - Self.rebufferPenalty * finish)
    }

    /// One chunk after the first, from grid clock `time` and grid buffer `buffer`.
    mutating func step(chunk: Int, time: Int, buffer: Int, rung: Int, previous: Int) -> (time: Int, buffer: Int, reward: Float) {
        let download = downloadSeconds(chunk: chunk, time: time, rung: rung)
        extend(through: max(time, buffer))
        var level = times[buffer]
        let rebuffer = max(download - level, 0)
        let reward = ratesMbps[rung] - Self.rebufferPenalty * rebuffer
            - Float(abs(ratesKbps[rung] - ratesKbps[previous])) / Float(1000)
        level = max(level - download - Self.roundTrip, 0) + Self.chunkSeconds
        var drain: Float = 0
        if level > Self.bufferCap {
            drain = level - Self.bufferCap
            level = Self.bufferCap
        }
        let finish = times[time] + download + drain + Self.roundTrip
        return (Int((finish / GridOptimum.step).rounded(.down)), Int((level / GridOptimum.step).rounded(.up)), reward)
    }
}
