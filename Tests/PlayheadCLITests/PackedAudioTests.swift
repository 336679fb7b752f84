import Foundation
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Packed audio renditions (RFC 8216bis section 3.4: an ID3 tag with the segment's start, then ADTS AAC, AC-3
/// or E-AC-3 frames), clear and SAMPLE-AES: every frame decoded as FFmpeg decodes it, timed by the ID3 tags
/// (the raw audio demuxers start each segment at 0: `play` presented the first 4 s of 30 and called it complete),
/// and AC-3 read as AC-3 (the tag in front made it read as AAC, and the process crashed in libswresample).
@Suite struct PackedAudioTests {
    static let key: [UInt8] = (0..<16).map { UInt8($0 * 11 + 1) }
    static let iv: [UInt8] = (0..<16).map { UInt8(0x80 | $0) }

    /// A folder with `clear/index.m3u8` and `enc/index.m3u8` (SAMPLE-AES, key and IV in the playlist): 8 s of
    /// `codec` (aac, ac3 or eac3; 48 kHz) in 2 s packed audio segments, an ID3 tag mid-segment with `midTag`;
    /// and `plain/index.m3u8`, clear without that tag. The first segment starts at `startTicks` (90 kHz);
    /// `change` may alter the segments of `clear` and `enc` before they are written.
    static func makeRendition(_ codec: String, midTag: Bool = false, startTicks: Int64 = 126_000,
                              change: (inout [[UInt8]]) -> Void = { _ in }) async throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-packed-\(UUID().uuidString)"
        for sub in ["clear", "enc", "plain"] { try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true) }
        let raw = folder + "/audio.raw"
        let encode = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000", "-t", "8",
                                              "-c:a", codec, "-b:a", "96k", "-f", codec == "aac" ? "adts" : codec, raw])
        #expect(encode.status == 0, "\(encode.stderr)")
        let stream = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        let encrypted = try SampleAES.encryptAudioFrames(stream, key: key, iv: iv)
        let samples = codec == "aac" ? 1024 : 1536
        let perSegment = 2 * 48_000 / samples
        let ext = codec == "aac" ? "aac" : codec
        let hexIV = iv.map { String(format: "%02x", $0) }.joined()
        for (sub, bytes) in [("clear", stream), ("enc", encrypted), ("plain", stream)] {
            var segments = PackedAudioMaker.segments(PackedAudioMaker.frames(bytes), framesPerSegment: perSegment, samplesPerFrame: samples,
                                                     sampleRate: 48_000, startTicks: startTicks, midTag: midTag && sub != "plain")
            if sub != "plain" { change(&segments) }
            var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            if sub == "enc" { playlist += "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key.bin\",IV=0x\(hexIV)\n" }
            for (index, segment) in segments.enumerated() {
                try Data(segment).write(to: URL(fileURLWithPath: "\(folder)/\(sub)/s\(index).\(ext)"))
                playlist += "#EXTINF:\(Double(perSegment * samples) / 48_000),\ns\(index).\(ext)\n"
            }
            try (playlist + "#EXT-X-ENDLIST\n").write(toFile: "\(folder)/\(sub)/index.m3u8", atomically: true, encoding: .utf8)
        }
        try Data(key).write(to: URL(fileURLWithPath: folder + "/enc/key.bin"))
        return folder
    }

    /// framemd5 lines without the header.
    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") } }

    /// Runs `playhead frames` on the audio of `clear` and `enc` and expects `expected`: its framemd5 lines, or
    /// their hash column alone with `hashesOnly`. Returns our lines of each.
    @discardableResult
    static func expectFrames(_ server: LoopbackHTTPServer, _ expected: [String], hashesOnly: Bool = false, _ label: String) async -> [[String]] {
        var all: [[String]] = []
        for sub in ["clear", "enc"] {
            let ours = await CLI.run(CLI.playhead, ["frames", server.url("/\(sub)/index.m3u8"), "--stream", "audio", "--framemd5", "-"])
            #expect(ours.status == 0, "\(ours.stderr)")
            let got = hashesOnly ? CLI.hashes(ours.stdout) : lines(ours.stdout)
            let differing = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(got.count == expected.count && differing.isEmpty,
                    "\(label), \(sub): \(got.count) frames against \(expected.count), differing at \(differing.prefix(5)); \(ours.stderr)")
            all.append(lines(ours.stdout))
        }
        return all
    }

    /// AAC: every line of the framemd5 (timestamps too) equals FFmpeg's, clear and encrypted, with an ID3 tag
    /// between frames or not; `play` presents all of it, to the end.
    @Test(arguments: [false, true])
    func aacIsTimedByItsTagsAndDecodedAsFFmpegDoes(midTag: Bool) async throws {
        let folder = try await Self.makeRendition("aac", midTag: midTag)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/clear/index.m3u8"), "-map", "0:a", "-f", "framemd5", "-"])
        let expected = Self.lines(reference.stdout)
        #expect(expected.count >= 370, "\(reference.stderr)")
        await Self.expectFrames(server, expected, "AAC")
        let report = folder + "/report.json"
        let play = await CLI.run(CLI.playhead, ["play", server.url("/enc/index.m3u8"), "--strict", "--quiet", "--report", report])
        #expect(play.status == 0, "\(play.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let framesPresented = json["framesPresented"] as? [String: Any]
        let presented = framesPresented?["audio"] as? Int
        #expect(presented == expected.count, "\(String(describing: framesPresented))")
        let position: Double = json["positionSeconds"] as? Double ?? 0
        #expect(position > 7.9, "played to \(position) s")
    }

    /// AC-3 and E-AC-3: decoded (the process crashed) to FFmpeg's frames, clear and encrypted; each segment's
    /// first frame where its ID3 tag puts it. Compared with FFmpeg's hashes of the rendition without a tag
    /// between frames: FFmpeg 5.1's HLS demuxer loses the AC-3 frame next to such a tag, and puts each AC-3
    /// segment after the first one frame later than its tag says.
    @Test(arguments: ["ac3", "eac3"])
    func ac3IsReadAsAC3(codec: String) async throws {
        let folder = try await Self.makeRendition(codec, midTag: codec == "eac3")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let expected = await ChildProcess.ffmpegHashes(server.url("/plain/index.m3u8"), map: "0:a")
        #expect(expected.count >= 245)
        for lines in await Self.expectFrames(server, expected, hashesOnly: true, codec) {
            // 62 frames a segment (2 s at 1536 samples): segment n starts at 62 × n × 1536 samples.
            var starts: [String] = []
            for index in stride(from: 0, to: lines.count, by: 62) {
                starts.append(lines[index].split(separator: ",")[1].trimmingCharacters(in: .whitespaces))
            }
            let due: [String] = (0..<starts.count).map { String(62 * $0 * 1536) }
            #expect(starts == due, "\(starts)")
        }
    }

    /// Timing that the tags do not give plainly, line for line as FFmpeg's (timestamps and hashes): a rendition
    /// across the 33-bit wrap (its first tag 6 s before it: the frames after it were 2^33 ticks early, and an
    /// alternate audio rendition lost them); a segment whose tag has no timestamp (it started again at 0);
    /// a segment whose tag header is damaged (every frame of it came out at one time, or none came out).
    @Test(arguments: ["wrap", "untagged", "damaged tag"])
    func timingEqualsFFmpegs(kind: String) async throws {
        let folder = try await Self.makeRendition("aac", startTicks: kind == "wrap" ? (1 << 33) - 6 * 90_000 : 126_000) { segments in
            guard kind != "wrap" else { return }
            let tag = PackedAudioMaker.tag(ticks: 0)
            #expect(segments[1].starts(with: tag.prefix(3)))
            if kind == "untagged" {
                segments[1].replaceSubrange(0..<tag.count, with: PackedAudioMaker.tag(text: "no timestamp here"))
            } else {
                segments[1].replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
            }
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/plain/index.m3u8"), "-map", "0:a", "-f", "framemd5", "-"])
        var expected = Self.lines(reference.stdout)
        #expect(expected.count >= 370, "\(reference.stderr)")
        if kind == "wrap" {
            // FFmpeg's continuous HLS demuxer runs on across the wrap; the clear rendition is what ours is compared with.
            let direct = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", server.url("/clear/index.m3u8"), "-map", "0:a", "-f", "framemd5", "-"])
            expected = Self.lines(direct.stdout)
        }
        await Self.expectFrames(server, expected, kind)
    }
}
