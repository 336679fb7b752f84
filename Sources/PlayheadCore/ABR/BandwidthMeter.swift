/// One measured transfer.
public struct ThroughputSample: Sendable, Equatable {
    /// Payload bytes transferred.
    public var bytes: Int
    /// Seconds the transfer took, from request to last byte (round trip included).
    public var seconds: Double
    /// Session time, in seconds, at which the transfer ended.
    public var endSeconds: Double

    /// Creates a sample.
    /// - Parameters:
    ///   - bytes: Payload bytes transferred.
    ///   - seconds: Seconds from request to last byte.
    ///   - endSeconds: Session time at which the transfer ended.
    public init(bytes: Int, seconds: Double, endSeconds: Double) {
        self.bytes = bytes
        self.seconds = seconds
        self.endSeconds = endSeconds
    }

    /// The sample's throughput in bits per second; nil when it took no time.
    public var bitsPerSecond: Double? {
        seconds > 0 ? Double(bytes) * 8 / seconds : nil
    }
}

/// Bandwidth estimate from samples; the policies read it.
public protocol BandwidthMeter: Sendable {
    /// Takes one more measured transfer into the estimate.
    mutating func add(_ sample: ThroughputSample)
    /// The current estimate in bits per second; nil before there is anything to estimate from.
    var estimateBitsPerSecond: Double? { get }
}

extension BandwidthMeter {
    /// Adds samples in order, oldest first.
    public mutating func add<Samples: Sequence>(contentsOf samples: Samples) where Samples.Element == ThroughputSample {
        for sample in samples { add(sample) }
    }
}

/// Remembers which of a context's samples a stateful policy has already fed to its meter, so that it
/// can take only the new ones at each decision (the context carries the recent history each time).
public struct SampleCursor: Sendable, Equatable {
    /// End time of the newest sample taken so far.
    public private(set) var lastEndSeconds = -Double.infinity

    /// Creates a cursor that has taken nothing.
    public init() {}

    /// The samples of `samples` (most recent last) that ended after the newest one taken, oldest first;
    /// marks them taken.
    public mutating func take(_ samples: [ThroughputSample]) -> ArraySlice<ThroughputSample> {
        var start = samples.endIndex
        while start > samples.startIndex, samples[start - 1].endSeconds > lastEndSeconds { start -= 1 }
        if let last = samples.last, start < samples.endIndex { lastEndSeconds = last.endSeconds }
        return samples[start...]
    }
}
