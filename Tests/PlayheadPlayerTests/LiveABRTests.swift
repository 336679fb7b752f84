import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// ABR on a live stream: the 4-rung TS ladder played as a growing live window on the virtual clock.
@Suite struct LiveABRTests {
    @Test func liveSwitchesKeepOneContentTimeline() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.perFrameEvents = true
        // 1 Mbit/s, then 8 for 10 s, then 1 again: up and back down while live.
        let trace = BandwidthTrace(name: "steps", times: [0, 8, 18, 60], megabitsPerSecond: [1, 8, 1, 1])
        let network = SimulatedLiveNetwork(inner: SimulatedNetwork(client: client, link: SimulatedLink(trace: trace)),
                                           prefix: server.url("/ts/"), initialSegments: 2)
        let player = MediaPlayer(url: server.url("/ts/master.m3u8"), configuration: configuration, driver: VirtualTimeDriver(), network: network)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        let report = await player.run(maxSessionSeconds: 120)
        subscription.cancel()
        #expect(report.isLive)
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.bitrateSwitches.count >= 3, "\(report.bitrateSwitches.map(\.toBitsPerSecond))")
        #expect(Set(report.bitrateSwitches.map(\.toBitsPerSecond)).count >= 2)
        // Every frame once, in order, 1/30 s apart, across the switches.
        let times = collected.events.compactMap { event -> Double? in
            if case let .framePresented(pts, _) = event.kind { return pts } else { return nil }
        }
        #expect(times.count == 900)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-6 })
        #expect(abs(report.mediaSeconds - report.manifestSeconds) < 0.01)
    }
}
