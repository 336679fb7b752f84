/// Model-predictive look-ahead shared by RobustMPC and Playhead's policy: enumerates every rung sequence
/// over the horizon, plays each through a fluid buffer model at a predicted throughput, and returns the
/// first rung of the sequence with the best QoE_lin (ties go to the later sequence in lexicographic
/// order, as Pensieve's `mpc.py`).
public struct MPCPlanner: Sendable, Equatable {
    /// Chunks looked ahead: 5 (RobustMPC).
    public static let defaultHorizonCount = 5
    /// QoE_lin's rebuffer penalty: 4.3 per second.
    public static let defaultRebufferPenalty = 4.3

    /// Chunks looked ahead.
    public var horizonCount = defaultHorizonCount
    /// Penalty per second of rebuffering, in Mbit/s units of QoE.
    public var rebufferPenalty = defaultRebufferPenalty
    /// Weight of the |bitrate change| term in the plan (QoE_lin's is 1; more makes the plan stickier).
    public var switchPenaltyFactor = 1.0
    /// Whether the model clips the buffer at the context's maximum (time above it is idle, not buffer).
    public var capsBuffer = false
    /// Seconds of buffer the plan should end with; each second short of it costs
    /// `terminalPenaltyPerSecond`. 0 (off) for RobustMPC. A plan that reaches the end of the video
    /// owes no margin: there is nothing after it to protect.
    public var terminalBufferSeconds = 0.0
    /// Cost per second short of ``terminalBufferSeconds`` at the horizon's end.
    public var terminalPenaltyPerSecond = 0.0

    /// Creates a planner; the defaults are RobustMPC's.
    public init() {}

    /// The first rung of the best plan.
    /// - Parameters:
    ///   - context: The decision's context (buffer, last rung, chunk sizes, what remains).
    ///   - predictedBitsPerSecond: The throughput every chunk of the horizon is assumed to get.
    public func plan(_ context: ABRContext, predictedBitsPerSecond: Double) -> Int {
        let rungs = context.ladderBitsPerSecond.count
        var horizon = horizonCount
        if let known = context.knownUpcomingCount { horizon = min(horizon, known) }
        let reachesEnd = context.knownUpcomingCount.map { $0 <= horizon } ?? false
        let terminalPenaltyPerSecond = reachesEnd ? 0 : self.terminalPenaltyPerSecond
        guard horizon > 0, predictedBitsPerSecond > 0, rungs > 1 else { return context.lastIndex ?? 0 }
        let megabits = context.ladderBitsPerSecond.map { Double($0) / 1_000_000 }
        var seconds = [[Double]](repeating: [Double](repeating: 0, count: rungs), count: horizon)
        for ahead in 0..<horizon {
            for rung in 0..<rungs {
                seconds[ahead][rung] = context.chunkBytes(ahead: ahead, index: rung) * 8 / predictedBitsPerSecond
            }
        }
        let cap = capsBuffer ? max(context.maxBufferSeconds, context.segmentSeconds) : Double.infinity
        var best = -Double.infinity
        var bestFirst = context.lastIndex ?? 0
        var choice = [Int](repeating: 0, count: horizon)
        let start = context.lastIndex ?? 0

        func search(_ depth: Int, _ buffer: Double, _ previous: Int, _ value: Double) {
            if depth == horizon {
                let short = max(0, terminalBufferSeconds - buffer)
                let total = value - terminalPenaltyPerSecond * short
                if total >= best { best = total; bestFirst = choice[0] }
                return
            }
            for rung in 0..<rungs {
                let download = seconds[depth][rung]
                let rebuffer = max(0, download - buffer)
                let next = min(max(0, buffer - download) + context.segmentSeconds, cap)
                let gain = megabits[rung] - rebufferPenalty * rebuffer - switchPenaltyFactor * abs(megabits[rung] - megabits[previous])
                choice[depth] = rung
                search(depth + 1, next, rung, value + gain)
            }
        }
        search(0, context.bufferSeconds, start, 0)
        return bestFirst
    }
}
