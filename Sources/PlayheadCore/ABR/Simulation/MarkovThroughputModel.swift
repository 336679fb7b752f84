import Foundation

/// A first-order Markov chain on the payload throughput of consecutive chunk downloads, over log-spaced
/// bins: what ``MarkovDPPolicy`` plans with. It is fitted from sessions (sequences of per-chunk
/// throughputs), so it is a learned model: the benchmark fits it on some traces and scores the policy
/// on others.
public struct MarkovThroughputModel: Sendable, Equatable {
    /// Bins: 24.
    public static let defaultBinCount = 24
    /// Lower edge of the lowest bin: 0.05 Mbit/s (slower chunks fall in it).
    public static let defaultLowestMegabitsPerSecond = 0.05
    /// Upper edge of the highest bin: 12 Mbit/s (faster chunks fall in it).
    public static let defaultHighestMegabitsPerSecond = 12.0

    /// Number of bins.
    public let binCount: Int
    /// Lower edge of the lowest bin, Mbit/s.
    public let lowestMegabitsPerSecond: Double
    /// Upper edge of the highest bin, Mbit/s.
    public let highestMegabitsPerSecond: Double
    /// `transitions[from][to]`: probability that a chunk in bin `to` follows one in bin `from`. Each row
    /// sums to 1; a bin never seen in the fitting data stays where it is.
    public private(set) var transitions: [[Double]]

    /// A model whose every bin stays where it is (throughput never changes) until ``fit(_:)``.
    public init(binCount: Int = defaultBinCount, lowestMegabitsPerSecond: Double = defaultLowestMegabitsPerSecond,
                highestMegabitsPerSecond: Double = defaultHighestMegabitsPerSecond) {
        precondition(binCount > 0 && lowestMegabitsPerSecond > 0 && highestMegabitsPerSecond > lowestMegabitsPerSecond,
                     "MarkovThroughputModel needs at least one bin over a positive range")
        self.binCount = binCount
        self.lowestMegabitsPerSecond = lowestMegabitsPerSecond
        self.highestMegabitsPerSecond = highestMegabitsPerSecond
        transitions = (0..<binCount).map { from in (0..<binCount).map { $0 == from ? 1 : 0 } }
    }

    /// The bin of a throughput (clamped to the first and last bins).
    public func bin(megabitsPerSecond: Double) -> Int {
        let low = Foundation.log(lowestMegabitsPerSecond), high = Foundation.log(highestMegabitsPerSecond)
        let position = (Foundation.log(max(megabitsPerSecond, 1e-9)) - low) / (high - low) * Double(binCount)
        guard position.isFinite else { return 0 }
        return min(max(Int(position.rounded(.down)), 0), binCount - 1)
    }

    /// The throughput a bin stands for: its geometric centre, Mbit/s.
    public func megabitsPerSecond(bin: Int) -> Double {
        let low = Foundation.log(lowestMegabitsPerSecond), high = Foundation.log(highestMegabitsPerSecond)
        return Foundation.exp(low + (high - low) * (Double(bin) + 0.5) / Double(binCount))
    }

    /// Replaces the transitions by the frequencies counted over consecutive chunks of `sequences` (each
    /// one session's per-chunk throughputs in Mbit/s, in order). Rows without a count keep a bin in place.
    public mutating func fit(_ sequences: [[Double]]) {
        var counts = [[Double]](repeating: [Double](repeating: 0, count: binCount), count: binCount)
        for sequence in sequences where sequence.count > 1 {
            for (from, to) in zip(sequence, sequence.dropFirst()) {
                counts[bin(megabitsPerSecond: from)][bin(megabitsPerSecond: to)] += 1
            }
        }
        for from in 0..<binCount {
            let total = counts[from].reduce(0, +)
            transitions[from] = total > 0 ? counts[from].map { $0 / total } : (0..<binCount).map { $0 == from ? 1 : 0 }
        }
    }

    /// Per-chunk payload throughputs of a simulated session, Mbit/s: each chunk's bits over its download
    /// time without the round trip (the link's rate while the chunk flowed).
    public static func throughputs(_ session: ChunkSession, roundTripSeconds: Double) -> [Double] {
        session.records.compactMap { record in
            let seconds = record.downloadSeconds - roundTripSeconds
            return seconds > 0 && record.bytes > 0 ? Double(record.bytes) * 8 / seconds / 1_000_000 : nil
        }
    }
}
