import Foundation

/// hls.js's estimator (`EwmaBandWidthEstimator`): two exponentially weighted moving averages of
/// throughput, weighted by each transfer's duration, with half-lives in seconds of download time; the
/// estimate is the lower of the two.
public struct DualEWMABandwidthMeter: BandwidthMeter {
    /// Half-life of the fast average: 3 s (hls.js `abrEwmaFastVoD`).
    public static let defaultFastHalfLifeSeconds = 3.0
    /// Half-life of the slow average: 9 s (hls.js `abrEwmaSlowVoD`).
    public static let defaultSlowHalfLifeSeconds = 9.0
    /// Estimate before any sample: 500 kbit/s (hls.js `abrEwmaDefaultEstimate`).
    public static let defaultEstimateBitsPerSecond = 500_000.0
    /// Transfers shorter than this count as this long: 0.05 s (hls.js ignores `minDelayMs` below 50 ms).
    public static let minimumSampleSeconds = 0.05

    private var fast: EWMA
    private var slow: EWMA
    /// The estimate returned before any sample.
    public let defaultEstimateBitsPerSecond: Double

    /// Creates a meter.
    /// - Parameters:
    ///   - fastHalfLifeSeconds: Half-life of the fast average. Default ``defaultFastHalfLifeSeconds``.
    ///   - slowHalfLifeSeconds: Half-life of the slow average. Default ``defaultSlowHalfLifeSeconds``.
    ///   - defaultEstimateBitsPerSecond: Estimate before any sample. Default ``defaultEstimateBitsPerSecond``.
    public init(fastHalfLifeSeconds: Double = defaultFastHalfLifeSeconds,
                slowHalfLifeSeconds: Double = defaultSlowHalfLifeSeconds,
                defaultEstimateBitsPerSecond: Double = defaultEstimateBitsPerSecond) {
        fast = EWMA(halfLife: fastHalfLifeSeconds)
        slow = EWMA(halfLife: slowHalfLifeSeconds)
        self.defaultEstimateBitsPerSecond = defaultEstimateBitsPerSecond
    }

    /// Adds a transfer, weighted by its duration.
    public mutating func add(_ sample: ThroughputSample) {
        let seconds = max(sample.seconds, Self.minimumSampleSeconds)
        let bitsPerSecond = Double(sample.bytes) * 8 / seconds
        fast.add(bitsPerSecond, weight: seconds)
        slow.add(bitsPerSecond, weight: seconds)
    }

    /// The lower of the two averages; the default estimate before any sample.
    public var estimateBitsPerSecond: Double? {
        guard let fastValue = fast.value, let slowValue = slow.value else { return defaultEstimateBitsPerSecond }
        return min(fastValue, slowValue)
    }
}

/// An exponentially weighted moving average with a half-life in units of weight, corrected for its
/// zero start (the average of the first sample is that sample).
public struct EWMA: Sendable, Equatable {
    /// Decay per unit of weight: `0.5^(1 / halfLife)`.
    public let alpha: Double
    private var estimate = 0.0
    private var totalWeight = 0.0

    /// Creates an average whose samples lose half their weight after `halfLife` units of weight.
    public init(halfLife: Double) {
        alpha = halfLife > 0 ? exp(log(0.5) / halfLife) : 0
    }

    /// Adds `value` with `weight` (such as seconds of download).
    public mutating func add(_ value: Double, weight: Double) {
        let adjusted = pow(alpha, weight)
        estimate = value * (1 - adjusted) + adjusted * estimate
        totalWeight += weight
    }

    /// The bias-corrected average; nil before any weight.
    public var value: Double? {
        guard totalWeight > 0 else { return nil }
        let zeroFactor = 1 - pow(alpha, totalWeight)
        return zeroFactor > 0 ? estimate / zeroFactor : estimate
    }
}
