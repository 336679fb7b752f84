import PlayheadCore
import Testing

/// The bandwidth meters and the sample cursor.
@Suite struct MeterTests {
    func sample(_ megabitsPerSecond: Double, seconds: Double = 1, end: Double) -> ThroughputSample {
        ThroughputSample(bytes: Int(megabitsPerSecond * 1_000_000 / 8 * seconds), seconds: seconds, endSeconds: end)
    }

    @Test func dualEWMAStartsAtItsDefaultThenTracksTheLowerAverage() {
        var meter = DualEWMABandwidthMeter()
        #expect(meter.estimateBitsPerSecond == 500_000)
        meter.add(sample(4, end: 1))
        #expect(abs(meter.estimateBitsPerSecond! - 4_000_000) < 1)
        meter.add(sample(1, seconds: 3, end: 4))
        // The fast average (3 s half-life) has fallen further than the slow one; the estimate is the fast.
        let estimate = meter.estimateBitsPerSecond!
        #expect(estimate > 1_000_000 && estimate < 2_500_000)
    }

    @Test func harmonicWindowKeepsTheLastFive() {
        var meter = WindowBandwidthMeter()
        for (index, rate) in [100.0, 1, 2, 2, 4, 4].enumerated() { meter.add(sample(rate, end: Double(index))) }
        // 5 / (1 + 1/2 + 1/2 + 1/4 + 1/4) Mbit/s = 5 / 2.5
        #expect(abs(meter.estimateBitsPerSecond! - 2_000_000) < 1e-6)
    }

    @Test func slidingMedianWeighsBySquareRootOfBytes() {
        var meter = SlidingPercentileBandwidthMeter()
        meter.add(ThroughputSample(bytes: 10_000, seconds: 0.01, endSeconds: 1))   // 8 Mbit/s, weight 100
        meter.add(ThroughputSample(bytes: 40_000, seconds: 0.32, endSeconds: 2))   // 1 Mbit/s, weight 200
        #expect(meter.estimateBitsPerSecond == 1_000_000)
    }

    @Test func cursorTakesOnlyNewSamples() {
        var cursor = SampleCursor()
        let first = [sample(1, end: 1), sample(2, end: 2)]
        #expect(cursor.take(first).count == 2)
        #expect(cursor.take(first).isEmpty)
        #expect(cursor.take(first + [sample(3, end: 3)]).map(\.endSeconds) == [3])
    }
}
