import Foundation
import PlayheadOrigin
import Testing

/// `playhead check-ads`: its exit codes and its JSON, through the binary.
@Suite struct CheckAdsCommandTests {
    @Test func exactBoundariesExitZeroWithJSON() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", CLI.streams + "/cues/admap.json", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(json?["allExact"] as? Bool == true)
        let boundaries = json?["boundaries"] as? [[String: Any]] ?? []
        #expect(boundaries.count == 2)
        #expect(boundaries.compactMap { $0["inErrorFrames"] as? Int } == [0, 0])
        #expect(boundaries.compactMap { $0["firstAdFrameMatches"] as? Bool } == [true, true])
    }

    /// On a slow link ABR plays a lower rung than at the default 50 Mbit/s; the boundaries are checked
    /// against that rung and stay exact.
    @Test func aSlowLinkIsCheckedOnTheRungItPlays() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", CLI.streams + "/cues/admap.json",
                                                   "--bandwidth", "0.8", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(json?["allExact"] as? Bool == true)
        let bad = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", CLI.streams + "/cues/admap.json",
                                               "--bandwidth", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("--bandwidth must be a positive number of Mbit/s, got 0.0"), "\(bad.stderr)")
    }

    /// `--ssai`: the stitched stream's ad starts and avail end, exact; a stream without markers is exit 1; mixed with
    /// --ad-map is a usage error.
    @Test func theSSAIBoundariesOfTheStitchedStream() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/ssai/index.m3u8"), "--ssai"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("— EXACT") }.count == 3, "\(outcome.stdout)")
        #expect(lines.contains("avail EXT-X-CUE-OUT@5 ends at 20.000 s — EXACT"))
        let none = await CLI.run(CLI.playhead, ["check-ads", server.url("/ts/v0/index.m3u8"), "--ssai"])
        #expect(none.status == 1 && none.stderr.contains("no server-side ad was found"), "\(none.stderr)")
        let mixed = await CLI.run(CLI.playhead, ["check-ads", server.url("/ssai/index.m3u8"), "--ssai", "--ad-map", CLI.streams + "/cues/admap.json"])
        #expect(mixed.status == 2)
    }

    @Test func noBreakPlayedIsExitOne() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let map = FileManager.default.temporaryDirectory.appendingPathComponent("empty-admap-\(UUID()).json")
        try Data(#"{"breaks": []}"#.utf8).write(to: map)
        defer { try? FileManager.default.removeItem(at: map) }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", map.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("no ad break was played"))
    }

    /// Cues matched, but the ad is missing: the player's ad notifications say so (it used to blame the
    /// cues: "no cue matched the ad map?").
    @Test func failedAdsAreNamedWhenNoBreakPlayed() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let map = FileManager.default.temporaryDirectory.appendingPathComponent("missing-ad-\(UUID()).json")
        try Data(#"{"breaks": [{"time": 10, "ads": [{"url": "../ad/gone.m3u8", "duration": 10}]}]}"#.utf8).write(to: map)
        defer { try? FileManager.default.removeItem(at: map) }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", map.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("no ad break was played; the ads failed:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("AD_") && outcome.stderr.contains("gone.m3u8"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("no cue matched"))
    }

    /// One break exact, another whose ad is missing, a third whose cue id names no cue: not a pass (it was exit
    /// 0, `allExact: true`, and neither was named). Exit 3, both said.
    @Test func aBreakThatDidNotPlayBesideAnExactOneIsNotAPass() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let map = FileManager.default.temporaryDirectory.appendingPathComponent("partly-missing-\(UUID()).json")
        try Data(#"{"breaks": [{"time": 10, "ads": [{"url": "../ad/master.m3u8", "duration": 10}]}, {"time": 20, "ads": [{"url": "../ad/gone.m3u8", "duration": 10}]}, {"cueId": "splice-99", "ads": [{"url": "../ad/master.m3u8", "duration": 10}]}]}"#.utf8).write(to: map)
        defer { try? FileManager.default.removeItem(at: map) }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", map.path])
        #expect(outcome.status == 3, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("— EXACT") && outcome.stdout.contains("did not play — NOT EXACT"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("ad map breaks[1] (time 20 s) did not play"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("ad map breaks[2] (cue \"splice-99\") did not play"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("AD_") && outcome.stdout.contains("gone.m3u8"), "\(outcome.stdout)")
        let json = await CLI.run(CLI.playhead, ["check-ads", server.url("/cues/ts/master.m3u8"), "--ad-map", map.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(json.status == 3 && object?["allExact"] as? Bool == false && (object?["missed"] as? [String])?.count == 3, "\(json.stdout)")
    }

    @Test func badAdMapIsExitTwoNamingTheField() async throws {
        let map = FileManager.default.temporaryDirectory.appendingPathComponent("bad-admap-\(UUID()).json")
        try Data(#"{"breaks": [{"time": 10, "ads": [{"duration": 10}]}]}"#.utf8).write(to: map)
        defer { try? FileManager.default.removeItem(at: map) }
        let outcome = await CLI.run(CLI.playhead, ["check-ads", "http://127.0.0.1:9/x.m3u8", "--ad-map", map.path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("url"))
    }
}
