import PlayheadCore
import Testing

/// The non-causal reference: Playhead's plan played on the trace's true future.
@Suite struct ForesightTests {
    static func foresight(_ trace: BandwidthTrace, video: ChunkVideo = Synthetic.video,
                          settings: ChunkSimulationSettings = .init()) -> ChunkSession {
        ChunkSimulator.run(policy: ForesightPolicy(trace: trace, settings: settings), trace: trace, video: video,
                           settings: settings)
    }

    @Test(arguments: ["step-down", "step-up", "oscillating", "outage"])
    func liesBetweenTheDefaultAndTheOptimum(_ name: String) throws {
        let trace = try #require([Synthetic.stepDown, Synthetic.stepUp, Synthetic.oscillating, Synthetic.outage]
            .first { $0.name == name })
        let settings = ChunkSimulationSettings()
        let seen = Self.foresight(trace).qoe(.lin)
        let causal = Synthetic.play(ABRPolicies.defaultName, trace).qoe(.lin)
        let optimum = OfflineOptimum().solve(trace: trace, video: Synthetic.video, settings: settings)
        let best = ChunkSimulator.replay(rungs: optimum.rungs, trace: trace, video: Synthetic.video, settings: settings)
        #expect(seen <= best.qoe(.lin) + 1e-9, "\(trace.name): foresight \(seen) beats the optimum \(best.qoe(.lin))")
        #expect(seen >= causal - 1e-9, "\(trace.name): foresight \(seen) below the causal default \(causal)")
    }

    @Test func seesTheOutageComing() {
        // 40 s at 0.05 Mbit/s from 60 s: the default learns of it only from a slow download and stalls;
        // with the future in view the plan banks buffer first and rides it out.
        let seen = Self.foresight(Synthetic.outage)
        let causal = Synthetic.play(ABRPolicies.defaultName, Synthetic.outage)
        #expect(causal.rebufferSeconds > 1, "the default did not stall (\(causal.rebufferSeconds) s): the case tests nothing")
        #expect(seen.rebufferSeconds < causal.rebufferSeconds / 2, "foresight \(seen.rebufferSeconds) s vs \(causal.rebufferSeconds) s")
    }

    static func meanOracle(_ trace: BandwidthTrace, settings: ChunkSimulationSettings = .init()) -> ChunkSession {
        ChunkSimulator.run(policy: MeanOraclePolicy(trace: trace, settings: settings), trace: trace, video: Synthetic.video,
                           settings: settings)
    }

    @Test func theMeanOraclePredictsAConstantLinkExactly() {
        // On a constant link the mean of the next chunks is the link's rate: the oracle's prediction is
        // the planner's at that rate, so it plays exactly as the planner given the true figure.
        let trace = BandwidthTrace(name: "constant-2", times: [0, 1], megabitsPerSecond: [2, 2])
        let settings = ChunkSimulationSettings()
        let oracle = Self.meanOracle(trace)
        struct Known: ABRPolicy {
            let name = "known"
            let link: SimulatedLink
            let planner = PlayheadPolicy().planner
            mutating func choose(_ context: ABRContext) -> Int {
                // The link's rate for a chunk of the last rung: its bits over its transfer time.
                let bytes = Int(context.chunkBytes(ahead: 0, index: context.lastIndex ?? 0))
                return planner.plan(context, predictedBitsPerSecond: Double(bytes * 8) / link.transferSeconds(bytes: bytes, startingAt: 0))
            }
            mutating func reset() {}
        }
        let fixed = ChunkSimulator.run(policy: Known(link: settings.link(trace)), trace: trace, video: Synthetic.video, settings: settings)
        #expect(oracle.records.map(\.rung) == fixed.records.map(\.rung))
        #expect(oracle.records.contains { $0.rung > 0 }, "a 2 Mbit/s link should climb off the lowest rung")
    }

    @Test func theMeanOracleSeesTheOutageComing() {
        let oracle = Self.meanOracle(Synthetic.outage)
        let causal = Synthetic.play(ABRPolicies.defaultName, Synthetic.outage)
        #expect(oracle.rebufferSeconds < causal.rebufferSeconds / 2, "oracle \(oracle.rebufferSeconds) s vs \(causal.rebufferSeconds) s")
    }
}
