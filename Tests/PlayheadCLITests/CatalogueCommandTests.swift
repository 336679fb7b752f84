import Foundation
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// `playhead catalogue` and `playhead queue` end to end against the mock Playback API on 127.0.0.1,
/// whose videos' sources are the generated streams it serves.
@Suite struct CatalogueCommandTests {
    static let account = "57838016001"
    static let key = "BCpkADawqM-cli"

    static func server(token: String? = nil) throws -> PlaybackAPIServer {
        let server = try PlaybackAPIServer(accountId: account, policyKey: key, authToken: token, mediaDirectory: CLI.streams)
        server.registerDemoCatalogue()
        return server
    }

    static func service(_ server: PlaybackAPIServer) -> [String] {
        ["--account", account, "--policy-key", key, "--base-url", server.baseURL]
    }

    @Test func printsAVideoAndTheSourceChosen() async throws {
        let server = try Self.server(token: "tok-1")
        let text = await CLI.run(CLI.playhead, ["catalogue", "video", "1001", "--auth-token", "tok-1"] + Self.service(server))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("video 1001 \"Demo TS ladder\" (ref:demo-ts), 30.000 s"))
        #expect(text.stdout.contains("[0] application/x-mpegURL \(server.url("/ts/master.m3u8")) (M2TS, avc1,mp4a)  ← chosen"))
        #expect(text.stdout.contains("chosen: \(server.url("/ts/master.m3u8"))"))
        #expect(text.stdout.contains("[DRM: com.widevine.alpha]") && text.stdout.contains("cue point: AD midroll at 15.000 s"))
        // The headers the server saw.
        let request = try #require(server.requests.last)
        #expect(request.accept == "application/json;pk=\(Self.key)" && request.authorization == "Bearer tok-1")

        let json = await CLI.run(CLI.playhead, ["catalogue", "video", "ref:demo-bumper", "--auth-token", "tok-1", "--json"] + Self.service(server))
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let video = try #require(object["video"] as? [String: Any])
        #expect(video["id"] as? String == "1003" && video["durationSeconds"] as? Double == 10)
        #expect((object["source"] as? [String: Any])?["src"] as? String == server.url("/ad/master.m3u8"))
        #expect((video["sources"] as? [Any])?.count == 3)
    }

    @Test func failuresExitOneNamingTheURLAndCode() async throws {
        let server = try Self.server(token: "tok-1")
        let noToken = await CLI.run(CLI.playhead, ["catalogue", "video", "1001"] + Self.service(server))
        #expect(noToken.status == 1)
        #expect(noToken.stderr.contains("ACCESS_DENIED (TOKEN_REQUIRED) from \(server.url("/playback/v1/accounts/\(Self.account)/videos/1001")), HTTP 403"), "\(noToken.stderr)")
        let missing = await CLI.run(CLI.playhead, ["catalogue", "video", "42", "--auth-token", "tok-1"] + Self.service(server))
        #expect(missing.status == 1 && missing.stderr.contains("VIDEO_NOT_FOUND from") && missing.stderr.contains("/videos/42, HTTP 404"))
        // A video without an HLS source is printed, and the exit status says it cannot be played.
        let mp4 = await CLI.run(CLI.playhead, ["catalogue", "video", "1004", "--auth-token", "tok-1"] + Self.service(server))
        #expect(mp4.status == 1 && mp4.stdout.contains("no playable source: video 1004: no HLS source (only MP4 and DASH"))
        let usage = await CLI.run(CLI.playhead, ["catalogue", "video", "1001", "--base-url", server.baseURL, "--account", Self.account])
        #expect(usage.status == 2 && usage.stderr.contains("needs --policy-key"))
        let badLimit = await CLI.run(CLI.playhead, ["catalogue", "playlist", "2001", "--limit", "0"] + Self.service(server))
        #expect(badLimit.status == 2 && badLimit.stderr.contains("--limit must be 1 or more"))
    }

    @Test func pagesAPlaylist() async throws {
        let server = try Self.server()
        let page = await CLI.run(CLI.playhead, ["catalogue", "playlist", "ref:demo-playlist", "--limit", "2", "--offset", "1", "--json"] + Self.service(server))
        #expect(page.status == 0, "\(page.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [String: Any])
        let playlist = try #require(object["playlist"] as? [String: Any])
        #expect((playlist["videos"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["1002", "1004"])
        #expect(playlist["count"] as? Int == 3 && playlist["offset"] as? Int == 1 && playlist["limit"] as? Int == 2)
        #expect((object["sources"] as? [Any])?.first as? String == server.url("/fmp4/master.m3u8"))
        #expect((object["sources"] as? [Any])?.last is NSNull)
        #expect(server.requests.last?.query == "limit=2&offset=1")
        let text = await CLI.run(CLI.playhead, ["catalogue", "playlist", "2001"] + Self.service(server))
        #expect(text.stdout.hasPrefix("playlist 2001 \"Demo playlist\" (ref:demo-playlist): 3 videos of 3 (0–2)\n"), "\(text.stdout)")
    }

    /// A queue of catalogue videos and URLs with a bumper, an insertion and two failing entries: the
    /// order, the exit status, the report, and every played item's frames equal to its own `play`.
    @Test func queuePlaysCatalogueVideosInOrder() async throws {
        let server = try Self.server()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-queue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inserted = server.url("/cues/ad/v1/index.m3u8")
        let outcome = await CLI.run(CLI.playhead, ["queue", "bc:ref:demo-bumper", "bc:1004", server.url("/nope/index.m3u8"), server.url("/ad/v1/index.m3u8"),
                                                   "--bumper", server.url("/cues/ad/v0/index.m3u8"), "--insert-after", "0:\(inserted)",
                                                   "--report", dir + "/report.json", "--events", dir + "/events.ndjson",
                                                   "--framemd5", dir + "/queue.framemd5"] + Self.service(server))
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("item 3 bc:1004 (MP4 only) failed: video 1004: no HLS source"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("item 4 \(server.url("/nope/index.m3u8")) failed: HTTP 404"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        let entries = items.compactMap { $0["item"] as? [String: Any] }
        #expect(entries.map { $0["title"] as? String ?? "" } == [server.url("/cues/ad/v0/index.m3u8"), "bc:1003 (Demo bumper)", inserted, "bc:1004 (MP4 only)",
                                                                 server.url("/nope/index.m3u8"), server.url("/ad/v1/index.m3u8")])
        #expect(entries.first?["role"] as? String == "bumper")
        #expect(items.map { $0["status"] as? String ?? "" } == ["completed", "completed", "completed", "failed", "error", "completed"])
        #expect(report["failed"] as? [Int] == [3, 4])
        let gaps = try #require(report["gaps"] as? [[String: Any]])
        #expect(gaps.map { "\($0["fromIndex"] as? Int ?? -1)→\($0["toIndex"] as? Int ?? -1)" } == ["0→1", "1→2", "2→5"])
        #expect(gaps.prefix(2).allSatisfy { $0["preloaded"] as? Bool == true })

        // The events: the queue's lifecycle and the sessions' own, each with its item.
        let lines = try String(contentsOfFile: dir + "/events.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("\"name\":\"queueAdvanced\"") && $0.contains("\"from\":\"0\"") })
        #expect(lines.contains { $0.hasPrefix("{\"item\":5,") && $0.contains("\"event\":\"playCompleted\"") })
        // Each session's events also carry their time on the queue's timeline: in order across the items (a session's
        // own time restarts at 0 with each item).
        let queueTimes = lines.filter { $0.hasPrefix("{\"item\":") }.compactMap { line -> Double? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["queueTime"] as? Double
        }
        #expect(queueTimes.count > 10 && zip(queueTimes, queueTimes.dropFirst()).allSatisfy { $0 <= $1 + 1e-6 }, "\(queueTimes.prefix(20))")
        let lastItem = try #require(items.last)
        #expect(abs((queueTimes.last ?? 0) - (lastItem["endSeconds"] as? Double ?? -1)) < 0.5, "\(queueTimes.last ?? 0) vs \(lastItem)")
        #expect(lines.last?.contains("\"name\":\"queueCompleted\"") == true)

        // Every item that played presented the frames its own `play` presents, one after another.
        let queued = CLI.hashes(try String(contentsOfFile: dir + "/queue.framemd5", encoding: .utf8))
        var alone: [String] = []
        for url in [server.url("/cues/ad/v0/index.m3u8"), server.url("/ad/master.m3u8"), inserted, server.url("/ad/v1/index.m3u8")] {
            let play = await CLI.run(CLI.playhead, ["play", url, "--framemd5", "-", "--quiet"])
            #expect(play.status == 0)
            alone += CLI.hashes(play.stdout)
        }
        #expect(alone.count >= 1200)
        #expect(queued == alone)
    }

    @Test func queueUsageErrors() async throws {
        let none = await CLI.run(CLI.playhead, ["queue"])
        #expect(none.status == 2 && none.stderr.contains("give at least one item"))
        let noAccount = await CLI.run(CLI.playhead, ["queue", "bc:1001", "--policy-key", "k"])
        #expect(noAccount.status == 2 && noAccount.stderr.contains("bc:1001 needs --account"), "\(noAccount.stderr)")
        let badInsert = await CLI.run(CLI.playhead, ["queue", "a.m3u8", "--insert-after", "x:b.m3u8"])
        #expect(badInsert.status == 2 && badInsert.stderr.contains("--insert-after takes I:ITEM"))
        let farInsert = await CLI.run(CLI.playhead, ["queue", "/nonexistent/a.m3u8", "--insert-after", "3:b.m3u8"])
        #expect(farInsert.status == 2 && farInsert.stderr.contains("no item 3 (the items are 0…0)"), "\(farInsert.stderr)")
        let badItem = await CLI.run(CLI.playhead, ["queue", "bc:", "--account", "1", "--policy-key", "k"])
        #expect(badItem.status == 2 && badItem.stderr.contains("give bc:VIDEO_ID, bc:ref:REF or bc:playlist:ID"))
    }

    /// `playhead origin --playback-api` serves the demo catalogue beside the streams; `queue` plays a
    /// catalogue playlist from it without and with preloading, and the gap shrinks.
    @Test func originServesTheDemoCatalogue() async throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["origin", CLI.streams, "--port", "0", "--playback-api", "\(Self.account):\(Self.key)"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        defer { process.terminate(); process.waitUntilExit() }
        let banner = await AdServerCommandTests.firstLine(of: out.fileHandleForReading)
        let base = try #require(banner.components(separatedBy: " at ").last?.trimmingCharacters(in: .whitespaces))
        let service = ["--account", Self.account, "--policy-key", Self.key, "--base-url", base]
        let video = await CLI.run(CLI.playhead, ["catalogue", "video", "ref:demo-fmp4"] + service)
        #expect(video.status == 0 && video.stdout.contains("chosen: \(base)/fmp4/master.m3u8"), "\(video.stdout)\(video.stderr)")
        var gaps: [Bool: Double] = [:]
        for preload in [true, false] {
            let queue = await CLI.run(CLI.playhead, ["queue", "bc:1003", "bc:1003", "--mode", "demux", "--report", "-", "--quiet"] + service
                                      + (preload ? [] : ["--no-preload"]))
            #expect(queue.status == 0, "\(queue.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(queue.stdout.utf8)) as? [String: Any])
            gaps[preload] = (report["gaps"] as? [[String: Any]])?.first?["seconds"] as? Double
        }
        let with = try #require(gaps[true]), without = try #require(gaps[false])
        #expect(without - with > 0.15, "gap \(without) s without preload, \(with) s with")
    }
}

/// `queue bc:playlist:ID` plays a catalogue playlist's videos; a video's custom field bumper_id names the
/// bumper, over --bumper; --duration stops each item.
@Suite struct QueueCatalogueExtrasTests {
    @Test func playlistItemsAndTheVideosBumper() async throws {
        let server = try CatalogueCommandTests.server()
        try server.registerVideo(json: PlaybackAPIServer.videoDocument(id: "3001", name: "With bumper", durationSeconds: 10,
                                                                       hlsURL: server.url("/ad/v1/index.m3u8"), customFields: ["bumper_id": "1003"]))
        let service = CatalogueCommandTests.service(server)
        let playlist = await CLI.run(CLI.playhead, ["queue", "bc:playlist:2001", "--duration", "2", "--mode", "demux", "--report", "-", "--quiet"] + service)
        #expect(playlist.status == 1, "\(playlist.stderr)")  // 1004 has no HLS source
        let report = try #require(try JSONSerialization.jsonObject(with: Data(playlist.stdout.utf8)) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.compactMap { ($0["item"] as? [String: Any])?["videoId"] as? String } == ["1001", "1002", "1004"])
        #expect(items.map { $0["status"] as? String ?? "" } == ["stopped", "stopped", "failed"])

        let bumpered = await CLI.run(CLI.playhead, ["queue", "bc:3001", "--bumper", server.url("/cues/ad/v0/index.m3u8"), "--mode", "demux",
                                                    "--report", "-", "--quiet"] + service)
        #expect(bumpered.status == 0, "\(bumpered.stderr)")
        #expect(bumpered.stderr.contains("video 3001 names bumper 1003 in its custom fields, which takes precedence over --bumper"))
        let second = try #require(try JSONSerialization.jsonObject(with: Data(bumpered.stdout.utf8)) as? [String: Any])
        let entries = (second["items"] as? [[String: Any]])?.compactMap { $0["item"] as? [String: Any] } ?? []
        #expect(entries.map { $0["videoId"] as? String ?? "" } == ["1003", "3001"])
        #expect(entries.map { $0["role"] as? String ?? "" } == ["bumper", "content"])
    }

    /// A playlist with an entry that is not a readable video: `catalogue playlist` lists the others and the
    /// skipped one (a warning on standard error, exit 0); `queue` plays the others and reports that entry as
    /// a failed item in its place (exit 1).
    @Test func aMalformedPlaylistEntryFailsAloneInTheQueue() async throws {
        let server = try CatalogueCommandTests.server()
        server.registerRawVideo(id: "3002", body: #"{"id": "3002", "name": 12}"#)
        server.registerPlaylist(id: "2002", name: "One bad", videoIds: ["1001", "3002", "1002"])
        let service = CatalogueCommandTests.service(server)
        let listed = await CLI.run(CLI.playhead, ["catalogue", "playlist", "2002"] + service)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("playlist 2002 \"One bad\": 2 videos of 3, 1 skipped (0–2)\n"), "\(listed.stdout)")
        #expect(listed.stdout.contains("  skipped [1] 3002: "))
        #expect(listed.stderr.contains("warning: playlist entry 1 (video 3002) is not a readable video, skipped: ")
                && listed.stderr.contains("$.videos[1].name: expected text, found a number"), "\(listed.stderr)")

        let queued = await CLI.run(CLI.playhead, ["queue", "bc:playlist:2002", "--duration", "1", "--mode", "demux", "--report", "-", "--quiet"] + service)
        #expect(queued.status == 1, "\(queued.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(queued.stdout.utf8)) as? [String: Any])
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String ?? "" } == ["stopped", "failed", "stopped"])
        #expect((items[1]["item"] as? [String: Any])?["title"] as? String == "bc:playlist:2002[1] (video 3002)")
        #expect(queued.stderr.contains("not a readable video"), "\(queued.stderr)")
    }

    /// SIGINT while the queue still looks its items up (a service that does not answer) stops the lookups:
    /// exit 130, and the report lists every item given as not played (QA: the process died with no report).
    @Test func aSignalDuringTheLookupsWritesTheReport() async throws {
        let server = try CatalogueCommandTests.server()
        // Kept to the end: released after its last use, it stopped its server, and the wait for the request
        // below returned at once, before the child had its signal handlers.
        defer { server.stop() }
        server.setFault(.stallAfter(bytes: 0), forPath: server.videoPath("1002"))
        let folder = NSTemporaryDirectory() + "playhead-queue-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["queue", "bc:1001", "bc:1002", "--report", folder + "/report.json", "--quiet"] + CatalogueCommandTests.service(server)
        try process.run(signalling: SIGINT, once: server.httpServer, asks: server.videoPath("1002"))
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: process.terminationStatus) }
        }
        #expect(status == 130)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(report["stopped"] as? Bool == true)
        let items = report["items"] as? [[String: Any]] ?? []
        #expect(items.map { $0["status"] as? String ?? "" } == ["notPlayed", "notPlayed"])
        #expect(items.compactMap { ($0["item"] as? [String: Any])?["title"] as? String } == ["bc:1001", "bc:1002"])
    }
}
