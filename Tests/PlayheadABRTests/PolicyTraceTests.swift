import PlayheadCore
import Testing

/// Every named policy on the four synthetic traces.
@Suite struct PolicyTraceTests {
    @Test(arguments: ABRPolicies.names)
    func stepDownEndsAtASustainableRung(_ name: String) throws {
        let session = Synthetic.play(name, Synthetic.stepDown)
        // The six chunks before the last: a plan that sees the video's end may spend what is buffered
        // on the last chunk (nothing comes after it), but must not stall doing so.
        let late = session.records.dropLast().suffix(6).map(\.rung)
        // 1 Mbit/s × 0.95 sustains 750 kbit/s (rung 1); buffer-based policies may spend a spare buffer.
        #expect(Double(late.reduce(0, +)) / Double(late.count) <= 2.0, "\(name): \(session.records.map(\.rung))")
        #expect(try #require(late.last) <= 2, "\(name): \(late)")
        #expect(try #require(session.records.last).rebufferSeconds == 0, "\(name) stalls on the last chunk")
    }

    @Test(arguments: ABRPolicies.names)
    func stepUpReachesTheTopRungs(_ name: String) {
        let session = Synthetic.play(name, Synthetic.stepUp)
        let early = session.records.prefix(10).map(\.rung)
        let late = session.records.suffix(5).map(\.rung)
        #expect((early.max() ?? 9) <= 2, "\(name) overshoots 1 Mbit/s: \(early)")
        #expect((late.min() ?? 0) >= 4, "\(name): \(late)")
        #expect(session.records.dropFirst(20).allSatisfy { $0.rebufferSeconds == 0 }, "\(name) stalls after the step up")
    }

    @Test(arguments: ABRPolicies.names)
    func oscillatingBandwidthNeitherStallsLongNorStarves(_ name: String) {
        let session = Synthetic.play(name, Synthetic.oscillating)
        #expect(session.rebufferSeconds < 4, "\(name) stalls \(session.rebufferSeconds) s")
        #expect(session.averageBitsPerSecond >= 750_000, "\(name) averages \(session.averageBitsPerSecond)")
        // BBA maps buffer to rung linearly and so follows every swing of the buffer: its known weakness.
        #expect(session.switchCount <= (name == "bba" ? 40 : 30), "\(name) switches \(session.switchCount) times")
    }

    @Test(arguments: ABRPolicies.names)
    func longOutageDropsToTheBottomAndRecovers(_ name: String) {
        let session = Synthetic.play(name, Synthetic.outage)
        let during = Synthetic.rungs(session, after: 60)
        // One chunk's transfer spans the whole outage, so the stall is bounded by that one transfer.
        #expect(session.rebufferSeconds < 160, "\(name) stalls \(session.rebufferSeconds) s")
        // The throughput-only rules average that one slow sample with fast ones and stay up; the others drop.
        if !["dynamic", "throughput"].contains(name) {
            #expect(during.contains(0), "\(name) never drops to the lowest rung: \(during)")
        }
        // hls.js weighs samples by download time, so the 100+ s transfer dominates its averages for long.
        let floor = name == "hlsjs" ? 1 : 3
        #expect(session.records.suffix(5).allSatisfy { $0.rung >= floor }, "\(name) does not recover: \(session.records.map(\.rung))")
    }

    @Test func playheadStallsLessThanRobustMPCInTheOutage() {
        let playhead = Synthetic.play("playhead", Synthetic.outage)
        let mpc = Synthetic.play("robustmpc", Synthetic.outage)
        #expect(playhead.qoe(.lin) >= mpc.qoe(.lin))
    }
}
