import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// ABR on a live stream: the 4-rung TS ladder played as a growing live window on the virtual clock.
@Suite struct LiveABRTests {
    @Test func liveSwitchesKeepOneContentTimeline() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        // 1 Mbit/s, then 8 for 10 s, then 1 again: up and back down while live.
        let trace = BandwidthTrace(name: "steps", times: [0, 8, 18, 60], megabitsPerSecond: [1, 8, 1, 1])
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: {
            $0.mode = .demux
            $0.perFrameEvents = true
        }, link: SimulatedLink(trace: trace), maxSessionSeconds: 120, liveUnder: server.url("/ts/"), initialSegments: 2)
        let report = run.report
        #expect(report.isLive)
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.bitrateSwitches.count >= 3, "\(report.bitrateSwitches.map(\.toBitsPerSecond))")
        #expect(Set(report.bitrateSwitches.map(\.toBitsPerSecond)).count >= 2)
        // Every frame once, in order, 1/30 s apart, across the switches.
        let times = run.events.compactMap { event -> Double? in
            if case let .framePresented(pts, _) = event.kind { return pts } else { return nil }
        }
        #expect(times.count == 900)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-6 })
        #expect(abs(report.mediaSeconds - report.manifestSeconds) < 0.01)
    }
}
