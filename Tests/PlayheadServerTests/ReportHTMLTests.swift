import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadReport
import PlayheadTestFixtures
import Testing

/// The HTML report of a session with ad breaks and a rebuffer: self-contained, with its charts, and
/// drawn by headless Chromium when it is installed.
@Suite struct ReportHTMLTests {
    /// Plays the cue stream with two inserted 10 s ads (at 10 s and 17 s) over a 0.7 Mbit/s virtual link,
    /// slower than the 0.95 Mbit/s rendition, so it rebuffers.
    func sessionWithAdsAndRebuffers() async throws -> (PlaybackReport, [PlayerEvent]) {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = origin.url("/cues/ts/master.m3u8")
        let map = try AdMap.parse(try Data(contentsOf: URL(fileURLWithPath: ServerFixtures.streams + "/cues/admap.json"))).resolvingURLs(against: url)
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: AdMapResolver(map: map))
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.ads = AdSettings(factory: factory)
        let link = SimulatedLink(trace: BandwidthTrace(name: "slow", times: [0, 1], megabitsPerSecond: [0.7, 0.7]))
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: link))
        let events = EventLog()
        let subscription = player.bus.subscribe { events.append($0) }
        let report = await player.run(maxSessionSeconds: 120)
        subscription.cancel()
        return (report, events.all)
    }

    /// Subscribed tags get their own table, and only when there is one.
    @Test func timedMetadataTableListsEachTag() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "demux")
        #expect(!PlaybackReportHTML.render(report: report, events: []).contains("Timed metadata"))
        report.timedMetadata = [TimedMetadata(id: "asset-1", name: "#EXT-X-ASSET", timeSeconds: 8, type: .tag, metadata: ["CAID": "0x2"],
                                              content: "CAID=0x2,X=\"<b>\"", mediaSequence: 2)]
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Timed metadata</h2>"))
        #expect(html.contains("<td class=\"num\">8.000</td><td>TAG</td><td>#EXT-X-ASSET</td><td>asset-1</td><td>CAID=0x2,X=&quot;&lt;b&gt;&quot;</td>"))
    }

    /// Resumes and keys get a table each, when the session had any (QA46: only the events table showed them).
    @Test func resumesAndKeysGetATable() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "demux")
        let plain = PlaybackReportHTML.render(report: report, events: [])
        #expect(!plain.contains("<h2>Resumes</h2>") && !plain.contains("<h2>Keys</h2>"))
        var resume = PlaybackResumeRecord(requestedAt: 14.5, atSeconds: 12, autoplay: true, reason: "policy", failure: "HTTP 404 for seg003.ts")
        resume.outcome = "complete"
        resume.endedAt = 14.75
        report.resumes = [resume]
        report.keys = [KeyMetadata(method: "SAMPLE-AES", uri: "skd://asset-1", keyFormat: "com.apple.streamingkeydelivery", keyFormatVersions: "1",
                                   session: false, playlistURL: "http://127.0.0.1/v.m3u8", mediaSequence: 0)]
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Resumes</h2>") && html.contains("<td class=\"num\">14.500</td><td class=\"num\">12.000</td><td>policy</td><td>HTTP 404 for seg003.ts</td><td>complete</td><td class=\"num\">14.750</td>"))
        #expect(html.contains("<h2>Keys</h2>") && html.contains("<td>SAMPLE-AES</td><td>skd://asset-1</td><td>com.apple.streamingkeydelivery</td><td>http://127.0.0.1/v.m3u8</td><td class=\"num\">0</td>"))
    }

    /// Blackouts get a table, an open one said as open.
    @Test func blackoutTableListsEachBlackout() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "demux")
        #expect(!PlaybackReportHTML.render(report: report, events: []).contains("Blackouts"))
        var closed = BlackoutRecord(id: "game<7>", startSeconds: 8, startMediaSequence: 2, alternateURL: "http://127.0.0.1/slate.m3u8")
        closed.endSeconds = 20
        closed.alternateLoops = 2
        closed.startedAtSessionSeconds = 8.25
        closed.backgroundReloads = 3
        report.blackouts = [closed, BlackoutRecord(id: "late", startSeconds: 28, startMediaSequence: 7, alternateURL: "http://127.0.0.1/slate.m3u8")]
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Blackouts</h2>"))
        #expect(html.contains("<td>game&lt;7&gt;</td><td class=\"num\">8.000</td><td class=\"num\">20.000</td><td class=\"num\">8.000</td><td class=\"num\">8.250</td><td class=\"num\">–</td><td class=\"num\">2</td><td class=\"num\">3</td><td class=\"num\">0</td>"))
        #expect(html.contains("<td>late</td><td class=\"num\">28.000</td><td class=\"num\">open</td>"))
    }

    /// Server-side ads get a table of their events with the URLs fired, and the tracking document's failures.
    @Test func ssaiTableListsEachEvent() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "decode")
        #expect(!PlaybackReportHTML.render(report: report, events: []).contains("Server-side ads"))
        var ssai = SSAIReport(trackingURL: "http://127.0.0.1/t.json")
        ssai.avails = [SSAIAvail(id: "b", startSeconds: 10, durationSeconds: 6, ads: [SSAIAd(id: "a1", startSeconds: 10, durationSeconds: 6)], source: .tracking)]
        var started = SSAIEvent(name: "adStarted", availId: "b", adId: "a1", adNumber: 1, adsInAvail: 1, adTitle: "<Spot>", contentSeconds: 10,
                                offsetSeconds: 0, beaconEvent: "start", beaconURLs: ["http://127.0.0.1/b/start"])
        started.frameMD5 = "0123abcd"
        ssai.events = [started]
        ssai.remainingTimeEvents = 12
        ssai.trackingFailures = ["http://127.0.0.1/t.json: not JSON"]
        report.ssai = ssai
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Server-side ads (1 avails, 1 ads, 12 remaining-time events; tracking http://127.0.0.1/t.json)</h2>"))
        #expect(html.contains("<td class=\"num\">10.000</td><td>adStarted</td><td>b</td><td>a1 (1/1)</td><td>&lt;Spot&gt;</td><td class=\"num\">0.000</td><td>0123abcd</td><td>http://127.0.0.1/b/start</td>"))
        #expect(html.contains("<td>problem</td>") && html.contains("not JSON"))
    }

    /// Heartbeat calls get a table with the tracking server and the startup time in its title.
    @Test func heartbeatTableListsEachCall() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "demux")
        #expect(!PlaybackReportHTML.render(report: report, events: []).contains("Video heartbeats"))
        report.heartbeats = HeartbeatReport(trackingServer: "http://127.0.0.1:9/hb", intervalSeconds: 10, quiet: false, startupTimeSeconds: 0.25, calls: [
            HeartbeatRecord(call: "trackPlay", type: "play", sessionSeconds: 1.5, playheadSeconds: 0, assetType: "main", url: "http://127.0.0.1:9/hb?x", sent: true, httpStatus: 200),
            HeartbeatRecord(call: "heartbeat", type: "play", sessionSeconds: 11.5, playheadSeconds: 10, assetType: "main", url: "http://127.0.0.1:9/hb?y", sent: true,
                            error: "connection refused"),
        ])
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Video heartbeats (http://127.0.0.1:9/hb, startup 0.250 s)</h2>"))
        #expect(html.contains("<td class=\"num\">1.500</td><td>trackPlay</td><td>play</td><td>main</td><td class=\"num\">0.000</td><td>200</td><td></td>"))
        #expect(html.contains("<td>heartbeat</td><td>play</td><td>main</td><td class=\"num\">10.000</td><td>none</td><td>connection refused</td>"))
    }

    /// The subtitle cues shown get a table named for the track, and only when a track was shown.
    @Test func subtitleTableListsEachCueShown() {
        var report = PlaybackReport(url: "http://127.0.0.1/a.m3u8", clock: "virtual", mode: "demux")
        var subtitles = SubtitleReport()
        subtitles.options = [SubtitleOption(name: "English", language: "en", isDefault: true, autoselect: true, forced: false,
                                            url: "http://127.0.0.1/en.m3u8", source: .playlist, groupId: "subs")]
        report.subtitles = subtitles
        #expect(!PlaybackReportHTML.render(report: report, events: []).contains("Subtitles"), "offered but none shown")
        report.subtitles?.selected = 0
        var record = SubtitleCueRecord(cue: SubtitleCue(id: "one", track: "English", startSeconds: 1, endSeconds: 2.5, text: "a < b",
                                                        markup: "a &lt; b"), shownAtPosition: 1, shownAtSeconds: 1.3)
        record.hiddenAtPosition = 2.5
        report.subtitles?.shown = [record]
        report.subtitles?.issues = ["http://127.0.0.1/seg1.vtt: line 4: bad timestamp"]
        let html = PlaybackReportHTML.render(report: report, events: [])
        #expect(html.contains("<h2>Subtitles: English</h2>"))
        #expect(html.contains("<td class=\"num\">1.000</td><td class=\"num\">2.500</td><td class=\"num\">1.000</td><td class=\"num\">2.500</td><td>one</td><td>a &lt; b</td>"))
        #expect(html.contains("<td>issue</td><td>http://127.0.0.1/seg1.vtt: line 4: bad timestamp</td>"))
    }

    @Test func reportOfASessionWithAdsAndARebufferHasItsChartsAndTables() async throws {
        let (report, events) = try await sessionWithAdsAndRebuffers()
        #expect(!report.rebuffers.isEmpty, "the slow link should make it rebuffer")
        #expect(report.adBoundaries.count == 2)
        let html = PlaybackReportHTML.render(report: report, events: events)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        for text in ["Buffer level", "Selected bitrate and measured throughput", "Frame lateness", "rebuffer", "ad break",
                     "ad boundary", "<h2>Rebuffers</h2>", "<h2>Ad breaks</h2>", "<h2>Ad boundaries</h2>", "splice-17", "<h2>Notifications</h2>"] {
            #expect(html.contains(text), "missing \(text)")
        }
        #expect(html.contains("fill=\"#d62728\" fill-opacity"), "a rebuffer band")
        #expect(html.contains("fill=\"#e6b400\" fill-opacity"), "an ad-break band")
        // Self-contained: no scripts, no external references.
        for forbidden in ["<script", "src=", "<link", "url(", "@import"] { #expect(!html.contains(forbidden), "\(forbidden)") }

        let folder = ServerFixtures.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try html.write(toFile: folder + "/report.html", atomically: true, encoding: .utf8)
        if let keep = ProcessInfo.processInfo.environment["PLAYHEAD_KEEP_REPORT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: folder + "/report.html", toPath: keep)
        }
        guard ReportHTMLTests.chromium else { return }
        let script = ServerFixtures.repoRoot.appendingPathComponent("scripts/render-report").path
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [folder + "/report.html", folder + "/report.png"]
        process.standardOutput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000, "a page with charts is not a blank image (\(png.count) bytes)")
    }

    /// Whether Debian's chromium is installed (the PNG check runs only then).
    static let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
}

/// Events gathered from a bus subscription.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PlayerEvent] = []
    func append(_ event: PlayerEvent) { lock.withLock { events.append(event) } }
    var all: [PlayerEvent] { lock.withLock { events } }
}
