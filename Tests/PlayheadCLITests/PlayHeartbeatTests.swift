import Foundation
import PlayheadOrigin
import Testing

/// `play --heartbeat-server`: the track calls reach `playhead`'s heartbeat collector (the ad server's
/// /hb), the debug log has its #track lines, and the report its heartbeats section; bad options are
/// refused with the option named.
@Suite struct PlayHeartbeatTests {
    @Test func theCollectorGetsEveryCallAndTheReportListsThem() async throws {
        let content = try LoopbackHTTPServer(root: CLI.streams)
        defer { content.stop() }
        let collector = try AdServer()
        defer { collector.stop() }
        let folder = NSTemporaryDirectory() + "playhead-heartbeats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = folder + "/report.json"
        let outcome = await CLI.run(CLI.playhead, ["play", content.url("/cues/ts/vod.m3u8"), "--clock", "virtual", "--mode", "demux",
                                                   "--pause", "5:3", "--heartbeat-server", collector.heartbeatServerURL, "--heartbeat-debug",
                                                   "--heartbeat-meta", "show=demo", "--heartbeat-chapter", "0:15:first", "--quiet",
                                                   "--report", report])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let tracks = outcome.stderr.split(separator: "\n").filter { $0.contains("#track") && !$0.contains(">") }
            .map { String($0.split(separator: "#").last ?? "") }
        #expect(tracks == ["trackVideoLoad", "trackSessionStart", "trackPlay", "trackChapterStart", "trackPause", "trackPlay",
                           "trackChapterComplete", "trackComplete", "trackVideoUnload"], "\(outcome.stderr)")
        let hits = collector.heartbeats
        #expect(hits.allSatisfy { $0.parameter("s:meta:video.show") == "demo" })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let heartbeats = try #require(fields["heartbeats"] as? [String: Any])
        let calls = try #require(heartbeats["calls"] as? [[String: Any]])
        #expect(calls.count == hits.count && calls.count == tracks.count + calls.filter { $0["call"] as? String == "heartbeat" }.count)
        #expect(calls.compactMap { $0["type"] as? String } == hits.map { $0.parameter("s:event:type") ?? "?" })
        #expect(calls.allSatisfy { $0["httpStatus"] as? Int == 200 })
        #expect((heartbeats["startupTimeSeconds"] as? Double).map { $0 > 0 } == true)
        #expect(heartbeats["intervalSeconds"] as? Double == 10)
    }

    @Test func badHeartbeatOptionsAreRefusedNamingTheOption() async throws {
        let cases: [([String], String)] = [
            (["--heartbeat-server", "http://127.0.0.1:9/hb", "--heartbeat-interval", "0"], "--heartbeat-interval"),
            (["--heartbeat-server", "ftp://collector"], "--heartbeat-server"),
            (["--heartbeat-quiet", "--heartbeat-meta", "=x"], "--heartbeat-meta"),
            (["--heartbeat-quiet", "--heartbeat-chapter", "10"], "--heartbeat-chapter"),
            (["--heartbeat-quiet", "--heartbeat-chapter", "0:10", "--heartbeat-chapter", "5:10"], "--heartbeat-chapter"),
            (["--heartbeat-debug"], "--heartbeat-debug needs --heartbeat-server"),
        ]
        for (arguments, expected) in cases {
            let outcome = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/none.m3u8"] + arguments)
            #expect(outcome.status != 0, "\(arguments)")
            #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("Fatal error"), "\(arguments)")
        }
    }
}
