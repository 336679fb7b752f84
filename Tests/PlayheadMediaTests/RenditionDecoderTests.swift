import Foundation
import PlayheadTestFixtures
import Testing
@testable import PlayheadMedia

@Suite struct RenditionDecoderTests {
    /// Decodes the segments of `rendition` from disk and returns video hashes and the frame list.
    func decode(_ rendition: String, initSection: String? = nil, kinds: Set<MediaKind> = [.video]) throws -> [DecodedFrame] {
        let playlist = Fixtures.streams.appendingPathComponent(rendition)
        var options = RenditionDecoderOptions()
        options.hashFrames = true
        options.kinds = kinds
        let decoder = RenditionDecoder(options: options)
        let initBytes = try initSection.map { [UInt8](try Data(contentsOf: playlist.deletingLastPathComponent().appendingPathComponent($0))) } ?? []
        var frames: [DecodedFrame] = []
        for file in try Fixtures.segmentFiles(playlist) {
            let bytes = initBytes + [UInt8](try Data(contentsOf: file))
            let report = try decoder.decodeSegment(bytes) { frames.append($0) }
            #expect(report.damage.isEmpty, "\(file.lastPathComponent): \(report.damage)")
        }
        decoder.finish { frames.append($0) }
        return frames
    }

    @Test(arguments: ["ts/v0/index.m3u8", "fps25/index.m3u8", "fps2997/index.m3u8"])
    func tsVideoHashesEqualFFmpeg(rendition: String) throws {
        let frames = try decode(rendition)
        let reference = Fixtures.ffmpegHashes(Fixtures.streams.appendingPathComponent(rendition).path)
        #expect(reference.count >= 750)
        #expect(frames.map { $0.md5 ?? "" } == reference)
    }

    @Test func fmp4VideoHashesEqualFFmpeg() throws {
        let frames = try decode("fmp4/v0/index.m3u8", initSection: "init.mp4")
        let reference = Fixtures.ffmpegHashes(Fixtures.streams.appendingPathComponent("fmp4/v0/index.m3u8").path)
        #expect(reference.count == 900)
        #expect(frames.map { $0.md5 ?? "" } == reference)
    }

    /// An fMP4 segment (video and audio) cut to two thirds of its bytes, its trun listing samples past its end: the
    /// video frames are FFmpeg's decode of the same bytes, and the cut is said. The mov demuxer retried the first
    /// sample past the end for ever (the memory input refused to seek there), and every frame after it was lost.
    /// With frame threads (`threads` 0: FFmpeg chooses), the drain after the cut's damaged packet read past the
    /// error it met and still handed out the frames after it (it stopped there: 2 frames fewer, QA42 #6).
    @Test(arguments: [1, 0])
    func aCutFMP4SegmentDecodesAsFFmpegDecodesIt(threads: Int) throws {
        let folder = Fixtures.streams.appendingPathComponent("cues/fmp4")
        let media = [UInt8](try Data(contentsOf: folder.appendingPathComponent("seg002.m4s")))
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("init.mp4"))) + media.prefix(media.count * 2 / 3)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).mp4")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var options = RenditionDecoderOptions()
        options.hashFrames = true
        options.kinds = [.video, .audio]
        options.threads = threads
        let decoder = RenditionDecoder(options: options)
        var frames: [DecodedFrame] = []
        let report = try decoder.decodeSegment(bytes) { frames.append($0) }
        decoder.finish { frames.append($0) }
        let reference = Fixtures.ffmpegHashes(file.path)
        #expect(reference.count > 30 && reference.count < 60, "\(reference.count)")
        let video = frames.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        #expect(video == reference, "\(video.count) frames, FFmpeg \(reference.count); missing at \(reference.indices.filter { !video.contains(reference[$0]) })")
        #expect(!report.damage.isEmpty)
    }

    @Test func audioHashesEqualFFmpeg() throws {
        let frames = try decode("ts/v0/index.m3u8", kinds: [.audio])
        let reference = Fixtures.ffmpegHashes(Fixtures.streams.appendingPathComponent("ts/v0/index.m3u8").path, map: "0:a")
        #expect(reference.count > 1000)
        #expect(frames.map { $0.md5 ?? "" } == reference)
    }
}

@Suite struct SegmentRobustnessTests {
    init() { MediaLog.level = .quiet }

    @Test func aes128SegmentsDecryptToTheSameFramesAsFFmpeg() throws {
        let playlist = Fixtures.streams.appendingPathComponent("aes/index.m3u8")
        let key = [UInt8](try Data(contentsOf: playlist.deletingLastPathComponent().appendingPathComponent("key.bin")))
        let iv = (0..<16).map { UInt8(15 - $0) }  // the IV the generator wrote: 0x0f0e…00
        var options = RenditionDecoderOptions()
        options.hashFrames = true
        options.kinds = [.video]
        let decoder = RenditionDecoder(options: options)
        var hashes: [String] = []
        for file in try Fixtures.segmentFiles(playlist) {
            let plain = try AES128.decrypt([UInt8](try Data(contentsOf: file)), key: key, iv: iv)
            _ = try decoder.decodeSegment(plain) { hashes.append($0.md5!) }
        }
        decoder.finish { hashes.append($0.md5!) }
        // ffmpeg refuses a local key file with a .bin extension unless told otherwise.
        #expect(hashes == Fixtures.ffmpegHashes(playlist.path, inputOptions: ["-allowed_extensions", "ALL"]))
    }

    @Test func wrongKeyIsReportedNotCrashed() throws {
        let file = try Fixtures.segmentFiles(Fixtures.streams.appendingPathComponent("aes/index.m3u8"))[0]
        #expect(throws: MediaError.self) {
            _ = try AES128.decrypt([UInt8](try Data(contentsOf: file)), key: [UInt8](repeating: 7, count: 16), iv: AES128.iv(mediaSequence: 0))
        }
        #expect(AES128.iv(mediaSequence: 0x0102) == [UInt8](repeating: 0, count: 14) + [1, 2])
    }

    @Test func flippedBytesDecodeWhatCanBeAndReportDamage() throws {
        let file = try Fixtures.segmentFiles(Fixtures.streams.appendingPathComponent("ts/v1/index.m3u8"))[1]
        var bytes = [UInt8](try Data(contentsOf: file))
        var rng = SplitMix64(seed: 42)
        for _ in 0..<400 {
            let at = Int(rng.next() % UInt64(bytes.count))
            bytes[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
        }
        var options = RenditionDecoderOptions()
        options.hashFrames = true
        let decoder = RenditionDecoder(options: options)
        var frames = 0
        var report = try decoder.decodeSegment(bytes) { _ in frames += 1 }
        decoder.finish { _ in frames += 1 }
        report.frames = frames
        #expect(frames > 60, "most of a 4 s segment still decodes")
        #expect(!report.damage.isEmpty, "damage is reported")
    }

    @Test func randomBytesAreATypedErrorOrDamageNeverACrash() {
        var rng = SplitMix64(seed: 7)
        let garbage = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let decoder = RenditionDecoder()
        do {
            let report = try decoder.decodeSegment(garbage) { _ in }
            #expect(report.frames == 0)
        } catch {
            #expect(error.description.contains("100000 bytes"))
        }
    }
}

/// A small deterministic generator for test data.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct CorruptionStressTests {
    init() { MediaLog.level = .quiet }

    /// Damage of every kind (flipped bytes at many seeds, in TS and fMP4) is reported, never a crash:
    /// MPEG-TS may even discover new streams in the noise mid-segment.
    @Test(arguments: ["ts/v0/index.m3u8", "fmp4/v0/index.m3u8"])
    func manyRandomCorruptionsNeverCrash(rendition: String) throws {
        let playlist = Fixtures.streams.appendingPathComponent(rendition)
        let files = try Fixtures.segmentFiles(playlist)
        let initBytes = rendition.hasPrefix("fmp4") ? [UInt8](try Data(contentsOf: playlist.deletingLastPathComponent().appendingPathComponent("init.mp4"))) : []
        let original = [UInt8](try Data(contentsOf: files[1]))
        var rng = SplitMix64(seed: 2026)
        var damaged = 0
        for round in 0..<24 {
            var bytes = original
            let flips = [10, 100, 1000, 5000][round % 4]
            for _ in 0..<flips {
                let at = Int(rng.next() % UInt64(bytes.count))
                bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            let decoder = RenditionDecoder()
            do {
                let report = try decoder.decodeSegment(initBytes + bytes) { _ in }
                decoder.finish { _ in }
                if !report.damage.isEmpty { damaged += 1 }
            } catch {
                damaged += 1
            }
        }
        #expect(damaged >= 12, "damage is noticed")
    }
}

/// What libavformat's probe accepts but no HLS segment is.
@Suite struct NotASegmentTests {
    init() { MediaLog.level = .quiet }

    /// A PNG (an origin's error image) used to open as `png_pipe` and play as one video frame; it is now
    /// a typed error, and the rendition's codec probe waits for the next segment (before, that segment's
    /// AAC went unprobed and most of its frames had no timestamp).
    @Test func anImageIsNotASegmentAndLeavesTheProbeToTheNextSegment() throws {
        let png = NSTemporaryDirectory() + "playhead-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        let made = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64",
                                                       "-frames:v", "1", png])
        try #require(made.status == 0)
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        let segment = Array(try Data(contentsOf: Fixtures.streams.appendingPathComponent("ts/v0/seg000.ts")))
        var options = RenditionDecoderOptions()
        options.kinds = [.audio]
        let timed = { (decoder: RenditionDecoder) throws -> Int in
            var count = 0
            _ = try decoder.decodeSegment(segment) { if $0.ptsSeconds != nil { count += 1 } }
            return count
        }
        let decoder = RenditionDecoder(options: options)
        #expect(throws: MediaError.notASegment(format: "png_pipe", byteCount: image.count)) { try decoder.demux(image) }
        let expected = try timed(RenditionDecoder(options: options))
        #expect(expected > 150)
        #expect(try timed(decoder) == expected)
    }
}

/// An fMP4 media segment given without its initialization section.
@Suite struct MissingInitSectionTests {
    init() { MediaLog.level = .quiet }

    /// An init section on its own: whole, cut short inside its moov box (a BYTERANGE too short), without a moov.
    @Test func anInitSectionCutShortOrWithoutMoovIsNamed() throws {
        let folder = Fixtures.streams.appendingPathComponent("fmp4/v0")
        let initSection = Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
        #expect(ContainerFormat.initializationProblem(initSection) == nil)
        let cut = try #require(ContainerFormat.initializationProblem(Array(initSection.prefix(500))))
        let moovAt = initSection[0..<4].reduce(0) { $0 << 8 | Int($1) }  // after the ftyp box
        #expect(cut.hasPrefix("its moov box at byte \(moovAt) is ") && cut.contains("the section ends \(500 - moovAt) bytes into it (cut short"), "\(cut)")
        let ftypOnly = Array(initSection.prefix(moovAt))
        #expect(ContainerFormat.initializationProblem(ftypOnly) == "it has no moov box (its boxes: ftyp)")
        let ts = Array(try Data(contentsOf: Fixtures.streams.appendingPathComponent("ts/v0/seg000.ts")).prefix(1880))
        #expect(ContainerFormat.initializationProblem(ts) == nil, "a TS init section is not judged")
        // A BYTERANGE that starts inside the moov box (QA32: blamed on every segment as "cannot open").
        let middle = try #require(ContainerFormat.initializationProblem(Array(initSection[1000..<1300])))
        #expect(middle.hasPrefix("it begins with neither a top-level ISO BMFF box (ftyp, moov, …) nor an MPEG-TS packet (300 bytes, starting "), "\(middle)")
    }

    @Test func theErrorSaysTheInitializationSectionIsMissing() throws {
        let folder = Fixtures.streams.appendingPathComponent("fmp4/v0")
        let media = Array(try Data(contentsOf: folder.appendingPathComponent("seg000.m4s")))
        let initSection = Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
        #expect(ContainerFormat.topLevelBoxes(initSection).starts(with: ["ftyp", "moov"]))
        #expect(!ContainerFormat.topLevelBoxes(media).contains("moov") && ContainerFormat.topLevelBoxes(media).contains("moof"))
        do {
            _ = try RenditionDecoder().demux(media)
            Issue.record("a media segment without its init section opened")
        } catch {
            #expect(error.description.contains("without a whole initialization section") && error.description.contains("EXT-X-MAP"),
                    "\(error.description)")
        }
        // An init section cut short (an EXT-X-MAP BYTERANGE too small) is named as such, not as a missing
        // EXT-X-MAP (QA: "the playlist needs EXT-X-MAP" for a playlist that has one).
        do {
            _ = try RenditionDecoder().demux(Array(initSection.prefix(10)) + media)
            Issue.record("a media segment with 10 bytes of its init section opened")
        } catch {
            #expect(error.description.contains("whose BYTERANGE, if any, covers the moov box"), "\(error.description)")
        }
        // With the init section in front it opens.
        #expect(try RenditionDecoder().demux(initSection + media).packets.count > 100)
    }
}
