import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Thumbnails over HTTP on 127.0.0.1 (the test origin, Range support and all), every picture checked
/// against the ffmpeg CLI's decode of the same media.
@Suite struct ThumbnailSourceTests {
    static let streams = TestRepository.streams

    init() { MediaLog.level = .quiet }

    /// framemd5 hashes of the video of `input`, in presentation order.
    static func ffmpegHashes(_ input: String, filters: String? = nil, rgb: Bool = false) async -> [String] {
        let outcome = await ChildProcess.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", input, "-map", "0:v"]
            + (filters.map { ["-vf", $0] } ?? []) + (rgb ? ["-pix_fmt", "rgb24"] : []) + ["-f", "framemd5", "-"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return ChildProcess.framemd5Hashes(outcome.stdout)
    }

    /// The keyframes make-test-streams listed for rung `rung`: time on the timeline, segment file, byte range.
    static func keyframes(rung: Int) throws -> [(time: Double, segment: String, range: String)] {
        try String(contentsOfFile: "\(streams)/thumbs/ts/keyframes\(rung).txt", encoding: .utf8).split(separator: "\n").map {
            let parts = $0.split(separator: " ")
            return (Double(parts[0])!, String(parts[1]), String(parts[2]))
        }
    }

    static func make(_ url: String, at time: Double, vtt: String? = nil, source: ThumbnailSourceKind? = nil,
                     width: Int? = nil) async throws(ThumbnailError) -> Thumbnail {
        let client = HTTPClient()
        defer { client.shutdown() }
        let maker = ThumbnailMaker(client: client)
        let sources = try await maker.sources(of: url, trackURL: vtt, width: width)
        return try await maker.thumbnail(at: time, from: sources, source: source, width: width)
    }

    /// The keyframe decoded from its I-frame byte range is the very frame ffmpeg decodes at that place of
    /// the whole segment (30 fps: frame (keyframe time − segment start) × 30 of the segment).
    @Test(arguments: [(0.0, 0), (3.0, 0), (7.0, 0), (13.99, 0), (29.5, 0), (30.0, 0), (7.0, 1), (22.0, 1)])
    func anIFrameByteRangeDecodesToFFmpegsKeyframe(time: Double, rung: Int) async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let thumbnail = try await Self.make(server.url("/thumbs/ts/iframes\(rung).m3u8"), at: time)
        let keyframe = try #require(try Self.keyframes(rung: rung).last { $0.time <= time + 1e-9 })
        #expect(thumbnail.source == .iframe)
        #expect(abs(thumbnail.entryStart - keyframe.time) < 1e-6)
        #expect(thumbnail.resourceURL == server.url("/ts/v\(rung)/\(keyframe.segment)"))
        #expect(thumbnail.byteRange.map { "\($0.length)@\($0.offset)" } == keyframe.range)
        let segmentIndex = Int(keyframe.segment.dropFirst(3).prefix(3))!
        let hashes = await Self.ffmpegHashes("\(Self.streams)/ts/v\(rung)/\(keyframe.segment)")
        let frame = Int(((keyframe.time - Double(segmentIndex) * 4) * 30).rounded())
        #expect(thumbnail.md5 == hashes[frame], "frame \(frame) of \(keyframe.segment)")
        #expect(thumbnail.image.width == (rung == 0 ? 416 : 640))
        // The I-frame range was asked for as a range, and the origin answered 206.
        let request = try #require(server.requestLog.last { $0.path == "/ts/v\(rung)/\(keyframe.segment)" })
        #expect(request.rangeHeader != nil && request.status == 206)
    }

    /// A server without Range support answers 200 with the whole segment: the range is cut out of it and
    /// the picture is the same.
    @Test func aServerWithoutRangeSupportGivesTheSamePicture() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let ranged = try await Self.make(server.url("/thumbs/master.m3u8"), at: 7)
        server.setFault(.ignoreRange, forPath: "/ts/v0/seg001.ts")
        let whole = try await Self.make(server.url("/thumbs/master.m3u8"), at: 7)
        #expect(whole.md5 == ranged.md5)
        #expect(whole.image == ranged.image)
        #expect(whole.byteRange == ranged.byteRange && whole.byteRange != nil)
        let last = try #require(server.requestLog.last { $0.path == "/ts/v0/seg001.ts" })
        #expect(last.status == 200 && last.rangeHeader != nil)
    }

    /// `width` picks the I-frame variant closest to it and scales to it; without it, the lowest BANDWIDTH.
    @Test func theWidthPicksTheIFrameVariantAndScales() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let small = try await Self.make(server.url("/thumbs/master.m3u8"), at: 5)
        #expect(small.listURL == server.url("/thumbs/ts/iframes0.m3u8"))
        #expect(small.image.width == 416 && small.image.height == 234)
        let large = try await Self.make(server.url("/thumbs/master.m3u8"), at: 5, width: 600)
        #expect(large.listURL == server.url("/thumbs/ts/iframes1.m3u8"))
        #expect(large.decodedWidth == 640)
        #expect(large.image.width == 600 && large.image.height == 338)
    }

    /// An fMP4 I-frame playlist: its EXT-X-MAP goes in front of each entry.
    @Test func anFMP4IFramePlaylistUsesItsInitializationSection() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let thumbnail = try await Self.make(server.url("/thumbs/fmp4/iframes0.m3u8"), at: 9)
        #expect(thumbnail.entryIndex == 2 && thumbnail.entryStart == 8)
        let hashes = await Self.ffmpegHashes("\(Self.streams)/fmp4/v0/index.m3u8")
        #expect(thumbnail.md5 == hashes[8 * 30])
    }

    /// Without an I-frame playlist: the keyframe at or before the time in the segment holding it, on the
    /// timeline that starts at the first segment's first frame; a long-GOP segment without a keyframe before
    /// the time takes the previous segment's.
    @Test(arguments: [("ts/master.m3u8", 7.0, 6.0, 30.0), ("ts/v1/index.m3u8", 29.9, 28.0, 30.0),
                      ("longgop/ts/index.m3u8", 7.5, 5.0, 30.0), ("longgop/fmp4/index.m3u8", 4.9, 0.0, 30.0)])
    func theSegmentFallbackDecodesTheKeyframeAtOrBefore(path: String, time: Double, keyframe: Double, fps: Double) async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let thumbnail = try await Self.make(server.url("/" + path), at: time)
        #expect(thumbnail.source == .segment)
        #expect(abs(thumbnail.entryStart - keyframe) < 1e-6)
        let rendition = path.hasSuffix("master.m3u8") ? "ts/v0/index.m3u8" : path
        let hashes = await Self.ffmpegHashes("\(Self.streams)/\(rendition)")
        #expect(thumbnail.md5 == hashes[Int((keyframe * fps).rounded())])
    }

    /// A sprite sheet's tile: the cue's rectangle, pixel for pixel as ffmpeg crops it.
    @Test(arguments: [(7.0, 480, 0), (0.0, 0, 0), (29.0, 320, 270)])
    func aSpriteCueIsItsTileAsFFmpegCropsIt(time: Double, x: Int, y: Int) async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let thumbnail = try await Self.make(server.url("/ts/master.m3u8"), at: time, vtt: "../thumbs/sprites.vtt")
        #expect(thumbnail.source == .vtt)
        #expect(thumbnail.rect == ThumbnailRect(x: x, y: y, width: 160, height: 90))
        #expect(thumbnail.image.width == 160 && thumbnail.image.height == 90)
        #expect(thumbnail.resourceURL == server.url("/thumbs/sprite.jpg"))
        let expected = await Self.ffmpegHashes("\(Self.streams)/thumbs/sprite.jpg", filters: "crop=160:90:\(x):\(y)", rgb: true)
        #expect([thumbnail.md5, thumbnail.image.md5] == [expected[0], expected[0]])
    }

    /// A track of whole pictures (no #xywh), one a PNG.
    @Test(arguments: [(26.0, "img/06.png"), (12.0, "img/03.jpg")])
    func aSingleImageCueIsTheWholePicture(time: Double, image: String) async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let thumbnail = try await Self.make(server.url("/ts/master.m3u8"), at: time, vtt: server.url("/thumbs/single.vtt"))
        #expect(thumbnail.rect == nil && thumbnail.resourceURL == server.url("/thumbs/" + image))
        #expect(thumbnail.image.width == 160 && thumbnail.image.height == 90)
        #expect(thumbnail.md5 == (await Self.ffmpegHashes("\(Self.streams)/thumbs/\(image)", rgb: true)).first)
    }

    /// Each failure names what and where, as a ThumbnailError (never a crash).
    /// An EXT-X-MAP whose BYTERANGE stops inside the init section: the error names the section and says it is cut
    /// short (QA: "no video keyframe among its 0 video packets" about the segment).
    @Test func anInitSectionCutShortIsNamed() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-badmap-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try String(contentsOfFile: Self.streams + "/fmp4/v0/index.m3u8", encoding: .utf8)
        let playlist = original.replacingOccurrences(of: #"#EXT-X-MAP:URI="init.mp4""#, with: #"#EXT-X-MAP:URI="\#(server.url("/fmp4/v0/init.mp4"))",BYTERANGE="500@0""#)
            .replacingOccurrences(of: "\nseg", with: "\n" + server.url("/fmp4/v0/seg"))
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        do {
            let made = try await Self.make("file://" + folder + "/index.m3u8", at: 1, source: .segment)
            Issue.record("a picture with half an init section: \(made.md5)")
        } catch {
            guard case let .undecodableMedia(url, _, detail) = error else { Issue.record("\(error)"); return }
            #expect(url == server.url("/fmp4/v0/seg000.m4s"))
            #expect(detail.hasPrefix("the initialization section \(server.url("/fmp4/v0/init.mp4")) (BYTERANGE 500@0) is unusable: its moov box"), "\(detail)")
            #expect(detail.contains("cut short"), "\(detail)")
        }
    }

    @Test func failuresSayWhatAndWhere() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let master = server.url("/thumbs/master.m3u8")
        func failure(_ url: String, at time: Double, vtt: String? = nil, source: ThumbnailSourceKind? = nil) async -> ThumbnailError? {
            do { _ = try await Self.make(url, at: time, vtt: vtt, source: source); return nil } catch { return error }
        }
        for time in [30.5, -0.5] {
            let error = await failure(master, at: time)
            guard case .timeOutOfRange(_, 30, let url)? = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(url == server.url("/ts/v0/index.m3u8"))
        }
        let forced = await failure(server.url("/ts/master.m3u8"), at: 3, source: .iframe)
        guard case .noIFramePlaylist(let url)? = forced else { Issue.record("\(String(describing: forced))"); return }
        #expect(url == server.url("/ts/master.m3u8"))

        let broken = server.url("/thumbs/broken.vtt")
        let missing = await failure(master, at: 1, vtt: broken)
        // The image's failure names the track and the cue's line (QA: only the image's URL).
        guard case .cueImage(broken, 4, server.url("/thumbs/missing.jpg"), let detail)? = missing else { Issue.record("\(String(describing: missing))"); return }
        #expect(detail.contains("404"), "\(detail)")
        #expect(missing!.description.hasPrefix(broken + ":4: its image " + server.url("/thumbs/missing.jpg") + ": "), "\(missing!)")
        let outside = await failure(master, at: 3, vtt: broken)
        guard case .rectangleOutside(_, 7, ThumbnailRect(x: 600, y: 0, width: 160, height: 90), _, 640, 360)? = outside else {
            Issue.record("\(String(describing: outside))"); return
        }
        #expect(outside!.description.hasPrefix(broken + ":7: #xywh=600,0,160,90 is not inside"))
        let malformed = await failure(master, at: 5, vtt: broken)
        guard case .badCue(broken, 10, _)? = malformed else { Issue.record("\(String(describing: malformed))"); return }
        let noCue = await failure(master, at: 7, vtt: broken)
        guard case .noCue(7, broken, 3, 0...6, _)? = noCue else { Issue.record("\(String(describing: noCue))"); return }
        let notVTT = await failure(master, at: 7, vtt: master)
        guard case .badTrack(master, _)? = notVTT else { Issue.record("\(String(describing: notVTT))"); return }
    }

    /// An I-frame entry whose byte range holds no keyframe (a JPEG's bytes; the middle of a segment cut off
    /// the packet grid) fails naming the URL and range.
    @Test func aByteRangeThatDoesNotDecodeIsNamed() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-iframes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-I-FRAMES-ONLY",
                     "#EXTINF:2,", "#EXT-X-BYTERANGE:4000@100", server.url("/thumbs/sprite.jpg"),
                     "#EXTINF:2,", "#EXT-X-BYTERANGE:1000@50001", server.url("/ts/v0/seg000.ts"), "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/iframes.m3u8", atomically: true, encoding: .utf8)
        for (time, url, range) in [(1.0, "/thumbs/sprite.jpg", "4000@100"), (3.0, "/ts/v0/seg000.ts", "1000@50001")] {
            do {
                let made = try await Self.make("file://" + folder + "/iframes.m3u8", at: time)
                Issue.record("a picture from \(url): \(made.md5)")
            } catch {
                guard case .undecodableMedia(let named, range, _) = error else { Issue.record("\(error)"); continue }
                #expect(named == server.url(url))
                #expect(error.description.hasPrefix("\(server.url(url)) bytes \(range): "))
            }
        }
    }

    /// A keyframe's byte range cut short decodes with concealed errors: no thumbnail (it was a smeared picture with
    /// exit 0); a truncated JPEG likewise.
    @Test func aKeyframeCutShortOrATruncatedImageIsNoThumbnail() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-short-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keyframe = try #require(try Self.keyframes(rung: 0).first { $0.time == 2 })
        let parts = keyframe.range.split(separator: "@").compactMap { Int($0) }
        let short = "\(parts[0] / 2)@\(parts[1])"
        let lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-I-FRAMES-ONLY",
                     "#EXTINF:2,", "#EXT-X-BYTERANGE:\(keyframe.range)", server.url("/ts/v0/\(keyframe.segment)"),
                     "#EXTINF:2,", "#EXT-X-BYTERANGE:\(short)", server.url("/ts/v0/\(keyframe.segment)"), "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/iframes.m3u8", atomically: true, encoding: .utf8)
        _ = try await Self.make("file://" + folder + "/iframes.m3u8", at: 1)
        do {
            let made = try await Self.make("file://" + folder + "/iframes.m3u8", at: 3)
            Issue.record("a picture from half a keyframe: \(made.md5)")
        } catch {
            guard case .undecodableMedia(_, short, let detail) = error else { Issue.record("\(error)"); return }
            #expect(detail.contains("decoded with errors"), "\(detail)")
        }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.streams + "/thumbs/sprite.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: folder + "/half.jpg"))
        try "WEBVTT\n\n00:00.000 --> 00:30.000\nhalf.jpg#xywh=0,0,160,90\n".write(toFile: folder + "/half.vtt", atomically: true, encoding: .utf8)
        do {
            let made = try await Self.make(server.url("/ts/v0/index.m3u8"), at: 1, vtt: "file://" + folder + "/half.vtt")
            Issue.record("a picture from half a JPEG: \(made.md5)")
        } catch {
            guard case let .cueImage(url, line, image, _) = error else { Issue.record("\(error)"); return }
            #expect(url.hasSuffix("/half.vtt") && line == 4 && image.hasSuffix("/half.jpg"), "\(error)")
        }
    }

    /// Each source stands on its own: an I-frame playlist that is missing leaves the segments (the default falls
    /// back to them), and says why when it is asked for.
    @Test func aMissingIFramePlaylistLeavesTheSegments() async throws {
        let server = try LoopbackHTTPServer(root: Self.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-i404-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let master = ["#EXTM3U", "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=26000,RESOLUTION=416x234,URI=\"\(server.url("/thumbs/ts/gone.m3u8"))\"",
                      "#EXT-X-STREAM-INF:BANDWIDTH=500000,RESOLUTION=416x234", server.url("/ts/v0/index.m3u8")]
        try master.joined(separator: "\n").write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let made = try await Self.make("file://" + folder + "/master.m3u8", at: 3)
        #expect(made.source == .segment)
        do {
            _ = try await Self.make("file://" + folder + "/master.m3u8", at: 3, source: .iframe)
            Issue.record("an I-frame thumbnail without the I-frame playlist")
        } catch {
            guard case .load(.network(.status(let url, 404, _))) = error else { Issue.record("\(error)"); return }
            #expect(url == server.url("/thumbs/ts/gone.m3u8"))
        }
    }
}
