import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadTestFixtures
import Testing

/// Closed captions (F23) in playback: CEA-608 pop-on captions in the SEI of a 6 s H.264 clip cut into 2 s
/// TS segments are decoded as the frames are, and reported on the content timeline with FFmpeg's texts
/// and times (its `movie=…[out0+subcc]` reading of the same clip, moved by the clip's first timestamp).
@Suite struct CaptionTests {
    static let script: [CaptionInjector.Pair?] = CaptionInjector.schedule([
        (frame: 30, pairs: CaptionInjector.popOn("HELLO WORLD")),
        (frame: 90, pairs: CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory) + CaptionInjector.popOn("SECOND LINE")),
        (frame: 130, pairs: CaptionInjector.popOn("THIRD")),
    ], frames: 180)

    static func run(_ arguments: [String]) -> ChildProcess.Outcome {
        ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments)
    }

    /// A folder with the captioned clip as cc.ts and as 2 s HLS segments (index.m3u8), `fieldTwo` on field 2
    /// when given; removed by the caller.
    static func makeClip(fieldTwo: [CaptionInjector.Pair?] = []) throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-captions-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #require(Self.run(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-frames:v", "180", "-c:v", "libx264", "-bf", "0",
                               "-g", "60", "-pix_fmt", "yuv420p", "-bsf:v", "h264_mp4toannexb", "-f", "h264", folder + "/clip.h264"]).status == 0)
        let injected = try #require(CaptionInjector.inject(Self.script, fieldTwo: fieldTwo, into: [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/clip.h264")))))
        try Data(injected).write(to: URL(fileURLWithPath: folder + "/cc.h264"))
        try #require(Self.run(["-r", "30", "-i", folder + "/cc.h264", "-c", "copy", "-f", "mpegts", folder + "/cc.ts"]).status == 0)
        try #require(Self.run(["-i", folder + "/cc.ts", "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                               "-hls_segment_filename", folder + "/s%03d.ts", folder + "/index.m3u8"]).status == 0)
        return folder
    }

    @Test func captionsAreDecodedAndPlacedOnTheContentTimeline() async throws {
        let folder = try Self.makeClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reference = Self.run(["-copyts", "-f", "lavfi", "-i", "movie=\(folder)/cc.ts[out0+subcc]", "-map", "0:s", "-c:s", "webvtt", "-f", "webvtt", "-"])
        let expected = try WebVTTParser.parse(reference.stdout).cues
        try #require(expected.map(\.text) == ["HELLO WORLD", "SECOND LINE", "THIRD"], "\(reference.stdout)")
        let start = Double(ChildProcess.runBlocking("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=start_time",
                                                                "-of", "csv=p=0", folder + "/cc.ts"]).stdout.split(separator: "\n").first.map(String.init) ?? "") ?? 0

        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { _ in }, maxSessionSeconds: 60)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let cues = run.report.captions?.cues ?? []
        #expect(cues.map(\.text) == expected.map(\.text))
        for (index, (cue, reference)) in zip(cues, expected).enumerated() {
            #expect(abs(cue.startSeconds + start - reference.startTime) < 1.0 / 30, "\(cue) vs \(reference.startTime)")
            // "THIRD" is never erased: it stays on screen to the end of playback (cc_dec's drain gives it the length
            // of the caption before it, 0.27 s short of the end here; FFmpeg writes that).
            let end = index == cues.count - 1 ? run.report.positionSeconds : reference.endTime - start
            #expect(abs(cue.endSeconds - end) < 1.0 / 30, "\(cue) vs \(end)")
        }
        #expect(abs(run.report.positionSeconds - 6) < 0.05, "the clip is 6 s: \(run.report.positionSeconds)")
        // "HELLO WORLD" appears at its EOC (frame 40, 1.333 s of content).
        #expect(abs((cues.first?.startSeconds ?? 0) - 40.0 / 30) < 1.0 / 30)
        #expect(run.eventLines.filter { $0.contains("\"closedCaption\"") }.count == 3)

        // Demux mode decodes no video: no captions, and no report of them.
        let demux = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.mode = .demux }, maxSessionSeconds: 60)
        #expect(demux.report.captions == nil)
    }

    @Test func aCaptionLeftBySeekOrStopEndsThereAndNoneIsReadWhenTheVariantSaysSo() async throws {
        let folder = try Self.makeClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // "HELLO WORLD" is on screen from 1.333 s to 3.0 s: a seek at 2 s leaves it there (it was lost).
        let seek = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", scheduled: [ScheduledCommand(atPositionSeconds: 2, action: .seek(toSeconds: 4.8))],
                                                    maxSessionSeconds: 60)
        let hello = seek.report.captions?.cues.first { $0.text == "HELLO WORLD" }
        #expect(hello.map { abs($0.endSeconds - 2) < 1e-6 } == true, "\(seek.report.captions?.cues ?? [])")
        // Stopped at 2.5 s: it ends where playback did, not where decoding had got to.
        let stop = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", maxSessionSeconds: 2.8)
        let last = try #require(stop.report.captions?.cues.last)
        #expect(last.text == "HELLO WORLD" && last.endSeconds <= stop.report.positionSeconds + 1e-6, "\(last) at \(stop.report.positionSeconds)")
        // Started at 3.9 s, inside the segment from 2 s, whose frames from 2 s are decoded to reach it: "SECOND LINE",
        // shown from 3.4 s, was seen from 3.9 s, and is reported so (it was reported from 3.4 s).
        let started = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.startSeconds = 3.9 }, maxSessionSeconds: 60)
        let startedCues = started.report.captions?.cues ?? []
        #expect(startedCues.map(\.text) == ["SECOND LINE", "THIRD"], "\(startedCues)")
        #expect(startedCues.first.map { abs($0.startSeconds - 3.9) < 1e-6 } == true, "\(startedCues)")
        // CLOSED-CAPTIONS=NONE: the variant says it has none, and none is read.
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CLOSED-CAPTIONS=NONE\nindex.m3u8\n".write(toFile: folder + "/none.m3u8", atomically: true, encoding: .utf8)
        let none = await PlayerFixtures.playVirtual("file://\(folder)/none.m3u8", configure: { $0.abr = nil }, maxSessionSeconds: 60)
        #expect(none.report.finalStatus == .completed && none.report.captions == nil)
    }

    /// Field 2's channels too: "HELLO THERE" on CC3 (scheduled as CC1's "HELLO WORLD", the same length) and
    /// "QUATRO" on CC4 are reported by channel, CC3's at CC1's times, and CC1's cues are what they were alone.
    @Test func captionsOfEveryChannelAreReportedByChannel() async throws {
        let fieldTwo = CaptionInjector.schedule([
            (frame: 30, pairs: CaptionInjector.popOn("HELLO THERE")),
            (frame: 100, pairs: CaptionInjector.onSecondChannel(CaptionInjector.popOn("QUATRO"))),
        ], frames: 180)
        let folder = try Self.makeClip(fieldTwo: fieldTwo)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { _ in }, maxSessionSeconds: 60)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let cues = run.report.captions?.cues ?? []
        #expect(cues.filter { $0.channel == "CC1" }.map(\.text) == ["HELLO WORLD", "SECOND LINE", "THIRD"], "\(cues)")
        #expect(cues.filter { $0.channel == "CC2" }.isEmpty)
        #expect(cues.filter { $0.channel == "CC3" }.map(\.text) == ["HELLO THERE"], "\(cues)")
        #expect(cues.filter { $0.channel == "CC4" }.map(\.text) == ["QUATRO"], "\(cues)")
        let hello = try #require(cues.first { $0.text == "HELLO WORLD" }), there = try #require(cues.first { $0.text == "HELLO THERE" })
        #expect(there.startSeconds == hello.startSeconds, "\(there) against \(hello)")
        #expect(run.eventLines.contains { $0.contains("\"closedCaption\"") && $0.contains("\"CC4\"") && $0.contains("QUATRO") })
        #expect(cues.allSatisfy { $0.name == nil && $0.language == nil }, "a media playlist declares no caption renditions")

        // A multivariant playlist naming CC3 (and CC1 in another group): CC3's cues carry its name and language.
        try ("#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"Español\",LANGUAGE=\"es\",INSTREAM-ID=\"CC3\"\n"
            + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"other\",NAME=\"English\",LANGUAGE=\"en\",INSTREAM-ID=\"CC1\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=500000,CLOSED-CAPTIONS=\"cc\"\nindex.m3u8\n").write(toFile: folder + "/named.m3u8", atomically: true, encoding: .utf8)
        let named = await PlayerFixtures.playVirtual("file://\(folder)/named.m3u8", configure: { $0.abr = nil }, maxSessionSeconds: 60)
        let namedCues = named.report.captions?.cues ?? []
        #expect(namedCues.filter { $0.channel == "CC3" }.map { "\($0.name ?? "-")/\($0.language ?? "-")" } == ["Español/es"], "\(namedCues)")
        #expect(namedCues.filter { $0.channel != "CC3" }.allSatisfy { $0.name == nil && $0.language == nil }, "\(namedCues)")
        #expect(named.eventLines.contains { $0.contains("HELLO THERE") && $0.contains("\"language\":\"es\"") }, "\(named.eventLines.filter { $0.contains("closedCaption") })")
    }
}
