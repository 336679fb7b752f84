/// A non-causal reference for the benchmark: Playhead's own plan given a perfect throughput prediction.
///
/// At each decision it downloads the next ``horizonCount`` chunks at the last rung on the trace's true
/// future (the simulator's own step on the session's link) and hands their mean throughput (bytes over
/// download seconds, round trips included) to ``PlayheadPolicy``'s planner as the constant prediction, in
/// place of the default's robust estimate.
///
/// ``ForesightPolicy`` shows what the plan reaches when it sees the future chunk by chunk; this row shows
/// what it reaches when only the *level* of the next 20 s is known exactly, which is all a predictor of
/// one throughput figure can ever give it. No player can run it: it reads the future.
public struct MeanOraclePolicy: ABRPolicy {
    /// The name the benchmark reports it under: "oracle-mean".
    public static let referenceName = "oracle-mean"

    /// "oracle-mean".
    public let name = referenceName
    /// Chunks whose mean throughput is the prediction: 5, the plan's horizon.
    public var horizonCount = MPCPlanner.defaultHorizonCount
    /// The plan: the default policy's (5 chunks, 12 s terminal margin, buffer capped).
    public var planner = PlayheadPolicy().planner
    private let future: TrueFuture

    /// Creates the reference for one session.
    /// - Parameters:
    ///   - trace: The trace the session plays over.
    ///   - settings: The simulator's conventions (the same the session runs with).
    public init(trace: BandwidthTrace, settings: ChunkSimulationSettings) {
        future = TrueFuture(trace: trace, settings: settings)
    }

    /// The first rung of the planner's best plan at the true mean throughput of the next chunks.
    public mutating func choose(_ context: ABRContext) -> Int {
        guard let table = context.upcomingChunkBytes, !table.isEmpty else { return context.lastIndex ?? 0 }
        let rung = context.lastIndex ?? 0
        var state = future.state(at: context)
        var bytes = 0.0, seconds = 0.0
        for chunk in table.prefix(horizonCount) {
            seconds += future.download(chunk[rung], segmentSeconds: context.segmentSeconds, from: &state).downloadSeconds
            bytes += Double(chunk[rung])
        }
        guard seconds > 0 else { return rung }
        return planner.plan(context, predictedBitsPerSecond: bytes * 8 / seconds)
    }
}
