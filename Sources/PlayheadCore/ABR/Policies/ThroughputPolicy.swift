/// dash.js's `ThroughputRule`: the highest rung at most 0.9 of the arithmetic mean of the last 4
/// segments' throughputs; the lowest rung before any measurement.
public struct ThroughputPolicy: ABRPolicy {
    /// Samples averaged: 4 (dash.js `AVERAGE_THROUGHPUT_SAMPLE_AMOUNT_VOD`).
    public static let defaultWindowCount = 4
    /// Share of the average a rung may use: 0.9 (dash.js `bandwidthSafetyFactor`).
    public static let defaultSafetyFactor = 0.9

    /// "throughput".
    public let name = "throughput"
    /// Share of the average a rung may use.
    public var safetyFactor = defaultSafetyFactor
    private var meter = WindowBandwidthMeter(windowCount: defaultWindowCount, mean: .arithmetic)
    private var cursor = SampleCursor()

    /// Creates the policy with dash.js's defaults.
    public init() {}

    /// Forgets the history.
    public mutating func reset() {
        meter = WindowBandwidthMeter(windowCount: Self.defaultWindowCount, mean: .arithmetic)
        cursor = SampleCursor()
    }

    /// The safe throughput in bits per second; nil before any sample.
    public mutating func safeThroughput(_ context: ABRContext) -> Double? {
        meter.add(contentsOf: cursor.take(context.samples))
        return meter.estimateBitsPerSecond.map { $0 * safetyFactor }
    }

    /// The highest rung the safe throughput sustains.
    public mutating func choose(_ context: ABRContext) -> Int {
        guard let safe = safeThroughput(context) else { return 0 }
        return context.highestIndex(atMost: safe)
    }
}
