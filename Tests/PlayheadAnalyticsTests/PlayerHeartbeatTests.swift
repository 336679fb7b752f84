import Foundation
import PlayheadAnalytics
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// The tracker on the real player's bus, on the virtual clock, against the heartbeat collector of the
/// test ad server: the generated cue stream (30 s, 2 s segments) served on 127.0.0.1.
@Suite struct PlayerHeartbeatTests {
    struct Session {
        var report: PlaybackReport
        var heartbeats: HeartbeatReport
        var records: [HeartbeatRecord] { heartbeats.calls }
        var lines: [String]
    }

    /// Plays `url` in demux mode with a heartbeat tracker attached (as `playhead play` wires it).
    func play(_ url: String, collector: AdServer, client: HTTPClient, link: SimulatedLink, ads: AdMap? = nil,
              scheduled: [ScheduledCommand] = [], quiet: Bool = false, ssai: Bool = false, interval: Double? = nil) async -> Session {
        MediaLog.level = .quiet
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        if let ads {
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: AdMapResolver(map: ads))
            configuration.ads = AdSettings(factory: factory)
        }
        if ssai { configuration.ssai = SSAISettings() }
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: link), scheduled: scheduled)
        let lines = LockedLines()
        var settings = HeartbeatSettings(trackingServer: collector.heartbeatServerURL, quiet: quiet, videoId: "cues")
        if let interval { settings.intervalSeconds = interval }
        let tracker = HeartbeatTracker(settings: settings, client: client, debugLog: { lines.append($0) })
        let subscription = tracker.attach(to: player)
        let report = await player.run(maxSessionSeconds: 300)
        subscription.cancel()
        tracker.unload(at: report.sessionSeconds)
        await tracker.flush()
        return Session(report: report, heartbeats: tracker.report(), lines: lines.lines)
    }

    /// Two variants of the same media, so that ABR switches: a master playlist served by the ad server.
    func twoVariants(_ origin: LoopbackHTTPServer, _ server: AdServer) -> String {
        let media = origin.url("/cues/ts/vod.m3u8")
        server.register("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=510400,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360
            \(media)?rung=0
            #EXT-X-STREAM-INF:BANDWIDTH=950400,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360
            \(media)?rung=1

            """, at: "/two.m3u8", contentType: "application/vnd.apple.mpegurl")
        return server.url("/two.m3u8")
    }

    /// A heartbeat due the moment a mid-roll starts (every 7 s from the first play; the break at 14 s) carries
    /// the content playhead where the break sits, 14 s: it said 13.4, the position at the event before.
    @Test func aHeartbeatDueAsABreakStartsCarriesTheBreaksPlace() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let ads = try AdMap.parse(Data(#"{"breaks": [{"time": 14, "ads": [{"url": "\#(origin.url("/cues/ad/master.m3u8"))", "duration": 10, "id": "ad1"}]}]}"#.utf8))
        let session = await play(origin.url("/cues/ts/vod.m3u8"), collector: server, client: client,
                                 link: SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: 50)), ads: ads, interval: 7)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let adStart = try #require(session.records.first { $0.call == "trackAdStart" })
        let atBreak = try #require(session.records.first { $0.call == "heartbeat" && abs($0.sessionSeconds - adStart.sessionSeconds) < 1e-6 },
                                   "\(session.records.map { "\($0.call)@\($0.sessionSeconds)" })")
        #expect(atBreak.assetType == "main" && abs(atBreak.playheadSeconds - 14) < 1e-6, "\(atBreak.playheadSeconds)")
    }

    @Test func callOrderOfAPlayWithPauseSeekRebufferAdBitrateChangeAndCompletion() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let url = twoVariants(origin, server)
        // 50 Mbit/s, then 0.2 Mbit/s from 3 s to 11 s of session time (a rebuffer), then 50 again.
        let link = SimulatedLink(trace: BandwidthTrace(name: "dip", times: [0, 3, 11, 1000], megabitsPerSecond: [50, 50, 0.2, 50]))
        let ads = try AdMap.parse(Data(#"{"breaks": [{"time": 10, "ads": [{"url": "\#(origin.url("/cues/ad/master.m3u8"))", "duration": 10, "id": "ad1"}]}]}"#.utf8))
        let session = await play(url, collector: server, client: client, link: link, ads: ads,
                                 scheduled: [.init(atPositionSeconds: 5, action: .pause(forSeconds: 3)),
                                             .init(atPositionSeconds: 22, action: .seek(toSeconds: 26))])
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let records = session.records
        let described = records.map { "\($0.call)@\(String(format: "%.2f", $0.sessionSeconds)):\($0.assetType):\(String(format: "%.2f", $0.playheadSeconds))" }
        #expect(session.report.adBoundaries.count == 1 && session.report.rebuffers.count == 1, "\(session.report.notifications.map(\.name))")

        // The guide's order: load, session start, first play; the ABR's switch up; the pause and its play;
        // the rebuffer (and the ABR's switch down it brings); the ad (the content's switch back up while it
        // plays is the player's, reported at once); the seek; the completion; the unload.
        #expect(records.filter { $0.call != "heartbeat" }.map(\.call) == [
            "trackVideoLoad", "trackSessionStart", "trackPlay", "trackBitrateChange", "trackPause", "trackPlay",
            "trackBufferStart", "trackBufferComplete", "trackBitrateChange", "trackAdStart", "trackBitrateChange", "trackAdComplete",
            "trackSeekStart", "trackSeekComplete", "trackComplete", "trackVideoUnload",
        ], "\(described)")
        #expect(records.filter { $0.call == "trackBufferStart" }.count == session.report.rebuffers.count)
        #expect(records.filter { $0.call == "trackBitrateChange" }.count == session.report.bitrateSwitches.filter { $0.fromBitsPerSecond != nil }.count)

        // Heartbeats: each one interval after the last play or heartbeat (at the first event at or after it, and
        // the player posts one a second), none while paused, the one in the ad an ad heartbeat.
        var last: Double?
        var paused = false
        for record in records {
            switch record.call {
            case "trackPlay": last = record.sessionSeconds; paused = false
            case "trackPause": paused = true
            case "heartbeat":
                #expect(!paused, "\(described)")
                let since = record.sessionSeconds - (last ?? -100)
                #expect(since >= 10 - 1e-9 && since < 11.05, "\(since) \(described)")
                last = record.sessionSeconds
            default: break
            }
        }
        #expect(records.filter { $0.call == "heartbeat" }.map(\.assetType) == ["ad", "main", "main"], "\(described)")

        // Playheads: content seconds without the ad; seconds into the ad inside it.
        func playhead(_ call: String) -> Double { records.first { $0.call == call }?.playheadSeconds ?? -1 }
        #expect(abs(playhead("trackPause") - 5) < 1e-6)
        #expect(abs(playhead("trackBufferStart") - (session.report.rebuffers.first?.positionSeconds ?? -1)) < 1e-6)
        #expect(abs(playhead("trackSeekStart") - 12) < 0.05 && abs(playhead("trackSeekComplete") - 16) < 0.05)
        #expect(playhead("trackAdStart") == 0 && abs(playhead("trackAdComplete") - 10) < 0.05)
        #expect(abs(playhead("trackComplete") - 30) < 0.05)

        // The startup time: session start (play asked) to the first frame.
        let startup = try #require(session.heartbeats.startupTimeSeconds)
        let firstPlay = try #require(records.first { $0.call == "trackPlay" }).sessionSeconds
        let sessionStart = try #require(records.first { $0.call == "trackSessionStart" }).sessionSeconds
        #expect(abs(startup - (firstPlay - sessionStart)) < 1e-9 && startup > 0)

        // The collector got every call over HTTP, in order, and answered each with 200.
        let hits = server.heartbeats
        #expect(hits.map { $0.parameter("s:event:type") ?? "?" } == records.map(\.type))
        #expect(records.allSatisfy { $0.sent && $0.httpStatus == 200 })
        let adStart = try #require(hits.first { $0.parameter("s:event:type") == "ad_start" })
        #expect(adStart.parameter("s:asset:type") == "ad" && adStart.parameter("s:asset:ad_id") == "ad1" && adStart.parameter("l:asset:pod_offset") == "10")
        #expect(adStart.parameter("l:stream:startup_time") == String(Int((startup * 1000).rounded())))
        #expect(hits.allSatisfy { $0.parameter("s:asset:video_id") == "cues" && $0.parameter("l:asset:length") == "30" })
        let bitrates = hits.filter { $0.parameter("s:event:type") == "bitrate_change" }.map { $0.parameter("l:stream:bitrate") }
        #expect(bitrates == ["950400", "510400", "950400"])

        // The debug log: one #track line per track call, in order.
        #expect(session.lines.filter { $0.contains("#track") && !$0.contains(">") }.map { String($0.split(separator: "#").last ?? "") }
            == records.filter { $0.call != "heartbeat" }.map(\.call))
    }

    @Test func aPlayerErrorIsATrackVideoPlayerErrorThenTheUnload() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let session = await play(origin.url("/cues/ts/missing.m3u8"), collector: server, client: client,
                                 link: SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [50, 50])))
        #expect(session.report.finalStatus == .error)
        let records = session.records
        #expect(records.map(\.call).suffix(2) == ["trackVideoPlayerError", "trackVideoUnload"], "\(records.map(\.call))")
        #expect(records.first?.call == "trackVideoLoad")
        let error = try #require(server.heartbeats.first { $0.parameter("s:event:type") == "error" })
        let code = try #require(session.report.notifications.last { $0.type == .error }?.code)
        #expect(error.parameter("s:event:error_id") == "\(code.code) \(code.name)")
    }

    @Test func quietModeSendsNothingToTheCollector() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let session = await play(origin.url("/cues/ts/vod.m3u8"), collector: server, client: client,
                                 link: SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [50, 50])),
                                 quiet: true)
        #expect(session.report.finalStatus == .completed)
        #expect(server.heartbeats.isEmpty)
        #expect(session.heartbeats.quiet && session.records.allSatisfy { !$0.sent && $0.httpStatus == nil })
        // 30 s of content from about 0.7 s: heartbeats at about 10.7 and 20.7 s (and 30.7 s, when the end comes later).
        #expect([2, 3].contains(session.records.filter { $0.call == "heartbeat" }.count), "\(session.records.map(\.call))")
        #expect(session.records.map(\.call).suffix(2) == ["trackComplete", "trackVideoUnload"])
    }

    /// Server-side ads are ads to the heartbeats: trackAdStart and trackAdComplete at each stitched ad, the ad's
    /// playhead inside it, and the main content's playhead leaves the avail's 10 s out.
    @Test func stitchedAdsAreAdsAndTheContentPlayheadLeavesThemOut() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let session = await play(origin.url("/ssai/index.m3u8"), collector: server, client: client,
                                 link: SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [50, 50])),
                                 quiet: true, ssai: true)
        #expect(session.report.finalStatus == .completed)
        let ads = session.records.filter { $0.call.hasPrefix("trackAd") }
        #expect(ads.map(\.call) == ["trackAdStart", "trackAdComplete", "trackAdStart", "trackAdComplete"])
        #expect(ads.map(\.assetType).allSatisfy { $0 == "ad" })
        #expect(ads.map { ($0.playheadSeconds * 1000).rounded() / 1000 } == [0, 6, 0, 4])
        // 40 s of stream, 10 s of it stitched ads: the content ends at 30 s.
        #expect(session.records.first { $0.call == "trackComplete" }?.playheadSeconds == 30)
        let inside = session.records.filter { $0.call == "heartbeat" && $0.assetType == "ad" }
        #expect(!inside.isEmpty && inside.allSatisfy { $0.playheadSeconds <= 6 + 1e-6 })
    }
}
