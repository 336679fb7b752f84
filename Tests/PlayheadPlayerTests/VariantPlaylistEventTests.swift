import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// Every media playlist the player loads is said with `playlistLoaded`, a rung's too when ABR switches
/// to it; only the first was, so a report rebuilt from the events (the daemon's, for an interrupted
/// session) named the first rung's playlist beside the last rung's bitrate.
@Suite struct VariantPlaylistEventTests {
    @Test func eachRungsPlaylistLoadIsAnEventAfterItsSwitch() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        var rungURLs: [Int: String] = [:]
        var current: Int?
        var switches = 0
        for event in run.events {
            switch event.kind {
            case let .bitrateChanged(_, to, _):
                current = to
                switches += 1
            case let .playlistLoaded(url, _, _):
                if let current { rungURLs[current] = url }
            default: break
            }
        }
        #expect(switches >= 2, "ABR switched \(switches) times")
        // Each rung played has its own playlist, and the last one is the report's.
        #expect(Set(rungURLs.values).count == rungURLs.count, "\(rungURLs)")
        #expect(rungURLs[run.report.variantBandwidth ?? -1] == run.report.mediaPlaylistURL)
    }
}
