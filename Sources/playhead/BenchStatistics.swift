import PlayheadOrigin

/// Means, medians and paired bootstrap intervals over traces.
enum BenchStatistics {
    /// Arithmetic mean; nan for no values.
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    /// Median; nan for no values.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The 2.5th and 97.5th percentiles of the mean of `statistic` over `resamples` resamples of
    /// `count` indices drawn with replacement. The resamples depend only on `count`, `resamples` and the
    /// fixed seed, so every policy of a set is resampled with the same traces (paired).
    static func bootstrap(count: Int, resamples: Int, _ statistic: (Int) -> Double?) -> (low: Double, high: Double) {
        guard count > 0, resamples > 0 else { return (.nan, .nan) }
        var generator = SplitMix64(seed: 0x5EED_AB12)
        var means: [Double] = []
        means.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var total = 0.0
            var used = 0
            for _ in 0..<count {
                if let value = statistic(Int(generator.next() % UInt64(count))) { total += value; used += 1 }
            }
            if used > 0 { means.append(total / Double(used)) }
        }
        guard !means.isEmpty else { return (.nan, .nan) }
        means.sort()
        let low = means[Int(Double(means.count - 1) * 0.025)]
        let high = means[Int((Double(means.count - 1) * 0.975).rounded(.up))]
        return (low, high)
    }
}
