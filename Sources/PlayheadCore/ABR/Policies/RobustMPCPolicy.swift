/// RobustMPC (Yin et al., SIGCOMM 2015) as Pensieve's `test/mpc.py` runs it: the harmonic mean of the
/// last 5 throughputs divided by 1 + the largest relative prediction error of the last 5 decisions,
/// then a 5-chunk look-ahead maximising QoE_lin.
public struct RobustMPCPolicy: ABRPolicy {
    /// Past errors kept: 5.
    public static let defaultErrorWindowCount = 5

    /// "robustmpc".
    public let name = "robustmpc"
    /// The look-ahead.
    public var planner = MPCPlanner()
    private var meter = WindowBandwidthMeter()
    private var cursor = SampleCursor()
    private var errors: [Double] = []
    private var lastEstimate: Double?

    /// Creates the policy with RobustMPC's parameters.
    public init() {}

    /// Forgets throughputs and errors.
    public mutating func reset() {
        meter = WindowBandwidthMeter()
        cursor = SampleCursor()
        errors = []
        lastEstimate = nil
    }

    /// The first rung of the best 5-chunk plan at the robust prediction.
    public mutating func choose(_ context: ABRContext) -> Int {
        let new = cursor.take(context.samples)
        meter.add(contentsOf: new)
        guard let harmonic = meter.estimateBitsPerSecond else { return context.lastIndex ?? 0 }
        var error = 0.0
        if let estimate = lastEstimate, let actual = new.last?.bitsPerSecond, actual > 0 {
            error = abs(estimate - actual) / actual
        }
        errors.append(error)
        if errors.count > Self.defaultErrorWindowCount { errors.removeFirst() }
        lastEstimate = harmonic
        let predicted = harmonic / (1 + (errors.max() ?? 0))
        return planner.plan(context, predictedBitsPerSecond: predicted)
    }
}
