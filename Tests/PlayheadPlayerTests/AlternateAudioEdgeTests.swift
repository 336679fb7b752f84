import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Alternate audio in the cases QA found wrong: renditions on another clock, cut otherwise than the
/// video, lost, frozen, per-variant groups, breaks, a switch to the muxed audio and two switches at once.
@Suite struct AlternateAudioEdgeTests {
    static let streams = PlayerFixtures.streams
    static let frame = 1024.0 / 48000

    /// A folder with `master.m3u8` (and any other files given), removed by the caller.
    func folder(_ files: [String: String]) throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-altaudio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        return folder
    }

    func master(audio: [String], variants: [(group: String, uri: String)]) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:6"] + audio + variants.flatMap { ["#EXT-X-STREAM-INF:BANDWIDTH=600000,AUDIO=\"\($0.group)\"", $0.uri] })
            .joined(separator: "\n")
    }

    func play(_ folder: String, _ configure: @escaping (inout PlayerConfiguration) -> Void = { _ in },
              scheduled: [ScheduledCommand] = [], liveUnder: String? = nil) async -> PlayerFixtures.Run {
        await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: {
            $0.abr = nil
            configure(&$0)
        }, scheduled: scheduled, maxSessionSeconds: 200, liveUnder: liveUnder)
    }

    @Test func anFMP4RenditionUnderTSVideoIsAlignedByThePlaylistsAndSaidSo() async throws {
        // fMP4 audio starts at 0, the TS video at 1.4667 s: packaged on two clocks (a third of the audio was lost).
        let dir = try folder(["master.m3u8": master(
            audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Fr",DEFAULT=YES,URI="file://\#(Self.streams)/altaudio/fmp4/fr/index.m3u8""#],
            variants: [("a", "file://\(Self.streams)/altaudio/ts/v0/index.m3u8")])])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let reference = await ChildProcess.ffmpegHashes(Self.streams + "/altaudio/fmp4/fr/index.m3u8", map: "0:a")
        let run = await play(dir) { $0.hashFrames = true }
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == reference)
        #expect(run.report.audio?.issues.contains { $0.contains("differ from the video's by 1.467 s") } == true, "\(run.report.audio?.issues ?? [])")
    }

    @Test func audioCutInSixSecondsPlaysToItsLastFrame() async throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cut = await ChildProcess.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", Self.streams + "/audioonly/ts/index.m3u8", "-c", "copy",
                                                    "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_list_size", "0",
                                                    "-hls_segment_filename", dir + "/a%03d.ts", dir + "/audio.m3u8"])
        try #require(cut.status == 0, "\(cut.stderr)")
        try master(audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="En",DEFAULT=YES,URI="audio.m3u8""#],
                   variants: [("a", "file://\(Self.streams)/altaudio/ts/v0/index.m3u8")]).write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        let reference = await ChildProcess.ffmpegHashes(dir + "/audio.m3u8", map: "0:a")
        let run = await play(dir) { $0.hashFrames = true }
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        // Its last segment starts past the video's playlist time and was never fetched: the last frame was lost.
        #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == reference)
    }

    @Test func aLostAudioSegmentIsDamageAndAFrozenLiveAudioPlaylistDoesNotHoldTheVideo() async throws {
        let audio = try String(contentsOfFile: Self.streams + "/audioonly/ts/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "seg", with: "file://\(Self.streams)/audioonly/ts/seg")
            .replacingOccurrences(of: "file://\(Self.streams)/audioonly/ts/seg003.ts", with: "missing003.ts")
        let dir = try folder(["audio.m3u8": audio, "master.m3u8": master(
            audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="En",DEFAULT=YES,URI="audio.m3u8""#],
            variants: [("a", "file://\(Self.streams)/altaudio/ts/v0/index.m3u8")])])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lost = await play(dir) { $0.mode = .demux }
        #expect(lost.report.finalStatus == .completed, "\(lost.report.error ?? "")")
        #expect(lost.report.damage.contains { $0.contains("alternate audio segment 3") }, "\(lost.report.damage)")
        #expect(lost.report.framesPresented["video"] == 900)

        // A live audio playlist listing two segments and never changing, under a video that grows.
        let frozen = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0", "#EXTINF:4.0,", "file://\(Self.streams)/audioonly/ts/seg000.ts",
                      "#EXTINF:4.0,", "file://\(Self.streams)/audioonly/ts/seg001.ts"].joined(separator: "\n")
        let live = try folder(["audio.m3u8": frozen])
        defer { try? FileManager.default.removeItem(atPath: live) }
        let videoDir = live + "/video"
        try FileManager.default.createDirectory(atPath: videoDir, withIntermediateDirectories: true)
        try String(contentsOfFile: Self.streams + "/altaudio/ts/v0/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "seg", with: "file://\(Self.streams)/altaudio/ts/v0/seg")
            .write(toFile: videoDir + "/index.m3u8", atomically: true, encoding: .utf8)
        try master(audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="En",DEFAULT=YES,URI="audio.m3u8""#], variants: [("a", "video/index.m3u8")])
            .write(toFile: live + "/master.m3u8", atomically: true, encoding: .utf8)
        let run = await play(live, { $0.mode = .demux }, liveUnder: "file://\(videoDir)/")
        #expect(run.report.isLive)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 900, "\(run.report.framesPresented)")
        #expect(run.report.audio?.issues.contains { $0.contains("stopped changing") } == true, "\(run.report.audio?.issues ?? [])")
    }

    @Test func eachVariantsOwnGroupIsOffered() async throws {
        let dir = try folder(["master.m3u8": master(
            audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",DEFAULT=YES,URI="file://\#(Self.streams)/audioonly/ts/index.m3u8""#,
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Francais",DEFAULT=YES,URI="file://\#(Self.streams)/altaudio/ts/fr/index.m3u8""#],
            variants: [("lo", "file://\(Self.streams)/altaudio/ts/v0/index.m3u8"), ("hi", "file://\(Self.streams)/altaudio/ts/v1/index.m3u8")])])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = await play(dir) { $0.mode = .demux; $0.variant = .index(1) }
        #expect(run.report.audio?.options.map(\.name) == ["Francais"])
        #expect(run.report.audio?.selected == 0)
    }

    @Test func aSwitchToTheMuxedAudioShowsNoFrameTwiceAndTheLastOfTwoSwitchesWins() async throws {
        let dir = try folder(["master.m3u8": master(
            audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Main",DEFAULT=YES"#,
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Fr",URI="file://\#(Self.streams)/altaudio/ts/fr/index.m3u8""#],
            variants: [("a", "file://\(Self.streams)/ts/v0/index.m3u8")])])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = await play(dir, { $0.audio = AudioChoice("Fr"); $0.hashFrames = true }, scheduled: [ScheduledCommand(atPositionSeconds: 7, action: .selectAudio(AudioChoice("Main")))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let video = run.presented.filter { $0.kind == .video }.compactMap(\.ptsSeconds)
        #expect(video.count == 900 && zip(video, video.dropFirst()).allSatisfy { $1 > $0 }, "\(video.count) video frames")
        #expect(run.report.audio?.selected == 0)

        let twice = await play(dir, { $0.mode = .demux; $0.audio = AudioChoice("Main") },
                               scheduled: [ScheduledCommand(atPositionSeconds: 9, action: .selectAudio(AudioChoice("Fr"))),
                                           ScheduledCommand(atPositionSeconds: 9, action: .selectAudio(AudioChoice("Main")))])
        #expect(twice.report.audio?.selected == 0 && twice.report.audio?.choice == AudioChoice("Main"))
    }

    @Test func contentAudioResumesWhereABreakCutIt() async throws {
        // A silent ad (video-only, its audio a rendition this player does not fetch for ads) at 10 s, in the
        // middle of content segment [8, 12): the segment's second fetch takes the audio of 10–12 s (it was
        // all taken by the first, and content audio resumed at 12 s).
        let ad = master(audio: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="En",DEFAULT=YES,URI="file://\#(Self.streams)/audioonly/ts/index.m3u8""#],
                        variants: [("a", "file://\(Self.streams)/cues/adsilent/index.m3u8")])
            .replacingOccurrences(of: "BANDWIDTH=600000", with: "BANDWIDTH=510400")  // the content's first rung
        let dir = try folder(["ad.m3u8": ad, "master.m3u8": try String(contentsOfFile: Self.streams + "/altaudio/ts-master.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"../", with: "URI=\"file://\(Self.streams)/")
            .replacingOccurrences(of: "URI=\"ts/", with: "URI=\"file://\(Self.streams)/altaudio/ts/")
            .replacingOccurrences(of: "\nts/", with: "\nfile://\(Self.streams)/altaudio/ts/")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let url = "file://\(dir)/master.m3u8"
        let map = try JSONDecoder().decode(AdMap.self, from: Data(#"{"breaks": [{"time": 10, "ads": [{"url": "file://\#(dir)/ad.m3u8", "duration": 10, "id": "silent"}]}]}"#.utf8))
        let run = await play(dir) { $0.mode = .demux; $0.ads = PlayerFixtures.ads(map, for: url) }
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.adBoundaries.count == 1, "\(run.report.notifications.map(\.name))")
        let frames = run.report.framesPresented["audio", default: 0]
        // All of the content's audio (1408 frames): none lost at the break.
        #expect(frames == 1408, "\(frames) audio frames")
        // The ad's own audio rendition is not played: said, and counted as media missing.
        #expect(run.eventLines.contains { $0.contains("adAudioNotPlayed") })
        #expect(run.report.damage.contains { $0.contains("ad silent") && $0.contains("plays without audio") }, "\(run.report.damage)")
    }

    @Test(arguments: ["ts", "fmp4"])
    func aRenditionSwitchKeepsTheAudioDecoder(type: String) async throws {
        // ABR climbs from v0 to v1 (fMP4: another initialization section, so another video decoder); the
        // joined audio's decoder goes on, and every audio frame stays FFmpeg's (it was reset: a click, then drift).
        let reference = await ChildProcess.ffmpegHashes(Self.streams + "/audioonly/\(type)/index.m3u8", map: "0:a")
        let run = await PlayerFixtures.playVirtual("file://\(Self.streams)/altaudio/\(type)-master.m3u8", configure: { $0.hashFrames = true },
                                                   maxSessionSeconds: 200)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(Set(run.report.bitrateSwitches.map(\.toBitsPerSecond)).count == 2, "\(run.report.bitrateSwitches.map(\.toBitsPerSecond))")
        #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == reference)
    }
}
