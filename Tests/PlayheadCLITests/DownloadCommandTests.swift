import Foundation
import PlayheadOrigin
import Testing

/// `playhead download` of each kind of test stream over HTTP on 127.0.0.1, then played from disk: the local
/// copy's frames are FFmpeg's of the original, and the folder holds what was chosen and nothing else.
@Suite struct DownloadCommandTests {
    /// The variant kept by --variant, --bitrate (highest at or below; none below: the lowest, said) or by
    /// default (the highest); the folder holds that variant only.
    @Test(arguments: [
        ([], 3, "v3", nil),
        (["--bitrate", "1000000"], 1, "v1", nil),
        (["--bitrate", "950400"], 1, "v1", nil),
        (["--bitrate", "100"], 0, "v0", "note: no variant at or below 100 bit/s: kept the lowest"),
        (["--variant", "2"], 2, "v2", nil),
    ] as [([String], Int, String, String?)])
    func keepsTheChosenVariantOnly(options: [String], index: Int, folderName: String, note: String?) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url("/ts/master.m3u8"), "--out", folder] + options)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.split(separator: "\n").contains { $0.hasPrefix("variant: \(index), ") }, "\(out.stdout)")
        if let note { #expect(out.stdout.contains(note)) } else { #expect(!out.stdout.contains("note:")) }
        let segments = (0..<8).map { String(format: "variant/seg%03d.ts", $0) }
        #expect(Download.files(folder) == ["download.json", "master.m3u8", "variant/index.m3u8"] + segments)
        let master = try Download.text(folder, "master.m3u8")
        #expect(master.components(separatedBy: "#EXT-X-STREAM-INF").count == 2)
        #expect(master.contains("\nvariant/index.m3u8\n"))
        // Every segment came from the chosen rung and no other.
        let asked = Set(Download.requested(server).filter { $0.hasSuffix(".ts") })
        #expect(asked == Set((0..<8).map { String(format: "/ts/\(folderName)/seg%03d.ts", $0) }))
        let manifest = try Download.manifestFiles(folder)
        #expect(manifest.count == 10 && manifest.allSatisfy { $0["status"] as? String == "complete" && ($0["sha256"] as? String)?.count == 64 })
    }

    /// TS (its 640x360 rung), fMP4 with EXT-X-MAP, the cue stream with a discontinuity (the same 15 files
    /// listed twice): video and audio frames from disk equal FFmpeg's of the original over HTTP.
    @Test(arguments: [
        ("/ts/master.m3u8", ["--variant", "1"], "/ts/v1/index.m3u8", "variant/index.m3u8"),
        ("/fmp4/master.m3u8", ["--variant", "1"], "/fmp4/v1/index.m3u8", "variant/index.m3u8"),
        ("/cues/ts/long.m3u8", [], "/cues/ts/long.m3u8", "master.m3u8"),
    ])
    func playsFromDiskAsTheOriginal(path: String, options: [String], original: String, localPlaylist: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url(path), "--out", folder] + options)
        #expect(out.status == 0, "\(out.stderr)")
        let video = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url(original), "-map", "0:v", "-f", "framemd5", "-"])
        let audio = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url(original), "-map", "0:a", "-f", "framemd5", "-"])
        server.clearRequestLog()
        let played = await Download.play(folder + "/master.m3u8")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(!played.hashes.isEmpty && played.hashes == CLI.hashes(video.stdout))
        let localAudio = await Download.frames(folder + "/" + localPlaylist, stream: "audio")
        #expect(!localAudio.isEmpty && localAudio == CLI.hashes(audio.stdout))
        #expect(server.requestLog.isEmpty, "played from disk, yet asked the server for \(Download.requested(server))")
        if path.hasPrefix("/fmp4") { #expect(Download.files(folder).contains("variant/init.mp4")) }
    }

    /// Tags are kept: DISCONTINUITY, CUE-OUT/CUE-IN, PROGRAM-DATE-TIME, DATERANGE; a segment named twice is one file.
    @Test(arguments: ["/cues/ts/long.m3u8", "/cues/ts/vod.m3u8"])
    func keepsTheTags(path: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url(path), "--out", folder])
        #expect(out.status == 0, "\(out.stderr)")
        let original = try String(contentsOfFile: CLI.streams + path, encoding: .utf8)
        let local = try Download.text(folder, "master.m3u8")
        for tag in ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN", "#EXT-X-PROGRAM-DATE-TIME", "#EXT-X-DATERANGE", "#EXTINF", "#EXT-X-ENDLIST"] {
            #expect(local.components(separatedBy: tag).count == original.components(separatedBy: tag).count, "\(tag)")
        }
        #expect(Download.files(folder).filter { $0.hasPrefix("media/") }.count == 15)
        #expect(Download.requested(server).filter { $0.hasSuffix(".ts") }.count == 15)
    }

    /// A single-file byte-range rendition from a server that ignores Range: the file is fetched whole,
    /// once, and the ranges are kept; its frames from disk are FFmpeg's.
    @Test func byteRangesFromAServerWithoutRangeSupport() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let video = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/byterange/index.m3u8"), "-map", "0:v", "-f", "framemd5", "-"])
        server.clearRequestLog()
        server.setFault(.ignoreRange, forPath: "*")
        let out = await Download.run([server.url("/byterange/index.m3u8"), "--out", folder])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(Download.requested(server) == ["/byterange/index.m3u8", "/byterange/media.ts"])
        #expect(Download.files(folder) == ["download.json", "master.m3u8", "media/media.ts"])
        let original = try String(contentsOfFile: CLI.streams + "/byterange/index.m3u8", encoding: .utf8)
        let ranges = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE") } }
        #expect(ranges(try Download.text(folder, "master.m3u8")) == ranges(original) && ranges(original).count == 8)
        let played = await Download.play(folder + "/master.m3u8")
        #expect(!played.hashes.isEmpty && played.hashes == CLI.hashes(video.stdout), "\(played.stderr)")
    }

    /// AES-128: the key is a local file the playlist names; playing from disk asks the server for nothing
    /// (stopped, here), and the frames are FFmpeg's of the original.
    @Test func keysAreLocal() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url("/aes/index.m3u8"), "--out", folder])
        #expect(out.status == 0, "\(out.stderr)")
        let video = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/aes/index.m3u8"), "-map", "0:v", "-f", "framemd5", "-"])
        server.stop()
        #expect(Download.files(folder).contains("keys/key.bin"))
        #expect(try Download.text(folder, "master.m3u8").lowercased().contains("#ext-x-key:method=aes-128,uri=\"keys/key.bin\",iv=0x0f0e0d0c0b0a09080706050403020100"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/keys/key.bin")) == Data(contentsOf: URL(fileURLWithPath: CLI.streams + "/aes/key.bin")))
        let played = await Download.play(folder + "/master.m3u8")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.hashes.count == 900 && played.hashes == CLI.hashes(video.stdout))
    }

    /// An AES-128 key of another KEYFORMAT with no identity key beside it: the player reads it as a raw key,
    /// so the download keeps it too, and the folder plays with the server stopped (QA32: it was left remote).
    @Test func anAES128KeyOfAnotherKeyFormatIsLocalToo() async throws {
        let root = Download.folder()
        try FileManager.default.createDirectory(atPath: root + "/aes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in try FileManager.default.contentsOfDirectory(atPath: CLI.streams + "/aes") {
            try FileManager.default.copyItem(atPath: CLI.streams + "/aes/" + name, toPath: root + "/aes/" + name)
        }
        let playlist = try String(contentsOfFile: root + "/aes/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: #"URI="key.bin","#, with: #"URI="key.bin",KEYFORMAT="com.example.drm","#)
            .replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:5")
        try playlist.write(toFile: root + "/aes/index.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: root)
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url("/aes/index.m3u8"), "--out", folder])
        server.stop()
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("not downloaded"), "\(out.stderr)")
        #expect(Download.files(folder).contains("keys/key.bin"))
        let played = await Download.play(folder + "/master.m3u8")
        #expect(played.status == 0 && played.hashes.count == 900, "\(played.stderr)")
    }

    /// Files that fail beside the one that stops the run are said too (QA32: only the first was).
    @Test func everyFileThatFailedIsSaid() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        for index in 1...3 { server.setFault(.truncate(afterBytes: 1000), forPath: String(format: "/ts/v0/seg%03d.ts", index)) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url("/ts/v0/index.m3u8"), "--out", folder, "--retries", "0", "--concurrency", "4"])
        #expect(out.status == 1)
        let named = (1...3).filter { out.stderr.contains(String(format: "seg%03d.ts", $0)) }
        #expect(named == [1, 2, 3], "\(out.stderr)")
        #expect(out.stderr.components(separatedBy: "playhead: also: ").count - 1 == 2, "\(out.stderr)")
    }

    /// Alternate audio: --audio picks by LANGUAGE or NAME; the kept French rendition plays from disk with
    /// FFmpeg's audio frames of the original French playlist, the video FFmpeg's too.
    @Test func keepsTheChosenAudioRenditions() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let all = Download.folder(), french = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: all); try? FileManager.default.removeItem(atPath: french) }
        let both = await Download.run([server.url("/altaudio/ts-master.m3u8"), "--out", all, "--variant", "0"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains("audio: English (en), Francais (fr)"))
        #expect(Set(Download.files(all).map { $0.split(separator: "/").first! }) == ["audio-en", "audio-fr", "variant", "download.json", "master.m3u8"])
        let out = await Download.run([server.url("/altaudio/ts-master.m3u8"), "--out", french, "--variant", "0", "--audio", "Francais"])
        #expect(out.status == 0, "\(out.stderr)")
        let master = try Download.text(french, "master.m3u8")
        #expect(master.contains("NAME=\"Francais\"") && !master.contains("English") && master.contains("URI=\"audio-fr/index.m3u8\""))
        #expect(!Download.files(french).contains { $0.hasPrefix("audio-en") })
        let audio = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/altaudio/ts/fr/index.m3u8"), "-map", "0:a", "-f", "framemd5", "-"])
        let video = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/altaudio/ts/v0/index.m3u8"), "-map", "0:v", "-f", "framemd5", "-"])
        let localAudio = await Download.frames(french + "/audio-fr/index.m3u8", stream: "audio")
        #expect(!localAudio.isEmpty && localAudio == CLI.hashes(audio.stdout))
        let played = await Download.play(french + "/master.m3u8")
        #expect(played.status == 0 && played.hashes == CLI.hashes(video.stdout), "\(played.stderr)")
        let missing = await Download.run([server.url("/altaudio/ts-master.m3u8"), "--out", Download.folder(), "--audio", "de"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no AUDIO rendition of the kept variant has LANGUAGE or NAME \"de\" (there are: English (en), Francais (fr))"))
    }

    /// Subtitles: all by default, none, or one; from disk the player shows the same cues as from the original.
    @Test func keepsTheChosenSubtitles() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let all = Download.folder(), none = Download.folder(), french = Download.folder()
        defer { for f in [all, none, french] { try? FileManager.default.removeItem(atPath: f) } }
        let url = server.url("/subs/ts-master.m3u8")
        let outs = [await Download.run([url, "--out", all, "--variant", "0"]),
                    await Download.run([url, "--out", none, "--variant", "0", "--subtitles", "none"]),
                    await Download.run([url, "--out", french, "--variant", "0", "--subtitles", "fr"])]
        for out in outs { #expect(out.status == 0, "\(out.stderr)") }
        let folders = { (f: String) in Set(Download.files(f).compactMap { $0.contains("/") ? String($0.split(separator: "/")[0]) : nil }) }
        #expect(folders(all) == ["variant", "subtitles-en", "subtitles-fr"])
        #expect(folders(none) == ["variant"])
        // The variant no longer names the subtitle group it lost.
        let master = try Download.text(none, "master.m3u8")
        #expect(!master.contains("SUBTITLES="), "\(master)")
        #expect(folders(french) == ["variant", "subtitles-fr"])
        // English in 8 WebVTT segments, French in one file.
        #expect(Download.files(all).filter { $0.hasSuffix(".vtt") }.count == 9)
        let original = try await Download.report(url, ["--variant", "0", "--subtitles", "fr"])
        let local = try await Download.report(all + "/master.m3u8", ["--subtitles", "fr"])
        let cues = { (report: [String: Any]) -> [String] in
            let shown = (report["subtitles"] as? [String: Any])?["shown"] as? [[String: Any]] ?? []
            return shown.compactMap { $0["cue"] as? [String: Any] }.map { "\($0["startSeconds"] ?? ""),\($0["endSeconds"] ?? ""),\($0["markup"] ?? "")" }
        }
        #expect(!cues(original).isEmpty && cues(local) == cues(original), "\(original.keys.sorted())")
    }

    /// F32: an audio-only variant kept (by index) plays from disk as audio only, as the original does; so does
    /// an audio-only media playlist.
    @Test(arguments: [("/audioonly/master.m3u8", ["--variant", "0"]), ("/audioonly/ts/index.m3u8", [])])
    func audioOnlyPlaysFromDiskAsTheOriginal(path: String, options: [String]) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await Download.run([server.url(path), "--out", folder] + options)
        #expect(out.status == 0, "\(out.stderr)")
        if !options.isEmpty { #expect(out.stdout.contains("variant: 0, BANDWIDTH=70400, audio only (--variant 0)")) }
        let original = try await Download.report(server.url(path), options)
        let local = try await Download.report(folder + "/master.m3u8")
        #expect(original["audioOnly"] as? Bool == true)
        #expect(local["audioOnly"] as? Bool == true)
        #expect(local["framesPresented"] as? [String: Int] == original["framesPresented"] as? [String: Int])
        let audio = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/audioonly/ts/index.m3u8"), "-map", "0:a", "-f", "framemd5", "-"])
        let localAudio = await Download.frames(folder + (options.isEmpty ? "/master.m3u8" : "/variant/index.m3u8"), stream: "audio")
        #expect(!localAudio.isEmpty && localAudio == CLI.hashes(audio.stdout))
    }
}

/// Local names: two resources with the same file name in one playlist get distinct files; a file path is a
/// source too.
@Suite struct DownloadNamingTests {
    @Test func sameNamesFromTwoFoldersGetTwoFiles() async throws {
        let root = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (folder, segment) in [("a", "seg000.ts"), ("b", "seg001.ts")] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.streams + "/ts/v0/" + segment, toPath: root + "/\(folder)/seg.ts")
        }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na/seg.ts\n#EXTINF:4,\nb/seg.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4,\na/seg.ts\n#EXT-X-ENDLIST\n"
            .write(toFile: root + "/list.m3u8", atomically: true, encoding: .utf8)
        let folder = root + "/out"
        let out = await Download.run([root + "/list.m3u8", "--out", folder])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(Download.files(folder) == ["download.json", "master.m3u8", "media/2-seg.ts", "media/seg.ts"])
        let uris = try Download.text(folder, "master.m3u8").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(uris == ["media/seg.ts", "media/2-seg.ts", "media/seg.ts"])
        let theirs = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", root + "/list.m3u8", "-map", "0:v", "-f", "framemd5", "-"])
        let played = await Download.play(folder + "/master.m3u8")
        #expect(played.hashes.count == 360 && played.hashes == CLI.hashes(theirs.stdout), "\(played.stderr)")
    }
}
