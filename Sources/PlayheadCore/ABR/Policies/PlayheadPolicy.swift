/// Playhead's default: model-predictive control with a predictor that is cautious only where caution
/// pays, and a plan that must leave the buffer it found.
///
/// - Prediction: the harmonic mean of the last 5 throughputs, divided by 1 + the largest *over*-estimate
///   of the last 5 decisions (RobustMPC divides by the largest error in either direction, so a rise in
///   bandwidth makes it timid; only over-estimates cause stalls).
/// - Plan: RobustMPC's 5-chunk QoE_lin look-ahead, with the buffer clipped at the forward-buffer target
///   (buffer above it is idle time, not safety), and a terminal cost for ending the horizon with less
///   than ``defaultTerminalBufferSeconds`` buffered, so the look-ahead does not spend a safety margin it
///   cannot see past.
public struct PlayheadPolicy: ABRPolicy {
    /// Throughputs averaged: 5.
    public static let defaultWindowCount = 5
    /// Past over-estimates remembered: 5.
    public static let defaultErrorWindowCount = 5
    /// Buffer the plan should end with: 8 s (two 4 s segments).
    public static let defaultTerminalBufferSeconds = 8.0
    /// Cost per second of ending short of it: 1 (in QoE_lin units, a quarter of a stall second).
    public static let defaultTerminalPenaltyPerSecond = 1.0

    /// "playhead".
    public let name = "playhead"
    /// The look-ahead.
    public var planner: MPCPlanner
    private var meter = WindowBandwidthMeter(windowCount: defaultWindowCount)
    private var cursor = SampleCursor()
    private var overestimates: [Double] = []
    private var lastEstimate: Double?

    /// Creates the policy with Playhead's defaults.
    public init() {
        planner = MPCPlanner()
        planner.capsBuffer = true
        planner.terminalBufferSeconds = Self.defaultTerminalBufferSeconds
        planner.terminalPenaltyPerSecond = Self.defaultTerminalPenaltyPerSecond
    }

    /// Forgets throughputs and errors.
    public mutating func reset() {
        meter = WindowBandwidthMeter(windowCount: Self.defaultWindowCount)
        cursor = SampleCursor()
        overestimates = []
        lastEstimate = nil
    }

    /// The first rung of the best plan at the cautious prediction.
    public mutating func choose(_ context: ABRContext) -> Int {
        let new = cursor.take(context.samples)
        meter.add(contentsOf: new)
        guard let harmonic = meter.estimateBitsPerSecond else { return context.lastIndex ?? 0 }
        if let estimate = lastEstimate, let actual = new.last?.bitsPerSecond, actual > 0 {
            overestimates.append(max(0, (estimate - actual) / actual))
            if overestimates.count > Self.defaultErrorWindowCount { overestimates.removeFirst() }
        }
        lastEstimate = harmonic
        let predicted = harmonic / (1 + (overestimates.max() ?? 0))
        return planner.plan(context, predictedBitsPerSecond: predicted)
    }
}
