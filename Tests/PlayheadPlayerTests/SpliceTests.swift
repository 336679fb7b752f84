import Foundation
@testable import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// The splicer on the generated cue streams: cues at 10 s (CUE-OUT/CUE-IN, on a keyframe) and 17 s
/// (DATERANGE SCTE35-OUT, between keyframes), the 10 s ad from `ad/master.m3u8`, checked frame by
/// frame against FFmpeg's decode of the content and of the ad.
@Suite struct SpliceTests {
    static let adMap = AdMap(breaks: [
        .init(time: 10, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "ad-at-10")]),
        .init(time: nil, cueId: "splice-17", ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "ad-at-17")]),
    ])

    static let cases: [(container: String, live: Bool)] = [("ts", false), ("fmp4", false), ("ts", true), ("fmp4", true)]

    @Test(arguments: cases)
    func checkAdsFindsEveryBoundaryExact(container: String, live: Bool) async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/\(container)/master.m3u8"), adMap: Self.adMap, live: live)
        #expect(result.boundaries.count == 2)
        #expect(result.allExact, "\(result.boundaries.map(\.problems))")
        let first = try #require(result.boundaries.first), second = try #require(result.boundaries.last)
        #expect(first.cueSeconds == 10 && first.cueOnKeyframe == true)
        #expect(second.cueSeconds == 17 && second.cueOnKeyframe == false)
        for verdict in result.boundaries {
            #expect(verdict.kind == (live ? "replacement" : "insertion"))
            #expect(verdict.firstAdFrameMatches)
            #expect(verdict.outErrorFrames == 0 && verdict.inErrorFrames == 0)
            #expect(verdict.firstAdFrameIsKeyframe == true)
        }
        // Insertion resumes at the cue's own frame; replacement at cue + duration (4 s and 6 s).
        #expect(first.expectedFirstContentAfter == (live ? 14 : 10))
        #expect(second.expectedFirstContentAfter == (live ? 23 : 17))
        #expect(first.firstContentAfter == first.expectedFirstContentAfter)
        // Every content frame and every ad frame played: 900 + 2 × 300 inserted; replacement cuts the
        // ads to the 10 s of content they replace.
        #expect(result.report.framesPresented["video"] == (live ? 900 : 1500))
        #expect(result.report.rebuffers.isEmpty)
        if !live {
            // The content's EXTINF counted once, though the segment cut at 17 s is fetched on each side.
            #expect(abs(result.report.manifestSeconds - 30) < 0.01, "\(result.report.manifestSeconds)")
            #expect(abs(result.report.driftSeconds) < 0.1, "\(result.report.driftSeconds)")
        }
    }

    @Test func preMidAndPostRollsFromTheServerMapAreExact() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let ad = "../ad/master.m3u8"
        let map = AdMap(breaks: [0, 10, 30].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: ad, duration: 10, id: nil)]) })
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/master.m3u8"), adMap: map, live: false)
        #expect(result.allExact, "\(result.boundaries.map(\.problems))")
        #expect(result.boundaries.map(\.cueSeconds) == [0, 10, 30])
        #expect(result.report.adTimeline?.breaks.map { $0.placement(contentDurationSeconds: 30) } == ["preroll", "midroll", "postroll"])
        // The pre-roll's first frame opens the session; the post-roll's last frame ends it.
        #expect(result.boundaries[0].actualBreakTimelineSeconds == 0 && result.boundaries[0].lastContentBefore == nil)
        #expect(result.boundaries[2].firstContentAfter == nil)
        // The post-roll's last frames are recorded though nothing follows them (they were left out).
        let postRoll = try #require(result.report.adBoundaries.last)
        let lastAd = try #require(postRoll.lastAd)
        #expect(abs(lastAd.timelineSeconds + lastAd.durationSeconds - 60) < 1e-6, "the last ad frame ends the 60 s timeline")
        #expect(postRoll.lastAdAudio != nil)
        #expect(result.report.framesPresented["video"] == 900 + 3 * 300)
        #expect(result.report.finalStatus == .completed)
    }

    /// Cues between two frames (10 s at 29.97 fps, 17.01 s at 25 and 29.97 fps): the break starts where the
    /// last content frame before the cue ends, and content resumes with the next frame, with no overlap
    /// nor hole. The ad started at the cue itself, 10 ms inside that frame, and check-ads failed it.
    @Test(arguments: [("fps2997", 300.0 * 1001 / 30000, 510.0 * 1001 / 30000), ("fps25", 10.0, 17.04)])
    func aCueBetweenFramesSplicesAtTheNextFrame(stream: String, firstStart: Double, secondResume: Double) async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [10, 17.01].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: "../cues/ad/v1/index.m3u8", duration: 10, id: nil)]) })
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/\(stream)/index.m3u8"), adMap: map, live: false)
        let verdicts = result.boundaries
        let allExact = verdicts.allSatisfy { $0.exact }
        #expect(allExact, "\(verdicts.map(\.problems))")
        #expect(result.boundaries.map(\.cueSeconds) == [10, 17.01], "the record keeps the cue as signalled")
        let first = try #require(result.boundaries.first), second = try #require(result.boundaries.last)
        #expect(abs((first.actualBreakTimelineSeconds ?? 0) - firstStart) < 1e-4)
        #expect(abs((second.firstContentAfter ?? 0) - secondResume) < 1e-4)
        #expect(result.boundaries.allSatisfy { $0.videoGapOutMilliseconds == 0 && abs($0.videoGapInMilliseconds ?? 1) < 1e-3 })
    }

    /// Live replacement with a 29.97 fps ad: its frames do not tile the cues' 4 s and 6 s, so the frame
    /// that crosses each cut shows until content resumes there. It kept its whole duration, ran 4 ms past
    /// the resume point, and check-ads called every such break NOT EXACT.
    @Test func aReplacementAdCutInsideAFrameEndsAtTheCut() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let ad = AdMap.MapAd(url: "../ad2997/index.m3u8", duration: 30, id: nil)
        let map = AdMap(breaks: [AdMap.Entry(time: 10, cueId: nil, ads: [ad]), AdMap.Entry(time: nil, cueId: "splice-17", ads: [ad])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/master.m3u8"), adMap: map, live: true)
        #expect(result.boundaries.count == 2)
        #expect(result.boundaries.allSatisfy { $0.kind == "replacement" && $0.exact }, "\(result.boundaries.map(\.problems))")
        #expect(result.boundaries.allSatisfy { abs($0.videoGapInMilliseconds ?? 1) < 1e-3 })
    }

    /// An ad without audio in content with audio: the frames are exact, and the verdict says the break has no
    /// sound (its audio figures were empty, with nothing said).
    @Test func anAdWithoutAudioIsNoted() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [AdMap.Entry(time: 10, cueId: nil, ads: [.init(url: "../adsilent/index.m3u8", duration: 10, id: nil)])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/index.m3u8"), adMap: map, live: false)
        let verdict = try #require(result.boundaries.first)
        #expect(verdict.exact, "\(verdict.problems)")
        #expect(verdict.notes.contains { $0.contains("no audio") })
        #expect(verdict.audioGapOutMilliseconds == nil)
    }

    /// A cue inside a segment's last frame (7.99 s at 25 fps: that frame is 7.96-8.00 s, the next is the next
    /// segment's first) and one inside the content's last frame (29.99 s): the breaks start where those frames
    /// end, 8 s and 30 s (the post-roll). They stayed at the cue: content resumed two frames early, frames
    /// played twice, and the post-roll began 10 ms inside the last frame.
    @Test func aCueInsideASegmentsLastFrameSplicesAtTheSegmentsEnd() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [7.99, 29.99].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: "../cues/ad/v1/index.m3u8", duration: 10, id: nil)]) })
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/fps25/index.m3u8"), adMap: map, live: false)
        let verdicts = result.boundaries
        let allExact = verdicts.allSatisfy { $0.exact }
        #expect(allExact, "\(verdicts.map(\.problems))")
        #expect(verdicts.map(\.cueSeconds) == [7.99, 29.99])
        #expect(result.report.adTimeline?.breaks.map(\.contentSeconds) == [8, 30])
        #expect(verdicts.first?.firstContentAfter == 8)
        #expect(result.report.framesPresented["video"] == 750 + 2 * 300, "every content frame once, and both ads")
    }

    /// EXTINF rounded to 4.0 over 4.004 s segments of 29.97 fps: a break cued at a segment's listed start
    /// (12 s) and the post-roll start where the media before them ends (12.012 s, and the content's end),
    /// not 12 ms inside the last content frame.
    @Test func aCueAtARoundedSegmentStartSplicesWhereTheMediaEnds() async throws {
        MediaLog.level = .quiet
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = PlayerFixtures.streams + "/fps2997"
        let playlist = try String(contentsOfFile: source + "/index.m3u8", encoding: .utf8).replacingOccurrences(of: "#EXTINF:4.004000,", with: "#EXTINF:4.0,")
        try playlist.write(to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".ts") {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        // (Copies: the server refuses links out of its folder.)
        try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/cues/ad/v1", toPath: folder.appendingPathComponent("ad").path)
        let server = try LoopbackHTTPServer(root: folder.path)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let end = 7 * 4.0 + 2.002  // seven rounded EXTINF and the last one's 2.002
        let map = AdMap(breaks: [12, end].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: "ad/index.m3u8", duration: 10, id: nil)]) })
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/index.m3u8"), adMap: map, live: false)
        let verdicts = result.boundaries
        #expect(verdicts.count == 2)
        let allExact = verdicts.allSatisfy { $0.exact }
        #expect(allExact, "\(verdicts.map(\.problems))")
        let frame360 = 360.0 * 1001 / 30000
        let start = verdicts.first?.actualBreakTimelineSeconds ?? 0
        #expect(abs(start - frame360) < 1e-4)
        #expect(verdicts.allSatisfy { abs($0.videoGapOutMilliseconds ?? 1) < 1e-3 })
    }

    /// On a ladder, ABR switches rendition around the breaks: each content frame is checked against the
    /// rendition that played it. The checker compared every frame with the last rendition's decode and
    /// called right frames WRONG (exit 3).
    @Test func contentFramesAreCheckedAgainstTheRenditionThatPlayedThem() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [8, 20].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)]) })
        // 1.5 Mbit/s: the rung climbs and settles around the breaks.
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/ts/master.m3u8"), adMap: map, live: false,
                                                                        megabitsPerSecond: 1.5)
        let verdicts = result.boundaries
        let allExact = verdicts.allSatisfy { $0.exact }
        #expect(allExact, "\(verdicts.map(\.problems))")
        // The content frames around the breaks came from more than one rendition.
        let frames = result.report.adBoundaries.flatMap { [$0.lastContentBefore, $0.firstContentAfter] }.compactMap { $0?.segmentURL }
        let renditions = Set(frames.map { $0.split(separator: "/").dropLast().joined(separator: "/") })
        #expect(frames.count == 4 && renditions.count > 1, "\(frames)")
    }

    /// The ad plays the rendition matching the content's rung when its break starts, not the one matching
    /// the first rung chosen at load (the lowest, 416x234, while the content played 3.37 Mbit/s).
    @Test func theAdRenditionMatchesTheContentsRungWhenTheBreakStarts() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/ts/master.m3u8")
        let map = AdMap(breaks: [AdMap.Entry(time: 8, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)])])
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            configuration.ads = PlayerFixtures.ads(map, for: url)
        }
        let record = try #require(run.report.adBoundaries.first)
        // The content's rung when the break began: the last bitrate change before the first ad frame.
        let start = try #require(run.events.first { if case .adBreakStarted = $0.kind { return true } else { return false } }).playerTime
        let rung = run.report.bitrateSwitches.last { $0.playerTime <= start }?.toBitsPerSecond
        #expect(rung == 3_370_400, "the content climbed to the top rung before the break")
        #expect(record.adMediaURLs.first?.hasSuffix("/ad/v3/index.m3u8") == true, "\(record.adMediaURLs)")
        #expect(run.report.finalStatus == .completed)
    }

    /// A frame sink that counts what it is given.
    final class CountingSink: FrameDumpSink, @unchecked Sendable {
        var video = 0, audio = 0
        func video(_ frame: RawVideoFrame) { video += 1 }
        func audio(_ frame: RawAudioFrame) { audio += 1 }
        func close() throws(DumpError) {}
    }

    /// The dump has every presented frame, the ads' too (they were left out: 900 frames dumped of 1,200 shown).
    @Test func theDumpHoldsThePresentedAdFrames() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = server.url("/cues/ts/master.m3u8")
        let map = AdMap(breaks: [AdMap.Entry(time: 10, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)])])
        var configuration = PlayerConfiguration()
        configuration.ads = PlayerFixtures.ads(map, for: url)
        let sink = CountingSink()
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)), dump: sink)
        let report = await player.run()
        #expect(report.framesPresented["video"] == 1200)
        #expect(sink.video == 1200)
        #expect(sink.audio == report.framesPresented["audio"])
    }

    /// Ad segments (another server, short files) do not feed the content's throughput estimate: on a 50 Mbit/s
    /// link the content stays on its top rung across the breaks. After each break it fell to 640x360.
    @Test func adSegmentsDoNotPullTheContentsRungDown() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/ts/master.m3u8")
        let map = AdMap(breaks: [8, 20].map { AdMap.Entry(time: $0, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)]) })
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            configuration.ads = PlayerFixtures.ads(map, for: url)
            configuration.mode = .demux
        }
        let top = 3_370_400
        let switches = run.report.bitrateSwitches.map(\.toBitsPerSecond)
        let reachedTop = try #require(switches.firstIndex(of: top), "\(switches)")
        #expect(switches[reachedTop...].allSatisfy { $0 == top }, "no step down once at the top: \(switches)")
        #expect(run.report.adBoundaries.count == 2)
    }

    /// Two breaks of one answer at one place (a post-roll and a break moved after the content's end to it; two
    /// entries at 10 s) make one break with the ads of both, in order. The second was dropped without a word.
    @Test(arguments: [[30.0, 500], [10, 10]])
    func breaksOfOneAnswerAtOnePlaceMerge(times: [Double]) async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: times.enumerated().map { index, time in
            AdMap.Entry(time: time, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "ad\(index)")])
        })
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/master.m3u8"), adMap: map, live: false)
        let breaks = result.report.adTimeline?.breaks ?? []
        #expect(breaks.count == 1 && breaks.first?.ads.map(\.id) == ["ad0", "ad1"], "\(breaks.map { ($0.contentSeconds, $0.ads.map(\.id)) })")
        #expect(result.report.framesPresented["video"] == 900 + 600)
        let verdicts = result.boundaries
        let allExact = verdicts.allSatisfy { $0.exact }
        #expect(allExact, "\(verdicts.map(\.problems))")
    }

    /// An ad declared 5 s whose media lasts 10 s: its quartiles are fractions of the 10 s that play (they were
    /// of 5 s, the midpoint a quarter of the way in), and an adDurationMismatch event says so.
    @Test func anAdsQuartilesFollowItsMediaNotItsDeclaredDuration() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let map = AdMap(breaks: [AdMap.Entry(time: 10, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 5, id: "short")])])
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            configuration.ads = PlayerFixtures.ads(map, for: url)
        }
        let mismatch = run.events.compactMap { if case let .custom(name, payload) = $0.kind, name == "adDurationMismatch" { return payload } else { return nil } }
        #expect(mismatch.count == 1 && mismatch.first?["declaredSeconds"] == "5" && mismatch.first?["mediaSeconds"] == "10", "\(mismatch)")
        let progress = run.events.compactMap { if case let .adProgress(info) = $0.kind { return info } else { return nil } }
        #expect(!progress.isEmpty && progress.allSatisfy { abs($0.durationSeconds - 10) < 0.01 })
        #expect(run.events.contains { if case .adCompleted = $0.kind { return true } else { return false } })
    }

    /// A break placed after the content's end plays as the post-roll, said in an `adBreakMoved` event. The
    /// session used to run on from 30 s to 500 s presenting nothing, with no stall, then play the ad.
    @Test func aBreakAfterTheContentsEndIsThePostRoll() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [AdMap.Entry(time: 500, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/master.m3u8"), adMap: map, live: false)
        #expect(result.allExact, "\(result.boundaries.map(\.problems))")
        #expect(result.report.adTimeline?.breaks.map(\.contentSeconds) == [30])
        #expect(result.report.adTimeline?.breaks.map { $0.placement(contentDurationSeconds: 30) } == ["postroll"])
        #expect(result.report.framesPresented["video"] == 900 + 300)
        #expect(abs(result.report.positionSeconds - 40) < 0.01, "\(result.report.positionSeconds)")
        #expect(result.report.finalStatus == .completed)
    }

    @Test func fullEventReplayReplacesMidRollsInAVOD() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/cues/ts/master.m3u8"), adMap: Self.adMap,
                                                                        live: false, mode: .manifestCues)
        #expect(result.allExact)
        #expect(result.boundaries.map(\.kind) == ["replacement", "replacement"])
        #expect(result.boundaries.map(\.expectedFirstContentAfter) == [14, 23])
        #expect(result.report.framesPresented["video"] == 900)
    }

    @Test func theAdRenditionMatchesTheContentBitrate() {
        let variants = [400, 800, 1600].map { VariantStream(uri: "v\($0).m3u8", bandwidth: $0 * 1000) }
        #expect(MediaPlayer.adVariant(variants, matching: 950_000).bandwidth == 800_000)
        #expect(MediaPlayer.adVariant(variants, matching: 1_600_000).bandwidth == 1_600_000)
        #expect(MediaPlayer.adVariant(variants, matching: 100_000).bandwidth == 400_000)
        #expect(MediaPlayer.adVariant(variants, matching: nil).bandwidth == 400_000)
    }

    @Test func adEventsFollowThePresentedFrames() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            configuration.ads = PlayerFixtures.ads(Self.adMap, for: url)
        }
        #expect(run.report.finalStatus == .completed)
        let names = run.events.map(\.kind.name).filter { $0.hasPrefix("ad") && $0 != "adProgress" }
        #expect(names == ["adBreakStarted", "adStarted", "adCompleted", "adBreakCompleted",
                          "adBreakStarted", "adStarted", "adCompleted", "adBreakCompleted"])
        // The first ad starts at timeline 10 s; the second at 27 s (17 s of content + the first ad).
        let starts = run.events.compactMap { event -> Double? in if case .adStarted = event.kind { return event.playerTime } else { return nil } }
        #expect(starts.count == 2)
        #expect(abs(starts[0] - (run.report.adBoundaries[0].firstAd?.timelineSeconds ?? -1) - firstFrameDelay(run)) < 1e-6)
        // Quartile progress: the first frame at or past 2.5, 5 and 7.5 s of each ad.
        let progress = run.events.compactMap { event -> AdEventInfo? in if case let .adProgress(info) = event.kind { return info } else { return nil } }
        for quarter in [2.5, 5.0, 7.5] {
            let hits = progress.filter { $0.adId == "ad-at-10" && $0.offsetSeconds >= quarter - 1e-9 && $0.offsetSeconds < quarter + 1.0 / 30 - 1e-9 }
            #expect(hits.count == 1, "quartile at \(quarter) s")
        }
        let completed = run.events.compactMap { event -> AdEventInfo? in if case let .adCompleted(info) = event.kind { return info } else { return nil } }
        #expect(completed.map(\.offsetSeconds).allSatisfy { abs($0 - 10) < 1e-6 })
        #expect(run.report.adTimeline?.breaks.allSatisfy(\.watched) == true)
    }

    @Test func demuxModeAdEventsCarryTheMediaTimestampsDecodeModeSees() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        func adEvents(_ mode: DecodeMode) async -> [String] {
            let run = await PlayerFixtures.playVirtual(url) { configuration in
                configuration.ads = PlayerFixtures.ads(Self.adMap, for: url)
                configuration.mode = mode
            }
            return run.events.compactMap { event -> String? in
                switch event.kind {
                case let .adStarted(info), let .adProgress(info), let .adCompleted(info):
                    return "\(event.kind.name) \(info.adId) offset \(String(format: "%.4f", info.offsetSeconds)) pts \(String(format: "%.4f", info.pts))"
                default: return nil
                }
            }
        }
        let decoded = await adEvents(.decode)
        let demuxed = await adEvents(.demux)
        #expect(decoded.count > 6)
        // The ads' timestamps start near 1.47 s (the muxer's delay), so a pts equal to the offset would differ.
        #expect(demuxed == decoded)
    }

    /// Session time of the first presented frame (events carry session time; boundaries timeline time).
    private func firstFrameDelay(_ run: PlayerFixtures.Run) -> Double {
        run.events.first { $0.kind == .playStarted }?.playerTime ?? 0
    }

    @Test func aVerdictOnTheWrongFrameIsNotExact() {
        let content = (0..<60).map { AdBoundaryChecker.ReferenceFrame(seconds: Double($0) / 30, pts: 1.4 + Double($0) / 30, duration: 1.0 / 30, md5: "c\($0)", isKeyframe: $0 % 60 == 0) }
        let ad = [AdBoundaryChecker.ReferenceFrame(seconds: 0, pts: 1.4, duration: 1.0 / 30, md5: "ad0", isKeyframe: true)]
        func frame(_ seconds: Double, _ md5: String) -> BoundaryFrame {
            BoundaryFrame(sourceSeconds: seconds, timelineSeconds: seconds, ptsSeconds: nil, durationSeconds: 1.0 / 30, md5: md5, isKeyframe: nil, pictureType: nil)
        }
        var record = AdBoundaryRecord(breakId: "b", cueContentSeconds: 1, replacedContentSeconds: 0, resumeContentSeconds: 1)
        record.lastContentBefore = frame(29.0 / 30, "c29")
        record.firstAd = BoundaryFrame(sourceSeconds: 0, timelineSeconds: 1, ptsSeconds: 1.4, durationSeconds: 1.0 / 30, md5: "ad0", isKeyframe: true, pictureType: "I")
        record.lastAd = BoundaryFrame(sourceSeconds: 0, timelineSeconds: 1, ptsSeconds: 1.4, durationSeconds: 1.0 / 30, md5: "ad0", isKeyframe: true, pictureType: "I")
        record.firstContentAfter = BoundaryFrame(sourceSeconds: 1, timelineSeconds: 1.0 + 1.0 / 30, ptsSeconds: nil, durationSeconds: 1.0 / 30, md5: "c30", isKeyframe: nil, pictureType: nil)
        #expect(AdBoundaryChecker.verdict(record, content: content, ad: ad).exact)
        // One frame late back into content: not exact, and the error says one frame.
        record.firstContentAfter = BoundaryFrame(sourceSeconds: 31.0 / 30, timelineSeconds: 1.0 + 1.0 / 30, ptsSeconds: nil, durationSeconds: 1.0 / 30, md5: "c31", isKeyframe: nil, pictureType: nil)
        let late = AdBoundaryChecker.verdict(record, content: content, ad: ad)
        #expect(!late.exact && late.inErrorFrames == 1 && !late.problems.isEmpty)
        // The wrong picture at the right time: not exact either.
        record.firstContentAfter = BoundaryFrame(sourceSeconds: 1, timelineSeconds: 1.0 + 1.0 / 30, ptsSeconds: nil, durationSeconds: 1.0 / 30, md5: "other", isKeyframe: nil, pictureType: nil)
        #expect(!AdBoundaryChecker.verdict(record, content: content, ad: ad).exact)
    }

    /// A break cued at a segment's listed start where the content before it is listed short (`short` s per
    /// segment over the last `segments` of the five before the cue, no discontinuity): the player shows that
    /// media's last frames, then the ad; the check agrees. It expected the cut at the listed time and called the
    /// boundary three frames late (NOT EXACT, 0.1 s); past half a second of drift the player did not move the
    /// break at all: the ad began under the content's last 0.6 s and left a hole as long after it; past a
    /// segment's worth (2.5 s) content resumed with the segment the EXTINF grid put 10 s at, a segment late.
    /// Listed long (`short` negative: EXTINFs that overcount), the break moves back to where that media ends;
    /// it stayed at the cue after a hole, and content resumed inside the segment before (frames shown twice).
    /// A cue `inside` seconds before the listed start is in the last of those segments (media 8–10 s): it cuts
    /// at the cue held inside that media, 8 s when drift put the media after the cue (content played on past it,
    /// 2 frames lost, QA40 #2), 10 s when it put the media before it.
    @Test(arguments: [(segments: 1, short: 0.1, inside: 0.0), (segments: 5, short: 0.12, inside: 0.0), (segments: 5, short: 0.5, inside: 0.0),
                      (segments: 1, short: -0.1, inside: 0.0), (segments: 5, short: -0.5, inside: 0.0),
                      (segments: 5, short: 0.5, inside: 0.7), (segments: 5, short: -0.5, inside: 0.7)])
    func aCueAfterContentListedShortCutsWhereThatContentEnds(segments: Int, short: Double, inside: Double) async throws {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        var lines = try String(contentsOfFile: PlayerFixtures.streams + "/cues/ts/vod.m3u8", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("seg") { lines[index] = origin.url("/cues/ts/" + line) }
        for segment in (5 - segments)..<5 {
            let uri = try #require(lines.firstIndex { $0.hasSuffix("/seg00\(segment).ts") })
            lines[uri - 1] = "#EXTINF:\(2 - short),"
        }
        let cue = 10 - Double(segments) * short - inside
        // Listed long by less than half a second, the next segment's first pictures are before the cue: shown
        // first, as pictures reordered across a segment's end are (MediaPlayer.shortOfCueSeconds).
        let atStart = short < 0 && Double(segments) * -short < 0.5 ? cue + inside : 10
        let cut = inside == 0 ? atStart : min(max(cue, 8), 10)
        server.register(lines.joined(separator: "\n"), at: "/short.m3u8", contentType: "application/vnd.apple.mpegurl")
        let map = AdMap(breaks: [.init(time: cue, cueId: nil, ads: [.init(url: origin.url("/cues/ad/master.m3u8"), duration: 10, id: "a")])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/short.m3u8"), adMap: map, live: false)
        let verdict = try #require(result.boundaries.first)
        #expect(result.boundaries.count == 1 && verdict.exact, "\(verdict.problems)")
        #expect(verdict.expectedLastContentBefore.map { abs($0 - (cut - 1.0 / 30)) < 1e-6 } == true, "\(verdict.expectedLastContentBefore ?? -1)")
        #expect(verdict.expectedFirstContentAfter.map { abs($0 - cut) < 1e-6 } == true && verdict.cueOnKeyframe == (cut == 8 || cut == 10))
        #expect(verdict.actualBreakTimelineSeconds.map { abs($0 - cut) < 1e-6 } == true, "\(verdict.actualBreakTimelineSeconds ?? -1)")
        // A cue 0.1 s before the listed start is inside the segment listed before it: it cuts there, held
        // inside that segment's media (8–10 s).
        let times = try await AdBoundaryChecker(client: client).referenceRendition(server.url("/short.m3u8")).times
        #expect(abs(AdBoundaryChecker.insertionCut(cue: cue + inside, times: times) - atStart) < 1e-9)
        #expect(abs(AdBoundaryChecker.insertionCut(cue: cue + inside - 0.1, times: times) - min(max(cue + inside - 0.1, 8), 10)) < 1e-9)
    }

    /// Every segment listed 1.5 s for its 2 s of media (listed end 22.5 s, media 30 s): a break cued at the listed
    /// start 19.5 s moves to where the media before ends, 26 s, past the listed end, and content resumes after it.
    /// The resume point was taken for the item's end: the break played as a post-roll and the last 120 content
    /// frames were never shown, exit 0 (QA41 #1).
    @Test func aBreakMovedPastTheListedEndResumesContent() async throws {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(try PlayerFixtures.cueContentListed(1.5, on: origin), at: "/short.m3u8", contentType: "application/vnd.apple.mpegurl")
        let map = AdMap(breaks: [.init(time: 19.5, cueId: nil, ads: [.init(url: origin.url("/cues/ad/master.m3u8"), duration: 10, id: "a")])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/short.m3u8"), adMap: map, live: false)
        let verdict = try #require(result.boundaries.first)
        #expect(verdict.exact, "\(verdict.problems)")
        #expect(verdict.actualBreakTimelineSeconds.map { abs($0 - 26) < 1e-6 } == true, "\(verdict.actualBreakTimelineSeconds ?? -1)")
        // The 30 s content at 30 fps and the 10 s ad, every frame.
        #expect(result.report.framesPresented["video"] == 900 + 300, "\(result.report.framesPresented)")
    }
}

/// A resolver that never answers.
final class SilentResolver: ContentResolver, @unchecked Sendable {
    let timeoutSeconds: Double
    private let lock = NSLock()
    private var cancels = 0
    init(timeoutSeconds: Double) { self.timeoutSeconds = timeoutSeconds }
    func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.kind == .breakStart }
    func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {}
    func cancel() { lock.withLock { cancels += 1 } }
    var cancelled: Int { lock.withLock { cancels } }
}

/// A resolver that fails at once with AD_UNREACHABLE.
final class FailingResolver: ContentResolver, @unchecked Sendable {
    func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.kind == .breakStart }
    func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {
        delegate.resolver(self, didFail: opportunity, with: PlayerNotification.make(.adUnreachable, metadata: ["URL": "http://127.0.0.1:9/ads"], playerTime: 0))
    }
}

@Suite struct ResolverFailureTests {
    func play(_ resolver: any ContentResolver, live: Bool) async throws -> PlaybackReport {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: resolver)
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.ads = AdSettings(factory: factory)
        var network: any PlayerNetwork = SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50))
        if live { network = SimulatedLiveNetwork(inner: network, prefix: server.url("/cues/")) }
        let player = MediaPlayer(url: server.url("/cues/ts/master.m3u8"), configuration: configuration, driver: VirtualTimeDriver(), network: network)
        return await player.run()
    }

    @Test(arguments: [false, true])
    func aResolverThatNeverAnswersTimesOutAndContentPlaysOn(live: Bool) async throws {
        let resolver = SilentResolver(timeoutSeconds: 0.2)
        let report = try await play(resolver, live: live)
        #expect(report.finalStatus == .completed)
        #expect(report.framesPresented["video"] == 900)
        #expect(report.rebuffers.isEmpty)
        #expect(report.adBoundaries.isEmpty)
        let timeouts = report.notifications.filter { $0.code == .adTimeout }
        #expect(timeouts.count == 2)
        #expect(timeouts.first?.inner.first?.name == "AD_INSERTION_FAIL")
        #expect(timeouts.first?.inner.first?.inner.first?.name == "AD_NOT_INSERTED")
        #expect(resolver.cancelled == 2)
    }

    @Test(arguments: [false, true])
    func aResolverThatFailsIsRecordedAndContentPlaysOn(live: Bool) async throws {
        let report = try await play(FailingResolver(), live: live)
        #expect(report.finalStatus == .completed)
        #expect(report.framesPresented["video"] == 900)
        #expect(report.rebuffers.isEmpty)
        #expect(report.notifications.filter { $0.code == .adUnreachable }.count == 2)
    }
}

/// Plays no break a seek passes over (the PSDK default plays the last unwatched one).
struct NoBreaksOnSeekSelector: AdPolicySelector {
    func selectAdBreaksToPlay(_ info: AdPolicyInfo) -> [Int] { [] }
    func selectPolicyForAdBreak(_ info: AdPolicyInfo) -> AdBreakPolicy { .play }
    func selectPolicyForSeekIntoAd(_ info: AdPolicyInfo) -> AdSeekPolicy { .playFromAdStart }
}

@Suite struct LocalTimeTests {
    /// Two 10 s ads inserted at 10 s and 17 s of a 30 s VOD; at 2 s, seekToLocalTime(20).
    func play(selector: (any AdPolicySelector)?) async throws -> (PlayerFixtures.Run, [String]) {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let run = await PlayerFixtures.playVirtual(url, configure: { configuration in
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: AdMapResolver(map: try! SpliceTests.adMap.resolvingURLs(against: url)))
            if let selector { factory.register(adPolicySelector: selector) }
            configuration.ads = AdSettings(factory: factory)
            configuration.hashFrames = true
        }, scheduled: [.init(atPositionSeconds: 2, action: .seekToLocal(seconds: 20))])
        return (run, await PlayerFixtures.ffmpegHashes(server.url("/cues/ts/vod.m3u8")))
    }

    @Test func localTimeFollowsTheHandComputedTableAndSeekToLocalTimeLandsOnTheContentFrame() async throws {
        let (run, reference) = try await play(selector: NoBreaksOnSeekSelector())
        let timeline = try #require(run.report.adTimeline)
        // virtual → local: content before the first break, the cue inside a break, content minus ads after.
        let table: [(virtual: Double, local: Double)] = [(0, 0), (5, 5), (9.9, 9.9), (10, 10), (15, 10), (19.9, 10), (20, 10),
                                                         (25, 15), (26.9, 16.9), (27, 17), (30, 17), (37, 17), (40, 20), (50, 30)]
        for row in table {
            #expect(abs(timeline.localSeconds(atVirtual: row.virtual) - row.local) < 1e-6, "localTime at \(row.virtual)")
            #expect(abs(timeline.convertToLocalTime(row.virtual) - row.local) < 1e-6)
        }
        #expect(abs(timeline.virtualSeconds(forLocal: 20) - 40) < 1e-6)
        #expect(abs(timeline.virtualSeconds(forLocal: 5) - 5) < 1e-6)
        // The seek to local 20 s passed both breaks and presented content frame 600 first.
        let seek = try #require(run.report.seeks.first)
        #expect(abs((seek.firstFrameSeconds ?? -1) - 40) < 1e-6)
        #expect(run.report.adBoundaries.isEmpty)
        #expect(reference.count == 900)
        // Frames 0–59 (0–2 s), then frame 600: the seek presented the content frame at 20 s next.
        let video = run.presented.filter { $0.kind == .video }
        #expect(video.prefix(60).map(\.md5) == Array(reference.prefix(60)))
        #expect(video.dropFirst(60).first?.md5 == reference[600])
        #expect(video.count == 60 + 300)
    }

    /// PSDK default: a seek forward over unwatched breaks plays the last one skipped, then lands.
    @Test func theDefaultPolicyPlaysTheLastSkippedBreakThenLands() async throws {
        let (run, reference) = try await play(selector: nil)
        #expect(run.report.seeks.count == 2)
        // First the break at 17 s (timeline 27 s, after the 10 s break at 10 s), then the landing at 40 s.
        #expect(abs((run.report.seeks.first?.firstFrameSeconds ?? -1) - 27) < 1e-6)
        #expect(abs((run.report.seeks.last?.toSeconds ?? -1) - 40) < 1e-6)
        #expect(abs((run.report.seeks.last?.firstFrameSeconds ?? -1) - 40) < 1e-6)
        #expect(run.report.adBoundaries.map(\.breakId) == ["splice-17"])
        #expect(run.report.adTimeline?.breaks.map(\.watched) == [false, true])
        let video = run.presented.filter { $0.kind == .video }
        #expect(video.count == 60 + 300 + 300)
        #expect(video.dropFirst(60 + 300).first?.md5 == reference[600])
        // The break played to its end: its ad completes (not skipped) and the break ends before the
        // landing seek starts; its boundary has its last ad frame. (The landing seek used to leave the
        // finished ad as skipped, firing the skip beacon instead of complete, with no lastAd.)
        let names = run.events.map(\.kind.name).filter { ["adBreakStarted", "adBreakCompleted", "adCompleted", "adSkipped", "seekStarted", "seekCompleted"].contains($0) }
        #expect(names == ["seekStarted", "seekCompleted", "adBreakStarted", "adCompleted", "adBreakCompleted", "seekStarted", "seekCompleted"])
        let lastAd = try #require(run.report.adBoundaries.first?.lastAd)
        #expect(lastAd.md5 == video[60 + 299].md5)
    }
}

/// Records the opportunities it is given; answers with no break.
final class RecordingResolver: ContentResolver, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [PlacementOpportunity] = []
    func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.tag == "#EXT-X-BLACKOUT" }
    func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {
        lock.withLock { seen.append(opportunity) }
        delegate.resolver(self, didResolve: opportunity, into: [])
    }
    var opportunities: [PlacementOpportunity] { lock.withLock { seen } }
}

@Suite(.serialized) struct CustomAdTagTests {
    /// The cue stream with `#EXT-X-BLACKOUT:ID=b1` before its segment at 6 s, served from a second folder.
    func play(itemTags: [String], globalTags: [String]) async throws -> [PlacementOpportunity] {
        MediaLog.level = .quiet
        let streams = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { streams.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blackout-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = try String(contentsOfFile: PlayerFixtures.streams + "/cues/ts/vod.m3u8", encoding: .utf8)
        text = text.replacingOccurrences(of: "seg0", with: streams.url("/cues/ts/seg0"))
        text = text.replacingOccurrences(of: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:06.000Z", with: "#EXT-X-BLACKOUT:ID=b1\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:06.000Z")
        try text.write(to: folder.appendingPathComponent("blackout.m3u8"), atomically: true, encoding: .utf8)
        let items = try LoopbackHTTPServer(root: folder.path)
        defer { items.stop() }
        let resolver = RecordingResolver()
        try AdSettings.setGlobalExtraAdTags(globalTags)
        defer { try? AdSettings.setGlobalExtraAdTags([]) }
        let run = await PlayerFixtures.playVirtual(items.url("/blackout.m3u8")) { configuration in
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: resolver)
            var settings = AdSettings(factory: factory)
            try? settings.setExtraAdTags(itemTags)
            configuration.ads = settings
            configuration.mode = .demux
        }
        #expect(run.report.finalStatus == .completed)
        return resolver.opportunities
    }

    @Test func anExtraAdTagOfTheItemReachesTheResolver() async throws {
        #expect(try await play(itemTags: [], globalTags: []).isEmpty)
        let found = try await play(itemTags: ["#EXT-X-BLACKOUT"], globalTags: [])
        #expect(found.count == 1)
        #expect(found.first?.id == "b1" && found.first?.contentSeconds == 6 && found.first?.rawText == "#EXT-X-BLACKOUT:ID=b1")
        // The same tag set for every item.
        #expect(try await play(itemTags: [], globalTags: ["#EXT-X-BLACKOUT"]).map(\.id) == ["b1"])
    }

    @Test func badTagsAreRefused() {
        var settings = AdSettings(factory: MediaPlayerClientFactory())
        #expect(throws: AdTagError.missingHash("EXT-X-BLACKOUT")) { try settings.setExtraAdTags(["EXT-X-BLACKOUT"]) }
        #expect(throws: AdTagError.empty) { try AdSettings.setGlobalExtraAdTags([""]) }
    }
}

/// The PSDK's advertising requirements, checked by the player before it splices an ad.
@Suite struct AdRequirementsInPlayerTests {
    func play(_ item: String, ad: String) async throws -> PlaybackReport {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url(item)
        let map = AdMap(breaks: [.init(time: 10, cueId: nil, ads: [.init(url: server.url(ad), duration: 10, id: "checked")])])
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: AdMapResolver(map: map))
            configuration.ads = AdSettings(factory: factory)
            configuration.mode = .demux
        }
        return run.report
    }

    @Test func anAdWithLongerSegmentsThanTheContentIsNotInserted() async throws {
        // The 4 s-segment ad into the 2 s-segment content: AD_TARGET_DURATION_TOO_LONG, content plays on.
        let report = try await play("/cues/ts/master.m3u8", ad: "/ad/master.m3u8")
        let failure = try #require(report.notifications.first { $0.code == .adTargetDurationTooLong })
        #expect(failure.inner.first?.code == .adInsertionFail && failure.inner.first?.inner.first?.code == .adNotInserted)
        #expect(report.adBoundaries.isEmpty && report.framesPresented["video"] == 900)
    }

    @Test func theBytesOfAnAdPlaylistThatCannotBeParsedStillCount() async throws {
        // A JSON file where the ad's playlist should be: fetched, unparsable, not inserted; its bytes
        // are in the report, on top of what the same session downloads when the ad's URL is a 404.
        // The map's break at 10 s meets the content's own cue at 10 s: the server map placed it, so the
        // cue does not try the ad again (one fetch, one AD_NOT_INSERTED).
        let missing = try await play("/cues/ts/vod.m3u8", ad: "/cues/missing.m3u8")
        let unparsable = try await play("/cues/ts/vod.m3u8", ad: "/cues/admap.json")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: PlayerFixtures.streams + "/cues/admap.json")[.size] as? Int)
        let attempts = unparsable.notifications.filter { $0.code == .adNotInserted && $0.metadata["DESCRIPTION"]?.contains("#EXTM3U") == true }.count
        #expect(attempts == 1)
        #expect(missing.notifications.filter { $0.code == .adNotInserted }.count == 1)
        for report in [missing, unparsable] {
            #expect(report.adBoundaries.isEmpty && report.framesPresented["video"] == 900)
        }
        #expect(unparsable.bytesDownloaded - missing.bytesDownloaded == size)
    }

    @Test func adVersionsAreComparedLikeWithLike() async throws {
        // The content's media playlist (version 3) with an ad whose multivariant playlist is version 6 over
        // media playlists of version 3: media against media, it fits (it was rejected, 170000).
        let report = try await play("/cues/ts/vod.m3u8", ad: "/cues/ad/master.m3u8")
        #expect(!report.notifications.contains { $0.code == .adVersionIncompatible })
        #expect(report.adBoundaries.count == 1 && report.framesPresented["video"] == 1200)
        // And against the content's multivariant playlist (version 6).
        let fits = try await play("/cues/ts/master.m3u8", ad: "/cues/ad/master.m3u8")
        #expect(fits.adBoundaries.count == 1 && fits.framesPresented["video"] == 1200)
    }
}
