import Foundation
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// METHOD=SAMPLE-AES (identity key) in MPEG-TS: the frames `playhead frames` decodes from an encrypted
/// rendition are, hash for hash, the ones FFmpeg decodes from the same rendition in the clear. The rendition
/// is made at test time: H.264 (no B-frames: a raw stream carries no timestamps to remux them by) and AAC
/// elementary streams from the ffmpeg CLI, their samples encrypted by ``SampleAES``'s packager side, muxed
/// into 4 s TS segments by the ffmpeg CLI, once encrypted and once clear.
@Suite struct SampleAESTests {
    static let key: [UInt8] = (0..<16).map { UInt8($0 * 7 + 3) }
    static let iv: [UInt8] = (0..<16).map { UInt8(0xF0 - $0) }

    /// A folder with `clear/index.m3u8` and `enc/index.m3u8` (SAMPLE-AES, `key.bin`, the IV in the playlist),
    /// its audio in `audioCodec` (aac, ac3 at 44.1 kHz, eac3); with `appleStreamTypes`, the PMT's stream types
    /// are the SAMPLE-AES ones (0xDB, 0xCF, 0xC1, 0xC2).
    static func makeStream(audioCodec: String = "aac", appleStreamTypes: Bool = false) async throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-sample-aes-\(UUID().uuidString)"
        for sub in ["clear", "enc"] { try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true) }
        let encode = await CLI.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
            "-t", "8", "-map", "0:v", "-c:v", "libx264", "-bf", "0", "-g", "60", "-pix_fmt", "yuv420p", "-f", "h264", folder + "/v.h264",
            "-t", "8", "-map", "1:a", "-c:a", audioCodec, "-b:a", "96k"] + (audioCodec == "ac3" ? ["-ar", "44100"] : []) + [
            "-f", audioCodec == "aac" ? "adts" : audioCodec, folder + "/a.aac",
        ])
        #expect(encode.status == 0, "\(encode.stderr)")
        let video = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/v.h264")))
        let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/a.aac")))
        try Data(try SampleAES.encryptAnnexB(video, key: key, iv: iv)).write(to: URL(fileURLWithPath: folder + "/v.enc.h264"))
        try Data(try SampleAES.encryptAudioFrames(audio, key: key, iv: iv)).write(to: URL(fileURLWithPath: folder + "/a.enc.aac"))
        for (sub, suffix) in [("clear", ""), ("enc", ".enc")] {
            let mux = await CLI.run("ffmpeg", [
                "-nostdin", "-loglevel", "error", "-r", "30", "-i", folder + "/v\(suffix).h264",
                // Named: encrypted AC-3 frames fail their CRC, and the probe would not take them for AC-3.
                "-f", audioCodec == "aac" ? "aac" : audioCodec, "-i", folder + "/a\(suffix).aac",
                "-c", "copy", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_filename", folder + "/\(sub)/s%d.ts", folder + "/\(sub)/index.m3u8",
            ])
            #expect(mux.status == 0, "\(mux.stderr)")
        }
        try Data(key).write(to: URL(fileURLWithPath: folder + "/enc/key.bin"))
        let ivAttribute = ",IV=0x" + iv.map { String(format: "%02x", $0) }.joined()
        let playlist = try String(contentsOfFile: folder + "/enc/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE", with: "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key.bin\"\(ivAttribute)\n#EXT-X-MEDIA-SEQUENCE")
        try playlist.write(toFile: folder + "/enc/index.m3u8", atomically: true, encoding: .utf8)
        if appleStreamTypes {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/enc") where name.hasSuffix(".ts") {
                let url = URL(fileURLWithPath: folder + "/enc/" + name)
                var segment = try [UInt8](Data(contentsOf: url))
                SampleAES.markProtectedStreamTypes(&segment)
                try Data(segment).write(to: url)
            }
        }
        return folder
    }

    /// AAC with the stream types ffmpeg writes (0x1B, 0x0F) and with Apple's SAMPLE-AES ones (0xDB, 0xCF); AC-3
    /// and E-AC-3 audio.
    @Test(arguments: [("aac", false), ("aac", true), ("ac3", false), ("eac3", true)])
    func framesEqualFFmpegsOfTheClearRendition(audioCodec: String, appleStreamTypes: Bool) async throws {
        let folder = try await Self.makeStream(audioCodec: audioCodec, appleStreamTypes: appleStreamTypes)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        for (stream, map, count) in [("video", "0:v", 240), ("audio", "0:a", audioCodec == "aac" ? 370 : 225)] {
            let expected = await ChildProcess.ffmpegHashes(server.url("/clear/index.m3u8"), map: map)
            #expect(expected.count >= count, "the reference decoded the whole clear rendition: \(expected.count) frames")
            let ours = await CLI.run(CLI.playhead, ["frames", server.url("/enc/index.m3u8"), "--stream", stream, "--framemd5", "-"])
            #expect(ours.status == 0, "\(ours.stderr)")
            let hashes = CLI.hashes(ours.stdout)
            let differing = zip(hashes, expected).filter { $0 != $1 }.count
            #expect(hashes.count == expected.count && differing == 0,
                    "\(stream): \(hashes.count) frames against \(expected.count), \(differing) differ; \(ours.stderr)")
            // The packager side is checked against FFmpeg's own SAMPLE-AES decryption (its HLS demuxer): the same
            // frames, but for those of the stream's last packet, which FFmpeg 5.1 leaves encrypted (the TS demuxer
            // hands it out only after the last segment is left behind): the last two video frames, the last AC-3
            // frame.
            let theirs = await ChildProcess.ffmpegHashes(server.url("/enc/index.m3u8"), map: map)
            let theirDifferences = zip(theirs, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(theirs.count == expected.count && theirDifferences.allSatisfy { $0 >= expected.count - 2 },
                    "FFmpeg's decryption differs at frames \(theirDifferences) of \(expected.count)")
            // Still encrypted on the wire: read as clear, its slices do not decode to these frames.
            if stream == "video" {
                let clearReading = await ChildProcess.ffmpegHashes(folder + "/enc/s0.ts", map: map)
                #expect(!clearReading.isEmpty && clearReading != Array(expected.prefix(clearReading.count)), "the segment is encrypted")
            }
        }
        let play = await CLI.run(CLI.playhead, ["play", server.url("/enc/index.m3u8"), "--strict"])
        #expect(play.status == 0, "no damage: \(play.stdout) \(play.stderr)")
    }

    /// A FairPlay key (KEYFORMAT com.apple.streamingkeydelivery) cannot be had: exit 1 naming the method, the
    /// key format and what is supported.
    @Test func aFairPlayKeyIsRefusedByName() async throws {
        let folder = try await Self.makeStream()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/enc/index.m3u8"
        let playlist = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"skd://key42\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"")
        try playlist.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = await CLI.run(CLI.playhead, ["frames", path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("METHOD=SAMPLE-AES with KEYFORMAT \"com.apple.streamingkeydelivery\" (a DRM system's key"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("s0.ts"), "names the segment: \(outcome.stderr)")
    }

    /// A wrong key decodes to damage (SAMPLE-AES has no padding to fail on): `frames` says that this is what a
    /// wrong key or IV gives, after the damage.
    @Test func aWrongKeyIsHintedAtAfterTheDamage() async throws {
        let folder = try await Self.makeStream()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.key.map { $0 ^ 0x5A }).write(to: URL(fileURLWithPath: folder + "/enc/key.bin"))
        let outcome = await CLI.run(CLI.playhead, ["frames", folder + "/enc/index.m3u8"])
        #expect(outcome.stderr.contains("damage"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is SAMPLE-AES: damage in its frames is what a wrong key or IV gives too"), "\(outcome.stderr)")
        let report = folder + "/report.json"
        let play = await CLI.run(CLI.playhead, ["play", folder + "/enc/index.m3u8", "--report", report])
        #expect((play.stdout + play.stderr).contains("note: the content is SAMPLE-AES: damage is what a wrong key or IV gives too"), "\(play.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["encryption"] as? [String] == ["SAMPLE-AES"], "\(json["encryption"] ?? "none")")
        try Data(Self.key).write(to: URL(fileURLWithPath: folder + "/enc/key.bin"))
        let right = await CLI.run(CLI.playhead, ["frames", folder + "/enc/index.m3u8"])
        #expect(right.status == 0 && !right.stderr.contains("wrong key"), "no damage, no note: \(right.stderr)")
    }

    /// SAMPLE-AES over fMP4 (cbcs) is refused by name rather than decoded as garbage.
    @Test func sampleAESInFragmentedMP4IsRefused() async throws {
        let folder = NSTemporaryDirectory() + "playhead-sample-aes-fmp4-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.key).write(to: URL(fileURLWithPath: folder + "/key.bin"))
        let source = CLI.streams + "/fmp4/v0"
        let clear = try String(contentsOfFile: source + "/index.m3u8", encoding: .utf8)
        let playlist = clear
            .replacingOccurrences(of: "#EXT-X-MAP:URI=\"", with: "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"file://\(folder)/key.bin\"\n#EXT-X-MAP:URI=\"\(source)/")
            .split(separator: "\n").map { $0.hasSuffix(".m4s") ? "\(source)/\($0)" : String($0) }.joined(separator: "\n")
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let outcome = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("SAMPLE-AES in fragmented MP4 (cbcs"), "\(outcome.stderr)")
    }
}
