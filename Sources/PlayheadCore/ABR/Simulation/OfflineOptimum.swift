/// The offline optimum: the best rung sequence for a trace known in advance, under the simulator's own
/// conventions (it steps through ``PlaybackState``, as ``ChunkSimulator`` does).
///
/// Discretisation: dynamic programming over chunks. After each chunk, states that agree on the last
/// rung, on the trace position to within ``positionBinSeconds`` and on the buffer to within
/// ``bufferBinSeconds`` (same bin) are merged, keeping the one with the higher QoE so far, *with its exact
/// position and buffer* (nothing is rounded). Every value reported is therefore that of a real rung
/// sequence, which ``ChunkSimulator/replay(rungs:trace:video:settings:)`` reproduces exactly; merging can
/// only lose paths, so the value is a lower bound on the true optimum that tightens as the bins shrink.
/// (Pensieve's `dp.cc` instead rounds time down and buffer up on a 50 ms grid and lower-bounds download
/// times, which makes it an optimistic estimate.) States whose QoE so far plus the best conceivable
/// remainder (top utility, no stall, no switch) cannot reach the best complete sequence found by a
/// greedy pass are dropped; that prune is exact.
public struct OfflineOptimum: Sendable {
    /// Trace-position bin: 0.05 s (the grid of Pensieve's `dp.cc`).
    public static let defaultPositionBinSeconds = 0.05
    /// Buffer bin: 0.05 s.
    public static let defaultBufferBinSeconds = 0.05

    /// Margin of the exact prune, so that rounding in sums taken in another order never drops the
    /// greedy sequence that set the bound.
    static let pruneSlack = 1e-6

    /// Width of a trace-position bin in seconds.
    public var positionBinSeconds = defaultPositionBinSeconds
    /// Width of a buffer bin in seconds.
    public var bufferBinSeconds = defaultBufferBinSeconds

    /// The solver's answer.
    public struct Solution: Sendable, Equatable {
        /// The best total QoE found (scored chunks only).
        public var value: Double
        /// Its rung for every chunk.
        public var rungs: [Int]
        /// States kept over all chunks (a measure of the work done).
        public var stateCount: Int
    }

    /// Creates a solver with the default bins.
    public init(positionBinSeconds: Double = defaultPositionBinSeconds, bufferBinSeconds: Double = defaultBufferBinSeconds) {
        self.positionBinSeconds = positionBinSeconds
        self.bufferBinSeconds = bufferBinSeconds
    }

    /// The best sequence for `trace`; chunk 0 is at the settings' initial bitrate, as in the simulator.
    /// - Parameter lowerBound: QoE of any known complete sequence (such as a policy's), to prune with.
    public func solve(trace: BandwidthTrace, video: ChunkVideo, settings: ChunkSimulationSettings = .init(),
                      metric: QoEMetric = .lin, lowerBound: Double = -.infinity) -> Solution {
        let link = settings.link(trace)
        let count = min(settings.chunkCount, video.chunkBytes.count)
        let rungCount = video.ladderBitsPerSecond.count
        let utilities = metric.utilities(video.ladderBitsPerSecond)
        let topUtility = utilities.max() ?? 0
        let probe = ABRContext(ladderBitsPerSecond: video.ladderBitsPerSecond)
        let first = probe.highestIndex(atMost: Double(settings.initialBitsPerSecond))

        var start = PlaybackState()
        let outcome = start.download(bytes: video.chunkBytes[0][first], segmentSeconds: video.segmentSeconds,
                                     link: link, settings: settings)
        let firstValue = settings.unscoredLeadingChunks > 0
            ? 0 : metric.reward(utility: utilities[first], previousUtility: utilities[first], rebufferSeconds: outcome.rebufferSeconds)
        var layer = Layer()
        layer.append(state: start, value: firstValue, rung: first, parent: -1)
        var history = RungHistory()
        history.append(rungs: layer.rungs, parents: layer.parents)
        var incumbent = lowerBound
        var stateCount = 1

        for chunk in 1..<max(1, count) {
            let scored = chunk >= settings.unscoredLeadingChunks
            let remainderBound = Double(count - 1 - chunk) * topUtility
            var next = Layer()
            var slots: [Int: [Int32]] = [:]
            slots.reserveCapacity(layer.count * 2)
            for parent in 0..<layer.count {
                let previous = Int(layer.rungs[parent])
                for rung in 0..<rungCount {
                    var state = layer.states[parent]
                    let step = state.download(bytes: video.chunkBytes[chunk][rung], segmentSeconds: video.segmentSeconds,
                                              link: link, settings: settings)
                    let gain = scored ? metric.reward(utility: utilities[rung], previousUtility: utilities[previous],
                                                      rebufferSeconds: step.rebufferSeconds) : 0
                    let value = layer.values[parent] + gain
                    if value + remainderBound < incumbent - Self.pruneSlack { continue }
                    let key = rung | Int(state.tracePositionSeconds / positionBinSeconds) << 5
                    next.offer(key: key, state: state, value: value, rung: rung, parent: parent,
                               penalty: metric.rebufferPenalty, slots: &slots, bufferBin: bufferBinSeconds)
                }
            }
            next.compact()
            // A greedy completion of the best state so far tightens the prune for the next chunks.
            if let best = next.values.indices.max(by: { next.values[$0] < next.values[$1] }) {
                incumbent = max(incumbent, next.values[best] + greedyRemainder(from: next.states[best], rung: Int(next.rungs[best]),
                                                                             chunk: chunk, count: count, video: video, link: link,
                                                                             settings: settings, metric: metric))
            }
            stateCount += next.count
            history.append(rungs: next.rungs, parents: next.parents)
            layer = next
        }
        guard let best = layer.values.indices.max(by: { layer.values[$0] < layer.values[$1] }) else {
            return Solution(value: -.infinity, rungs: [], stateCount: stateCount)
        }
        let rungs = history.sequence(endingAt: best)
        return Solution(value: layer.values[best], rungs: rungs, stateCount: stateCount)
    }

    /// QoE of finishing from `state` by always taking the rung with the best immediate reward.
    private func greedyRemainder(from state: PlaybackState, rung: Int, chunk: Int, count: Int, video: ChunkVideo,
                                 link: SimulatedLink, settings: ChunkSimulationSettings, metric: QoEMetric) -> Double {
        let utilities = metric.utilities(video.ladderBitsPerSecond)
        var state = state
        var previous = rung
        var total = 0.0
        for next in (chunk + 1)..<max(chunk + 1, count) {
            var bestGain = -Double.infinity
            var bestRung = 0
            var bestState = state
            for candidate in utilities.indices {
                var trial = state
                let step = trial.download(bytes: video.chunkBytes[next][candidate], segmentSeconds: video.segmentSeconds,
                                          link: link, settings: settings)
                let gain = metric.reward(utility: utilities[candidate], previousUtility: utilities[previous],
                                         rebufferSeconds: step.rebufferSeconds)
                if gain > bestGain { bestGain = gain; bestRung = candidate; bestState = trial }
            }
            total += next >= settings.unscoredLeadingChunks ? bestGain : 0
            state = bestState
            previous = bestRung
        }
        return total
    }

    /// One chunk's states, as parallel arrays.
    private struct Layer {
        var states: [PlaybackState] = []
        var values: [Double] = []
        var rungs: [UInt8] = []
        var parents: [Int32] = []
        var count: Int { values.count }

        mutating func append(state: PlaybackState, value: Double, rung: Int, parent: Int) {
            states.append(state)
            values.append(value)
            rungs.append(UInt8(rung))
            parents.append(Int32(parent))
        }

        mutating func replace(_ slot: Int, state: PlaybackState, value: Double, rung: Int, parent: Int) {
            states[slot] = state
            values[slot] = value
            rungs[slot] = UInt8(rung)
            parents[slot] = Int32(parent)
        }

        /// Whether a state with `value` and `buffer` makes one with `otherValue` and `otherBuffer`
        /// redundant: at least as much QoE, after crediting the other's extra buffer (if any) at the stall
        /// penalty, the most a second of buffer can be worth.
        static func dominates(_ value: Double, _ buffer: Double, _ otherValue: Double, _ otherBuffer: Double,
                              penalty: Double, bufferBin: Double) -> Bool {
            value >= otherValue + penalty * max(0, otherBuffer - buffer - bufferBin)
        }

        /// Adds a state to the bin `key` unless a member dominates it; drops the members it dominates.
        mutating func offer(key: Int, state: PlaybackState, value: Double, rung: Int, parent: Int, penalty: Double,
                            slots: inout [Int: [Int32]], bufferBin: Double) {
            let members = slots[key] ?? []
            var kept: [Int32] = []
            kept.reserveCapacity(members.count + 1)
            for member in members {
                let slot = Int(member)
                if Self.dominates(values[slot], states[slot].bufferSeconds, value, state.bufferSeconds,
                                  penalty: penalty, bufferBin: bufferBin) { return }
                if Self.dominates(value, state.bufferSeconds, values[slot], states[slot].bufferSeconds,
                                  penalty: penalty, bufferBin: bufferBin) {
                    values[slot] = -.infinity  // dead; removed by compact()
                } else {
                    kept.append(member)
                }
            }
            kept.append(Int32(count))
            append(state: state, value: value, rung: rung, parent: parent)
            slots[key] = kept
        }

        /// Removes dead states (parents point into the previous layer, so nothing else moves).
        mutating func compact() {
            var write = 0
            for read in 0..<count where values[read] > -.infinity {
                if write != read { replace(write, state: states[read], value: values[read], rung: Int(rungs[read]), parent: Int(parents[read])) }
                write += 1
            }
            states.removeLast(count - write)
            rungs.removeLast(count - write)
            parents.removeLast(count - write)
            values.removeLast(count - write)
        }
    }
}
