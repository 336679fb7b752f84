import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// Redundant variants (the same BANDWIDTH listed twice): when the first one's playlist or segments
/// fail, the player goes on with the backup from the same segment (F24). It ended in error with the
/// backup never tried.
@Suite struct FailoverTests {
    /// A folder with a multivariant playlist of two redundant variants, `a/` and `b/`, each a copy of
    /// the 416x234 TS rendition, served on 127.0.0.1.
    func serve(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let folder = NSTemporaryDirectory() + "playhead-failover-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for copy in ["a", "b"] {
            try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/ts/v0", toPath: folder + "/" + copy)
        }
        try """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=510400,RESOLUTION=416x234
        a/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=510400,RESOLUTION=416x234
        b/index.m3u8

        """.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try await body(server)
    }

    func failovers(_ run: PlayerFixtures.Run) -> [[String: String]] {
        run.events.compactMap { if case let .custom(name, payload) = $0.kind, name == "failover" { return payload } else { return nil } }
    }

    @Test func aMissingPlaylistFailsOverToItsBackup() async throws {
        try await serve { server in
            server.setFault(.status(404), forPath: "/a/index.m3u8")
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.framesPresented["video"] == 900)
            #expect(run.report.mediaPlaylistURL == server.url("/b/index.m3u8"))
            #expect(failovers(run).map { $0["to"] } == [server.url("/b/index.m3u8")])
        }
    }

    /// Every copy's playlist missing at load: the hop to the backup is said as it is made (a `failover` event),
    /// then the session ends in error. (A hop at load was said only once a backup loaded: none here, QA44 #3.)
    @Test func aHopAtLoadIsSaidEvenWhenTheBackupFailsToo() async throws {
        try await serve { server in
            server.setFault(.status(404), forPath: "/a/index.m3u8")
            server.setFault(.status(404), forPath: "/b/index.m3u8")
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .error)
            let moved = failovers(run)
            #expect(moved.map { [$0["from"] ?? "", $0["to"] ?? ""] } == [[server.url("/a/index.m3u8"), server.url("/b/index.m3u8")]], "\(moved)")
            #expect(moved.first?["reason"]?.contains("/a/index.m3u8") == true)
        }
    }

    /// The primary's playlist is missing and the backup's answers 500 once: the backup, the last one left, is
    /// retried as a lone variant's playlist is, and plays. (The session ended at that one 500.)
    @Test func theLastBackupsPlaylistIsRetriedAfterATransientError() async throws {
        try await serve { server in
            server.setFault(.status(404), forPath: "/a/index.m3u8")
            server.setFault(.status(500), forPath: "/b/index.m3u8", times: 1)
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.framesPresented["video"] == 900)
            #expect(run.report.mediaPlaylistURL == server.url("/b/index.m3u8"))
            #expect(server.requestLog.filter { $0.path == "/b/index.m3u8" }.count == 2)
            #expect(run.report.notifications.filter { $0.name == "NETWORK_ERROR" }.count == 2, "the 404, then the 500")
        }
    }

    /// Segment 3 of `a` keeps failing: at its first failure the backup's playlist is loaded and segment 3
    /// comes from `b`; every frame plays, each once, with no stall. (It was retried for 1 + 2 + 4 s first,
    /// and the buffer ran dry while the backup was listed.)
    @Test func aSegmentThatKeepsFailingFailsOverAndPlaysOnFromTheSameSegment() async throws {
        try await serve { server in
            server.setFault(.status(503), forPath: "/a/seg003.ts")
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.framesPresented["video"] == 900)
            let moved = failovers(run)
            #expect(moved.count == 1 && moved.first?["from"] == server.url("/a/index.m3u8") && moved.first?["to"] == server.url("/b/index.m3u8"))
            #expect(moved.first?["reason"]?.contains("/a/seg003.ts") == true)
            let loaded = run.events.compactMap { if case let .segmentLoaded(url, sequence, _, _, _) = $0.kind { return (url, sequence) } else { return nil } }
            #expect(loaded.map(\.1) == Array(0..<8), "each segment once")
            #expect(loaded.filter { $0.0.contains("/b/") }.map(\.1) == Array(3..<8))
            #expect(run.report.notifications.filter { $0.code == .networkError }.count == 1, "one failure, no retries")
            #expect(run.report.rebuffers.isEmpty)
        }
    }

    @Test func whenEveryRedundantVariantFailsTheSessionEnds() async throws {
        try await serve { server in
            server.setFault(.status(404), forPath: "/a/seg002.ts")
            server.setFault(.status(404), forPath: "/b/seg002.ts")
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .error)
            #expect((run.report.error ?? "").contains("/b/seg002.ts"), "\(run.report.error ?? "")")
            #expect(failovers(run).count == 1)
        }
    }
}

/// Two redundant live variants over the same virtual live origin (``VirtualLiveNetwork``); from
/// `aFailsAfter` session seconds on, `a`'s playlist answers HTTP 500.
struct RedundantLiveNetwork: PlayerNetwork {
    let live: VirtualLiveNetwork
    let aFailsAfter: Double

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        if url.hasSuffix("/master.m3u8") {
            let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=510400\na/live.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=510400\nb/live.m3u8\n"
            let body = Array(text.utf8)
            return NetworkTransfer(url: url, effectiveURL: url, status: 200, body: body, seconds: 0.01, firstByteSeconds: 0.01, bytesOnWire: body.count)
        }
        if url.hasSuffix("/a/live.m3u8"), sessionSeconds >= aFailsAfter {
            throw .network(.status(url: url, code: 500, bodyPrefix: []))
        }
        return try await live.fetch(url, range: range, at: sessionSeconds)
    }
}

extension FailoverTests {
    /// Live: `a`'s reloads start failing at 10 s; the player moves to `b`'s window (the same media
    /// sequence numbers) and plays on to the ENDLIST without a gap.
    @Test func aLivePlaylistWhoseReloadsFailFailsOverToItsBackup() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let live = VirtualLiveNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)),
                                      segmentBase: server.url("/ts/v0"), window: 6)
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        let player = MediaPlayer(url: "http://origin.invalid/master.m3u8", configuration: configuration, driver: VirtualTimeDriver(),
                                 network: RedundantLiveNetwork(live: live, aFailsAfter: 10))
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        let report = await player.run(maxSessionSeconds: 120)
        subscription.cancel()
        let run = PlayerFixtures.Run(report: report, events: collected.events, presented: [])
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(failovers(run).map { $0["to"] } == ["http://origin.invalid/b/live.m3u8"])
        #expect(report.mediaPlaylistURL == "http://origin.invalid/b/live.m3u8")
        #expect(report.rebuffers.isEmpty, "\(report.rebuffers)")
    }
}

/// Answers `/a/…` from `/c/…` as a redirect would: the transfer's effective URL is `/c/…`.
struct RedirectingNetwork: PlayerNetwork {
    let inner: SimulatedNetwork

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        guard url.hasSuffix("/a/index.m3u8") else { return try await inner.fetch(url, range: range, at: sessionSeconds) }
        let target = url.replacingOccurrences(of: "/a/index.m3u8", with: "/c/index.m3u8")
        var transfer = try await inner.fetch(target, range: range, at: sessionSeconds)
        transfer.url = url
        return transfer
    }
}

extension FailoverTests {
    /// `a/index.m3u8` redirects to `c/`, whose segment 2 fails: the rung fails over to `b` once. It
    /// compared the redirected URL with the listed ones, never marked `a` tried and failed over to
    /// itself for ever.
    @Test func aRedirectedPlaylistFailsOverToItsBackupOnce() async throws {
        try await serve { server in
            let folder = server.root
            try FileManager.default.copyItem(atPath: folder + "/a", toPath: folder + "/c")
            server.setFault(.status(500), forPath: "/c/seg002.ts")
            let client = HTTPClient()
            defer { client.shutdown() }
            var configuration = PlayerConfiguration()
            configuration.mode = .demux
            let player = MediaPlayer(url: server.url("/master.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                     network: RedirectingNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50))))
            let collected = Collected()
            let subscription = player.bus.subscribe { collected.append($0) }
            let report = await player.run(maxSessionSeconds: 300)
            subscription.cancel()
            let run = PlayerFixtures.Run(report: report, events: collected.events, presented: [])
            #expect(report.finalStatus == .completed, "\(report.error ?? "")")
            #expect(failovers(run).map { $0["to"] } == [server.url("/b/index.m3u8")])
            #expect(report.framesPresented["video"] == 900)
        }
    }

    /// The backup numbers its segments from 100: the failed segment is the backup's at the same time.
    /// It was looked for by its number, not found, and the session waited for ever, its memory growing.
    @Test func aBackupNumberedOtherwiseGoesOnFromTheSameTime() async throws {
        try await serve { server in
            let playlist = server.root + "/b/index.m3u8"
            let text = try String(contentsOfFile: playlist, encoding: .utf8)
            try text.replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:100")
                .write(toFile: playlist, atomically: true, encoding: .utf8)
            server.setFault(.status(404), forPath: "/a/seg002.ts")
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux }, maxSessionSeconds: 300)
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.framesPresented["video"] == 900)
            let loaded = run.events.compactMap { if case let .segmentLoaded(url, sequence, _, _, _) = $0.kind { return (url, sequence) } else { return nil } }
            #expect(loaded.filter { $0.0.contains("/b/") }.map(\.1) == Array(102..<108))
        }
    }
}

extension FailoverTests {
    /// ABR switching up to a rung whose first playlist is missing loads the rung's backup; the rung was
    /// left out for 60 s and the session stayed on the lowest.
    @Test func anABRSwitchTriesTheRungsBackup() async throws {
        let folder = NSTemporaryDirectory() + "playhead-abr-failover-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/ts/v0", toPath: folder + "/low")
        try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/ts/v1", toPath: folder + "/high-b")
        try """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=510400,RESOLUTION=416x234
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=950400,RESOLUTION=640x360
        high-a/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=950400,RESOLUTION=640x360
        high-b/index.m3u8

        """.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.variantBandwidth == 950400)
        #expect(run.report.mediaPlaylistURL == server.url("/high-b/index.m3u8"))
        #expect(failovers(run).map { $0["to"] } == [server.url("/high-b/index.m3u8")])
    }
}

extension FailoverTests {
    /// Segment 2 of `a` fails for a while: the rung fails over to `b`, and `failbackSeconds` later it
    /// goes back to `a` (it stayed on the backup for good), every frame playing once.
    @Test func theRungFailsBackToItsPrimary() async throws {
        try await serve { server in
            server.setFault(.status(503), forPath: "/a/seg002.ts", times: 4)
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8"), configure: {
                $0.mode = .demux
                $0.failbackSeconds = 4
                $0.buffer.maximumSeconds = 6
            })
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.framesPresented["video"] == 900)
            let moved = failovers(run)
            #expect(moved.map { $0["to"] } == [server.url("/b/index.m3u8"), server.url("/a/index.m3u8")], "\(moved)")
            #expect(moved.last?["reason"] == "failback to the primary")
            let loaded = run.events.compactMap { if case let .segmentLoaded(url, sequence, _, _, _) = $0.kind { return (url, sequence) } else { return nil } }
            #expect(loaded.map(\.1) == Array(0..<8), "each segment once")
            #expect(loaded.last?.0.contains("/a/") == true, "back on the primary by the end")
        }
    }
}
