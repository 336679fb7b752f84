/// The mean of the last few samples' throughputs: harmonic (RobustMPC, Playhead) or arithmetic
/// (dash.js's throughput rule).
public struct WindowBandwidthMeter: BandwidthMeter {
    /// How the window's throughputs are averaged.
    public enum Mean: Sendable, Equatable {
        /// `n / Σ 1/x`: dominated by the slow transfers (RobustMPC).
        case harmonic
        /// `Σ x / n` (dash.js `ThroughputHistory`).
        case arithmetic
    }

    /// Samples averaged: 5 (RobustMPC's "last 5 throughputs").
    public static let defaultWindowCount = 5

    /// How many of the most recent samples are averaged.
    public let windowCount: Int
    /// The mean taken.
    public let mean: Mean
    /// Throughputs of the samples in the window, bits per second, oldest first.
    public private(set) var window: [Double] = []

    /// Creates a meter.
    /// - Parameters:
    ///   - windowCount: Samples averaged. Default ``defaultWindowCount``.
    ///   - mean: The mean taken. Default harmonic.
    public init(windowCount: Int = defaultWindowCount, mean: Mean = .harmonic) {
        self.windowCount = max(1, windowCount)
        self.mean = mean
    }

    /// Adds a sample (ignored when it took no time or carried nothing).
    public mutating func add(_ sample: ThroughputSample) {
        guard let bitsPerSecond = sample.bitsPerSecond, bitsPerSecond > 0 else { return }
        window.append(bitsPerSecond)
        if window.count > windowCount { window.removeFirst(window.count - windowCount) }
    }

    /// The window's mean; nil before any sample.
    public var estimateBitsPerSecond: Double? {
        guard !window.isEmpty else { return nil }
        switch mean {
        case .harmonic: return Double(window.count) / window.reduce(0) { $0 + 1 / $1 }
        case .arithmetic: return window.reduce(0, +) / Double(window.count)
        }
    }
}

/// ExoPlayer's `DefaultBandwidthMeter`: a weighted median of recent throughputs, each weighted by the
/// square root of its bytes, forgetting the oldest once the total weight passes a cap.
public struct SlidingPercentileBandwidthMeter: BandwidthMeter {
    /// Weight cap: 2000 (ExoPlayer `DEFAULT_SLIDING_WINDOW_MAX_WEIGHT`).
    public static let defaultMaximumWeight = 2000.0
    /// Percentile taken: 0.5, the median.
    public static let defaultPercentile = 0.5
    /// Estimate before any sample: 1 Mbit/s (ExoPlayer's fallback initial estimate).
    public static let defaultInitialBitsPerSecond = 1_000_000.0

    /// The weight cap.
    public let maximumWeight: Double
    /// The percentile taken, in [0, 1].
    public let percentile: Double
    /// The estimate before any sample.
    public let initialBitsPerSecond: Double
    private var entries: [(bitsPerSecond: Double, weight: Double)] = []

    /// Creates a meter with ExoPlayer's defaults unless told otherwise.
    public init(maximumWeight: Double = defaultMaximumWeight, percentile: Double = defaultPercentile,
                initialBitsPerSecond: Double = defaultInitialBitsPerSecond) {
        self.maximumWeight = maximumWeight
        self.percentile = percentile
        self.initialBitsPerSecond = initialBitsPerSecond
    }

    /// Adds a sample with weight √bytes; drops the oldest while the total weight exceeds the cap.
    public mutating func add(_ sample: ThroughputSample) {
        guard let bitsPerSecond = sample.bitsPerSecond, sample.bytes > 0 else { return }
        entries.append((bitsPerSecond, Double(sample.bytes).squareRoot()))
        var total = entries.reduce(0) { $0 + $1.weight }
        while total > maximumWeight, entries.count > 1 {
            total -= entries.removeFirst().weight
        }
    }

    /// The weighted percentile; the initial estimate before any sample.
    public var estimateBitsPerSecond: Double? {
        guard !entries.isEmpty else { return initialBitsPerSecond }
        let sorted = entries.sorted { $0.bitsPerSecond < $1.bitsPerSecond }
        let target = sorted.reduce(0) { $0 + $1.weight } * percentile
        var accumulated = 0.0
        for entry in sorted {
            accumulated += entry.weight
            if accumulated >= target { return entry.bitsPerSecond }
        }
        return sorted[sorted.count - 1].bitsPerSecond
    }
}

// The tuple array is plain values.
extension SlidingPercentileBandwidthMeter: Equatable {
    /// Equal when the settings and remembered samples are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.maximumWeight == rhs.maximumWeight && lhs.percentile == rhs.percentile
            && lhs.initialBitsPerSecond == rhs.initialBitsPerSecond
            && lhs.entries.elementsEqual(rhs.entries) { $0.bitsPerSecond == $1.bitsPerSecond && $0.weight == $1.weight }
    }
}
