import Foundation
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// `playhead frames --framemd5 -` against `ffmpeg -f framemd5` on the same URL, over HTTP on 127.0.0.1.
@Suite(.serialized) struct FramesCommandTests {
    static let renditions = [
        "ts/v0/index.m3u8", "ts/v1/index.m3u8", "ts/v2/index.m3u8", "ts/v3/index.m3u8",
        "fmp4/v0/index.m3u8", "fmp4/v1/index.m3u8", "fmp4/v2/index.m3u8", "fmp4/v3/index.m3u8",
        "fps25/index.m3u8", "fps2997/index.m3u8", "byterange/index.m3u8", "aes/index.m3u8",
        "ad/v0/index.m3u8", "cues/ts/long.m3u8",
    ]

    @Test(arguments: renditions)
    func videoHashesEqualFFmpegLineForLine(rendition: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(rendition)"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--framemd5", "-"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-f", "framemd5", "-"])
        #expect(reference.status == 0)
        let expected = CLI.hashes(reference.stdout)
        #expect(expected.count >= 299, "the reference decoded a whole rendition")
        #expect(CLI.hashes(ours.stdout) == expected)
    }

    /// Three good segments, then one that is missing: exit 1 naming it, after every frame of the three
    /// (the decoder is drained first; it used to keep its last frames, 116 of 120 came out).
    @Test func aMissingSegmentEndsTheRunAfterEveryFrameBeforeIt() async throws {
        let folder = NSTemporaryDirectory() + "playhead-missing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = CLI.streams + "/ts/v0"
        let missing = "file://\(folder)/gone.ts"
        let lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
            + (0..<3).flatMap { ["#EXTINF:4,", "file://\(rendition)/seg00\($0).ts"] } + ["#EXTINF:4,", missing, "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let ours = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--framemd5", "-"])
        #expect(ours.status == 1)
        #expect(ours.stderr.contains(missing), "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", rendition + "/index.m3u8", "-map", "0:v", "-f", "framemd5", "-"])
        #expect(CLI.hashes(ours.stdout) == Array(CLI.hashes(reference.stdout).prefix(360)))
    }

    /// A stream asked for that the segments do not hold (video-only segments, `--stream audio`): exit 1
    /// naming it, as ffmpeg's "matches no streams"; it was exit 0 with an empty framemd5 file.
    @Test func aStreamTheSegmentsDoNotHoldIsAnError() async throws {
        let folder = NSTemporaryDirectory() + "playhead-vonly-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/ts/v0/seg000.ts", "-map", "0:v",
                                            "-c", "copy", "-f", "mpegts", folder + "/v.ts"])
        #expect(made.status == 0, "\(made.stderr)")
        let lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXTINF:4,", "v.ts", "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let audio = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--stream", "audio", "--framemd5", "-"])
        #expect(audio.status == 1)
        #expect(audio.stderr.contains("no audio stream in its segments"), "\(audio.stderr)")
        let video = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--stream", "all", "--framemd5", "-"])
        #expect(video.status == 0, "\(video.stderr)")
        #expect(CLI.hashes(video.stdout).count == 120)
    }

    /// An fMP4 segment served empty: its init section alone opens and holds no samples, which used to
    /// pass as a segment of 0 frames (exit 0). It fails like an empty TS segment, after the frames before it.
    @Test func anEmptyFMP4SegmentEndsTheRunNamingIt() async throws {
        let folder = NSTemporaryDirectory() + "playhead-empty-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = CLI.streams + "/fmp4/v0"
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.m4s"))
        let lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
                     "#EXT-X-MAP:URI=\"file://\(rendition)/init.mp4\""]
            + (0..<2).flatMap { ["#EXTINF:4,", "file://\(rendition)/seg00\($0).m4s"] } + ["#EXTINF:4,", "file://\(folder)/empty.m4s", "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let ours = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--framemd5", "-"])
        #expect(ours.status == 1, "\(ours.stderr)")
        #expect(ours.stderr.contains("file://\(folder)/empty.m4s") && ours.stderr.contains("empty media segment"), "\(ours.stderr)")
        #expect(CLI.hashes(ours.stdout).count == 240, "the two segments before it")
    }

    /// A key given as a `data:` URI (base64, padding left out, or percent-escaped) is decoded, not fetched
    /// (libcurl called it an unsupported URL); one whose base64 does not decode is named.
    @Test(arguments: ["base64", "percent", "broken", "bad escape"])
    func aKeyGivenAsADataURIIsDecoded(form: String) async throws {
        let folder = NSTemporaryDirectory() + "playhead-data-key-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = try Data(contentsOf: URL(fileURLWithPath: CLI.streams + "/aes/key.bin"))
        let uri = switch form {
        case "base64": "data:text/plain;base64," + key.base64EncodedString().replacingOccurrences(of: "=", with: "")
        case "percent": "data:application/octet-stream," + key.map { String(format: "%%%02X", $0) }.joined()
        case "bad escape": "data:,%zz"
        default: "data:text/plain;base64,AB*CD"
        }
        let playlist = try String(contentsOfFile: CLI.streams + "/aes/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"\(uri)\"")
            .split(separator: "\n").map { $0.hasSuffix(".ts") ? "file://\(CLI.streams)/aes/\($0)" : String($0) }
        try playlist.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let ours = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--framemd5", "-"])
        if form == "broken" {
            #expect(ours.status == 1)
            #expect(ours.stderr.contains("the data: URL's base64 data does not decode"), "\(ours.stderr)")
        } else if form == "bad escape" {
            // Taken as written: resolved as a URL it was escaped again (%25zz), and read as three bytes.
            #expect(ours.status == 1)
            #expect(ours.stderr.contains("data:,%zz: the data: URL has a % not followed by two hexadecimal digits"), "\(ours.stderr)")
        } else {
            #expect(ours.status == 0, "\(ours.stderr)")
            let server = try LoopbackHTTPServer(root: CLI.streams)
            defer { server.stop() }
            let expected = await ChildProcess.ffmpegHashes(server.url("/aes/index.m3u8"))
            #expect(expected.count >= 299 && CLI.hashes(ours.stdout) == expected)
        }
    }

    @Test func aKeyThatIsNotSixteenBytesIsNamed() async throws {
        // An origin serving an error page where the AES-128 key should be.
        let folder = NSTemporaryDirectory() + "playhead-key-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<html>Forbidden</html>".write(toFile: folder + "/key.bin", atomically: true, encoding: .utf8)
        let playlist = try String(contentsOfFile: CLI.streams + "/aes/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"file://\(folder)/key.bin\"")
            .split(separator: "\n").map { $0.hasSuffix(".ts") ? "file://\(CLI.streams)/aes/\($0)" : String($0) }
        try playlist.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let ours = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8"])
        #expect(ours.status == 1)
        #expect(ours.stderr.contains("the key file://\(folder)/key.bin is 22 bytes, expected 16"), "\(ours.stderr)")
    }

    /// AES-128 over fMP4: the init section is encrypted by the EXT-X-KEY in force where EXT-X-MAP stands, not by
    /// the segments' later one (RFC 8216bis 4.4.4.5); a MAP before any KEY is in the clear. Both decode to the
    /// clear rendition's frames, as FFmpeg decodes them.
    @Test func anFMP4InitSectionTakesTheKeyInForceAtItsMap() async throws {
        let folder = NSTemporaryDirectory() + "playhead-fmp4-aes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = CLI.streams + "/fmp4/v0"
        let key = (0..<16).map { UInt8($0 * 17) }
        let mapIV = [UInt8](repeating: 0, count: 15) + [10], segmentIV = (0..<16).map { UInt8($0) }
        func hex(_ bytes: [UInt8]) -> String { "0x" + bytes.map { String(format: "%02x", $0) }.joined() }
        func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/" + name))) }
        try Data(key).write(to: URL(fileURLWithPath: folder + "/k.bin"))
        try Data(try AES128.encrypt(read("init.mp4"), key: key, iv: mapIV)).write(to: URL(fileURLWithPath: folder + "/init-enc.mp4"))
        try Data(read("init.mp4")).write(to: URL(fileURLWithPath: folder + "/init-clear.mp4"))
        let clear = try String(contentsOfFile: source + "/index.m3u8", encoding: .utf8)
        var segmentLines: [String] = []
        for line in clear.split(separator: "\n").map(String.init) where line.hasPrefix("#EXTINF") || line.hasSuffix(".m4s") {
            if line.hasSuffix(".m4s") {
                try Data(try AES128.encrypt(read(line), key: key, iv: segmentIV)).write(to: URL(fileURLWithPath: folder + "/" + line))
            }
            segmentLines.append(line)
        }
        let head = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:4\n"
        let segmentKey = "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\",IV=\(hex(segmentIV))\n"
        let tail = segmentLines.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n"
        try (head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\",IV=\(hex(mapIV))\n#EXT-X-MAP:URI=\"init-enc.mp4\"\n" + segmentKey + tail)
            .write(toFile: folder + "/own-key.m3u8", atomically: true, encoding: .utf8)
        try (head + "#EXT-X-MAP:URI=\"init-clear.mp4\"\n" + segmentKey + tail).write(toFile: folder + "/clear-map.m3u8", atomically: true, encoding: .utf8)
        let expected = await ChildProcess.ffmpegHashes(source + "/index.m3u8")
        #expect(expected.count >= 299)
        for name in ["own-key.m3u8", "clear-map.m3u8"] {
            let ours = await CLI.run(CLI.playhead, ["frames", folder + "/" + name, "--framemd5", "-"])
            #expect(ours.status == 0, "\(name): \(ours.stderr)")
            #expect(CLI.hashes(ours.stdout) == expected, "\(name)")
            let reference = await ChildProcess.ffmpegHashes(folder + "/" + name, inputOptions: ["-allowed_extensions", "ALL"])
            #expect(reference == expected, "FFmpeg reads \(name) so too")
        }
    }

    /// An AES-128 segment cut short (a multiple of 16 bytes, so only its padding fails) is damage, not a
    /// network error: `play` skips it, plays the rest and completes (`--strict` exit 3, the damage naming
    /// the decryption); `frames` stops there naming the decryption failure, not that zero bytes do not open.
    @Test func anEncryptedSegmentThatDoesNotDecryptIsDamage() async throws {
        let folder = NSTemporaryDirectory() + "playhead-aes-cut-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: CLI.streams + "/aes") {
            try FileManager.default.copyItem(atPath: CLI.streams + "/aes/" + name, toPath: folder + "/" + name)
        }
        let cut = folder + "/seg002.ts"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cut)))
        // Cut where the plaintext's last bytes are no valid padding: the stream is encoded afresh for each run, and
        // a cut whose last plaintext byte was 0x01 decrypted "fine" (a fresh clone failed so, 1 run in about 256).
        let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/key.bin")))
        let iv: [UInt8] = (0..<16).map { UInt8(15 - $0) }
        var length = bytes.count / 32 * 16
        while length > 16, (try? AES128.decrypt(Array(bytes.prefix(length)), key: key, iv: iv)) != nil { length -= 16 }
        try Data(bytes.prefix(length)).write(to: URL(fileURLWithPath: cut))
        let played = await CLI.run(CLI.playhead, ["play", folder + "/index.m3u8", "--strict", "--report", "-", "--quiet"])
        #expect(played.status == 3, "\(played.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])
        #expect(report["finalStatus"] as? String == "completed")
        let damage = report["damage"] as? [String] ?? []
        #expect(damage == ["file://\(cut): decryption failed: AES-128: bad PKCS#7 padding: a wrong key or IV, or the data is cut short or damaged; "
                           + "the segment is skipped"], "\(damage)")
        #expect(((report["framesPresented"] as? [String: Int])?["video"] ?? 0) >= 180)
        #expect(!played.stderr.contains("NETWORK_ERROR"))
        let framed = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8"])
        #expect(framed.status == 1)
        #expect(framed.stderr.contains("seg002.ts: decryption failed: AES-128: bad PKCS#7 padding"), "\(framed.stderr)")
    }

    @Test func eachSegmentCountsItsOwnFrames() async throws {
        // With frame threads the decoder gives a segment's last frames out while the next is fed; they
        // used to count for the next one (116 for the first segment).
        let ours = await CLI.run(CLI.playhead, ["frames", CLI.streams + "/ts/v0/index.m3u8", "--threads", "2"])
        #expect(ours.status == 0)
        let counts = ours.stdout.split(separator: "\n").filter { $0.hasPrefix("segment ") }
            .compactMap { line in line.split(separator: ",").last.flatMap { Int($0.split(separator: " ").first ?? "") } }
        #expect(counts == [120, 120, 120, 120, 120, 120, 120, 60], "\(ours.stdout)")
    }

    /// A segment cut short: the frame decoded with concealed errors is its own, though the decoder hands
    /// it out while the next segment goes in (it was blamed on the next one, line and count).
    @Test func aConcealedFrameIsBlamedOnItsOwnSegment() async throws {
        let folder = NSTemporaryDirectory() + "playhead-frames-short-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: CLI.streams + "/ts/v1", toPath: folder + "/v1")
        let cut = URL(fileURLWithPath: folder + "/v1/seg003.ts")
        try Data(contentsOf: cut).prefix(200_003).write(to: cut)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["frames", server.url("/v1/index.m3u8")])
        #expect(outcome.stderr.contains("damage in \(server.url("/v1/seg003.ts")): video decoder"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("seg004.ts"), "\(outcome.stderr)")
        #expect(outcome.stdout.split(separator: "\n").contains { $0.hasPrefix("segment 3:") && $0.hasSuffix("1 damaged") }, "\(outcome.stdout)")
    }

    @Test func aPlaylistWithoutSegmentsIsAnError() async throws {
        let path = NSTemporaryDirectory() + "playhead-empty-\(UUID().uuidString).m3u8"
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-ENDLIST\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ours = await CLI.run(CLI.playhead, ["frames", path])
        #expect(ours.status == 1)
        #expect(ours.stderr.contains("the playlist lists no segments"), "\(ours.stderr)")
    }

    /// The whole text, timestamp columns included, equals ffmpeg's for one stream alone. The CLI counts
    /// from the input's start time, which for MPEG-TS it corrects to the streams it outputs and for fMP4
    /// does not: fMP4 video alone starts one frame in (its audio starts 0.02 s earlier), which ours wrote
    /// one frame lower.
    @Test(arguments: [("fps2997/index.m3u8", "video"), ("fmp4/v2/index.m3u8", "video"), ("fmp4/v2/index.m3u8", "audio"),
                      ("ts/v2/index.m3u8", "audio")])
    func timestampColumnsFollowFFmpegToo(rendition: String, stream: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(rendition)"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--stream", stream, "--framemd5", "-"]).stdout
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", stream == "video" ? "0:v" : "0:a",
                                                 "-f", "framemd5", "-"]).stdout
        let strip: (String) -> [String] = { $0.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        #expect(strip(reference).count > 900)
        #expect(strip(ours) == strip(reference))
    }

    /// Video and audio together: lines interleaved in time order as ffmpeg's muxer does (ties to the video
    /// stream), whatever the decoder threads; the whole text equals ffmpeg's. (The order followed the
    /// decoders' output and changed with --threads.)
    @Test(arguments: ["ts/v3/index.m3u8", "fmp4/v1/index.m3u8"])
    func allStreamsInterleaveAsFFmpegDoes(rendition: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(rendition)"
        let strip: (String) -> [String] = { $0.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        let one = await CLI.run(CLI.playhead, ["frames", url, "--stream", "all", "--threads", "1", "--framemd5", "-"])
        let two = await CLI.run(CLI.playhead, ["frames", url, "--stream", "all", "--threads", "2", "--framemd5", "-"])
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-f", "framemd5", "-"])
        #expect(strip(reference.stdout).count > 2000)
        #expect(strip(one.stdout) == strip(reference.stdout))
        #expect(strip(two.stdout) == strip(one.stdout))
    }

    /// A segment from the middle of a long GOP, alone: no keyframe and no parameter sets, so nothing decodes
    /// (ffmpeg cannot either). That is exit 1 with a sentence, where it was exit 0 and "0 frames".
    @Test func nothingDecodedIsAFailure() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let playlist = NSTemporaryDirectory() + "playhead-undecodable-\(UUID().uuidString).m3u8"
        defer { try? FileManager.default.removeItem(atPath: playlist) }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(server.baseURL)/longgop/ts/seg001.ts\n#EXT-X-ENDLIST\n"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let outcome = await CLI.run(CLI.playhead, ["frames", playlist, "--stream", "video"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("no frame could be decoded"), "\(outcome.stderr)")
        // With the audio asked for too, the audio decodes and the video does not: still a failure, naming the video.
        let all = await CLI.run(CLI.playhead, ["frames", playlist, "--stream", "all"])
        #expect(all.status == 1)
        #expect(all.stderr.contains("no video frame could be decoded"), "\(all.stderr)")
        // The whole rendition decodes as before; in keyframes mode no audio is decoded, and none is missed.
        #expect(await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/longgop/ts/index.m3u8", "--stream", "all"]).status == 0)
        #expect(await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/longgop/ts/index.m3u8", "--stream", "all", "--mode", "keyframes"]).status == 0)
    }

    /// Non-square pixels (4:3) and 5.1 AC-3: the header's `#sar` and `#channel_layout_name` are FFmpeg's
    /// (`4/3`, `5.1(side)`), as is the whole text. They were always `1/1` and `5.1`.
    @Test func headerCarriesTheSampleAspectRatioAndChannelLayout() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/sar/index.m3u8"
        let strip: (String) -> [String] = { $0.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--stream", "all", "--framemd5", "-"]).stdout
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-f", "framemd5", "-"]).stdout
        #expect(strip(reference).contains("#sar 0: 4/3") && strip(reference).contains("#channel_layout_name 1: 5.1(side)"))
        #expect(strip(reference).count > 200)
        #expect(strip(ours) == strip(reference))
    }

    /// `cues/ts/long.m3u8` plays its rendition twice across an EXT-X-DISCONTINUITY: FFmpeg keeps one AAC
    /// decoder across it (its noise generator goes on), so ours must too; a fresh decoder there changed
    /// 897 of the 1408 hashes after it.
    @Test(arguments: ["fmp4/v1/index.m3u8", "cues/ts/long.m3u8"])
    func audioHashesEqualFFmpeg(rendition: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(rendition)"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--stream", "audio", "--framemd5", "-"])
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:a", "-f", "framemd5", "-"])
        #expect(CLI.hashes(reference.stdout).count > 1000)
        #expect(CLI.hashes(ours.stdout) == CLI.hashes(reference.stdout))
    }

    @Test func missingSegmentNamesURLAndStatus() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts")
        let outcome = await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/ts/v0/index.m3u8", "--framemd5", "-"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(server.baseURL)/ts/v0/seg003.ts"))
        #expect(outcome.stderr.contains("404"))
        #expect(CLI.hashes(outcome.stdout).count >= 300, "the frames of the first three segments were written")
    }

    @Test func missingPlaylistIsExitOneWithURL() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/nope.m3u8"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("/nope.m3u8") && outcome.stderr.contains("404"))
        // Nothing was read: no totals line that reads as a success (QA: "total: 0 frames …" on stdout).
        #expect(!outcome.stdout.contains("total:"), "\(outcome.stdout)")
        let noVariant = await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/ts/master.m3u8", "--variant", "9"])
        #expect(noVariant.status == 1 && noVariant.stdout.isEmpty, "\(noVariant.stdout)")
    }

    /// A bandwidth below every variant falls back to the lowest, and says so (QA: silently), in
    /// `frames --bandwidth` and `play --max-bandwidth` alike.
    @Test func aBandwidthBelowEveryVariantIsWarned() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = server.url("/ts/master.m3u8")
        let frames = await CLI.run(CLI.playhead, ["frames", url, "--bandwidth", "1000", "--mode", "demux"])
        #expect(frames.status == 0 && frames.stderr.contains("is at most 1000 bit/s: reading the lowest, 510400 bit/s"), "\(frames.stderr)")
        let play = await CLI.run(CLI.playhead, ["play", url, "--max-bandwidth", "1000", "--mode", "demux", "--quiet", "--report", "/dev/null"])
        #expect(play.status == 0 && play.stderr.contains("no variant is at most 1000 bit/s: played the lowest, 510400 bit/s"), "\(play.stderr)")
    }

    /// An ABR maximum below every rung plays the lowest, as the PSDK's rule says, and says so as
    /// --max-bandwidth does (QA: silently).
    @Test func anABRMaximumBelowEveryRungIsWarned() async throws {
        let capped = await CLI.run(CLI.playhead, ["play", CLI.streams + "/ts/master.m3u8", "--max-bitrate", "100", "--mode", "demux",
                                                  "--duration", "6", "--quiet"])
        #expect(capped.status == 0, "\(capped.stderr)")
        #expect(capped.stderr.contains("warning: no rung is at most 100 bit/s (--max-bitrate): played the lowest, 510400 bit/s"), "\(capped.stderr)")
        let fits = await CLI.run(CLI.playhead, ["play", CLI.streams + "/ts/master.m3u8", "--max-bitrate", "600000", "--mode", "demux",
                                                "--duration", "6", "--quiet"])
        #expect(!fits.stderr.contains("no rung is at most"), "\(fits.stderr)")
    }

    @Test func badArgumentsExitTwo() async {
        #expect(await CLI.run(CLI.playhead, ["frames"]).status == 2)
        #expect(await CLI.run(CLI.playhead, ["frames", "x", "--variant", "1", "--bandwidth", "5"]).status == 2)
        // Demux mode hashes nothing: an empty framemd5 file with exit 0 passed for a result.
        let demux = await CLI.run(CLI.playhead, ["frames", "x", "--mode", "demux", "--framemd5", "-"])
        #expect(demux.status == 2 && demux.stderr.contains("--mode demux decodes none"), "\(demux.stderr)")
    }
}
