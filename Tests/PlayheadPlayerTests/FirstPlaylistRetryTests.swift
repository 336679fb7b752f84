import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// The item's playlist, its first fetch retried as players retry a manifest: a failure that may pass is
/// tried again after 1, 2 and 4 s (each a NETWORK_ERROR), a final one (404) is not. A 503 from a busy
/// origin ended every soak session at once (QA32).
@Suite struct FirstPlaylistRetryTests {
    func networkErrors(_ run: PlayerFixtures.Run) -> [PlayerEvent] {
        run.events.filter { if case let .notification(notification) = $0.kind { notification.code == .networkError } else { false } }
    }

    @Test func twoServiceUnavailableAnswersAreRetriedAndTheItemPlays() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(503), forPath: "/ts/v0/index.m3u8", times: 2)
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 900)
        let retries = networkErrors(run)
        #expect(retries.count == 2)
        // After 1 s, then 2 s of session time (the transfers themselves take next to none on this link).
        #expect(retries.map { ($0.playerTime * 10).rounded() / 10 } == [0, 1], "\(retries.map(\.playerTime))")
        #expect(server.requestLog.filter { $0.path == "/ts/v0/index.m3u8" }.count >= 3)
    }

    @Test func aPlaylistThatKeepsFailingEndsTheSessionAfterTheRetries() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(503), forPath: "/ts/v0/index.m3u8")
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .error)
        #expect(run.report.error?.contains("HTTP 503") == true, "\(run.report.error ?? "")")
        #expect(networkErrors(run).count == PlayerConfiguration.defaultFetchRetries)
        #expect(server.requestLog.filter { $0.path == "/ts/v0/index.m3u8" }.count == PlayerConfiguration.defaultFetchRetries + 1)
    }

    /// A session whose time runs out while it waits to try again ends at its limit (QA34: it ended at once), in
    /// error with the failure: it never had its playlist.
    @Test func theSessionsLimitDuringTheWaitEndsItThere() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(503), forPath: "/ts/v0/index.m3u8", times: 2)
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux }, maxSessionSeconds: 2)
        #expect(run.report.finalStatus == .error)
        #expect(run.report.error?.contains("HTTP 503") == true, "\(run.report.error ?? "")")
        #expect(abs(run.report.sessionSeconds - 2) < 1e-6, "\(run.report.sessionSeconds)")
        #expect(networkErrors(run).count == 2)
    }

    @Test func aMissingPlaylistIsNotRetried() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/none.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .error)
        #expect(networkErrors(run).isEmpty)
        #expect(server.requestLog.filter { $0.path == "/ts/v0/none.m3u8" }.count == 1)
    }
}
