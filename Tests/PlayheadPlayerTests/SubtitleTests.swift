import Foundation
import PlayheadCore
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Subtitles (F22): the track chosen among the variant's SUBTITLES renditions and sidecar WebVTT files
/// is loaded beside the content, and each cue shows when the playhead reaches its content time, mapped
/// through X-TIMESTAMP-MAP (subs/: the English files are cut as the content is, so two cues are
/// written twice; cue times are content times, the map pinned at the video's first PTS).
@Suite struct SubtitleTests {
    static let english: [(start: Double, end: Double, text: String)] = [
        (1, 2.5, "Hello world"), (3, 5, "Two lines,\nthe second"), (12, 14, "<twelve> & more"), (25, 29.5, "The last cue"),
    ]

    func cueEvents(_ run: PlayerFixtures.Run) -> [(started: Bool, cue: SubtitleCue, time: Double)] {
        run.events.compactMap { event in
            switch event.kind {
            case let .subtitleCueStarted(cue): (true, cue, event.playerTime)
            case let .subtitleCueEnded(cue): (false, cue, event.playerTime)
            default: nil
            }
        }
    }

    func play(_ path: String, tolerance: Double = 1e-6, configure: @escaping (inout PlayerConfiguration) -> Void = { _ in },
              scheduled: [ScheduledCommand] = [], liveUnder: String? = nil) async -> PlayerFixtures.Run {
        await PlayerFixtures.playVirtual("file://\(PlayerFixtures.streams)/\(path)", configure: {
            $0.mode = .demux
            configure(&$0)
        }, scheduled: scheduled, maxSessionSeconds: 120, liveUnder: liveUnder)
    }

    func expectEnglishShownAtTheirTimes(_ run: PlayerFixtures.Run, tolerance: Double) {
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let subtitles = run.report.subtitles
        #expect(subtitles?.options.map(\.name) == ["English", "Francais (forced)"])
        #expect(subtitles?.selected == 0)
        #expect(subtitles?.issues == [], "\(subtitles?.issues ?? [])")
        let shown = subtitles?.shown ?? []
        // Each cue once, though two of them are written in two files.
        #expect(shown.map(\.cue.text) == Self.english.map(\.text))
        for (record, expected) in zip(shown, Self.english) {
            #expect(abs(record.cue.startSeconds - expected.start) < tolerance && abs(record.cue.endSeconds - expected.end) < tolerance,
                    "\(record.cue)")
            // Shown when the playhead reached the cue's start, hidden at its end (no ad: timeline = content).
            #expect(abs(record.shownAtPosition - expected.start) < tolerance, "\(record)")
            #expect(abs((record.hiddenAtPosition ?? -1) - expected.end) < tolerance, "\(record)")
        }
        #expect(shown.first?.cue.id == "one" && shown.first?.cue.markup == "Hello <b>world</b>")
        // One start and one end event per cue, in time order, at the session times the report gives.
        let events = cueEvents(run)
        #expect(events.count == 8)
        #expect(events.filter(\.started).map(\.time) == shown.map(\.shownAtSeconds))
        #expect(events.map(\.time) == events.map(\.time).sorted())
        #expect(run.report.notifications.contains { $0.code == .subtitlesTrackChange && $0.metadata["NAME"] == "English" })
        // The subtitle rendition is played now, not listed as left out.
        #expect(run.report.renditionsNotPlayed == nil)
    }

    @Test func tsShowsEachCueWhenThePlayheadReachesIt() async {
        let run = await play("subs/ts-master.m3u8")
        expectEnglishShownAtTheirTimes(run, tolerance: 1e-6)
        #expect(run.report.subtitles?.filesLoaded == 8)
    }

    @Test func fmp4MapsThroughItsOwnTimestamps() async {
        // The fMP4 video starts at 0.066016 s, written as MPEGTS:5941 (rounded to the 90 kHz tick).
        let run = await play("subs/fmp4-master.m3u8")
        expectEnglishShownAtTheirTimes(run, tolerance: 1e-4)
    }

    @Test func cuesAlsoShowInDecodeMode() async {
        let run = await PlayerFixtures.playVirtual("file://\(PlayerFixtures.streams)/subs/ts-master.m3u8", configure: { $0.abr = nil },
                                                   maxSessionSeconds: 120)
        expectEnglishShownAtTheirTimes(run, tolerance: 1e-6)
        #expect(run.report.framesPresented["video"] == 900)
    }

    @Test func aTrackIsChosenByLanguageOrNameOrNotAtAll() async {
        let french = await play("subs/ts-master.m3u8") { $0.subtitles = SubtitleChoice("fr") }
        #expect(french.report.subtitles?.selected == 1)
        #expect(french.report.subtitles?.shown.map(\.cue.text) == ["forcé"])
        #expect(french.report.subtitles?.shown.first?.shownAtPosition == 6)

        let off = await play("subs/ts-master.m3u8") { $0.subtitles = .off }
        #expect(off.report.subtitles?.selected == nil && off.report.subtitles?.options.count == 2)
        #expect(cueEvents(off).isEmpty)
        #expect(!off.report.notifications.contains { $0.code == .subtitlesTrackChange })

        let missing = await play("subs/ts-master.m3u8") { $0.subtitles = SubtitleChoice("de") }
        #expect(missing.report.finalStatus == .completed)
        #expect(missing.report.subtitles?.selected == nil)
        #expect(missing.report.notifications.contains { $0.code == .subtitleTrackChangeFail && ($0.metadata["DESCRIPTION"] ?? "").contains("de") })
        #expect(missing.report.subtitles?.issues.first?.contains("English (en)") == true)
    }

    @Test func aSeekHidesTheCueItLeavesAndShowsTheOneItLandsIn() async {
        let run = await play("subs/ts-master.m3u8", scheduled: [ScheduledCommand(atPositionSeconds: 3.5, action: .seek(toSeconds: 26))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let shown = run.report.subtitles?.shown ?? []
        #expect(shown.map(\.cue.text) == ["Hello world", "Two lines,\nthe second", "The last cue"])
        #expect(shown.count == 3 && abs((shown[1].hiddenAtPosition ?? 0) - 3.5) < 1e-6, "left at the seek")
        // Landed inside the last cue: shown where playback resumed, not at its start.
        #expect(shown.count == 3 && shown[2].shownAtPosition >= 26 - 1e-6 && shown[2].shownAtPosition < 26.1, "\(shown.last.map { "\($0)" } ?? "")")
    }

    @Test func aCueOnScreenAtTheStartShowsWithTheFirstFrame() async {
        // The start waits for the subtitle file of its position (it came a frame later, and so did the cue).
        let run = await play("subs/ts-master.m3u8") { $0.startSeconds = 4 }
        let first = run.report.subtitles?.shown.first
        #expect(first?.cue.text == "Two lines,\nthe second" && first?.shownAtPosition == 4, "\(first.map { "\($0)" } ?? "none")")
        let playStarted = run.events.first { $0.kind == .playStarted }?.playerTime
        #expect(first?.shownAtSeconds == playStarted)
    }

    @Test func aSidecarFileIsATrackInContentTimeAndAnAdBreakShiftsIt() async throws {
        let folder = NSTemporaryDirectory() + "playhead-sidecar-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "WEBVTT\n\n00:09.000 --> 00:11.000\nover the break\n\n00:12.000 --> 00:13.000\nafter\n"
            .write(toFile: folder + "/side.vtt", atomically: true, encoding: .utf8)
        let content = "file://\(PlayerFixtures.streams)/cues/ts/vod.m3u8"
        let map = try AdMap.load(path: PlayerFixtures.streams + "/cues/admap.json").resolvingURLs(against: content)
        let run = await PlayerFixtures.playVirtual(content, configure: {
            $0.mode = .demux
            $0.ads = PlayerFixtures.ads(map, for: content)
            $0.sidecarSubtitles = [SidecarSubtitle(url: "file://\(folder)/side.vtt", language: "en")]
            $0.subtitles = SubtitleChoice("en")
        }, maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.subtitles?.options.map(\.source) == [.sidecar])
        let shown = run.report.subtitles?.shown ?? []
        // The 10 s break at 10 s cuts the first cue: hidden when the ad starts, shown again after it;
        // the second shows 10 s later on the timeline than its content time.
        #expect(shown.map(\.cue.text) == ["over the break", "over the break", "after"])
        #expect(shown.map(\.shownAtPosition) == [9, 20, 22], "\(shown.map(\.shownAtPosition))")
        #expect(shown.map(\.hiddenAtPosition) == [10, 21, 23], "\(shown.map(\.hiddenAtPosition))")
    }

    @Test func liveLoadsTheSubtitlePlaylistAsItGrows() async {
        let run = await play("subs/ts-master.m3u8", liveUnder: "file://\(PlayerFixtures.streams)/")
        #expect(run.report.isLive)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.subtitles?.shown.map(\.cue.text) == Self.english.map(\.text))
        #expect(run.report.subtitles?.filesLoaded == 8)
    }

    /// subs/ts-master.m3u8 with the English track's playlist replaced by `playlist` (segment names kept,
    /// pointing at the generated files unless `files` gives a file's text).
    func writeTrack(playlist: [String], files: [String: String] = [:]) throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-subs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let streams = PlayerFixtures.streams
        var master = try String(contentsOfFile: streams + "/subs/ts-master.m3u8", encoding: .utf8)
        master = master.replacingOccurrences(of: "URI=\"ts-en/index.m3u8\"", with: "URI=\"en.m3u8\"")
            .replacingOccurrences(of: "URI=\"ts-fr/", with: "URI=\"file://\(streams)/subs/ts-fr/")
            .replacingOccurrences(of: "../ts/", with: "file://\(streams)/ts/")
        try master.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"] + playlist.flatMap { name in
            ["#EXTINF:4.0,", files[name] != nil || name.hasPrefix("missing") ? name : "file://\(streams)/subs/ts-en/\(name)"]
        } + ["#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/en.m3u8", atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func aBrokenOrMissingFileLosesOnlyItsCues() async throws {
        let folder = try writeTrack(playlist: ["seg0.vtt", "missing1.vtt", "bad2.vtt", "nomap3.vtt"], files: [
            "bad2.vtt": "not a WebVTT file\n\n00:09.000 --> 00:10.000\nlost\n",
            "nomap3.vtt": "WEBVTT\n\n00:00:13.000 --> 00:00:14.000\nunmapped\n\nbackwards\n00:00:14.500 --> 00:00:14.000\nnever\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.mode = .demux }, maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let issues = run.report.subtitles?.issues ?? []
        #expect(issues.contains { $0.contains("missing1.vtt") && $0.contains("left out") }, "\(issues)")
        #expect(issues.contains { $0.contains("bad2.vtt") && $0.contains("WEBVTT") }, "\(issues)")
        #expect(run.report.notifications.contains { $0.code == .webVTTParserError && $0.metadata["URL"]?.hasSuffix("bad2.vtt") == true })
        // Without X-TIMESTAMP-MAP, WebVTT time 0 is media time 0 (RFC 8216): 1.4667 s before the content's start.
        #expect(issues.contains { $0.contains("nomap3.vtt") && $0.contains("X-TIMESTAMP-MAP") }, "\(issues)")
        #expect(issues.contains { $0.contains("cue backwards") && $0.contains("dropped") }, "\(issues)")
        #expect(Set(issues).count == issues.count, "each problem once: \(issues)")
        // One line for a file that failed, the final one (it was listed at its first failure and again at the last).
        #expect(issues.filter { $0.contains("missing1.vtt") }.count == 1, "\(issues)")
        let shown = run.report.subtitles?.shown ?? []
        #expect(shown.map(\.cue.text) == ["Hello world", "Two lines,\nthe second", "unmapped"])
        #expect(shown.count == 3 && abs(shown[2].cue.startSeconds - (13 - 132_000.0 / 90_000)) < 1e-6, "\(shown.last.map { "\($0.cue)" } ?? "")")
        #expect(run.report.framesPresented.isEmpty || run.report.mediaSeconds > 29)
    }

    @Test func aSidecarThatFailsDoesNotHoldTheStart() async {
        // The start waits for a subtitle file on its way, not for one that failed (it waited 2 s).
        let plain = await play("subs/ts-master.m3u8") { $0.subtitles = .off }
        let failed = await play("subs/ts-master.m3u8") {
            $0.sidecarSubtitles = [SidecarSubtitle(url: "file:///nonexistent/playhead.vtt", language: "de", name: "X")]
            $0.subtitles = SubtitleChoice("X")
        }
        let first = { (run: PlayerFixtures.Run) in run.report.playbackInformation?.timeToFirstFrameSeconds ?? -1 }
        #expect(first(failed) > 0 && abs(first(failed) - first(plain)) < 0.05, "\(first(failed)) vs \(first(plain))")
        #expect(failed.report.subtitles?.issues.first?.contains("nonexistent") == true)
    }

    @Test func aTrackWhosePlaylistNeverLoadsIsGivenUpAndPlaybackGoesOn() async throws {
        let folder = try writeTrack(playlist: ["seg0.vtt"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/en.m3u8")
        let run = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.mode = .demux }, maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.mediaSeconds > 29)
        #expect(run.report.notifications.contains { $0.code == .subtitleTrackChangeFail && $0.metadata["URL"]?.hasSuffix("en.m3u8") == true })
        #expect(run.report.subtitles?.issues.last?.contains("given up") == true, "\(run.report.subtitles?.issues ?? [])")
        #expect(cueEvents(run).isEmpty)
    }
}

/// The choice of a subtitle track among the options offered.
@Suite struct SubtitleChoiceTests {
    static func option(_ name: String, _ language: String?, isDefault: Bool = false, forced: Bool = false) -> SubtitleOption {
        SubtitleOption(name: name, language: language, isDefault: isDefault, autoselect: true, forced: forced, url: "u/\(name)",
                       source: .playlist, groupId: "g")
    }

    @Test func automaticTakesTheDefaultElseAForcedTrack() {
        let forced = Self.option("Forced", "fr", forced: true)
        #expect(SubtitleChoice.automatic.pick(from: [Self.option("A", "en"), forced, Self.option("B", "de", isDefault: true)]) == 2)
        #expect(SubtitleChoice.automatic.pick(from: [Self.option("A", "en"), forced]) == 1)
        // AUTOSELECT alone needs a system language, which a headless player has not.
        #expect(SubtitleChoice.automatic.pick(from: [Self.option("A", "en")]) == nil)
        #expect(SubtitleChoice.off.pick(from: [Self.option("A", "en", isDefault: true)]) == nil)
    }

    @Test func aTrackIsNamedOrGivenByLanguage() {
        let options = [Self.option("English", "en-US"), Self.option("English SDH", "en"), Self.option("Deutsch", "de")]
        #expect(SubtitleChoice("english sdh").pick(from: options) == 1)
        #expect(SubtitleChoice("en").pick(from: options) == 0, "a language prefix matches en-US")
        #expect(SubtitleChoice("DE").pick(from: options) == 2)
        #expect(SubtitleChoice("e").pick(from: options) == nil, "a prefix matches only at a subtag boundary")
        // RFC 4647 lookup: a longer tag falls back to a shorter one.
        #expect(SubtitleChoice("de-AT").pick(from: options) == 2 && SubtitleChoice("en-GB-oxendict").pick(from: options) == 0)
        #expect(SubtitleChoice("auto") == .automatic && SubtitleChoice("OFF") == .off)
        #expect("\(SubtitleChoice("fr"))" == "fr")
    }
}

/// A playlist fetched over http(s) may not name local files: a remote manifest (given to a daemon, say)
/// made the player read this machine's files and put their text in the report.
@Suite struct RemotePlaylistLocalFileTests {
    @Test func aRemotePlaylistCannotNameALocalFile() async throws {
        let folder = NSTemporaryDirectory() + "playhead-remote-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let streams = PlayerFixtures.streams
        try """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=600000
        file://\(streams)/ts/v0/index.m3u8
        """.write(toFile: folder + "/variant.m3u8", atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Local",LANGUAGE="en",DEFAULT=YES,URI="file://\(streams)/subs/ts-en/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=600000,SUBTITLES="s"
        http://127.0.0.1:1/unused.m3u8
        """.write(toFile: folder + "/subs.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let media = try LoopbackHTTPServer(root: streams)
        defer { media.stop() }
        for name in ["subs.m3u8"] {
            try String(contentsOfFile: folder + "/" + name, encoding: .utf8).replacingOccurrences(of: "http://127.0.0.1:1/unused.m3u8", with: media.url("/ts/v0/index.m3u8"))
                .write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let variant = await PlayerFixtures.playVirtual(server.url("/variant.m3u8"), configure: { $0.mode = .demux; $0.abr = nil })
        #expect(variant.report.finalStatus == .error)
        #expect(variant.report.error?.contains("may not read local files") == true, "\(variant.report.error ?? "")")
        #expect(variant.report.framesPresented.values.allSatisfy { $0 == 0 })
        // The same names from a local playlist are fine.
        let local = await PlayerFixtures.playVirtual("file://\(folder)/variant.m3u8", configure: { $0.mode = .demux; $0.abr = nil })
        #expect(local.report.finalStatus == .completed, "\(local.report.error ?? "")")
        // A subtitle rendition naming a local file is not offered, and that is said.
        let subs = await PlayerFixtures.playVirtual(server.url("/subs.m3u8"), configure: { $0.mode = .demux; $0.abr = nil }, maxSessionSeconds: 5)
        #expect(subs.report.subtitles?.options.isEmpty == true)
        #expect(subs.report.subtitles?.issues.first?.contains("may not read local files") == true, "\(subs.report.subtitles?.issues ?? [])")
        // An audio rendition likewise: a warning naming the alternate audio, and the report says so.
        try """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Local",DEFAULT=YES,URI="file://\(streams)/audioonly/ts/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=600000,AUDIO="a"
        \(media.url("/ts/v0/index.m3u8"))
        """.write(toFile: folder + "/audio.m3u8", atomically: true, encoding: .utf8)
        let audio = await PlayerFixtures.playVirtual(server.url("/audio.m3u8"), configure: { $0.mode = .demux; $0.abr = nil }, maxSessionSeconds: 5)
        #expect(audio.report.audio?.issues.first?.contains("may not read local files") == true, "\(audio.report.audio?.issues ?? [])")
        #expect(audio.report.notifications.contains { $0.code == .networkError && $0.metadata["CONTENT"] == "alternateAudio" })
    }
}
