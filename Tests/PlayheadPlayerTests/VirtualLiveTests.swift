import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// A live origin on the virtual clock: the playlist at session time t is a sliding window over the
/// generated 30 s VOD's segments, as if segment i (4 s) became available at 4 × (i + 1) s. Segments
/// and timing come from the simulated network underneath.
struct VirtualLiveNetwork: PlayerNetwork {
    let inner: SimulatedNetwork
    let segmentBase: String
    let window: Int
    let segmentCount = 8
    /// The origin stops adding segments after this many (and never ends the playlist); nil: it does not.
    var frozenAfter: Int?
    /// Added to every media sequence number (before `renumber` takes over).
    var startShift = 0
    /// From session time `after` on, the origin numbers its segments `shift` higher than their
    /// index (a failover to an origin that numbers differently), the content going on as before.
    var renumber: (after: Double, shift: Int)?
    /// From this session time on, the origin has restarted: it lists only the segments made since,
    /// numbered from 0, under new names (the same files, with `?restart=1`).
    var restartAfter: Double?
    /// From this session time on, the playlist answers HTTP 500.
    var failsAfter: Double?
    /// Every segment answers HTTP 404.
    var segmentsMissing = false

    func playlist(at seconds: Double) -> String {
        let available = min(frozenAfter ?? segmentCount, segmentCount, Int((seconds + 1e-9) / 4))
        var first = max(0, available - window)
        var shift = renumber.map { seconds >= $0.after ? $0.shift : startShift } ?? startShift
        var query = ""
        if let restartAfter, seconds >= restartAfter {
            let madeBefore = Int((restartAfter + 1e-9) / 4)
            (first, shift, query) = (max(first, madeBefore), -madeBefore, "?restart=1")
        }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first + shift)\n"
        for index in first..<max(first, available) {
            text += "#EXTINF:\(index == 7 ? "2.0" : "4.0"),\n\(segmentBase)/seg\(String(format: "%03d", index)).ts\(query)\n"
        }
        if available == segmentCount { text += "#EXT-X-ENDLIST\n" }
        return text
    }

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        if segmentsMissing, url.hasSuffix(".ts") { throw .network(.status(url: url, code: 404, bodyPrefix: [])) }
        guard url.hasSuffix("/live.m3u8") else { return try await inner.fetch(url, range: range, at: sessionSeconds) }
        if let failsAfter, sessionSeconds >= failsAfter {
            throw .network(.status(url: url, code: 500, bodyPrefix: Array("overloaded".utf8)))
        }
        let body = Array(playlist(at: sessionSeconds).utf8)
        return NetworkTransfer(url: url, effectiveURL: url, status: 200, body: body, seconds: 0.01, firstByteSeconds: 0.01, bytesOnWire: body.count)
    }
}

/// A live playlist that never changes: the 30 s VOD's eight segments without ENDLIST, starting 4 s from
/// the edge by EXT-X-START (closer than the three target durations of hold-back).
struct StaticLiveNetwork: PlayerNetwork {
    let inner: SimulatedNetwork
    let segmentBase: String

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        guard url.hasSuffix("/static.m3u8") else { return try await inner.fetch(url, range: range, at: sessionSeconds) }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-START:TIME-OFFSET=-4.0\n"
        for index in 0..<8 { text += "#EXTINF:\(index == 7 ? "2.0" : "4.0"),\n\(segmentBase)/seg\(String(format: "%03d", index)).ts\n" }
        let body = Array(text.utf8)
        return NetworkTransfer(url: url, effectiveURL: url, status: 200, body: body, seconds: 0.01, firstByteSeconds: 0.01, bytesOnWire: body.count)
    }
}

@Suite struct VirtualLiveTests {
    func play(window: Int, frozenAfter: Int? = nil, startShift: Int = 0, renumber: (after: Double, shift: Int)? = nil,
              restartAfter: Double? = nil, failsAfter: Double? = nil, segmentsMissing: Bool = false, fetchRetries: Int = PlayerConfiguration.defaultFetchRetries,
              scheduled: [ScheduledCommand] = [], megabits: Double = 50) async throws -> PlayerFixtures.Run {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let network = VirtualLiveNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: megabits)),
                                         segmentBase: server.url("/ts/v0"), window: window, frozenAfter: frozenAfter,
                                         startShift: startShift, renumber: renumber, restartAfter: restartAfter, failsAfter: failsAfter,
                                         segmentsMissing: segmentsMissing)
        var configuration = PlayerConfiguration()
        configuration.fetchRetries = fetchRetries
        let player = MediaPlayer(url: "http://origin.invalid/live.m3u8", configuration: configuration, driver: VirtualTimeDriver(),
                                 network: network, scheduled: scheduled)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        // The playlist is empty until the first segment exists: start when it does.
        let report = await player.run(maxSessionSeconds: 120)
        subscription.cancel()
        return PlayerFixtures.Run(report: report, events: collected.events, presented: [])
    }

    @Test func playsTheWindowToTheEndListWithTheSpecsReloadCadence() async throws {
        let run = try await play(window: 6)
        let report = run.report
        #expect(report.isLive)
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.rebuffers.isEmpty)
        #expect(report.framesPresented["video"] == 900)
        let reloads = run.events.compactMap { event -> (Double, Bool)? in
            if case let .playlistLoaded(_, _, changed) = event.kind { return (event.playerTime, changed) }
            return nil
        }
        #expect(reloads.count >= 7)
        for (previous, next) in zip(reloads, reloads.dropFirst()) {
            let expected = previous.1 ? 4.0 : 2.0
            #expect(abs(next.0 - previous.0 - expected) < 0.05, "reload \(next.0 - previous.0) s after a \(previous.1 ? "changed" : "unchanged") playlist")
        }
        #expect((report.maxLiveEdgeDistanceSeconds ?? 99) <= 3 * 4 + 1)
        // Followed to the end, past the ENDLIST: the playhead ends at the edge (it stayed where the
        // ENDLIST found it, 3.5 s back).
        #expect(abs(report.liveEdgeDistanceSeconds ?? 99) < 0.1, "\(report.liveEdgeDistanceSeconds ?? -1)")
        // Deterministic: a second run logs the same events (each run has its own server port).
        let second = try await play(window: 6)
        let lines = { (run: PlayerFixtures.Run) in
            run.events.map { $0.jsonLine(includeWallClock: false).replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "HOST", options: .regularExpression) }
        }
        #expect(lines(second) == lines(run))
    }

    /// EXT-X-START 4 s from the edge (nearer than the hold-back): playback starts there at once. It waited
    /// for the window to grow past the hold-back, and on a playlist that never grew it never started, with
    /// nothing presented and no stall reported.
    @Test func aStartPointNearerTheEdgeThanTheHoldBackStartsAtOnce() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let network = StaticLiveNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)), segmentBase: server.url("/ts/v0"))
        let player = MediaPlayer(url: "http://origin.invalid/static.m3u8", configuration: PlayerConfiguration(), driver: VirtualTimeDriver(), network: network)
        let report = await player.run(maxSessionSeconds: 30)
        #expect(report.isLive)
        #expect((report.playbackInformation?.timeToFirstFrameSeconds ?? 99) < 1, "\(String(describing: report.playbackInformation?.timeToFirstFrameSeconds))")
        // From segment 6 (24 s, holding EXT-X-START's 26 s; not PRECISE) to the last listed frame: 180 frames, less
        // the two the decoder holds for reordering while no more input comes (the playlist never grows).
        #expect(report.framesPresented["video"] == 178, "\(report.framesPresented)")
    }

    /// Forward past the live edge, with the playhead already nearer the edge than the seekable range's end
    /// (three target durations back): it stays where it is. Clamping took it back 2 s, and those 2 s played twice.
    @Test func aSeekForwardPastTheLiveEdgeNeverGoesBack() async throws {
        let run = try await play(window: 6, scheduled: [.init(atPositionSeconds: 8, action: .seek(toSeconds: 100))])
        let seek = try #require(run.report.seeks.first)
        #expect(seek.fromSeconds == 8)
        #expect(seek.toSeconds >= seek.fromSeconds, "\(seek)")
        #expect(run.report.framesPresented["video"] == 900, "no frame played twice")
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
    }

    @Test func aLivePlaylistThatStopsChangingEndsInAnErrorOnceTheBufferRunsDry() async throws {
        // Segments 0–3 appear by 16 s, then the origin freezes without an ENDLIST. Playback (which
        // starts three target durations behind the edge) plays what is listed and stalls; 3.5 target
        // durations (14 s) after the last change the session ends with an error naming the playlist.
        // (It used to wait for ever.)
        let run = try await play(window: 6, frozenAfter: 4)
        let report = run.report
        #expect(report.finalStatus == .error)
        let error = try #require(report.error)
        #expect(error.contains("http://origin.invalid/live.m3u8") && error.contains("has not changed"), "\(error)")
        #expect(report.framesPresented["video", default: 0] > 0, "what was listed played first")
        let failedAt = try #require(report.statuses.last?.playerTime)
        #expect(failedAt >= 16 + 14 && failedAt < 16 + 14 + 4, "failed at \(failedAt) s")
    }

    /// Reloads that keep failing are retried half a target duration apart, and once the playlist has
    /// not changed for 3.5 target durations the session ends naming the failure. They were retried at
    /// once, every turn, without the clock moving: the session never ended.
    @Test func aPlaylistThatKeepsFailingIsRetriedAtIntervalsAndEndsTheSessionNamingTheFailure() async throws {
        let run = try await play(window: 6, failsAfter: 10)
        let report = run.report
        #expect(report.finalStatus == .error)
        let error = try #require(report.error)
        #expect(error.contains("has not changed") && error.contains("reloads failed: HTTP 500 for http://origin.invalid/live.m3u8"), "\(error)")
        let failures = run.events.filter { $0.kind.notification?.name == "NETWORK_ERROR" }.map(\.playerTime)
        #expect(failures.count >= 3 && failures.count <= 12, "\(failures.count) failed reloads")
        for (previous, next) in zip(failures, failures.dropFirst()) {
            #expect(next - previous >= 2 - 1e-6, "a retry \(next - previous) s after a failure")
        }
    }

    /// Segments that fail from the first one end the session after the retries, as on VOD. Each
    /// fell-behind seek (the window sliding past the failing segment) used to start the retries again,
    /// the session "playing" with nothing shown until the playlist ended.
    @Test func segmentsThatFailFromTheStartEndTheSessionAfterTheRetries() async throws {
        // A one-segment window: the first segment (listed at 4 s) has slid out by the reload at 8 s,
        // before its three retries (1, 2 and 4 s apart) are spent.
        let run = try await play(window: 1, segmentsMissing: true)
        #expect(run.report.finalStatus == .error)
        #expect((run.report.error ?? "").contains("404"), "\(run.report.error ?? "")")
        let fellBehind = run.events.filter { if case let .custom(name, _) = $0.kind { return name == "fellBehindLiveWindow" } else { return false } }
        #expect(fellBehind.count <= 1, "\(fellBehind.count) fell-behind seeks")
        let failedAt = try #require(run.report.statuses.last?.playerTime)
        #expect(failedAt < 12, "failed at \(failedAt) s")
    }

    @Test func fallingBehindTheWindowIsDetectedAndRecovered() async throws {
        // A 2-segment window and a 20 s pause: the next segment has slid out of the window by the time playback resumes.
        let run = try await play(window: 2, scheduled: [.init(atPositionSeconds: 1, action: .pause(forSeconds: 20))])
        let fellBehind = run.events.filter { if case let .custom(name, _) = $0.kind { return name == "fellBehindLiveWindow" } else { return false } }
        #expect(fellBehind.count >= 1)
        #expect(run.report.seeks.count >= 1, "recovered by jumping to the window")
        // The player's own seeks say why (they counted as seeks asked for).
        #expect(run.report.seeks.allSatisfy { $0.automatic == "fellBehindLiveWindow" })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
    }

    /// A link slower than the stream and a 2-segment window: the player stalls, and the window slides past its
    /// next segment while it waits. Its own recovery seek does not end the stall: the picture stays frozen until
    /// frames come (the stall was closed, as recovered, the moment the seek started, and most of the frozen
    /// time went missing from the rebuffer figures).
    @Test func aStallThatFallsBehindTheWindowLastsUntilFramesCome() async throws {
        let run = try await play(window: 2, megabits: 0.35)
        let report = run.report
        let automatic = report.seeks.filter { $0.automatic == "fellBehindLiveWindow" }
        let stalledSeeks = automatic.filter { seek in report.rebuffers.contains { $0.startSeconds <= seek.requestedAt + 1e-9 } }
        #expect(!stalledSeeks.isEmpty, "seeks \(report.seeks.map { ($0.requestedAt, $0.automatic ?? "-") }) rebuffers \(report.rebuffers.map { ($0.startSeconds, $0.endSeconds ?? -1) })")
        for seek in stalledSeeks {
            let open = report.rebuffers.first { $0.startSeconds <= seek.requestedAt + 1e-9 && ($0.endSeconds ?? .infinity) > seek.requestedAt + 1e-9 }
            #expect(open != nil, "the stall ended at the automatic seek at \(seek.requestedAt) s: \(report.rebuffers.map { ($0.startSeconds, $0.endSeconds ?? -1) })")
            if let open, let completed = seek.completedAt { #expect((open.endSeconds ?? .infinity) >= completed - 1e-6) }
        }
    }

    /// At 13 s the origin renumbers its segments 1000 higher, the content going on under the same
    /// names. Session 7 took the jump for a renumbering and continued at the live edge after a
    /// discontinuity (a recovery seek, some content repeated); before that, the 997 "missed"
    /// segments were assumed to last 4 s each and 121 frames played. Now the known names say the
    /// segments are the same: the tracker keeps its numbering and playback goes on untouched.
    @Test func anOriginThatRenumbersItsSegmentsHigherPlaysOn() async throws {
        let run = try await play(window: 6, renumber: (after: 13, shift: 1000))
        try expectUntouchedPlayback(run)
    }

    /// The same, 1000 lower (a failover back): this used to be ignored as a stale playlist until the
    /// stuck rule ended the session in an error.
    @Test func anOriginThatRenumbersItsSegmentsLowerPlaysOn() async throws {
        let run = try await play(window: 6, startShift: 1000, renumber: (after: 13, shift: 0))
        try expectUntouchedPlayback(run)
    }

    func expectUntouchedPlayback(_ run: PlayerFixtures.Run) throws {
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(run.eventLines.contains { $0.contains("renumbered its segments") })
        #expect(report.seeks.isEmpty && report.rebuffers.isEmpty, "\(report.seeks) \(report.rebuffers)")
        #expect(report.framesPresented["video"] == 900, "\(report.framesPresented)")
        #expect(abs(report.positionSeconds - 30) < 0.1, "\(report.positionSeconds)")
    }

    /// At 13 s the origin restarts: from then on it lists only new segments, numbered from 0 under
    /// new names. This used to be ignored as stale until the stuck rule ended the session in an
    /// error; now the new segments continue at the live edge after a discontinuity, and the player,
    /// whose next segments are no longer listed, recovers to the new window.
    @Test func anOriginThatRestartsItsNumberingPlaysOn() async throws {
        let run = try await play(window: 6, restartAfter: 13)
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(run.eventLines.contains { $0.contains("restarted its numbering") })
        #expect(!run.eventLines.contains { $0.contains("ignored as stale") })
        // The segments made after the restart (seg003–seg007: 18 s, 540 frames) all play.
        #expect(report.framesPresented["video", default: 0] >= 540, "\(report.framesPresented)")
        #expect(report.positionSeconds < 60)
    }
}

/// A live window that slides while shorter than the hold-back (three target durations): the start waits
/// for the window to grow only while it grows (it waited until the playhead fell out of the window).
@Suite struct ShortSlidingWindowTests {
    @Test func aShortSlidingWindowStartsOnceItSlides() async throws {
        let folder = NSTemporaryDirectory() + "playhead-shortwindow-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 4 s segments under TARGETDURATION 6: a three-segment window is 12 s, short of the 18 s hold-back.
        try String(contentsOfFile: PlayerFixtures.streams + "/ts/v0/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "#EXT-X-TARGETDURATION:4", with: "#EXT-X-TARGETDURATION:6")
            .replacingOccurrences(of: "seg", with: "file://\(PlayerFixtures.streams)/ts/v0/seg")
            .write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        MediaLog.level = .quiet
        let client = HTTPClient()
        defer { client.shutdown() }
        let network = SimulatedLiveNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)),
                                           prefix: "file://\(folder)/", initialSegments: 3, windowSegments: 3)
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        let player = MediaPlayer(url: "file://\(folder)/index.m3u8", configuration: configuration, driver: VirtualTimeDriver(), network: network)
        let report = await player.run(maxSessionSeconds: 60)
        #expect(report.isLive)
        let firstFrame = try #require(report.playbackInformation?.timeToFirstFrameSeconds)
        // It starts when the first reload (a target duration after the load) shows the window sliding, and
        // never falls out of the window.
        #expect(firstFrame < 7, "first frame after \(firstFrame) s (one reload: the target duration)")
        #expect(report.seeks.allSatisfy { $0.automatic != "fellBehindLiveWindow" }, "\(report.seeks)")
    }
}
