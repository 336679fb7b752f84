import Foundation
import PlayheadOrigin
import Testing

/// `playhead inspect webvtt` and `play --subtitles`/`--sidecar-vtt` over HTTP: output, JSON and exit codes.
@Suite struct SubtitleCommandTests {
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "playhead-vtt-\(UUID().uuidString).vtt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func inspectListsCuesAndTheMapAndSaysWhatItSteppedOver() async throws {
        let outcome = await CLI.run(CLI.playhead, ["inspect", "webvtt", CLI.streams + "/subs/ts-en/seg0.vtt"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("X-TIMESTAMP-MAP: MPEGTS 132000 = LOCAL 00:00:00.000"))
        #expect(outcome.stdout.contains("  00:00:01.000 --> 00:00:02.500  [one]\n    Hello world\n"))

        let bad = try write("WEBVTT\n\n00:01.000 --> 00:0x.000\nlost\n\n00:02.000 --> 00:03.000\nkept\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let stepped = await CLI.run(CLI.playhead, ["inspect", "webvtt", bad, "--json"])
        #expect(stepped.status == 0)
        #expect(stepped.stderr.contains("line 3: "), "\(stepped.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stepped.stdout.utf8)) as? [String: Any])
        #expect((json["cues"] as? [[String: Any]])?.map { $0["text"] as? String } == ["kept"])

        let notVTT = try write("1\n00:00:01,000 --> 00:00:02,000\nan SRT file\n")
        defer { try? FileManager.default.removeItem(atPath: notVTT) }
        let refused = await CLI.run(CLI.playhead, ["inspect", "webvtt", notVTT])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("line 1: missing WEBVTT signature"), "\(refused.stderr)")
        #expect(await CLI.run(CLI.playhead, ["inspect", "webvtt", notVTT + ".absent"]).status == 2)
    }

    @Test func playShowsTheChosenTrackOverHTTP() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, [
            "play", "\(server.baseURL)/subs/ts-master.m3u8", "--clock", "virtual", "--mode", "demux", "--report", "-", "--quiet",
            "--sidecar-vtt", "sidecar.vtt,en-GB,Side", "--subtitles", "Side",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let subtitles = try #require(report["subtitles"] as? [String: Any])
        let options = try #require(subtitles["options"] as? [[String: Any]])
        #expect(options.map { $0["name"] as? String } == ["English", "Francais (forced)", "Side"])
        // Relative to the item's URL.
        #expect(options.last?["url"] as? String == "\(server.baseURL)/subs/sidecar.vtt")
        #expect(subtitles["selected"] as? Int == 2)
        let shown = try #require(subtitles["shown"] as? [[String: Any]])
        #expect(shown.compactMap { ($0["cue"] as? [String: Any])?["text"] as? String } == ["Sidecar one", "Sidecar two"])
    }

    @Test func theSummaryNamesTheTrack() async throws {
        let outcome = await CLI.run(CLI.playhead, ["play", CLI.streams + "/subs/ts-master.m3u8", "--clock", "virtual", "--mode", "demux"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("subtitles: English of 2 offered; 4 cues loaded, 4 shown"), "\(outcome.stderr)")
    }
}
