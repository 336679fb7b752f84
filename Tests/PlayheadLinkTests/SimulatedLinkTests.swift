import Foundation
import PlayheadCore
import Testing

/// Relative closeness for times computed in a different order.
func close(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
    abs(a - b) <= relative * max(1, abs(a), abs(b))
}

@Suite struct SimulatedLinkTests {
    let constant = BandwidthTrace(name: "c8", times: [0, 100], megabitsPerSecond: [8, 8])
    let step = BandwidthTrace(name: "step", times: [0, 1, 2], megabitsPerSecond: [99, 8, 16])

    @Test func constantLinkChargesRoundTripPlusPayloadTime() {
        let link = SimulatedLink(trace: constant)
        #expect(close(link.transferSeconds(bytes: 1_000_000, startingAt: 0), 0.08 + 1 / 0.95))
        #expect(close(link.transferSeconds(bytes: 1_000_000, startingAt: 42), 0.08 + 1 / 0.95))
        #expect(link.transferSeconds(bytes: 0, startingAt: 3) == 0.08)
    }

    @Test func stepInTheMiddleOfATransfer() {
        let link = SimulatedLink(trace: step)
        // 0.5 s at 8 Mbit/s carries 475 000 bytes; the other 525 000 go at 16 Mbit/s × 0.95.
        #expect(close(link.transferSeconds(bytes: 1_000_000, startingAt: 0.5), 0.08 + 0.5 + 525_000 / 1_900_000))
    }

    @Test func transferLongerThanTheTraceWraps() {
        let link = SimulatedLink(trace: step)
        // One pass (2 s) carries 950 000 + 1 900 000 bytes; 5 000 000 bytes need one pass, another, and 0.5 s.
        let leftAfterOnePassAndASecond: Double = 5_000_000 - 2_850_000 - 950_000
        let expected: Double = 0.08 + 3 + leftAfterOnePassAndASecond / 1_900_000
        #expect(close(link.transferSeconds(bytes: 5_000_000, startingAt: 0), expected))
        // A thousand passes and more: whole passes are skipped, the answer stays exact.
        let big = 2_850_000 * 1_000 + 950_000
        #expect(close(link.transferSeconds(bytes: big, startingAt: 0), 0.08 + 2_001))
        let flat = SimulatedLink(trace: BandwidthTrace(name: "c", times: [0, 1], megabitsPerSecond: [8, 8]))
        #expect(close(flat.transferSeconds(bytes: 1_000_000_000, startingAt: 0.25), 0.08 + 1_000 / 0.95))
    }

    @Test func wrapRulesDifferOnlyForTracesNotStartingAtZero() {
        let late = BandwidthTrace(name: "late", times: [10, 11, 12], megabitsPerSecond: [0, 8, 16])
        let pensieve = SimulatedLink(trace: late)
        let periodic = SimulatedLink(trace: late, wrapRule: .restartAtFirstSample)
        // First pass: 2 s, 2 850 000 bytes; 2 150 000 bytes left.
        let periodicExpected: Double = 0.08 + 3 + 1_200_000 / 1_900_000
        #expect(close(periodic.transferSeconds(bytes: 5_000_000, startingAt: 0), periodicExpected))
        // fixed_env.py restarts at time 0: 11 s at sample 1's 8 Mbit/s.
        #expect(close(pensieve.transferSeconds(bytes: 5_000_000, startingAt: 0), 0.08 + 2 + 2_150_000 / 950_000.0))
        #expect(close(pensieve.transferSeconds(bytes: 100_000, startingAt: 2 + 11.5), 0.08 + 100_000 / 1_900_000.0))
    }

    @Test func startOffsetShiftsSessionTime() {
        let link = SimulatedLink(trace: step, startOffsetSeconds: 1)
        #expect(close(link.transferSeconds(bytes: 190_000, startingAt: 0), 0.08 + 0.1))
    }

    @Test func averageThroughput() {
        let link = SimulatedLink(trace: step)
        #expect(close(link.averageThroughputBitsPerSecond(from: 0.5, to: 1.5), 12_000_000))
        #expect(close(link.averageThroughputBitsPerSecond(from: 0, to: 2_000), 12_000_000))
        #expect(close(link.averageThroughputBitsPerSecond(from: 1.2, to: 1.2), 16_000_000))
    }

    @Test func zeroThroughputTraceNeverDelivers() {
        let link = SimulatedLink(trace: BandwidthTrace(name: "dead", times: [0, 1], megabitsPerSecond: [0, 0]))
        #expect(link.transferSeconds(bytes: 1, startingAt: 0) == .infinity)
    }

    /// fixed_env.py's download loop, restated: one call per chunk, trace position carried over, RTT
    /// added to the delay but not to the trace position, wrap back to ptr 1 at time 0.
    struct FixedEnvReference {
        let times: [Double]
        let rates: [Double]
        var pointer = 1
        var last: Double

        init(_ trace: BandwidthTrace) {
            times = trace.times
            rates = trace.megabitsPerSecond
            last = trace.times[0]
        }

        /// Milliseconds for one chunk, RTT included, and the data seconds (what the trace advanced).
        mutating func download(_ size: Double) -> (milliseconds: Double, dataSeconds: Double) {
            var sent = 0.0
            var delay = 0.0
            while true {
                let bytesPerSecond = rates[pointer] * 1_000_000 / 8
                let span = times[pointer] - last
                let carried = bytesPerSecond * span * 0.95
                if sent + carried > size {
                    let part = (size - sent) / bytesPerSecond / 0.95
                    delay += part
                    last += part
                    break
                }
                sent += carried
                delay += span
                last = times[pointer]
                pointer += 1
                if pointer >= rates.count { pointer = 1; last = 0 }
            }
            return (delay * 1000 + 80, delay)
        }
    }

    @Test(arguments: ["norway-test/norway_bus_1", "norway-test/norway_train_10", "fcc-test/trace_797466_http---www.amazon_part1.log"])
    func agreesWithFixedEnvLoop(tracePath: String) throws {
        let trace = try BandwidthTrace.load(path: tracesRoot + "/" + tracePath)
        let sizes = try String(contentsOfFile: tracesRoot + "/video-sizes/video_size_5", encoding: .utf8)
            .split(separator: "\n").prefix(17).compactMap { Double($0.split(separator: " ")[0]) }
            + [30_000_000, 1_000, 60_000_000]
        #expect(sizes.count == 20)
        let link = SimulatedLink(trace: trace)
        var reference = FixedEnvReference(trace)
        var sessionSeconds = 0.0
        for size in sizes {
            let expected = reference.download(size)
            let seconds = link.transferSeconds(bytes: Int(size), startingAt: sessionSeconds)
            #expect(close(seconds * 1000, expected.milliseconds, relative: 1e-12), "\(trace.name) \(Int(size)) bytes at \(sessionSeconds) s")
            sessionSeconds += expected.dataSeconds
        }
        #expect(sessionSeconds > trace.durationSeconds, "the sizes should make the walk wrap")
    }
}
