/// hls.js's default ABR (`AbrController`), at segment level: the dual-EWMA estimate (half-lives 3 s and
/// 9 s of download time, the lower of the two), 0.95 of it to stay or go down, 0.7 of it to go up, and a
/// rung is taken only if its fetch would finish before the buffer runs dry; when no rung passes, a
/// second pass at the full estimate allows up to one segment (at most 4 s) of starvation.
public struct HlsJsPolicy: ABRPolicy {
    /// Share of the estimate a rung at or below the current one may use: 0.95 (`abrBandWidthFactor`).
    public static let defaultBandwidthFactor = 0.95
    /// Share of the estimate a rung above the current one may use: 0.7 (`abrBandWidthUpFactor`).
    public static let defaultBandwidthUpFactor = 0.7
    /// Starvation tolerated in the second pass: 4 s (`maxStarvationDelay`).
    public static let defaultMaxStarvationSeconds = 4.0

    /// "hlsjs".
    public let name = "hlsjs"
    /// Share of the estimate for staying or going down.
    public var bandwidthFactor = defaultBandwidthFactor
    /// Share of the estimate for going up.
    public var bandwidthUpFactor = defaultBandwidthUpFactor
    /// Starvation tolerated when no rung fits in the buffer.
    public var maxStarvationSeconds = defaultMaxStarvationSeconds
    private var meter = DualEWMABandwidthMeter()
    private var cursor = SampleCursor()

    /// Creates the policy with hls.js's defaults.
    public init() {}

    /// Forgets the estimate.
    public mutating func reset() {
        meter = DualEWMABandwidthMeter()
        cursor = SampleCursor()
    }

    /// The highest rung the estimate sustains without starving the buffer.
    public mutating func choose(_ context: ABRContext) -> Int {
        meter.add(contentsOf: cursor.take(context.samples))
        let estimate = meter.estimateBitsPerSecond ?? DualEWMABandwidthMeter.defaultEstimateBitsPerSecond
        let current = context.lastIndex ?? 0
        if let index = best(context, estimate, current, starvation: 0, down: bandwidthFactor, up: bandwidthUpFactor) {
            return index
        }
        let starvation = min(context.segmentSeconds, maxStarvationSeconds)
        return best(context, estimate, current, starvation: starvation, down: 1, up: 1) ?? 0
    }

    private func best(_ context: ABRContext, _ estimate: Double, _ current: Int, starvation: Double,
                      down: Double, up: Double) -> Int? {
        for index in context.ladderBitsPerSecond.indices.reversed() {
            let usable = estimate * (index <= current ? down : up)
            let rate = Double(context.ladderBitsPerSecond[index])
            guard usable >= rate else { continue }
            let fetchSeconds = context.chunkBytes(ahead: 0, index: index) * 8 / usable
            if fetchSeconds <= context.bufferSeconds + starvation { return index }
        }
        return nil
    }
}
