import Foundation
import PlayheadOrigin
import Testing

/// Live replacement with an ad shorter than its cue: content resumes at the cue's end, which is not out
/// yet, so playback stalls after the ad. The ad and its break complete at the ad's last frame, not
/// when content resumes about 3 s later (so the complete beacon is not late either); the boundary still
/// records the first content frame after it.
@Suite struct LiveAdCompletionTests {
    @Test func anAdShorterThanItsCueCompletesAtItsLastFrame() async throws {
        let folder = NSTemporaryDirectory() + "playhead-longcue-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: CLI.streams + "/cues/ts", toPath: folder + "/c")
        try FileManager.default.copyItem(atPath: CLI.streams + "/cues/ad", toPath: folder + "/ad")
        // The cue at 10 s lasts 14 s (its CUE-IN at 24 s); the cue at 17 s goes.
        var text = try String(contentsOfFile: folder + "/c/vod.m3u8", encoding: .utf8)
        text = text.replacingOccurrences(of: "#EXT-X-CUE-OUT:DURATION=4", with: "#EXT-X-CUE-OUT:DURATION=14")
            .replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:6")   // not below the ad's
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.hasPrefix("#EXT-X-DATERANGE") }
        let cueIn = try #require(lines.firstIndex(of: "#EXT-X-CUE-IN"))
        lines.remove(at: cueIn)
        let segment12 = try #require(lines.firstIndex(of: "seg012.ts"))
        lines.insert("#EXT-X-CUE-IN", at: segment12 + 1)
        try lines.joined(separator: "\n").write(toFile: folder + "/c/longcue.m3u8", atomically: true, encoding: .utf8)
        try #"{"breaks": [{"time": 10, "ads": [{"url": "../ad/master.m3u8", "duration": 10, "id": "short"}]}]}"#
            .write(toFile: folder + "/map.json", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let events = folder + "/events.ndjson", report = folder + "/report.json"
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/c/longcue.m3u8"), "--ad-map", folder + "/map.json", "--simulate-live",
                                                   "--mode", "demux", "--events", events, "--report", report])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines2 = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        func time(_ name: String) throws -> Double {
            let line = try #require(lines2.first { $0.contains("\"event\":\"\(name)\"") }, "no \(name)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["time"] as? Double)
        }
        let started = try time("adStarted"), completed = try time("adCompleted"), breakDone = try time("adBreakCompleted")
        let stalled = try time("stalled"), recovered = try time("recovered")
        #expect(abs(completed - started - 10) < 0.05, "adCompleted \(completed - started) s after adStarted")
        #expect(breakDone == completed)
        #expect(completed <= stalled && recovered > stalled + 1, "the stall after the ad: \(stalled) → \(recovered)")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let boundary = try #require((fields["adBoundaries"] as? [[String: Any]])?.first)
        #expect(boundary["lastAd"] != nil && boundary["firstContentAfter"] != nil)
        #expect(lines2.filter { $0.contains("\"event\":\"adCompleted\"") }.count == 1)
    }
}

extension LiveAdCompletionTests {
    /// The same when the ad's last frames are still in its decoder as the stall begins (B-frames held
    /// back): the decoder of an ad that is all in is drained, and the ad completes 10 s after it started
    /// (it completed when content came, 17.5 s late).
    @Test func anAdsLastFramesHeldByItsDecoderPlayBeforeTheStall() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let events = NSTemporaryDirectory() + "playhead-held-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: events) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/cues/ts/long-master.m3u8"), "--simulate-live",
                                                   "--ad-map", CLI.streams + "/cues/admap.json", "--events", events, "--report", "/dev/null"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        func times(_ name: String) throws -> [Double] {
            try lines.filter { $0.contains("\"event\":\"\(name)\"") }.map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(object["time"] as? Double)
            }
        }
        let started = try times("adStarted"), completed = try times("adCompleted")
        #expect(!started.isEmpty && started.count == completed.count)
        for (start, end) in zip(started, completed) {
            #expect(end - start <= 10 + 0.05, "an ad completed \(end - start) s after it started")
        }
    }
}
