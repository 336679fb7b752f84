/// A non-causal reference for the benchmark: Playhead's look-ahead played on the trace's true future.
///
/// At each decision it enumerates every rung sequence over the next ``horizonCount`` chunks and plays
/// each one exactly through the simulator's own step (``PlaybackState/download(bytes:segmentSeconds:link:settings:)``
/// on the very link the session runs on), then scores it as ``PlayheadPolicy`` scores its plans: QoE_lin
/// of the horizon, less ``terminalPenaltyPerSecond`` per second that the plan ends short of
/// ``terminalBufferSeconds`` (no margin when the plan reaches the video's end). It takes the first rung of
/// the best plan and decides again at the next chunk.
///
/// It answers one question: how much of the gap between a policy and the offline optimum is the
/// throughput prediction's, and how much the short horizon's. No player can run it: it reads the future.
public struct ForesightPolicy: ABRPolicy {
    /// The name the benchmark reports it under: "foresight".
    public static let referenceName = "foresight"

    /// "foresight".
    public let name = referenceName
    /// Chunks looked ahead: 5, as the default policy.
    public var horizonCount = MPCPlanner.defaultHorizonCount
    /// Buffer the plan should end with, as the default policy: 12 s.
    public var terminalBufferSeconds = PlayheadPolicy.defaultTerminalBufferSeconds
    /// Cost per second short of it, as the default policy: 1.
    public var terminalPenaltyPerSecond = PlayheadPolicy.defaultTerminalPenaltyPerSecond
    private let future: TrueFuture

    /// Creates the reference for one session.
    /// - Parameters:
    ///   - trace: The trace the session plays over.
    ///   - settings: The simulator's conventions (the same the session runs with).
    public init(trace: BandwidthTrace, settings: ChunkSimulationSettings) {
        future = TrueFuture(trace: trace, settings: settings)
    }

    /// The first rung of the best plan played on the true future.
    public mutating func choose(_ context: ABRContext) -> Int {
        guard let table = context.upcomingChunkBytes, !table.isEmpty else { return context.lastIndex ?? 0 }
        let rungs = context.ladderBitsPerSecond.count
        let horizon = min(horizonCount, table.count)
        let megabits = context.ladderBitsPerSecond.map { Double($0) / 1_000_000 }
        let start = future.state(at: context)
        var best = -Double.infinity
        var bestFirst = context.lastIndex ?? 0
        var choice = [Int](repeating: 0, count: horizon)
        let first = context.lastIndex ?? 0
        let future = future
        let terminalBuffer = terminalBufferSeconds
        // As the planner: a plan that reaches the video's end owes no margin.
        let terminalPenalty = table.count <= horizon ? 0 : terminalPenaltyPerSecond

        func search(_ depth: Int, _ state: PlaybackState, _ previous: Int, _ value: Double) {
            if depth == horizon {
                let total = value - terminalPenalty * max(0, terminalBuffer - state.bufferSeconds)
                if total >= best { best = total; bestFirst = choice[0] }
                return
            }
            for rung in 0..<rungs {
                var next = state
                let outcome = future.download(table[depth][rung], segmentSeconds: context.segmentSeconds, from: &next)
                let gain = megabits[rung] - MPCPlanner.defaultRebufferPenalty * outcome.rebufferSeconds
                    - abs(megabits[rung] - megabits[previous])
                choice[depth] = rung
                search(depth + 1, next, rung, value + gain)
            }
        }
        search(0, start, first, 0)
        return bestFirst
    }
}
