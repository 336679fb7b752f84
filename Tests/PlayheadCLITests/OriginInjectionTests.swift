import Foundation
import PlayheadNet
import PlayheadTestFixtures
import Testing

/// `playhead origin --live`, `--fault` and `--bandwidth` (F38), against the origin as a child process.
@Suite struct OriginInjectionTests {
    /// A `playhead origin` child process and its base URL.
    struct RunningOrigin {
        let process: TestProcess
        let errors: Pipe
        let base: String

        /// Starts `playhead origin ROOT --port 0 ARGUMENTS` and waits for its banner.
        static func start(_ root: String, _ arguments: [String]) async throws -> RunningOrigin {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: CLI.playhead)
            process.arguments = ["origin", root, "--port", "0"] + arguments
            let out = Pipe(), errors = Pipe()
            process.standardOutput = out
            process.standardError = errors
            try ChildProcess.launch(process)
            let banner = await AdServerCommandTests.firstLine(of: out.fileHandleForReading)
            let base = try #require(banner.components(separatedBy: " at ").last?.trimmingCharacters(in: .whitespaces))
            try #require(base.hasPrefix("http://127.0.0.1:"), "banner: \(banner)")
            return RunningOrigin(process: process, errors: errors, base: base)
        }

        /// Stops the origin; returns what it wrote on standard error.
        func stop() -> String {
            process.terminate()
            process.waitUntilExit()
            return String(decoding: ChildProcess.readToEnd(errors.fileHandleForReading), as: UTF8.self)
        }
    }

    /// A temporary folder, removed by the caller.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "playhead-origin-f38-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/live", withIntermediateDirectories: true)
        return path
    }

    /// The status `url` answers with (its body read and dropped).
    static func status(_ client: HTTPClient, _ url: String) async -> Int {
        do {
            return try await client.get(url).status
        } catch {
            if case .status(_, let code, _) = error { return code }
            return -1
        }
    }

    /// EXT-X-MEDIA-SEQUENCE of a playlist's text.
    static func mediaSequence(_ text: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }.flatMap { Int($0.dropFirst(22)) }
    }

    /// A VOD playlist of 12 segments of 0.25 s, looping, slides as a window of 3 from 2 at the start: the media
    /// sequence moves between two loads at least 0.6 s apart, by two segments or more, the window holds 3, and a
    /// multivariant playlist passes through unchanged. (Looping, because on a loaded machine the first answer
    /// may come seconds after the origin started; the window's end, ENDLIST, is covered by LiveWindowTests.)
    @Test func liveWindowSlides() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let segments = (0..<12).map { String(format: "#EXTINF:0.25,\ns%02d.ts\n", $0) }.joined()
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n\(segments)#EXT-X-ENDLIST\n"
            .write(toFile: root + "/live/index.m3u8", atomically: true, encoding: .utf8)
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000\nlive/index.m3u8\n"
        try master.write(toFile: root + "/master.m3u8", atomically: true, encoding: .utf8)
        let origin = try await RunningOrigin.start(root, ["--live", "--window", "3", "--start", "2", "--loop"])
        defer { _ = origin.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }

        let url = origin.base + "/live/index.m3u8"
        let first = String(decoding: try await client.get(url).body, as: UTF8.self)
        try await Task.sleep(for: .milliseconds(600))
        let second = String(decoding: try await client.get(url).body, as: UTF8.self)
        // The sequence number of the window's last segment: at least 0.6 s passed between the two answers, so
        // two segments of 0.25 s or more came out; the window holds 2 at the start, then at most 3.
        func edge(_ text: String) throws -> Int {
            try #require(Self.mediaSequence(text)) + text.components(separatedBy: "#EXTINF").count - 2
        }
        #expect(try edge(second) >= edge(first) + 2, "\(first)\n---\n\(second)")
        for text in [first, second] {
            #expect(!text.contains("#EXT-X-PLAYLIST-TYPE") && !text.contains("#EXT-X-ENDLIST"))
            #expect((2...3).contains(text.components(separatedBy: "#EXTINF").count - 1), "\(text)")
        }
        #expect(second.components(separatedBy: "#EXTINF").count - 1 == 3, "\(second)")
        #expect(String(decoding: try await client.get(origin.base + "/master.m3u8").body, as: UTF8.self) == master)
    }

    /// `play --clock real` treats a --live origin's stream as live.
    @Test func playSeesALiveOriginAsLive() async throws {
        // Looping, so that a slow start on a loaded machine cannot find the window already ended.
        let origin = try await RunningOrigin.start(CLI.streams, ["--live", "--loop"])
        defer { _ = origin.stop() }
        let play = await CLI.run(CLI.playhead, ["play", origin.base + "/ts/master.m3u8", "--clock", "real", "--mode", "demux",
                                                "--duration", "3", "--report", "-", "--quiet"])
        #expect(play.status == 0, "\(play.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(play.stdout.utf8)) as? [String: Any])
        #expect(report["isLive"] as? Bool == true, "\(play.stdout.prefix(400))")
    }

    /// status with times=2: 503, 503, then the file; a glob; the faulted requests on standard error.
    @Test func statusFaultForTheFirstTwoRequestsAndAGlob() async throws {
        let origin = try await RunningOrigin.start(CLI.streams, ["--fault", "/ts/v0/seg001.ts=status:503,times=2",
                                                                 "--fault", "/ts/*/seg00[3-5].ts=status:404"])
        let client = HTTPClient()
        defer { client.shutdown() }
        var codes: [Int] = []
        for _ in 0..<3 { codes.append(await Self.status(client, origin.base + "/ts/v0/seg001.ts")) }
        #expect(codes == [503, 503, 200])
        var globbed: [String: Int] = [:]
        for path in ["/ts/v1/seg003.ts", "/ts/v2/seg005.ts", "/ts/v1/seg002.ts", "/ts/v1/seg006.ts"] {
            globbed[path] = await Self.status(client, origin.base + path)
        }
        #expect(globbed["/ts/v1/seg003.ts"] == 404 && globbed["/ts/v2/seg005.ts"] == 404)
        #expect(globbed["/ts/v1/seg002.ts"] == 200 && globbed["/ts/v1/seg006.ts"] == 200)
        let errors = origin.stop()
        #expect(errors.contains("playhead: fault status:503 on GET /ts/v0/seg001.ts (--fault /ts/v0/seg001.ts=status:503,times=2)"), "\(errors)")
        #expect(errors.components(separatedBy: "fault status:503").count - 1 == 2, "\(errors)")
        #expect(errors.contains("fault status:404 on GET /ts/v2/seg005.ts"), "\(errors)")
    }

    /// ignore-if-range: a range under a stale If-Range is still served (206), as a server that gets RFC 9110
    /// §13.1.5 wrong would; without the fault the whole file comes (200).
    @Test func ignoreIfRangeServesTheRangeOfTheCurrentFile() async throws {
        let origin = try await RunningOrigin.start(CLI.streams, ["--fault", "/ts/v0/seg001.ts=ignore-if-range", "--quiet"])
        func code(_ path: String) async -> String {
            await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Range: bytes=0-99",
                                            "-H", #"If-Range: "stale""#, origin.base + path]).stdout
        }
        #expect(await code("/ts/v0/seg001.ts") == "206")
        #expect(await code("/ts/v0/seg002.ts") == "200")
        _ = origin.stop()
    }

    /// p=0.3 over 50 requests: the same seed faults the same requests on two runs, another seed others;
    /// about 30 % of them.
    @Test func probabilityFaultsAreRepeatableBySeed() async throws {
        func faulted(seed: String) async throws -> [Bool] {
            let origin = try await RunningOrigin.start(CLI.streams, ["--fault", "*.m3u8=status:500,p=0.3", "--seed", seed, "--quiet"])
            defer { _ = origin.stop() }
            let client = HTTPClient()
            defer { client.shutdown() }
            var result: [Bool] = []
            for _ in 0..<50 { result.append(await Self.status(client, origin.base + "/ts/v0/index.m3u8") == 500) }
            return result
        }
        let first = try await faulted(seed: "7"), again = try await faulted(seed: "7"), other = try await faulted(seed: "8")
        #expect(first == again)
        #expect(first != other)
        #expect((6...26).contains(first.count(where: \.self)), "\(first.count(where: \.self)) of 50")
    }

    /// Bad specs are usage errors naming the spec and what is wrong.
    @Test func badFaultSpecsAreUsageErrors() async {
        let cases: [(String, String)] = [
            ("/a.ts=status:abc", "--fault \"/a.ts=status:abc\": status takes an HTTP status code 100…599, got \"abc\""),
            ("/a.ts", "--fault \"/a.ts\": give PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P]"),
            ("/a.ts=explode", "unknown fault kind \"explode\""),
            ("/a.ts=status:503,times=0", "times= takes a whole number of requests, at least 1, got \"0\""),
            ("/a.ts=close,p=1.5", "p= takes a probability above 0 and at most 1, got \"1.5\""),
            ("/seg[0-3.ts=close", "the glob \"/seg[0-3.ts\" is malformed"),
            ("a.ts=close", "must be a URL path starting with '/' or a glob such as *.ts"),
            ("/a.ts=status:500,q=1", "unknown option \"q\" after the fault kind (the options are times=N and p=P)"),
        ]
        for (spec, message) in cases {
            let outcome = await CLI.run(CLI.playhead, ["origin", CLI.streams, "--port", "0", "--fault", spec])
            #expect(outcome.status == 2, "\(spec): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(spec): \(outcome.stderr)")
        }
        let window = await CLI.run(CLI.playhead, ["origin", CLI.streams, "--port", "0", "--window", "4"])
        #expect(window.status == 2 && window.stderr.contains("--window needs --live"), "\(window.stderr)")
    }

    @Test func helpDescribesLiveFaultsAndShaping() async {
        let outcome = await CLI.run(CLI.playhead, ["origin", "--help"])
        let help = outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in ["--live serves every VOD media playlist", "--fault PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P]",
                     "--bandwidth MBPS or --trace FILE paces every response body", "--window <window>", "--seed <seed>", "--quiet"] {
            #expect(help.contains(text), "\(text)")
        }
    }

    /// --bandwidth 0.8 (100 kB/s) takes at least about 1.5 s over a 150 kB file. Only that lower bound is
    /// checked: a loaded machine makes any transfer slower, never faster (the pacing's accuracy is measured,
    /// not asserted: see the README's origin section).
    @Test func bandwidthPacesBodies() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: root + "/file.bin"))
        func seconds(_ arguments: [String]) async throws -> Double {
            let origin = try await RunningOrigin.start(root, arguments)
            defer { _ = origin.stop() }
            let client = HTTPClient()
            defer { client.shutdown() }
            let began = ContinuousClock.now
            let body = try await client.get(origin.base + "/file.bin").body
            let took = ContinuousClock.now - began
            #expect(body.count == 150_000)
            return Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        }
        let shaped = try await seconds(["--bandwidth", "0.8"])
        #expect(shaped >= 1.3, "\(shaped) s for 150 kB at 100 kB/s")
    }
}
