import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Alternate audio (F21): video-only variants whose audio is an EXT-X-MEDIA rendition of its own
/// (/altaudio: English = the ladder's audio alone, French = a 660 Hz tone, both in 4 s segments). The
/// rendition's segments load beside the video's and each video segment carries the audio of its time:
/// every frame of both is FFmpeg's.
@Suite struct AlternateAudioTests {
    func play(_ path: String, server: LoopbackHTTPServer, configure: @escaping (inout PlayerConfiguration) -> Void = { _ in },
              scheduled: [ScheduledCommand] = []) async -> PlayerFixtures.Run {
        await PlayerFixtures.playVirtual(server.url(path), configure: {
            $0.abr = nil
            $0.hashFrames = true
            configure(&$0)
        }, scheduled: scheduled, maxSessionSeconds: 120)
    }

    @Test(arguments: ["ts", "fmp4"])
    func theDefaultRenditionPlaysWithTheVideoFrameForFrame(type: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let audio = await ChildProcess.ffmpegHashes(server.url("/audioonly/\(type)/index.m3u8"), map: "0:a")
        let video = await ChildProcess.ffmpegHashes(server.url("/altaudio/\(type)/v0/index.m3u8"))
        try #require(audio.count > 1000 && video.count == 900)
        let run = await play("/altaudio/\(type)-master.m3u8", server: server)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == audio)
        #expect(run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" } == video)
        #expect(run.report.audio?.options.map(\.name) == ["English", "Francais"])
        #expect(run.report.audio?.selected == 0 && run.report.audio?.segmentsLoaded == 8 && run.report.audio?.issues == [])
        #expect(run.report.notifications.contains { $0.code == .audioTrackChange && $0.metadata["NAME"] == "English" })
        // Played, so not listed as left out; the report's damage is empty.
        #expect(run.report.renditionsNotPlayed == nil && run.report.damage.isEmpty)
        #expect(run.report.rebuffers.isEmpty)
    }

    @Test func anotherRenditionIsChosenByLanguage() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let french = await ChildProcess.ffmpegHashes(server.url("/altaudio/ts/fr/index.m3u8"), map: "0:a")
        let run = await play("/altaudio/ts-master.m3u8", server: server) { $0.audio = AudioChoice("FR") }
        #expect(run.report.audio?.selected == 1)
        #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == french)
        #expect(run.report.framesPresented["video"] == 900)
    }

    @Test func aSeekLoadsTheAudioOfTheLanding() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let audio = await ChildProcess.ffmpegHashes(server.url("/audioonly/ts/index.m3u8"), map: "0:a")
        let run = await play("/altaudio/ts-master.m3u8", server: server, scheduled: [ScheduledCommand(atPositionSeconds: 5, action: .seek(toSeconds: 20))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let frames = run.presented.filter { $0.kind == .audio }
        // Up to the seek, then from the landing to the end: two runs of FFmpeg's frames.
        guard let jump = frames.indices.dropFirst().first(where: { (frames[$0].ptsSeconds ?? 0) - (frames[$0 - 1].ptsSeconds ?? 0) > 1 }) else {
            Issue.record("no jump in the audio")
            return
        }
        // Before the seek, FFmpeg's frames; after it the decoder starts afresh (AAC's overlap and noise state
        // differ from a decode run from the start, so hashes cannot match), from the landing to the end.
        let before = frames[..<jump].map { $0.md5 ?? "" }, after = frames[jump...]
        #expect(Array(audio.prefix(before.count)) == before, "the first \(before.count) audio frames")
        #expect(zip(after, after.dropFirst()).allSatisfy { abs(($1.ptsSeconds ?? 0) - ($0.ptsSeconds ?? 0) - 1024.0 / 48000) < 1e-6 },
                "the audio after the landing is continuous")
        // The landing's audio: content 20 s is the video's first PTS (1.4667 s) + 20.
        let landing: Double = frames[jump].ptsSeconds ?? 0
        let frame: Double = 1024.0 / 48000
        let target: Double = 20 + 132_000.0 / 90_000
        #expect(abs(landing - target) <= frame, "\(landing)")
        let expectedAfter: Double = 10 / frame
        #expect(abs(Double(after.count) - expectedAfter) < 3, "\(after.count) audio frames after the landing")
    }

    @Test func anUnknownRenditionOrOneThatDoesNotLoadLeavesTheVariantsOwnAudio() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        // A name none has: the default plays (the video-only variant would be silent), and that is said.
        let unknown = await play("/altaudio/ts-master.m3u8", server: server) { $0.audio = AudioChoice("de") }
        #expect(unknown.report.finalStatus == .completed)
        #expect(unknown.report.audio?.selected == 0)
        #expect(unknown.report.audio?.issues.first?.contains("English (en), Francais (fr); English plays") == true)
        #expect(unknown.eventLines.contains { $0.contains("audioRenditionNotFound") })
        #expect(unknown.report.framesPresented["video"] == 900 && unknown.report.framesPresented["audio"] == 1408)

        let folder = NSTemporaryDirectory() + "playhead-altaudio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let master = try String(contentsOfFile: PlayerFixtures.streams + "/altaudio/ts-master.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"../audioonly/ts/index.m3u8\"", with: "URI=\"missing.m3u8\"")
            .replacingOccurrences(of: "ts/v", with: server.url("/altaudio/ts/v"))
        try master.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let missing = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.abr = nil; $0.mode = .demux }, maxSessionSeconds: 120)
        #expect(missing.report.finalStatus == .completed, "\(missing.report.error ?? "")")
        #expect(missing.report.notifications.contains { $0.code == .networkError && $0.metadata["CONTENT"] == "alternateAudio" })
        #expect(missing.report.audio?.issues.first?.contains("missing.m3u8") == true)
        #expect(missing.report.framesPresented["video"] == 900)
    }

    @Test func liveJoinsTheAudioOfEachSegment() async throws {
        let run = await PlayerFixtures.playVirtual("file://\(PlayerFixtures.streams)/altaudio/ts-master.m3u8", configure: { $0.abr = nil; $0.mode = .demux },
                                                   maxSessionSeconds: 120, liveUnder: "file://\(PlayerFixtures.streams)/")
        #expect(run.report.isLive)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 900)
        // Joined from the live start (the first segment) to the end: the rendition's 1408 frames.
        #expect(run.report.framesPresented["audio"] == 1408, "\(run.report.framesPresented)")
    }
}

/// Switching the audio rendition and the subtitle track while playing.
@Suite struct TrackSwitchTests {
    @Test func anotherAudioRenditionPlaysFromThePlayheadOn() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/altaudio/ts-master.m3u8"), configure: { $0.abr = nil; $0.hashFrames = true },
                                                   scheduled: [ScheduledCommand(atPositionSeconds: 10, action: .selectAudio(AudioChoice("Francais")))],
                                                   maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.audio?.selected == 1)
        let changes = run.report.notifications.filter { $0.code == .audioTrackChange }.map { $0.metadata["NAME"] ?? "" }
        #expect(changes == ["English", "Francais"])
        // The media ahead is loaded again from the playhead with the French audio.
        let reload = try #require(run.report.seeks.first)
        #expect(reload.automatic == "audioTrackChange" && abs(reload.fromSeconds - reload.toSeconds) < 1e-9 && reload.fromSeconds >= 10)
        let french = run.events.compactMap { event -> Int? in
            if case let .segmentLoaded(url, sequence, _, _, _) = event.kind, url.contains("/altaudio/ts/fr/") { return sequence }
            return nil
        }
        #expect(french.first == Int(reload.toSeconds / 4) && french.last == 7, "\(french)")
        // The audio plays on without a hole or a repeat: each frame one AAC frame after the last.
        let audio = run.presented.filter { $0.kind == .audio }
        let steps = zip(audio, audio.dropFirst()).map { ($1.ptsSeconds ?? 0) - ($0.ptsSeconds ?? 0) }
        #expect(steps.allSatisfy { abs($0 - 1024.0 / 48000) < 1e-6 }, "\(steps.enumerated().filter { abs($0.1 - 1024.0 / 48000) >= 1e-6 }.map { "\($0.0): \($0.1)" })")
        #expect(run.report.framesPresented["video"] == 900)
    }

    /// `default` is the main audio (the PSDK's label for it), not another spelling of `auto`: where every
    /// rendition of the group has its own playlist, it is the variant's own muxed audio, offered first as
    /// "default"; a switch to it drops the rendition and plays the variant's audio from the playhead on,
    /// every frame FFmpeg's. Without an AUDIO group it is what plays already: no `audioRenditionNotFound`
    /// (QA43 #2: `default` was taken as `auto` and the muxed audio could not be chosen).
    @Test func defaultIsTheVariantsOwnAudio() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-mainaudio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Francais",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="\(server.url("/altaudio/ts/fr/index.m3u8"))"
            #EXT-X-STREAM-INF:BANDWIDTH=510400,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=416x234,AUDIO="aud"
            \(server.url("/ts/v0/index.m3u8"))
            """.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let muxed = await ChildProcess.ffmpegHashes(server.url("/ts/v0/index.m3u8"), map: "0:a")
        try #require(muxed.count > 1000)

        let chosen = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.abr = nil; $0.hashFrames = true; $0.audio = AudioChoice("default") },
                                                      maxSessionSeconds: 120)
        #expect(chosen.report.finalStatus == .completed, "\(chosen.report.error ?? "")")
        #expect(chosen.report.audio?.selected == nil && chosen.report.audio?.choice == .main && chosen.report.audio?.segmentsLoaded == 0)
        #expect(chosen.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == muxed)
        #expect(!chosen.eventLines.contains { $0.contains("audioRenditionNotFound") })
        #expect(chosen.events.contains { if case let .custom("mediaSelectionOptionsAvailable", payload) = $0.kind { payload["audio"] == "default\nFrancais" } else { false } })

        let switched = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.abr = nil; $0.hashFrames = true },
                                                        scheduled: [ScheduledCommand(atPositionSeconds: 10, action: .selectAudio(AudioChoice("default")))],
                                                        maxSessionSeconds: 120)
        #expect(switched.report.finalStatus == .completed, "\(switched.report.error ?? "")")
        #expect(switched.report.audio?.selected == nil && switched.report.audio?.choice == .main)
        #expect(switched.report.notifications.filter { $0.code == .audioTrackChange }.map { $0.metadata["NAME"] ?? "" } == ["Francais", "default"])
        // From the reload at the playhead on (segment 2, 8 s), the variant's own audio, as FFmpeg decodes it from there.
        let reload = try #require(switched.report.seeks.first)
        #expect(reload.automatic == "audioTrackChange" && reload.toSeconds >= 10 && reload.toSeconds < 12)
        let tail = try String(contentsOfFile: PlayerFixtures.streams + "/ts/v0/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "#EXTINF:4.000000,\nseg000.ts\n#EXTINF:4.000000,\nseg001.ts\n", with: "")
            .replacingOccurrences(of: "seg0", with: server.url("/ts/v0/seg0"))
        try tail.write(toFile: folder + "/tail.m3u8", atomically: true, encoding: .utf8)
        let muxedFromReload = await ChildProcess.ffmpegHashes(folder + "/tail.m3u8", map: "0:a", inputOptions: ["-protocol_whitelist", "file,http,tcp"])
        let after = switched.presented.filter { $0.kind == .audio && ($0.ptsSeconds ?? 0) >= 12 }.map { $0.md5 ?? "" }
        #expect(after.count > 500 && muxedFromReload.count > after.count && muxedFromReload.suffix(after.count).elementsEqual(after))

        let noGroup = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.abr = nil; $0.mode = .demux },
                                                       scheduled: [ScheduledCommand(atPositionSeconds: 2, action: .selectAudio(AudioChoice("default")))])
        #expect(noGroup.report.finalStatus == .completed)
        #expect(!noGroup.eventLines.contains { $0.contains("audioRenditionNotFound") })
    }

    @Test func anotherSubtitleTrackShowsFromNowAndOffHidesThem() async {
        let run = await PlayerFixtures.playVirtual("file://\(PlayerFixtures.streams)/subs/ts-master.m3u8", configure: { $0.mode = .demux },
                                                   scheduled: [ScheduledCommand(atPositionSeconds: 4, action: .selectSubtitles(SubtitleChoice("fr"))),
                                                               ScheduledCommand(atPositionSeconds: 8, action: .selectSubtitles(.off))],
                                                   maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let shown = run.report.subtitles?.shown ?? []
        // English until 4 s (its second cue hidden there), French from 4 s (its cue at 6 s), nothing from 8 s.
        #expect(shown.map(\.cue.text) == ["Hello world", "Two lines,\nthe second", "forcé"])
        #expect(shown.count == 3 && abs((shown[1].hiddenAtPosition ?? 0) - 4) < 1e-6)
        #expect(run.report.subtitles?.selected == nil && run.report.subtitles?.choice == .off)
        let changes = run.report.notifications.filter { $0.code == .subtitlesTrackChange }.map { $0.metadata["NAME"] ?? "" }
        #expect(changes == ["English", "Francais (forced)", "off"])
    }
}
