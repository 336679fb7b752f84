/// ExoPlayer's `AdaptiveTrackSelection` with `DefaultBandwidthMeter`: the highest rung whose bitrate is
/// at most 0.7 of the estimate (a √bytes-weighted sliding median), but no switch up with less than 10 s
/// buffered and no switch down with 25 s or more buffered.
public struct ExoPlayerPolicy: ABRPolicy {
    /// Share of the estimate a rung may use: 0.7 (`DEFAULT_BANDWIDTH_FRACTION`).
    public static let defaultBandwidthFraction = 0.7
    /// Buffer needed before switching up: 10 s (`DEFAULT_MIN_DURATION_FOR_QUALITY_INCREASE_MS`).
    public static let defaultMinBufferForIncreaseSeconds = 10.0
    /// Buffer above which no switch down happens: 25 s (`DEFAULT_MAX_DURATION_FOR_QUALITY_DECREASE_MS`).
    public static let defaultMaxBufferForDecreaseSeconds = 25.0

    /// "exoplayer".
    public let name = "exoplayer"
    /// Share of the estimate a rung may use.
    public var bandwidthFraction = defaultBandwidthFraction
    /// Buffer needed before switching up.
    public var minBufferForIncreaseSeconds = defaultMinBufferForIncreaseSeconds
    /// Buffer above which the policy does not switch down.
    public var maxBufferForDecreaseSeconds = defaultMaxBufferForDecreaseSeconds
    private var meter = SlidingPercentileBandwidthMeter()
    private var cursor = SampleCursor()

    /// Creates the policy with ExoPlayer's defaults.
    public init() {}

    /// Forgets the estimate.
    public mutating func reset() {
        meter = SlidingPercentileBandwidthMeter()
        cursor = SampleCursor()
    }

    /// The ideal rung, held back by the buffer rules.
    public mutating func choose(_ context: ABRContext) -> Int {
        meter.add(contentsOf: cursor.take(context.samples))
        let estimate = meter.estimateBitsPerSecond ?? SlidingPercentileBandwidthMeter.defaultInitialBitsPerSecond
        let ideal = context.highestIndex(atMost: estimate * bandwidthFraction)
        guard let current = context.lastIndex else { return ideal }
        if ideal > current, context.bufferSeconds < minBufferForIncreaseSeconds { return current }
        if ideal < current, context.bufferSeconds >= maxBufferForDecreaseSeconds { return current }
        return ideal
    }
}
