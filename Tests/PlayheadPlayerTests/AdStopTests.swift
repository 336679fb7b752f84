import Foundation
@testable import PlayheadCore
import PlayheadOrigin
import Testing

/// A session that ends at its duration limit inside an ad leaves the ad as a stop does: adSkipped and
/// the break's end (it left the ad open, with no skip beacon).
@Suite struct AdStopTests {
    @Test func theDurationLimitInsideAnAdLeavesIt() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let configuration = try PlayerFixtures.liveAdConfiguration(for: url)
        let run = await PlayerFixtures.playVirtual(url, configure: { $0 = configuration }, maxSessionSeconds: 15)
        #expect(run.report.finalStatus == .stopped)
        let names = run.events.map(\.kind.name).filter { ["adStarted", "adSkipped", "adCompleted", "adBreakCompleted"].contains($0) }
        #expect(names == ["adStarted", "adSkipped", "adBreakCompleted"], "\(names)")
    }
}
