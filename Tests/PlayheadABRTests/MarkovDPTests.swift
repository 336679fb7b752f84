import PlayheadCore
import Testing

/// The learned benchmark row: the Markov throughput model's fit and the stochastic DP that plans on it.
@Suite struct MarkovDPTests {
    /// 12 chunks and 8 bins keep the value table small enough to solve quickly in a debug build.
    static let settings: ChunkSimulationSettings = {
        var settings = ChunkSimulationSettings()
        settings.chunkCount = 12
        return settings
    }()
    static let video = ChunkVideo.constantBitrate(chunkCount: 12)

    static func model(fittedOn sequences: [[Double]]) -> MarkovThroughputModel {
        var model = MarkovThroughputModel(binCount: 8)
        model.fit(sequences)
        return model
    }

    @Test func fitCountsConsecutiveChunksAndKeepsUnseenBinsInPlace() {
        let model = Self.model(fittedOn: [[1, 4, 1, 4, 1], [1, 1]])
        let one = model.bin(megabitsPerSecond: 1), four = model.bin(megabitsPerSecond: 4)
        #expect(one != four)
        // From 1 Mbit/s: to 4 twice, to 1 once (the second session); from 4: always back to 1.
        #expect(abs(model.transitions[one][four] - 2.0 / 3) < 1e-12)
        #expect(abs(model.transitions[one][one] - 1.0 / 3) < 1e-12)
        #expect(model.transitions[four][one] == 1)
        let unseen = model.bin(megabitsPerSecond: 0.06)
        #expect(model.transitions[unseen][unseen] == 1)
        for row in model.transitions { #expect(abs(row.reduce(0, +) - 1) < 1e-12) }
    }

    @Test func binsClampAtTheEdgesAndCentresFallInTheirBin() {
        let model = MarkovThroughputModel()
        #expect(model.bin(megabitsPerSecond: 0) == 0)
        #expect(model.bin(megabitsPerSecond: 1e6) == model.binCount - 1)
        for bin in 0..<model.binCount { #expect(model.bin(megabitsPerSecond: model.megabitsPerSecond(bin: bin)) == bin) }
    }

    @Test func throughputsLeaveOutTheRoundTrip() {
        // A constant 2 Mbit/s link carries 1.9 Mbit/s of payload; the round trip is not the link's rate.
        let trace = BandwidthTrace(name: "constant-2", times: [0, 1], megabitsPerSecond: [2, 2])
        let session = ChunkSimulator.run(policy: RobustMPCPolicy(), trace: trace, video: Self.video, settings: Self.settings)
        let rates = MarkovThroughputModel.throughputs(session, roundTripSeconds: Self.settings.roundTripSeconds)
        #expect(rates.count == 12)
        for rate in rates { #expect(abs(rate - 1.9) < 1e-9, "\(rates)") }
    }

    @Test func onASteadyLinkItClimbsAndNeverStalls() {
        let trace = BandwidthTrace(name: "constant-3", times: [0, 1], megabitsPerSecond: [3, 3])
        let policy = MarkovDPPolicy(model: Self.model(fittedOn: [[2.85, 2.85, 2.85]]), video: Self.video, settings: Self.settings)
        let session = ChunkSimulator.run(policy: policy, trace: trace, video: Self.video, settings: Self.settings)
        #expect(session.rebufferSeconds == 0, "\(session.records.map(\.rung))")
        #expect(session.records.last?.rung ?? 0 >= 3, "a 2.85 Mbit/s payload link holds 1.85 Mbit/s: \(session.records.map(\.rung))")
    }

    @Test func aModelThatHasSeenCollapsesPlaysSafer() {
        // Same steady link; one model has seen the throughput fall from 3 to 0.1 Mbit/s now and then and
        // stay there a while, the other never has. Planning for the collapse costs bitrate.
        let trace = BandwidthTrace(name: "constant-3", times: [0, 1], megabitsPerSecond: [3, 3])
        let calm = MarkovDPPolicy(model: Self.model(fittedOn: [Array(repeating: 2.85, count: 20)]), video: Self.video, settings: Self.settings)
        let collapsing = [2.85, 2.85, 2.85, 2.85, 0.1, 0.1, 0.1, 2.85, 2.85, 2.85, 2.85, 0.1, 0.1, 2.85]
        let wary = MarkovDPPolicy(model: Self.model(fittedOn: [collapsing]), video: Self.video, settings: Self.settings)
        let calmSession = ChunkSimulator.run(policy: calm, trace: trace, video: Self.video, settings: Self.settings)
        let warySession = ChunkSimulator.run(policy: wary, trace: trace, video: Self.video, settings: Self.settings)
        #expect(warySession.averageBitsPerSecond < calmSession.averageBitsPerSecond,
                "wary \(warySession.records.map(\.rung)) calm \(calmSession.records.map(\.rung))")
    }

    @Test func itBeatsTheDefaultOnAnOutageItsModelKnows() {
        // The synthetic outage (3 Mbit/s, 40 s at 0.05 from 60 s), with a model fitted on the default's own
        // session over it: the DP banks buffer against the collapse it has learnt and stalls less.
        let video = Synthetic.video
        let settings = ChunkSimulationSettings()
        let seen = ChunkSimulator.run(policy: PlayheadPolicy(), trace: Synthetic.outage, video: video, settings: settings)
        var model = MarkovThroughputModel(binCount: 8)
        model.fit([MarkovThroughputModel.throughputs(seen, roundTripSeconds: settings.roundTripSeconds)])
        let learned = ChunkSimulator.run(policy: MarkovDPPolicy(model: model, video: video, settings: settings),
                                         trace: Synthetic.outage, video: video, settings: settings)
        #expect(seen.rebufferSeconds > 1, "the default did not stall (\(seen.rebufferSeconds) s): the case tests nothing")
        #expect(learned.rebufferSeconds < seen.rebufferSeconds, "learned \(learned.rebufferSeconds) s vs default \(seen.rebufferSeconds) s")
        #expect(learned.qoe(.lin) > seen.qoe(.lin), "learned \(learned.qoe(.lin)) vs default \(seen.qoe(.lin))")
    }
}
