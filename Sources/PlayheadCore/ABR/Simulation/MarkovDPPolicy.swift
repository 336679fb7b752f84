import Foundation

/// A learned policy for the benchmark: stochastic dynamic programming to the video's end on a
/// ``MarkovThroughputModel``, for QoE_lin under the simulator's conventions.
///
/// The state is the buffer (on a grid of ``defaultBufferStepSeconds``, values interpolated between grid
/// points), the last rung and the bin of the last chunk's payload throughput; the next chunk's
/// throughput is drawn from the model's row for that bin, its download costs its bits at that rate plus
/// the round trip, and the buffer is capped at the simulator's maximum (the sleep's 0.5 s steps are not
/// modelled). The value table is solved once per model and video, backwards from the last chunk, and each
/// decision takes the rung of highest expected QoE_lin to the video's end.
///
/// It is causal (it reads only past downloads) but needs a model fitted on traces, and it plans with the
/// simulator's chunk sizes and round trip, so only the benchmark runs it: there it is fitted on the other
/// folds of a trace set and scored on the held-out fold (``BenchABR``'s `--folds`).
public struct MarkovDPPolicy: ABRPolicy {
    /// The name the benchmark reports it under: "markov-dp".
    public static let referenceName = "markov-dp"
    /// Buffer grid step: 0.5 s.
    public static let defaultBufferStepSeconds = 0.5
    /// Weight of the |bitrate change| term in the plan: 1, QoE_lin's own.
    public static let defaultSwitchPenaltyFactor = 1.0

    /// "markov-dp".
    public let name = referenceName
    /// The throughput model planned with.
    public let model: MarkovThroughputModel
    /// Weight of the |bitrate change| term in the plan (more makes the plan stickier; the score is
    /// QoE_lin's whatever the weight).
    public let switchPenaltyFactor: Double
    private let video: ChunkVideo
    private let chunkCount: Int
    private let maxBufferSeconds: Double
    private let roundTripSeconds: Double
    private let bufferStepSeconds: Double
    private let bufferPoints: Int
    private let rungMegabits: [Double]
    /// Bits per second of each bin's centre.
    private let binBitsPerSecond: [Double]
    /// Expected QoE_lin to the end, indexed by ``slot(_:_:_:_:)``.
    private var values: [Float]

    /// Solves the value table for `video` under `settings` (chunk count, buffer cap, round trip).
    /// - Parameters:
    ///   - model: The throughput model.
    ///   - video: Ladder and chunk sizes (the simulator's).
    ///   - settings: The simulator's conventions.
    ///   - bufferStepSeconds: The buffer grid's step. Default ``defaultBufferStepSeconds``.
    ///   - switchPenaltyFactor: Weight of the switch term in the plan. Default ``defaultSwitchPenaltyFactor``.
    public init(model: MarkovThroughputModel, video: ChunkVideo, settings: ChunkSimulationSettings = .init(),
                bufferStepSeconds: Double = defaultBufferStepSeconds, switchPenaltyFactor: Double = defaultSwitchPenaltyFactor) {
        precondition(bufferStepSeconds > 0 && settings.maxBufferSeconds > bufferStepSeconds, "MarkovDPPolicy needs a buffer grid")
        self.model = model
        self.switchPenaltyFactor = switchPenaltyFactor
        self.video = video
        chunkCount = min(settings.chunkCount, video.chunkBytes.count)
        maxBufferSeconds = settings.maxBufferSeconds
        roundTripSeconds = settings.roundTripSeconds
        self.bufferStepSeconds = bufferStepSeconds
        bufferPoints = Int((settings.maxBufferSeconds / bufferStepSeconds).rounded(.up)) + 1
        rungMegabits = video.ladderBitsPerSecond.map { Double($0) / 1_000_000 }
        binBitsPerSecond = (0..<model.binCount).map { model.megabitsPerSecond(bin: $0) * 1_000_000 }
        values = [Float](repeating: 0, count: (chunkCount + 1) * rungMegabits.count * model.binCount * bufferPoints)
        values = solve()
    }

    private func slot(_ chunk: Int, _ last: Int, _ bin: Int, _ point: Int) -> Int {
        ((chunk * rungMegabits.count + last) * model.binCount + bin) * bufferPoints + point
    }

    /// The table's value at a buffer level between grid points.
    private func value(_ table: UnsafeBufferPointer<Float>, _ chunk: Int, _ last: Int, _ bin: Int, _ buffer: Double) -> Double {
        let position = min(max(buffer, 0), maxBufferSeconds) / bufferStepSeconds
        let point = min(Int(position), bufferPoints - 2)
        let weight = position - Double(point)
        let base = slot(chunk, last, bin, point)
        return Double(table[base]) * (1 - weight) + Double(table[base + 1]) * weight
    }

    /// Expected QoE_lin to the end of taking `rung` for `chunk`, from `buffer` seconds after a chunk at
    /// `last` in throughput bin `bin`.
    private func expected(_ table: UnsafeBufferPointer<Float>, chunk: Int, last: Int, bin: Int, buffer: Double, rung: Int) -> Double {
        let bits = Double(video.chunkBytes[chunk][rung]) * 8
        let fixed = rungMegabits[rung] - switchPenaltyFactor * abs(rungMegabits[rung] - rungMegabits[last])
        var total = 0.0
        for (next, probability) in model.transitions[bin].enumerated() where probability > 1e-7 {
            let download = bits / binBitsPerSecond[next] + roundTripSeconds
            let rebuffer = max(download - buffer, 0)
            var gain = fixed - QoEMetric.lin.rebufferPenalty * rebuffer
            if chunk + 1 < chunkCount {
                let after = min(max(buffer - download, 0) + video.segmentSeconds, maxBufferSeconds)
                gain += value(table, chunk + 1, rung, next, after)
            }
            total += probability * gain
        }
        return total
    }

    private func solve() -> [Float] {
        var table = values
        let rungs = rungMegabits.count
        for chunk in stride(from: chunkCount - 1, through: 0, by: -1) {
            for last in 0..<rungs {
                for bin in 0..<model.binCount {
                    for point in 0..<bufferPoints {
                        let buffer = Double(point) * bufferStepSeconds
                        let best = table.withUnsafeBufferPointer { pointer in
                            (0..<rungs).map { expected(pointer, chunk: chunk, last: last, bin: bin, buffer: buffer, rung: $0) }.max() ?? 0
                        }
                        table[slot(chunk, last, bin, point)] = Float(best)
                    }
                }
            }
        }
        return table
    }

    /// The rung of highest expected QoE_lin to the end, given the last download's payload throughput.
    public mutating func choose(_ context: ABRContext) -> Int {
        let last = min(max(context.lastIndex ?? 0, 0), rungMegabits.count - 1)
        guard let sample = context.samples.last, sample.seconds > roundTripSeconds, sample.bytes > 0,
              context.segmentIndex < chunkCount, context.ladderBitsPerSecond == video.ladderBitsPerSecond else { return last }
        let bin = model.bin(megabitsPerSecond: Double(sample.bytes) * 8 / (sample.seconds - roundTripSeconds) / 1_000_000)
        return values.withUnsafeBufferPointer { table in
            var best = last, bestValue = -Double.infinity
            for rung in rungMegabits.indices {
                let value = expected(table, chunk: context.segmentIndex, last: last, bin: bin, buffer: context.bufferSeconds, rung: rung)
                if value > bestValue { bestValue = value; best = rung }
            }
            return best
        }
    }
}
