import Foundation
import PlayheadOrigin
import Testing

/// `play --ad-domain`: every beacon fired is also a `beacon` event in `--events`, as in the daemon's
/// event stream (the file had none; only the report listed them).
@Suite struct PlayBeaconEventsTests {
    @Test func everyBeaconIsAnEventToo() async throws {
        let content = try LoopbackHTTPServer(root: CLI.streams)
        defer { content.stop() }
        let ads = try AdServer(adMediaDirectory: CLI.streams)
        defer { ads.stop() }
        let ad = AdDocuments.tracked(id: "demo-ad", durationSeconds: 10, mediaURL: ads.url("/cues/ad/master.m3u8"), server: ads)
        ads.register(AdDocuments.vast([ad]), at: "/vast")
        ads.register(AdDocuments.vmap([.init(timeOffset: "start", breakId: "preroll", source: .adTagURI(ads.url("/vast")))]), at: "/vmap")
        let folder = NSTemporaryDirectory() + "playhead-beacons-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = folder + "/events.ndjson", report = folder + "/report.json"
        let outcome = await CLI.run(CLI.playhead, ["play", content.url("/cues/ts/master.m3u8"), "--ad-domain", ads.baseURL,
                                                   "--mode", "demux", "--events", events, "--report", report])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let beaconLines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"event\":\"custom\"") && $0.contains("\"name\":\"beacon\"") }
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let recorded = try #require(fields["beacons"] as? [[String: Any]])
        #expect(recorded.count >= 7, "impression, creativeView, start, three quartiles, complete: \(recorded.count)")
        #expect(beaconLines.count == recorded.count)
        #expect(beaconLines.contains { $0.contains("\"event\":\"complete\"") })
    }
}
