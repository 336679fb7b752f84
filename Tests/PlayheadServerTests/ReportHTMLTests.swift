import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadReport
import Testing

/// The HTML report of a session with ad breaks and a rebuffer: self-contained, with its charts, and
/// drawn by headless Chromium when it is installed.
@Suite struct ReportHTMLTests {
    /// Plays the top variant over a 1.5 Mbit/s virtual link (it rebuffers), with an ad break marked by
    /// custom events from 4 s to 9 s of playback and ad boundaries inside it.
    func sessionWithAdsAndRebuffers() async throws -> (PlaybackReport, [PlayerEvent]) {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.variant = .index(3)
        configuration.abr = nil
        let link = SimulatedLink(trace: BandwidthTrace(name: "slow", times: [0, 1], megabitsPerSecond: [1.5, 1.5]))
        let player = MediaPlayer(url: origin.url("/ts/master.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: link))
        let events = EventLog()
        let bus = player.bus
        let subscription = bus.subscribe { event in
            events.append(event)
            guard case let .timeChanged(seconds) = event.kind else { return }
            switch seconds {
            case 4..<5: bus.post(.custom(name: "adBreakStarted", payload: ["id": "mid-1"]))
            case 5..<6: bus.post(.custom(name: "adStarted", payload: ["ad": "1"]))
            case 7..<8: bus.post(.custom(name: "adCompleted", payload: ["ad": "1"]))
            case 9..<10: bus.post(.custom(name: "adBreakCompleted", payload: ["id": "mid-1"]))
            default: break
            }
        }
        let report = await player.run(maxSessionSeconds: 60)
        subscription.cancel()
        return (report, events.all)
    }

    @Test func reportOfASessionWithAdsAndARebufferHasItsChartsAndTables() async throws {
        let (report, events) = try await sessionWithAdsAndRebuffers()
        #expect(!report.rebuffers.isEmpty, "the slow link should make it rebuffer")
        let html = PlaybackReportHTML.render(report: report, events: events)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        for text in ["Buffer level", "Selected bitrate and measured throughput", "Frame lateness", "rebuffer", "ad break",
                     "ad boundary", "<h2>Rebuffers</h2>", "<h2>Ad breaks</h2>", "<h2>Notifications</h2>", "adBreakStarted"] {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [folder + "/report.html", folder + "/report.png"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
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
