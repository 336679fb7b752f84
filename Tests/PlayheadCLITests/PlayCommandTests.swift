import Foundation
import PlayheadOrigin
import Testing

/// `playhead play`: framemd5 of a full play, event logs, report, dumps and exit codes.
@Suite struct PlayCommandTests {
    /// The whole text, timestamp columns included (they counted from 0 of the media clock, 44 frames
    /// in, where ffmpeg counts from the input's start time).
    @Test(arguments: ["ts", "fmp4"])
    func framemd5OfAFullPlayEqualsFFmpegsForTheForcedRendition(container: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let ours = await CLI.run(CLI.playhead, ["play", server.url("/\(container)/master.m3u8"), "--variant", "2", "--framemd5", "-",
                                                "--report", "/dev/null"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/\(container)/v2/index.m3u8"),
                                                 "-map", "0:v", "-f", "framemd5", "-"])
        #expect(CLI.hashes(reference.stdout).count == 900)
        let strip: (String) -> [String] = { $0.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        #expect(strip(ours.stdout) == strip(reference.stdout))
    }

    /// The parser's warnings reach the summary and the report, each once (QA32: an AES-128 key of another
    /// KEYFORMAT was warned only as a playlistWarning event).
    @Test func playlistWarningsAreInTheSummaryAndTheReport() async throws {
        let folder = NSTemporaryDirectory() + "playhead-keyformat-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let playlist = try String(contentsOfFile: CLI.streams + "/aes/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: #"URI="key.bin","#, with: #"URI="\#(CLI.streams)/aes/key.bin",KEYFORMAT="com.example.drm",KEYFORMATVERSIONS="1","#)
            .replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:5")
            .replacingOccurrences(of: "\nseg", with: "\n\(CLI.streams)/aes/seg")
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let out = await CLI.run(CLI.playhead, ["play", folder + "/index.m3u8", "--mode", "demux", "--duration", "4", "--report", folder + "/report.json"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("  playlist warnings: 1 (first: file://\(folder)/index.m3u8:"), "\(out.stderr)")
        #expect(out.stderr.contains(#"is METHOD=AES-128 with KEYFORMAT="com.example.drm" and no identity key in force"#), "\(out.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
        let warnings = report["playlistWarnings"] as? [String] ?? []
        #expect(warnings.count == 1 && warnings[0].contains("[odd-value] segment "), "\(warnings)")
    }

    @Test func eventLogsOfTwoVirtualRunsAreEqualWithoutWallClockFields() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let arguments = ["play", server.url("/fmp4/master.m3u8"), "--events", "-", "--report", "/dev/null", "--seek", "4:20", "--pause", "22:2"]
        let first = await CLI.run(CLI.playhead, arguments)
        let second = await CLI.run(CLI.playhead, arguments)
        #expect(first.status == 0)
        let strip: (String) throws -> [String] = { text in
            try text.split(separator: "\n").map { line in
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                for key in object.keys where key.hasPrefix("wallClock") { object.removeValue(forKey: key) }
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
            }
        }
        let a = try strip(first.stdout), b = try strip(second.stdout)
        #expect(a.count > 40)
        #expect(a == b)
        #expect(a.contains { $0.contains("\"seekCompleted\"") })
    }

    @Test func reportHoldsStatusesQoSAndDrift() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let path = NSTemporaryDirectory() + "playhead-report-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/fps25/index.m3u8"), "--report", path])
        #expect(outcome.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((report["statuses"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
                == ["initializing", "initialized", "ready", "playing", "completed"])
        #expect((report["framesPresented"] as? [String: Int])?["video"] == 750)
        #expect(report["framesDropped"] as? Int == 0)
        #expect(abs((report["manifestSeconds"] as? Double ?? 0) - 30) < 0.01)
        #expect(report["driftSeconds"] is Double)
        let qos = try #require(report["playbackInformation"] as? [String: Any])
        #expect((qos["segmentsDownloaded"] as? Int) == 8)
        #expect(((report["samples"] as? [Any])?.count ?? 0) >= 30, "one QoS sample a second")
        #expect(report["device"] is [String: Any])
    }

    @Test func reportHTMLIsOneSelfContainedPageWithCharts() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let path = NSTemporaryDirectory() + "playhead-report-\(UUID().uuidString).html"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/ts/v1/index.m3u8"), "--bandwidth", "0.6", "--report-html", path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 >= 3)
        #expect(html.contains("<h2>Rebuffers</h2>") && html.contains("statusChanged"))
        #expect(!html.contains("<script") && !html.contains("src="))
    }

    @Test func dumpWritesY4MAndWAV() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/ts/v0/index.m3u8"), "--dump", folder, "--duration", "5", "--report", "/dev/null"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let y4m = try Data(contentsOf: URL(fileURLWithPath: folder + "/video.y4m"))
        #expect(y4m.starts(with: Data("YUV4MPEG2 W416 H234".utf8)))
        let wav = try Data(contentsOf: URL(fileURLWithPath: folder + "/audio.wav"))
        #expect(wav.starts(with: Data("RIFF".utf8)) && wav.count > 44)
    }

    /// A corrupt segment is damage the session plays over: exit 0, unless --strict asks for 3 (for CI), with
    /// the damage named on standard error; a clean session is 0 either way.
    @Test func strictFailsASessionThatPlayedOverDamage() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        server.setFault(.corrupt(seed: 3), forPath: "/ts/v0/seg003.ts")
        let url = server.url("/ts/v0/index.m3u8")
        #expect(await CLI.run(CLI.playhead, ["play", url, "--mode", "demux", "--quiet"]).status == 0)
        let strict = await CLI.run(CLI.playhead, ["play", url, "--mode", "demux", "--quiet", "--strict"])
        #expect(strict.status == 3)
        #expect(strict.stderr.contains("damage") && strict.stderr.contains("seg003.ts"), "\(strict.stderr)")
        #expect(await CLI.run(CLI.playhead, ["play", server.url("/ts/v1/index.m3u8"), "--mode", "demux", "--quiet", "--strict"]).status == 0)
    }

    @Test func failuresAndUsage() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let missing = await CLI.run(CLI.playhead, ["play", server.url("/absent.m3u8")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/absent.m3u8"))
        #expect(await CLI.run(CLI.playhead, ["play", "x", "--seek", "nonsense"]).status == 2)
        #expect(await CLI.run(CLI.playhead, ["play", "x", "--clock", "real", "--trace", "t.txt"]).status == 2)
        // The PSDK's subscribed tags are named with their '#'; a bare name would match nothing, silently.
        let bare = await CLI.run(CLI.playhead, ["play", "x", "--subscribe-tag", "EXT-X-ASSET"])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("\"EXT-X-ASSET\"") && bare.stderr.contains("'#'"), "\(bare.stderr)")
    }

    /// Playlists that cannot play end with an error naming what is wrong, not a session that waits
    /// for ever; odd ones that can play, play. (The first two hung, and the negative EXTINF crashed.) The limit
    /// guards against a hang, with room: beside the decoding tests on 2 cores a test can wait two minutes for the
    /// cooperative pool (it once took 137 s here, against 0.5 s alone).
    @Test(.timeLimit(.minutes(3))) func brokenPlaylistsEndWithAClearErrorNotAHang() async throws {
        let folder = NSTemporaryDirectory() + "playhead-broken-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = CLI.streams + "/ts/v0/seg000.ts"
        try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: folder + "/noise.ts"))
        func write(_ name: String, _ body: String) throws -> String {
            let path = folder + "/" + name
            try ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + body + "#EXT-X-ENDLIST\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let empty = await CLI.run(CLI.playhead, ["play", try write("empty.m3u8", "")])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("empty.m3u8") && empty.stderr.contains("lists no segments"), "\(empty.stderr)")

        let noise = await CLI.run(CLI.playhead, ["play", try write("noise.m3u8", "#EXTINF:4,\nnoise.ts\n")])
        #expect(noise.status == 1)
        #expect(noise.stderr.contains("nothing to play") && noise.stderr.contains("noise.ts"), "\(noise.stderr)")

        let negative = await CLI.run(CLI.playhead, ["play", try write("negative.m3u8", "#EXTINF:-3,\n\(good)\n")])
        #expect(negative.status == 0, "\(negative.stderr)")
        #expect(negative.stderr.contains("completed") && negative.stderr.contains("120 video"), "\(negative.stderr)")

        let tail = await CLI.run(CLI.playhead, ["play", try write("tail.m3u8", "#EXTINF:4,\n\(good)\n#EXTINF:4,\nnoise.ts\n")])
        #expect(tail.status == 0, "\(tail.stderr)")
        #expect(tail.stderr.contains("completed") && tail.stderr.contains("damaged: 1 (first: file://"), "\(tail.stderr)")
    }
}
