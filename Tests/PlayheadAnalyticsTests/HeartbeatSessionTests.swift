import Foundation
import Glibc
import PlayheadAnalytics
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// The heartbeat state machine on hand-made event sequences (session times given), and the tracker
/// against the heartbeat collector on 127.0.0.1.
@Suite struct HeartbeatSessionTests {
    static let vod = HeartbeatPlayerInfo(durationSeconds: 30, isLive: false)

    /// Feeds `kinds` (each at its session time) to a session; returns every call and line.
    func run(_ kinds: [(Double, PlayerEventKind)], settings: HeartbeatSettings = HeartbeatSettings(trackingServer: "http://127.0.0.1:9"),
             unloadAt: Double? = nil, info: HeartbeatPlayerInfo = vod) -> (calls: [HeartbeatCall], lines: [String]) {
        var session = HeartbeatSession(settings: settings, sessionId: "sid")
        var calls: [HeartbeatCall] = [], lines: [String] = []
        for (index, (time, kind)) in kinds.enumerated() {
            let out = session.handle(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind), info: info)
            calls += out.calls
            lines += out.lines
        }
        if let unloadAt {
            let out = session.unload(at: unloadAt, info: Self.vod)
            calls += out.calls
            lines += out.lines
        }
        return (calls, lines)
    }

    /// The start of a session: load, play asked at 0.5 s, first frame at 1.25 s.
    static let start: [(Double, PlayerEventKind)] = [
        (0, .itemChanged(url: "http://origin/v.m3u8")), (0.25, .statusChanged(from: .initializing, to: .initialized)), (0.5, .statusChanged(from: .ready, to: .playing)), (1.25, .playStarted),
    ]

    /// `timeChanged` once a second of playback from `from` to `to` seconds of session time, position = time − offset.
    static func ticks(_ from: Int, _ to: Int, offset: Double = 1.25) -> [(Double, PlayerEventKind)] {
        (from...to).map { (Double($0), .timeChanged(seconds: Double($0) - offset)) }
    }

    @Test func heartbeatsEveryIntervalOfSessionTimeWhilePlayingAndNoneWhilePaused() {
        // Plays from 1.25 s; pauses at 14 s, resumes at 29 s; completes at 44 s.
        let events = Self.start + Self.ticks(2, 14) + [(14.0, .statusChanged(from: .playing, to: .paused))]
            + [(29.0, .statusChanged(from: .paused, to: .playing))] + Self.ticks(30, 44, offset: 16.25) + [(44.0, .playCompleted)]
        let (calls, lines) = run(events, unloadAt: 44)
        #expect(calls.map(\.method) == ["trackVideoLoad", "trackSessionStart", "trackPlay", "heartbeat", "trackPause", "trackPlay",
                                        "heartbeat", "trackComplete", "trackVideoUnload"])
        // Heartbeats at the first event at or after 11.25 s, then 10 s after the resume at 29 s.
        #expect(calls.filter { $0.method == "heartbeat" }.map(\.sessionSeconds) == [12, 39])
        #expect(calls.filter { $0.method == "heartbeat" }.map(\.type) == ["play", "play"])
        // Nothing between the pause at 14 s and the resume at 29 s.
        #expect(!calls.contains { $0.sessionSeconds > 14 && $0.sessionSeconds < 29 })
        // The startup time: from the session start (0.5 s) to the first frame (1.25 s), in every call after it, ms.
        #expect(calls[2].parameter("l:stream:startup_time") == "750")
        #expect(calls[1].parameter("l:stream:startup_time") == nil)
        #expect(calls.allSatisfy { $0.parameter("s:event:sid") == "sid" && $0.parameter("l:asset:length") == "30" })
        #expect(lines.filter { $0.contains("#track") }.map { String($0.split(separator: "#").last ?? "") }
            == ["trackVideoLoad", "trackSessionStart", "trackPlay", "trackPause", "trackPlay", "trackComplete", "trackVideoUnload"])
        // The playhead of the pause: 12.75 s of content, whole seconds in the URL.
        let pause = try! #require(calls.first { $0.method == "trackPause" })
        #expect(pause.parameter("l:event:playhead") == "12" && abs(pause.playheadSeconds - 12.75) < 1e-9)
    }

    @Test func aRebufferIsABufferStartAndCompleteWithBufferHeartbeatsBetween() {
        let events = Self.start + Self.ticks(2, 5) + [(5.5, .bufferingStarted), (9.0, .segmentLoaded(url: "s", mediaSequence: 1, bytes: 1, seconds: 1, throughputBitsPerSecond: 1)),
                                                       (12.0, .segmentLoaded(url: "s", mediaSequence: 2, bytes: 1, seconds: 1, throughputBitsPerSecond: 1)),
                                                       (13.0, .bufferingCompleted(durationSeconds: 7.5))] + Self.ticks(14, 22, offset: 8.75)
        let calls = run(events).calls
        #expect(calls.map { "\($0.method):\($0.type)" } == ["trackVideoLoad:load", "trackSessionStart:start", "trackPlay:play",
                                                            "trackBufferStart:buffer_start", "heartbeat:buffer", "trackBufferComplete:buffer_complete",
                                                            "heartbeat:play"])
        // The buffer heartbeat at its due time (11.25 s), made at the first event after it.
        #expect(calls.filter { $0.method == "heartbeat" }.map(\.sessionSeconds) == [11.25, 22])
    }

    @Test func aLongStallWithNoEventsStillHasItsBufferHeartbeats() {
        // A stalled player posts nothing: 28 s of stall had one heartbeat, at its end.
        let events = Self.start + Self.ticks(2, 5) + [(5.5, .bufferingStarted), (33.5, .bufferingCompleted(durationSeconds: 28))]
            + Self.ticks(34, 42, offset: 29.25)
        let calls = run(events).calls
        let heartbeats = calls.filter { $0.method == "heartbeat" }
        #expect(heartbeats.map(\.sessionSeconds) == [11.25, 21.25, 31.25, 42])
        #expect(heartbeats.map(\.type) == ["buffer", "buffer", "buffer", "play"])
        #expect(heartbeats.prefix(3).allSatisfy { $0.parameter("l:event:playhead") == "4" })
    }

    @Test func callsInsideAnAdCarryItsPlayheadNowNotAtItsLastProgress() {
        // The ad starts at 10 s; its adProgress comes once a second. A heartbeat due at 11.25 s comes with the
        // tick at 11.5 s: 1.5 s into the ad (it said 0, the last progress); a pause at 12.75 s says 2.
        let ad = AdEventInfo(breakId: "b", breakIndex: 0, adId: "a", adIndex: 0, url: "http://ad", durationSeconds: 10, offsetSeconds: 0, pts: 0)
        var progress = ad
        progress.offsetSeconds = 1
        let events = Self.start + Self.ticks(2, 9) + [(10.0, .adBreakStarted(breakId: "b", breakIndex: 0, ads: 1)), (10.0, .adStarted(ad)),
                                                      (11.5, .timeChanged(seconds: 11.5)), (11.75, .adProgress(progress)),
                                                      (12.75, .statusChanged(from: .playing, to: .paused))]
        let calls = run(events).calls
        let heartbeat = try! #require(calls.first { $0.method == "heartbeat" })
        #expect(heartbeat.assetType == "ad" && abs(heartbeat.playheadSeconds - 1.5) < 1e-9)
        let pause = try! #require(calls.first { $0.method == "trackPause" })
        #expect(abs(pause.playheadSeconds - 2) < 1e-9 && pause.parameter("l:event:playhead") == "2")
    }

    @Test func aBlackoutIsMainContentWhosePlayheadMovesOn() {
        // A blackout from 8 s to 20 s (a break of the alternate's plays on the timeline): heartbeats in it
        // said 7, the last content position before it, and a join inside it said 0.
        let alternate = TimelineAd(id: "b#1", url: "http://slate", durationSeconds: 12)
        let timeline = AdTimeline(breaks: [AdBreak(id: AdBreak.blackoutPrefix + "b", contentSeconds: 8, ads: [alternate], replacedContentSeconds: 12, watched: true)])
        var session = HeartbeatSession(settings: HeartbeatSettings(trackingServer: "http://127.0.0.1:9"), sessionId: "sid")
        session.update(timeline: timeline)
        var calls: [HeartbeatCall] = []
        for (index, (time, kind)) in (Self.start + Self.ticks(2, 14)).enumerated() {
            calls += session.handle(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind), info: Self.vod).calls
        }
        let heartbeat = try! #require(calls.first { $0.method == "heartbeat" })
        #expect(heartbeat.assetType == "main" && abs(heartbeat.playheadSeconds - 10.75) < 1e-9 && heartbeat.parameter("l:event:playhead") == "10")
        // Joining at 10 s, inside it.
        var joined = HeartbeatSession(settings: HeartbeatSettings(trackingServer: "http://127.0.0.1:9"), sessionId: "sid")
        joined.update(timeline: timeline)
        var first: [HeartbeatCall] = []
        for (index, (time, kind)) in Self.start.enumerated() {
            first += joined.handle(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind),
                                   info: HeartbeatPlayerInfo(durationSeconds: 30, isLive: false, positionSeconds: 10)).calls
        }
        #expect(first.first { $0.method == "trackPlay" }?.playheadSeconds == 10)
    }

    @Test func anAdCutShortCompletesAndOneLeftByASeekDoesNot() {
        // The guide excuses a missing trackAdComplete only for a seek out of the ad; an ad the player cut short
        // (its segment failed) had none either.
        let ad = AdEventInfo(breakId: "b", breakIndex: 0, adId: "a", adIndex: 0, url: "http://ad", durationSeconds: 10, offsetSeconds: 0, pts: 0)
        var cut = ad
        cut.offsetSeconds = 4
        let adStart: [(Double, PlayerEventKind)] = [(10.0, .adBreakStarted(breakId: "b", breakIndex: 0, ads: 1)), (10.0, .adStarted(ad))]
        let cutShort = run(Self.start + Self.ticks(2, 9) + adStart + [(14.0, .adSkipped(cut))]).calls
        let complete = try! #require(cutShort.first { $0.method == "trackAdComplete" })
        #expect(complete.assetType == "ad" && complete.playheadSeconds == 4)
        let seekOut = run(Self.start + Self.ticks(2, 9) + adStart + [(14.0, .seekStarted(from: 14, to: 25)), (14.0, .adSkipped(cut)),
                                                                      (14.2, .seekCompleted(at: 25))]).calls
        #expect(!seekOut.contains { $0.method == "trackAdComplete" })
    }

    @Test func theFirstPlayCarriesWherePlaybackStarts() {
        // A start position of 12 s: trackPlay said 0.
        let info = HeartbeatPlayerInfo(durationSeconds: 30, isLive: false, positionSeconds: 12)
        let calls = run(Self.start, info: info).calls
        let play = try! #require(calls.first { $0.method == "trackPlay" })
        #expect(play.playheadSeconds == 12)
    }

    @Test func anErrorIsATrackVideoPlayerErrorWithItsCodeAndEndsTheHeartbeats() {
        let error = PlayerNotification.missingFile(url: "http://origin/s3.ts", status: 404)
        let calls = run(Self.start + Self.ticks(2, 6) + [(6.0, .error(error))] + Self.ticks(7, 30), unloadAt: 30).calls
        #expect(calls.map(\.method) == ["trackVideoLoad", "trackSessionStart", "trackPlay", "trackVideoPlayerError", "trackVideoUnload"])
        let call = try! #require(calls.first { $0.method == "trackVideoPlayerError" })
        #expect(call.type == "error")
        #expect(call.parameter("s:event:error_id") == "\(error.code.code) \(error.code.name)")
    }

    @Test func aPlayBeforeTheSessionStartStartsItAndSaysSo() {
        let (calls, lines) = run([(0, .itemChanged(url: "u")), (1, .statusChanged(from: .initializing, to: .initialized)), (2, .playStarted)])
        #expect(calls.map(\.method) == ["trackVideoLoad", "trackSessionStart", "trackPlay"])
        #expect(lines.contains { $0.hasSuffix("[INFO] [plugin::player] #trackPlay > Tracking session auto-start.") })
        // A call before any load loads first, with a warning.
        let early = run([(1, .statusChanged(from: .ready, to: .playing))])
        #expect(early.calls.map(\.method) == ["trackVideoLoad", "trackSessionStart"])
        #expect(early.lines.first?.contains("[WARN]") == true)
    }

    @Test func adsAndChaptersCarryTheirInfoAndMetadata() {
        let ad = AdEventInfo(breakId: "mid", breakIndex: 0, adId: "ad1", adIndex: 0, url: "a", durationSeconds: 10, offsetSeconds: 0, pts: 0)
        var done = ad
        done.offsetSeconds = 10
        let settings = HeartbeatSettings(trackingServer: "collector.test", videoMetadata: ["show": "x"], adMetadata: ["campaign": "c"],
                                         chapterMetadata: ["segmentType": "s"],
                                         chapters: [HeartbeatChapter(startSeconds: 0, lengthSeconds: 5, name: "one"), HeartbeatChapter(startSeconds: 5, lengthSeconds: 25)])
        // The player posts adProgress once a second of ad.
        let progress: [(Double, PlayerEventKind)] = (1...9).map { second in
            var info = ad
            info.offsetSeconds = Double(second)
            return (7.5 + Double(second), .adProgress(info))
        }
        let events = Self.start + Self.ticks(2, 7) + [(7.5, .adBreakStarted(breakId: "mid", breakIndex: 0, ads: 1)), (7.5, .adStarted(ad))]
            + progress + [(17.5, .adCompleted(done)), (17.5, .adBreakCompleted(breakId: "mid", breakIndex: 0))]
        let calls = run(events, settings: settings).calls
        #expect(calls.map(\.method) == ["trackVideoLoad", "trackSessionStart", "trackPlay", "trackChapterStart", "trackChapterComplete",
                                        "trackChapterStart", "trackAdStart", "heartbeat", "trackAdComplete"])
        let start = calls[3], adStart = calls[6], tick = calls[7]
        #expect(start.parameter("s:stream:chapter_name") == "one" && start.parameter("s:meta:chapter.segmentType") == "s")
        #expect(calls[5].parameter("l:stream:chapter_position") == "2" && calls[5].parameter("l:stream:chapter_offset") == "5")
        #expect(adStart.assetType == "ad" && adStart.parameter("s:asset:ad_id") == "ad1" && adStart.parameter("l:asset:ad_length") == "10")
        #expect(adStart.parameter("s:asset:pod_id") == "mid" && adStart.parameter("l:asset:pod_position") == "1")
        #expect(adStart.parameter("s:meta:ad.campaign") == "c" && adStart.parameter("s:meta:video.show") == "x")
        #expect(adStart.parameter("s:meta:chapter.segmentType") == nil)
        // Due at 11.25 s, made at the next event (11.5 s) with the ad playhead then: 4 s in (the last adProgress said 3).
        #expect(tick.assetType == "ad" && tick.sessionSeconds == 11.5 && tick.parameter("l:event:playhead") == "4")
        #expect(calls[8].parameter("l:event:playhead") == "10")
        #expect(calls[0].parameter("s:meta:video.show") == "x" && calls[0].parameter("s:meta:ad.campaign") == nil)
    }

    @Test func aLiveItemIsALiveStreamOfUnknownLength() {
        var session = HeartbeatSession(settings: HeartbeatSettings(trackingServer: "h"), sessionId: "s")
        let out = session.handle(PlayerEvent(sequence: 1, playerTime: 0, kind: .statusChanged(from: .initializing, to: .initialized)),
                                 info: HeartbeatPlayerInfo(durationSeconds: 60, isLive: true))
        #expect(out.calls.map(\.method) == ["trackVideoLoad"])
        #expect(out.calls.first?.parameter("s:stream:type") == "live" && out.calls.first?.parameter("l:asset:length") == "-1")
    }

    @Test func aChapterLeftByASeekHasNoCompleteAndOneTheContentEndsInDoes() {
        let settings = HeartbeatSettings(trackingServer: "h", chapters: [HeartbeatChapter(startSeconds: 0, lengthSeconds: 10, name: "a"),
                                                                          HeartbeatChapter(startSeconds: 20, lengthSeconds: 100, name: "b")])
        let events = Self.start + Self.ticks(2, 5) + [(5.5, .seekStarted(from: 4.25, to: 25)), (5.6, .seekCompleted(at: 25))]
            + [(6.6, .timeChanged(seconds: 26)), (10.0, .playCompleted)]
        let calls = run(events, settings: settings).calls
        #expect(calls.map(\.method) == ["trackVideoLoad", "trackSessionStart", "trackPlay", "trackChapterStart", "trackSeekStart",
                                        "trackSeekComplete", "trackChapterStart", "trackChapterComplete", "trackComplete"])
        #expect(calls.filter { $0.method.hasPrefix("trackChapter") }.map { $0.parameter("s:stream:chapter_name") } == ["a", "b", "b"])
    }

    @Test func badSettingsAreNamed() {
        #expect(HeartbeatSettings(trackingServer: nil).problem?.contains("tracking server is needed") == true)
        #expect(HeartbeatSettings(trackingServer: nil, quiet: true).problem == nil)
        #expect(HeartbeatSettings(trackingServer: "ftp://x").problem?.contains("\"ftp://x\" is not an http(s) URL") == true)
        #expect(HeartbeatSettings(trackingServer: "h", intervalSeconds: 0).problem?.contains("from 1 to") == true)
        #expect(HeartbeatSettings(trackingServer: "h", intervalSeconds: 0.25).problem?.contains("from 1 to") == true)
        #expect(HeartbeatSettings(trackingServer: "h", intervalSeconds: 1e10).problem?.contains("from 1 to") == true)
        #expect(HeartbeatSettings(trackingServer: "http://h/hb?x=1").problem?.contains("has a query or fragment") == true)
        #expect(HeartbeatSettings(trackingServer: "h", chapters: [.init(startSeconds: 0, lengthSeconds: 10), .init(startSeconds: 5, lengthSeconds: 1)])
            .problem?.contains("starts before") == true)
        #expect(HeartbeatURL.base("collector.test:8080") == "http://collector.test:8080")
        #expect(HeartbeatURL.url(base: "http://h", parameters: [.init("s:meta:video.a b", "x&y")]) == "http://h/?s:meta:video.a%20b=x%26y")
    }

    @Test func theCollectorReceivesEveryCallOverHTTPInOrder() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let tracker = HeartbeatTracker(settings: HeartbeatSettings(trackingServer: server.heartbeatServerURL, videoId: "v1"), client: client,
                                       sessionId: "s1")
        for (index, (time, kind)) in (Self.start + Self.ticks(2, 12) + [(12.0, .playCompleted)]).enumerated() {
            tracker.consume(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind))
        }
        tracker.unload(at: 12)
        await tracker.flush()
        let hits = server.heartbeats
        #expect(hits.map { $0.parameter("s:event:type") ?? "?" } == ["load", "start", "play", "play", "complete", "unload"])
        #expect(hits.allSatisfy { $0.path == "/hb/" && $0.parameter("s:asset:video_id") == "v1" && $0.parameter("s:event:sid") == "s1" })
        #expect(tracker.records.map(\.httpStatus) == Array(repeating: 200, count: 6))
        #expect(tracker.records.map(\.url) == hits.map { server.heartbeatServerURL + "/?" + ($0.query ?? "") })
        // The collector's log as JSON.
        let log = try await client.get(server.url(AdServer.heartbeatLogPath))
        let decoded = try JSONDecoder().decode([HeartbeatHit].self, from: Data(log.body))
        #expect(decoded.count == 6)
    }

    @Test func quietModeRecordsEveryCallAndSendsNone() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let lines = LockedLines()
        let tracker = HeartbeatTracker(settings: HeartbeatSettings(trackingServer: server.heartbeatServerURL, quiet: true), client: client,
                                       debugLog: { lines.append($0) })
        for (index, (time, kind)) in (Self.start + Self.ticks(2, 12)).enumerated() {
            tracker.consume(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind))
        }
        tracker.unload(at: 12)
        await tracker.flush()
        #expect(server.heartbeats.isEmpty)
        #expect(tracker.records.map(\.call) == ["trackVideoLoad", "trackSessionStart", "trackPlay", "heartbeat", "trackVideoUnload"])
        #expect(tracker.records.allSatisfy { !$0.sent && $0.httpStatus == nil && $0.url != nil })
        #expect(lines.lines.filter { $0.contains("#track") }.count == 4)
        #expect(tracker.report().quiet && tracker.report().startupTimeSeconds == 0.75)
    }

    /// Quiet mode without a tracking server records each call's URL too, on a base naming no host (it recorded
    /// none, so a quiet run's parameters could not be checked).
    @Test func quietModeWithoutAServerRecordsTheURLs() async throws {
        let tracker = HeartbeatTracker(settings: HeartbeatSettings(trackingServer: nil, quiet: true), client: nil)
        for (index, (time, kind)) in (Self.start + Self.ticks(2, 12)).enumerated() {
            tracker.consume(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind))
        }
        tracker.unload(at: 12)
        await tracker.flush()
        #expect(tracker.records.count == 5 && tracker.records.allSatisfy { !$0.sent })
        #expect(tracker.records.allSatisfy { $0.url?.hasPrefix(HeartbeatTracker.quietBase + "/?") == true }, "\(tracker.records.map(\.url))")
        #expect(tracker.records.first?.url?.contains("s:event:type=load") == true, "\(tracker.records.first?.url ?? "")")
    }
}

/// The tracker's wait for the tracking server at a session's end: wall-clock behaviour, run on its own
/// (scripts/test's timed group), as under the parallel suite's load a 0.2 s answer came late.
@Suite struct HeartbeatWallClockTests {
    static let start = HeartbeatSessionTests.start
    static func ticks(_ from: Int, _ to: Int) -> [(Double, PlayerEventKind)] { HeartbeatSessionTests.ticks(from, to) }

    @Test func aTrackingServerThatDoesNotAnswerHoldsTheEndUpOnlyForTheGrace() async throws {
        // Each call waited for its answer at the end: a server that never answered held the session's end
        // (its report, its exit) for a timeout per queued call.
        let blackhole = try Blackhole()
        defer { blackhole.close() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let tracker = HeartbeatTracker(settings: HeartbeatSettings(trackingServer: "http://127.0.0.1:\(blackhole.port)/hb"), client: client, sessionId: "s1")
        for (index, (time, kind)) in Self.start.enumerated() { tracker.consume(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind)) }
        let answered = await tracker.flush(within: 0.3)
        #expect(!answered)
        let records = tracker.records
        try #require(records.count == 3)
        // The first call is under way and unanswered; the others were never sent (they were recorded as sent).
        #expect(records[0].sent && records[0].httpStatus == nil && records[0].error?.contains("no answer within 0.3 s") == true)
        #expect(records.dropFirst().allSatisfy { !$0.sent && $0.error?.hasPrefix("not sent") == true })
    }

    @Test func aSlowTrackingServerStillGetsEveryCallAtTheEnd() async throws {
        // Waiting at most 2 s in all lost most calls of a fast virtual-clock session to a server answering in 0.4 s.
        let server = try AdServer()
        server.setFault(.delay(seconds: 0.2), forPath: "/hb/")
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let tracker = HeartbeatTracker(settings: HeartbeatSettings(trackingServer: server.heartbeatServerURL), client: client, sessionId: "s1")
        for (index, (time, kind)) in (Self.start + Self.ticks(2, 32)).enumerated() { tracker.consume(PlayerEvent(sequence: index + 1, playerTime: time, kind: kind)) }
        tracker.unload(at: 32)
        // 7 calls of 0.2 s each: more than the 1 s of silence allowed, but never 1 s without an answer.
        let answered = await tracker.flush(within: 1)
        #expect(answered)
        #expect(tracker.records.count == 7 && tracker.records.allSatisfy { $0.httpStatus == 200 })
        #expect(server.heartbeats.count == 7)
    }
}

/// Debug lines collected across threads.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

/// A loopback TCP port that accepts connections (the kernel's backlog) and never answers.
final class Blackhole: @unchecked Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 64) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        fd = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(fd) }
}
