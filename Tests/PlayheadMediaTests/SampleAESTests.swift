import CFFmpeg
import Foundation
@testable import PlayheadMedia
import PlayheadTestFixtures
import Testing

/// The parts of SAMPLE-AES decryption that the end-to-end test (`PlayheadCLITests.SampleAESTests`) reaches
/// only through whole streams: emulation prevention, AC-3 frame sizes, packed audio.
@Suite struct SampleAESUnitTests {
    static let key: [UInt8] = Array(repeating: 0x2B, count: 16)
    static let iv: [UInt8] = (0..<16).map { UInt8($0) }

    /// Escaping then unescaping gives the bytes back, and an escaped unit holds no 00 00 00, 00 00 01 or 00 00 02.
    @Test func emulationPreventionRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...4, using: &generator) }
            let escaped = SampleAES.escape(bytes)
            #expect(SampleAES.unescape(escaped[...]) == bytes)
            for index in 0..<max(0, escaped.count - 2) where escaped[index] == 0 && escaped[index + 1] == 0 {
                #expect(escaped[index + 2] >= 3, "00 00 \(escaped[index + 2]) at \(index)")
            }
        }
    }

    /// A protected NAL unit decrypts to itself followed by zero bytes for the emulation prevention bytes the
    /// packager added; units of other types, or 48 bytes or shorter, are left alone.
    @Test func annexBDecryptsInPlace() throws {
        // A slice holding its own emulation prevention bytes (00 00 03 01): escaped again after encryption, it grows.
        let slice: [UInt8] = [0x65] + (1..<400).map { [0, 0, 3, 1, 0x80][$0 % 5] }
        let short: [UInt8] = [0x41] + Array(repeating: 7, count: 47)
        let sps: [UInt8] = [0x67] + Array(repeating: 9, count: 80)
        let stream = [0, 0, 0, 1] + sps + [0, 0, 1] + slice + [0, 0, 0, 1] + short
        let encrypted = try SampleAES.encryptAnnexB(stream, key: Self.key, iv: Self.iv)
        #expect(encrypted.count > stream.count)
        #expect(encrypted.suffix(short.count) == short[...])
        let decrypted = SampleAES.decryptAnnexB(encrypted, try Cipher(key: Self.key, iv: Self.iv, decrypting: true))
        let padding = encrypted.count - stream.count
        let expected = [0, 0, 0, 1] + sps + [0, 0, 1] + slice + Array(repeating: 0, count: padding) + [0, 0, 0, 1] + short
        #expect(decrypted == expected)
    }

    /// AC-3 (32, 44.1 and 48 kHz, several bitrates) and E-AC-3 frames from the ffmpeg CLI are walked frame by
    /// frame to the file's last byte.
    @Test(arguments: [("ac3", 32000, "64k"), ("ac3", 44100, "96k"), ("ac3", 44100, "448k"), ("ac3", 48000, "192k"), ("eac3", 48000, "96k")])
    func ac3FramesAreWalkedToTheEnd(codec: String, rate: Int, bitrate: String) throws {
        let path = NSTemporaryDirectory() + "playhead-ac3-\(UUID().uuidString).\(codec)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let encode = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=\(rate)",
                                                         "-t", "2", "-c:a", codec, "-b:a", bitrate, "-f", codec, path])
        #expect(encode.status == 0, "\(encode.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0, frames = 0
        while offset < bytes.count, let frame = PackedAudio.ac3Frame(bytes, at: offset), frame.length > 0 {
            offset += frame.length
            frames += 1
        }
        #expect(offset == bytes.count, "\(frames) frames reached byte \(offset) of \(bytes.count)")
        #expect(frames >= 2 * rate / 1536)
    }

    /// Packed audio: the ID3 tag in front is skipped and the ADTS frames behind it decrypt in place.
    @Test func packedAudioDecryptsAfterItsID3Tag() throws {
        let path = NSTemporaryDirectory() + "playhead-adts-\(UUID().uuidString).aac"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let encode = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
                                                         "-t", "1", "-c:a", "aac", "-f", "adts", path])
        #expect(encode.status == 0, "\(encode.stderr)")
        let frames = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let id3: [UInt8] = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5] + Array("PRIV\u{0}".utf8)
        let encrypted = id3 + (try SampleAES.encryptAudioFrames(frames, key: Self.key, iv: Self.iv))
        #expect(encrypted.dropFirst(id3.count).elementsEqual(frames) == false)
        var segment = encrypted
        try SampleAES.decrypt(&segment, key: Self.key, iv: Self.iv)
        #expect(segment == id3 + frames)
    }

    /// A SAMPLE-AES TS's PMT: the stream types marked as Apple's packagers write them become the clear ones
    /// again on decryption, the CRC written again (the PMT comes back byte for byte).
    @Test func streamTypesAndCRCComeBack() throws {
        let segment = try [UInt8](Data(contentsOf: Fixtures.streams.appendingPathComponent("ts/v0/seg000.ts")))
        var marked = segment
        SampleAES.markProtectedStreamTypes(&marked)
        #expect(marked != segment, "the PMT changed")
        var restored = marked
        TransportStreamSamples.rewrite(&restored) { _, _ in }
        #expect(restored == segment)
    }

    /// Damaged segments (bytes overwritten at random in a TS segment and in packed audio, cut at random) are
    /// decrypted without a trap: what does not read is left for the demuxer.
    @Test func damagedSegmentsDoNotTrap() throws {
        let segment = try [UInt8](Data(contentsOf: Fixtures.streams.appendingPathComponent("ts/v0/seg000.ts")))
        let audio: [UInt8] = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 0xFF, 0xF1, 0x50, 0x80] + Array(repeating: 0xFF, count: 200)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<120 {
            var damaged = round % 2 == 0 ? segment : audio
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 3 == 0 { damaged.removeLast(Int.random(in: 0..<damaged.count - 20, using: &generator)) }
            do { try SampleAES.decrypt(&damaged, key: Self.key, iv: Self.iv) } catch {}
        }
        var noise = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        noise[0] = 0x47
        noise[188] = 0x47
        try SampleAES.decrypt(&noise, key: Self.key, iv: Self.iv)
    }
}

/// Packed audio read by the right demuxer, and audio of any channel count hashed without a trap.
@Suite struct PackedAudioReadingTests {
    /// A packed AC-3 segment (ID3 tag, AC-3 frames) of 2 s, 48 kHz.
    static func packedAC3() throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "playhead-packed-ac3-\(UUID().uuidString).ac3"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let encode = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
                                                         "-t", "2", "-c:a", "ac3", "-b:a", "96k", "-f", "ac3", path])
        #expect(encode.status == 0, "\(encode.stderr)")
        return PackedAudioMaker.tag(ticks: 90_000) + [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func anID3TagInFrontOfAC3IsReadAsAC3() throws {
        let segment = try Self.packedAC3()
        #expect(ContainerFormat.sniff(segment) == .ac3)
        var options = RenditionDecoderOptions()
        options.hashFrames = true
        var frames = 0
        let report = try RenditionDecoder(options: options).decodeSegment(segment) { _ in frames += 1 }
        #expect(frames == 63 && report.damage.isEmpty, "\(frames) frames, \(report.damage)")
    }

    /// A planar audio frame of 16 channels is hashed from all its planes: its ninth and later are only in
    /// `extended_data`, and reading them from `data` gave libswresample line sizes as pointers (a crash, on AC-3
    /// read as AAC, QA35). Each plane's samples differ, so the hash of the interleaved s16 is checked by hand.
    @Test func aFrameOfSixteenChannelsIsHashedFromEveryPlane() throws {
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let f = try #require(frame)
        av_channel_layout_default(&f.pointee.ch_layout, 16)
        f.pointee.format = AV_SAMPLE_FMT_S16P.rawValue
        f.pointee.sample_rate = 48_000
        f.pointee.nb_samples = 4
        #expect(av_frame_get_buffer(f, 0) >= 0)
        var interleaved: [UInt8] = []
        for sample in 0..<4 {
            for channel in 0..<16 {
                let value = Int16(channel * 100 + sample)
                f.pointee.extended_data[channel]!.withMemoryRebound(to: Int16.self, capacity: 4) { $0[sample] = value }
                interleaved += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
            }
        }
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_sum(&digest, interleaved, interleaved.count)
        let hashed = FrameHasher().hashAudio(f)
        #expect(hashed?.size == 4 * 16 * 2)
        #expect(hashed?.md5 == hex(digest))
    }
}
