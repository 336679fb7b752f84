import Foundation
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// `playhead play`'s outputs: dumps hold exactly the presented frames, events reach their file while
/// the session runs, a signal stops the session with everything written, outputs do not share stdout.
@Suite struct PlayOutputTests {
    /// The frames of a Y4M file: its header line and each frame's payload.
    static func y4mFrames(_ path: String) throws -> (header: String, frames: [Data]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let newline = try #require(data.firstIndex(of: 0x0A))
        let header = String(decoding: data[..<newline], as: UTF8.self)
        let fields = header.split(separator: " ")
        let width = try #require(fields.first { $0.hasPrefix("W") }.flatMap { Int($0.dropFirst()) })
        let height = try #require(fields.first { $0.hasPrefix("H") }.flatMap { Int($0.dropFirst()) })
        let size = width * height * 3 / 2  // 4:2:0
        var frames: [Data] = []
        var index = newline + 1
        while index < data.endIndex {
            #expect(data[index..<index + 6] == Data("FRAME\n".utf8), "\(path): no FRAME marker at byte \(index)")
            index += 6
            frames.append(data[index..<min(index + size, data.endIndex)])
            index += size
        }
        return (header, frames)
    }

    @Test func aDumpAfterAStartPositionHoldsOnlyThePresentedFrames() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-dump-start-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/fmp4/v0/index.m3u8")
        let ours = await CLI.run(CLI.playhead, ["play", url, "--start", "7.5", "--duration", "2", "--dump", folder,
                                                "--framemd5", folder + "/presented.md5", "--report", "/dev/null"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let presented = CLI.hashes(try String(contentsOfFile: folder + "/presented.md5", encoding: .utf8)).count
        #expect(presented > 30)
        let reference = folder + "/reference.y4m"
        let made = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-frames:v", "330",
                                            "-fps_mode", "passthrough", "-f", "yuv4mpegpipe", "-y", reference])
        #expect(made.status == 0, "\(made.stderr)")
        let dumped = try Self.y4mFrames(folder + "/video.y4m").frames
        let expected = try Self.y4mFrames(reference).frames
        // 7.5 s is frame 225: the frames decoded from the keyframe at 4 s up to it are not presented.
        #expect(dumped.count == presented, "the dump holds \(dumped.count) frames, \(presented) were presented")
        #expect(dumped == Array(expected[225..<225 + dumped.count]))
    }

    /// The frame lines of framemd5 text (no header).
    static func frameLines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") } }

    /// A start position mid-item: the framemd5 lines are ffmpeg's own for those frames, timestamps
    /// included. They counted from the first segment demuxed, not the rendition's first (at --start 10,
    /// pts 60 where ffmpeg has 300). For fMP4, whose audio starts 21 ms before its video here, ffmpeg
    /// counts from the audio's start, which only the first segment tells: it is fetched for that.
    @Test(arguments: ["ts", "fmp4"])
    func framemd5AfterAStartPositionCountsFromTheRenditionsStart(container: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = server.url("/\(container)/v0/index.m3u8")
        let ours = await CLI.run(CLI.playhead, ["play", url, "--start", "10", "--framemd5", "-", "--report", "/dev/null", "--quiet"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-f", "framemd5", "-"])
        let expected = Array(Self.frameLines(reference.stdout).dropFirst(300))
        let lines = Self.frameLines(ours.stdout)
        #expect(lines.count == 600 && expected.count == 600)
        #expect(CLI.hashes(ours.stdout) == CLI.hashes(reference.stdout).suffix(600).map { $0 })
        #expect(lines == expected, "\(lines.first ?? "") against \(expected.first ?? "")")
    }

    @Test func aDumpStartsANewFileAtEachPictureSize() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-dump-switch-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ours = await CLI.run(CLI.playhead, ["play", server.url("/fmp4/master.m3u8"), "--bandwidth", "2.5", "--duration", "10",
                                                "--dump", folder, "--framemd5", folder + "/presented.md5", "--report", "/dev/null"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let presented = CLI.hashes(try String(contentsOfFile: folder + "/presented.md5", encoding: .utf8)).count
        let first = try Self.y4mFrames(folder + "/video.y4m")
        let second = try Self.y4mFrames(folder + "/video.1.y4m")
        #expect(first.header.hasPrefix("YUV4MPEG2 W416 H234"), "\(first.header)")
        #expect(second.header.hasPrefix("YUV4MPEG2 W640 H360"), "\(second.header)")
        #expect(first.frames.count == 120, "the first segment, at the initial rung")
        #expect(first.frames.count + second.frames.count == presented)
    }

    /// Pictures of one size but another frame rate (30 fps content, a discontinuity, 25 fps) go on in a new
    /// file whose header names their rate: they were written under the first part's F30:1, and played 20% fast.
    @Test func aDumpStartsANewFileAtAnotherFrameRate() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-dump-rate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:4
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:4.0,
        \(server.url("/ts/v1/seg000.ts"))
        #EXT-X-DISCONTINUITY
        #EXTINF:4.0,
        \(server.url("/fps25/seg000.ts"))
        #EXT-X-ENDLIST

        """.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let ours = await CLI.run(CLI.playhead, ["play", folder + "/index.m3u8", "--dump", folder + "/dump", "--report", "/dev/null", "--quiet"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let first = try Self.y4mFrames(folder + "/dump/video.y4m")
        let second = try Self.y4mFrames(folder + "/dump/video.1.y4m")
        #expect(first.header.hasPrefix("YUV4MPEG2 W640 H360 F30:1"), "\(first.header)")
        #expect(second.header.hasPrefix("YUV4MPEG2 W640 H360 F25:1"), "\(second.header)")
        #expect(first.frames.count == 120 && second.frames.count == 100, "\(first.frames.count) + \(second.frames.count)")
    }


    /// Live (simulated: the window grows on the virtual clock): a start position outside the window is
    /// said, as SEEK_ERROR and on the summary, not silently replaced by the live start point.
    @Test func aLiveStartPositionOutsideTheWindowIsNamed() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let path = NSTemporaryDirectory() + "playhead-live-start-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/ts/master.m3u8"), "--simulate-live", "--start", "20",
                                                   "--mode", "demux", "--report", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // The window named runs to the live edge (it named the seekable range, which stops short of it,
        // while a start anywhere in a listed segment is taken).
        #expect(outcome.stderr.contains("the start position 20 s is outside the live window (0 to 12 s)"), "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let notifications = try #require(report["notifications"] as? [[String: Any]])
        #expect(notifications.contains { $0["name"] as? String == "SEEK_ERROR" })
    }

    /// A seek back into a break whose ad already started loading loads the ad's first segment again; the
    /// boundary still lists that ad's playlist once.
    @Test func aBreakListsEachAdPlaylistOnceAfterASeek() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let path = NSTemporaryDirectory() + "playhead-ad-urls-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(CLI.playhead, ["play", server.url("/cues/ts/master.m3u8"), "--ad-map", CLI.streams + "/cues/admap.json",
                                                   "--seek", "20:28", "--mode", "demux", "--report", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let boundaries = try #require(report["adBoundaries"] as? [[String: Any]])
        #expect(boundaries.count == 2)
        for boundary in boundaries {
            #expect((boundary["adMediaURLs"] as? [String])?.count == 1, "\(boundary["breakId"] ?? "?"): \(boundary["adMediaURLs"] ?? "nil")")
        }
    }

    @Test func outputsThatWouldShareStandardOutputAreRefused() async {
        let both = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/x.m3u8", "--events", "-", "--framemd5", "-"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--events and --framemd5 all write to standard output"), "\(both.stderr)")
        let demux = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/x.m3u8", "--mode", "demux", "--dump", "/tmp/x"])
        #expect(demux.status == 2)
        #expect(demux.stderr.contains("--dump writes decoded frames"), "\(demux.stderr)")
    }
}

/// A real-clock session followed as it plays and stopped by a signal: it measures the wall clock, so it
/// runs with the timed tests, one at a time (`scripts/test`). Among the parallel tests a starved task
/// polled the events file only after the 30 s session had ended.
@Suite struct SignalStopTests {
    @Test(.timeLimit(.minutes(3))) func eventsAreWrittenAsTheyComeAndASignalStopsTheSessionWithEverythingWritten() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-signal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["play", server.url("/ts/v0/index.m3u8"), "--clock", "real", "--events", folder + "/events.nd",
                             "--report", folder + "/report.json", "--quiet"]
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        // The 30 s session is far from over when its first events are in the file.
        var seen = 0
        while seen == 0, process.isRunning {
            seen = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/events.nd")).count) ?? 0
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen > 0 && process.isRunning, "no event reached the file while the session ran")
        process.interrupt()
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { process.waitUntilExit(); continuation.resume() }
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationReason) \(process.terminationStatus)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
        #expect(report["finalStatus"] as? String == "stopped")
        let lines = try String(contentsOfFile: folder + "/events.nd", encoding: .utf8).split(separator: "\n")
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
        #expect(lines.last?.contains("stopped") == true || lines.contains { $0.contains("\"stopped\"") }, "the stop is in the events")
    }

    /// Runs `playhead arguments`, sends it SIGINT once `server` has been asked for `path`, and returns
    /// the process once it has exited.
    static func interrupt(_ arguments: [String], once server: LoopbackHTTPServer, asks path: String) async throws -> TestProcess {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run(signalling: SIGINT, once: server, asks: path)
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { process.waitUntilExit(); continuation.resume() }
        }
        return process
    }

    /// `soak` stopped by a signal: the sessions stop, and the report of the samples so far is printed
    /// and written (it exited at once with nothing), exit status 128 + 2.
    @Test(.timeLimit(.minutes(3))) func aSignalEndsASoakWithItsReport() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let file = NSTemporaryDirectory() + "playhead-soak-signal-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = try await Self.interrupt(["soak", server.url("/ts/v0/index.m3u8"), "--sessions", "1", "--duration", "30",
                                                "--interval", "0.2", "--report", file], once: server, asks: "/ts/v0/seg001.ts")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationReason) \(process.terminationStatus)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let samples = try #require(report["samples"] as? [[String: Any]])
        #expect(!samples.isEmpty)
    }

    /// `frames` stopped by a signal while a segment hangs: the frames of the segments read are written
    /// (they stayed in the output buffer and were lost: 0 bytes), and the exit status is 128 + 2.
    @Test(.timeLimit(.minutes(3))) func aSignalStopsFramesWithTheFramesReadWritten() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        server.setFault(.stallAfter(bytes: 1000), forPath: "/ts/v0/seg002.ts")
        let file = NSTemporaryDirectory() + "playhead-frames-signal-\(UUID().uuidString).md5"
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Segment 2 is asked for once segment 0 is decoded (each segment is fetched while the one
        // before decodes); it then hangs.
        let process = try await Self.interrupt(["frames", server.url("/ts/v0/index.m3u8"), "--framemd5", file], once: server,
                                               asks: "/ts/v0/seg002.ts")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationReason) \(process.terminationStatus)")
        let written = CLI.hashes(try String(contentsOfFile: file, encoding: .utf8))
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/ts/v0/index.m3u8",
                                                 "-map", "0:v", "-f", "framemd5", "-"])
        #expect(written.count >= 120, "\(written.count) frames written")
        #expect(written == Array(CLI.hashes(reference.stdout).prefix(written.count)))
    }
}
