import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// Fails fetches of URLs ending in `suffix` with HTTP 500 while the session time is in `window`.
struct FailingPlaylistNetwork: PlayerNetwork {
    let inner: any PlayerNetwork
    let suffix: String
    let window: ClosedRange<Double>

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        if url.hasSuffix(suffix), window.contains(sessionSeconds) {
            throw .network(.status(url: url, code: 500, bodyPrefix: Array("overloaded".utf8)))
        }
        return try await inner.fetch(url, range: range, at: sessionSeconds)
    }
}

/// Serves `texts` (by URL suffix) in place of what the network has there.
struct TextPlaylistNetwork: PlayerNetwork {
    let inner: any PlayerNetwork
    let texts: [String: String]

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        guard let text = texts.first(where: { url.hasSuffix($0.key) })?.value else { return try await inner.fetch(url, range: range, at: sessionSeconds) }
        let body = Array(text.utf8)
        return NetworkTransfer(url: url, effectiveURL: url, status: 200, body: body, seconds: 0.01, firstByteSeconds: 0.01, bytesOnWire: body.count)
    }
}

/// Blackouts on the generated `blackout/index.m3u8`: ts/v0 (30 s, 30 fps, 4 s segments) with
/// `#EXT-X-BLACKOUT:START` at 8 s and `#EXT-X-BLACKOUT:END` at 20 s; the alternate content is the 10 s ad
/// creative `ad/v0` (30 fps). Every presented frame is checked against FFmpeg's decode of its source.
@Suite(.serialized) struct BlackoutTests {
    static let tag = "#EXT-X-BLACKOUT"

    struct Played {
        var report: PlaybackReport
        var events: [PlayerEvent]
        var hashes: [String]
        var custom: [(name: String, payload: [String: String], time: Double)] {
            events.compactMap { if case let .custom(name, payload) = $0.kind { (name, payload, $0.playerTime) } else { nil } }
        }
        func custom(_ name: String) -> [[String: String]] { custom.filter { $0.name == name }.map(\.payload) }
    }

    /// Plays the blackout playlist (live: a window growing from `initialSegments`, or VOD) on the virtual clock.
    func play(live: Bool = true, initialSegments: Int = 3, alternate: String = "/ad/v0/index.m3u8", start: Double? = nil,
              scheduled: [ScheduledCommand] = [], failReloads: ClosedRange<Double>? = nil,
              playlist: String = "/blackout/index.m3u8", tag: String = BlackoutTests.tag, duration: Double? = nil,
              texts: [String: String] = [:], adMap: AdMap? = nil) async throws -> Played {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        var network: any PlayerNetwork = SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50))
        if !texts.isEmpty { network = TextPlaylistNetwork(inner: network, texts: texts) }
        if live { network = SimulatedLiveNetwork(inner: network, prefix: server.url("/blackout/"), initialSegments: initialSegments) }
        if let failReloads { network = FailingPlaylistNetwork(inner: network, suffix: playlist, window: failReloads) }
        var configuration = PlayerConfiguration()
        configuration.hashFrames = true
        configuration.startSeconds = start
        configuration.blackout = BlackoutSettings(tag: tag, alternateURL: server.url(alternate))
        if let adMap { configuration.ads = PlayerFixtures.ads(adMap, for: server.url(playlist)) }
        let player = MediaPlayer(url: server.url(playlist), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: network, scheduled: scheduled)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        player.observeFrames(streams: { _ in }, packets: { _ in }, presented: { collected.present($0) })
        let report = await player.run(maxSessionSeconds: duration ?? 120)
        subscription.cancel()
        let video = collected.frames.filter { $0.kind == .video }.compactMap(\.md5)
        return Played(report: report, events: collected.events, hashes: video)
    }

    /// `blackout/index.m3u8` (VOD) with its blackout tags replaced by `tags`, by segment index (0–7, 4 s each).
    static func playlist(tags: [Int: [String]]) throws -> String {
        let text = try String(contentsOfFile: PlayerFixtures.streams + "/blackout/index.m3u8", encoding: .utf8)
        var lines: [String] = [], index = 0
        for line in text.split(separator: "\n").map(String.init) where !line.hasPrefix(Self.tag) {
            if line.hasPrefix("#EXTINF") { lines += tags[index, default: []]; index += 1 }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where two hash lists first differ ("count a vs b" when one is a prefix of the other); nil when equal.
    /// (A failed `==` on 900 hashes printed both lists whole.)
    static func mismatch(_ actual: [String], _ expected: [String]) -> String? {
        if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "frame \(index): \(actual[index]) instead of \(expected[index])"
        }
        return actual.count == expected.count ? nil : "\(actual.count) frames instead of \(expected.count)"
    }

    static func hashes(_ path: String) async -> [String] {
        await PlayerFixtures.ffmpegHashes(URL(fileURLWithPath: PlayerFixtures.streams).appendingPathComponent(path).path)
    }

    @Test func aLiveBlackoutPlaysTheAlternateContentFromTheStartTagToTheEndTagFrameExact() async throws {
        let played = try await play()
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.rebuffers.isEmpty)
        try #require(report.blackouts.count == 1)
        let blackout = report.blackouts[0]
        #expect(blackout.id == "#EXT-X-BLACKOUT@2")
        #expect(blackout.startSeconds == 8 && blackout.endSeconds == 20 && blackout.replacedFromSeconds == 8)
        #expect(blackout.startMediaSequence == 2 && blackout.endMediaSequence == 5)
        // 12 s of blackout: the 10 s alternate, then its first 2 s again.
        #expect(blackout.alternateLoops == 2)
        // The end tag came on a reload made while the alternate content played (the main playlist in the background).
        #expect(!blackout.knownAtLoad)
        #expect(blackout.backgroundReloads >= 1)
        // The alternate content shows from the start tag's time to the end tag's, then the main content, frame for frame.
        let content = await Self.hashes("ts/v0/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        try #require(content.count == 900 && alternate.count == 300)
        let expected = Array(content[..<240]) + alternate + Array(alternate[..<60]) + Array(content[600...])
        #expect(played.hashes.count == expected.count)
        #expect(Self.mismatch(played.hashes, expected) == nil)
        let boundary = try #require(report.adBoundaries.first { $0.breakId == "blackout:#EXT-X-BLACKOUT@2" })
        #expect(boundary.firstAd?.timelineSeconds == 8)
        #expect(boundary.firstContentAfter?.sourceSeconds == 20)
        #expect(abs((boundary.lastContentBefore?.timelineSeconds ?? 0) - (8 - 1.0 / 30)) < 1e-6)
        // Blackout events at the presented frames; no ad events for the alternate content.
        let started = try #require(played.custom.first { $0.name == "blackoutStarted" })
        let ended = try #require(played.custom.first { $0.name == "blackoutEnded" })
        #expect(started.payload["contentSeconds"] == "8" && ended.payload["loops"] == "2")
        #expect(abs(ended.time - started.time - 12) < 0.05)
        #expect(!played.events.contains { if case .adBreakStarted = $0.kind { true } else if case .adStarted = $0.kind { true } else { false } })
        let startIndex = try #require(played.custom.firstIndex { $0.name == "blackoutStarted" })
        let endFound = try #require(played.custom.firstIndex { $0.name == "blackoutEndDetected" })
        #expect(startIndex < endFound)
    }

    @Test func aBlackoutInTheWindowAtLoadIsANonSeekableRange() async throws {
        // VOD: both tags are known at load. A seek from 2 s to 10 s lands at the blackout's end, 20 s.
        let played = try await play(live: false, scheduled: [ScheduledCommand(atPositionSeconds: 2, action: .seek(toSeconds: 10))])
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].knownAtLoad)
        #expect(report.seeks.first?.toSeconds == 20)
        #expect(played.custom("blackoutSeekAdjusted").first?["toSeconds"] == "20")
        // Nothing of the blackout was shown: 2 s of content, then content from 20 s.
        let content = await Self.hashes("ts/v0/index.m3u8")
        #expect(Self.mismatch(played.hashes, Array(content[..<60]) + Array(content[600...])) == nil)
        #expect(report.blackouts[0].startedAtSessionSeconds == nil)
    }

    /// The same with every 4 s segment listed 3 s (the tags at 6 s and 15 s on the playlist's time, media 8 s and
    /// 20 s): the blackout is on the playlist's time, so the seek lands at the segment of the END tag, media 20 s.
    /// Seeks that found segments by their media put 15 s in media 12–16 s and showed 5 s of blacked-out content.
    @Test func aBlackoutUnderEXTINFDriftIsStillNonSeekable() async throws {
        let text = try String(contentsOfFile: PlayerFixtures.streams + "/blackout/index.m3u8", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("#EXTINF") ? "#EXTINF:3.0," : String($0) }
            .joined(separator: "\n")
        let played = try await play(live: false, scheduled: [ScheduledCommand(atPositionSeconds: 2, action: .seek(toSeconds: 10))],
                                    texts: ["/blackout/index.m3u8": text])
        #expect(played.report.finalStatus == .completed, "\(played.report.error ?? "")")
        #expect(played.report.seeks.first?.toSeconds == 15)
        let content = await Self.hashes("ts/v0/index.m3u8")
        #expect(Self.mismatch(played.hashes, Array(content[..<60]) + Array(content[600...])) == nil)
    }

    @Test func aSessionJoiningInsideAnOpenBlackoutShowsTheAlternateContentFromTheJoin() async throws {
        // Five segments listed at the start (0–20 s): the start tag is there, the end tag not yet. The join at
        // 13 s is inside the segment at 12 s: the alternate starts at 13 s, from its first frame.
        let played = try await play(initialSegments: 5, start: 13)
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].replacedFromSeconds == 13)
        let content = await Self.hashes("ts/v0/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        // The blacked-out content is never shown: the alternate content from its start at 13 s, then content at 20 s.
        #expect(Self.mismatch(played.hashes, Array(alternate[..<210]) + Array(content[600...])) == nil)
    }

    @Test func aStartInsideAKnownBlackoutLandsAtItsEnd() async throws {
        let played = try await play(live: false, start: 13)
        #expect(played.report.finalStatus == .completed, "\(played.report.error ?? "")")
        let adjusted = try #require(played.custom("blackoutSeekAdjusted").first)
        #expect(adjusted["requestedSeconds"] == "13" && adjusted["toSeconds"] == "20")
        let content = await Self.hashes("ts/v0/index.m3u8")
        #expect(Self.mismatch(played.hashes, Array(content[600...])) == nil)
    }

    @Test func aLiveMultivariantItemUnderABRHasItsBlackout() async throws {
        // ABR picks the first rung before the alternate is loaded: the tags it read then were lost, and the
        // content played through the blackout.
        let played = try await play(playlist: "/blackout/master.m3u8")
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].endSeconds == 20 && report.blackouts[0].alternateLoops == 2)
        let alternate = await Self.hashes("ad/v0/index.m3u8")
        try #require(played.hashes.count == 900)
        #expect(Self.mismatch(Array(played.hashes[240..<600]), alternate + Array(alternate[..<60])) == nil)
    }

    @Test func aSeekInsideAnOpenBlackoutStaysInItAtTheTarget() async throws {
        let played = try await play(scheduled: [ScheduledCommand(atPositionSeconds: 9, action: .seek(toSeconds: 11))])
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.seeks.first?.toSeconds == 11)
        let content = await Self.hashes("ts/v0/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        // 1 s of the alternate, then from 3 s into it (11 s), to the end tag, then content.
        #expect(Self.mismatch(played.hashes, Array(content[..<240]) + Array(alternate[..<30]) + Array(alternate[90...]) + Array(alternate[..<60]) + Array(content[600...])) == nil)
        // Still the same blackout: started once, ended once, at the first content frame after it.
        #expect(played.custom("blackoutStarted").count == 1)
        #expect(played.custom("blackoutEnded").count == 1)
        // (It ended at the first content frame, not at the seek, which said nothing.)
        let ended = try #require(report.blackouts.first?.endedAtSessionSeconds)
        let seekAt = try #require(report.seeks.first?.requestedAt)
        #expect(ended > seekAt + 8)
    }

    @Test func aSeekPastWhatIsListedOfAnOpenBlackoutStaysInTheAlternate() async throws {
        // A blackout from 8 s with no end tag (it ends with the playlist, at 30 s). At 10 s the window lists
        // up to 20 s; a seek to 22 s is inside the blackout. It landed at 20 s, past the blackout's listed
        // part, and played the content from there, inside the blackout.
        let noEnd = try Self.playlist(tags: [2: ["#EXT-X-BLACKOUT:START"]])
        let played = try await play(scheduled: [ScheduledCommand(atPositionSeconds: 10, action: .seek(toSeconds: 22))],
                                    playlist: "/blackout/noend.m3u8", texts: ["/blackout/noend.m3u8": noEnd])
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        let landed = try #require(report.seeks.first?.toSeconds)
        #expect(landed < 20 && landed > 19.9)
        let content = await Self.hashes("ts/v0/index.m3u8")
        try #require(played.hashes.count > 240)
        #expect(Self.mismatch(Array(played.hashes[..<240]), Array(content[..<240])) == nil)
        // Nothing of the content inside the blackout is shown.
        #expect(Set(played.hashes[240...]).isDisjoint(with: content[240...]))
        #expect(played.custom("blackoutEnded").isEmpty)
    }

    @Test func anAdBreakCuedInsideABlackoutLeavesTheTimeline() async throws {
        // VOD: an ad map break at 12 s, inside the 8–20 s blackout. Its content never plays, so neither does
        // it; it took its 10 s on the timeline all the same, and a seek to 25 s landed 10 s early.
        let map = AdMap(breaks: [AdMap.Entry(time: 12, cueId: nil, ads: [.init(url: "../ad/v0/index.m3u8", duration: 10, id: "in-blackout")])])
        let played = try await play(live: false, scheduled: [ScheduledCommand(atPositionSeconds: 2, action: .seek(toSeconds: 25))], adMap: map)
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(played.custom("adBreakInBlackout").count == 1)
        #expect(report.seeks.first?.toSeconds == 25)
        let content = await Self.hashes("ts/v0/index.m3u8")
        #expect(Self.mismatch(played.hashes, Array(content[..<60]) + Array(content[750...])) == nil)
        #expect(!played.events.contains { if case .adStarted = $0.kind { true } else { false } })
    }

    @Test func aBlackoutAtASegmentStartShowsThePicturesBeforeItThatSegmentHolds() async throws {
        // Long GOPs with B-frames cut by time: the segment at 2 s holds the last three pictures before 2 s.
        // The blackout entered at once and lost them (a 100 ms hole before the alternate).
        let text = try String(contentsOfFile: PlayerFixtures.streams + "/longgop/ts/index.m3u8", encoding: .utf8)
        var lines: [String] = [], index = 0
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#EXTINF") {
                if index == 1 { lines.append("#EXT-X-BLACKOUT:START") }
                if index == 3 { lines.append("#EXT-X-BLACKOUT:END") }
                index += 1
            }
            lines.append(line.hasSuffix(".ts") ? "../longgop/ts/" + line : line)
        }
        let played = try await play(live: false, playlist: "/blackout/longgop.m3u8", texts: ["/blackout/longgop.m3u8": lines.joined(separator: "\n") + "\n"])
        #expect(played.report.finalStatus == .completed, "\(played.report.error ?? "")")
        let content = await Self.hashes("longgop/ts/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        try #require(played.hashes.count > 61)
        // Every picture before 2 s, then the alternate from its first.
        #expect(Self.mismatch(Array(played.hashes[..<61]), Array(content[..<60]) + [alternate[0]]) == nil)
        let boundary = try #require(played.report.adBoundaries.first)
        #expect(abs((boundary.lastContentBefore?.sourceSeconds ?? 0) - 59.0 / 30) < 1e-6)
    }

    /// A seek back out of a blackout, which then plays again to its end tag: the report keeps the first return
    /// (the seek's), beside the first start (it kept the last, so the pair named no single stretch).
    @Test func theReportKeepsTheFirstReturnFromABlackoutLeftByASeek() async throws {
        let played = try await play(live: false, scheduled: [ScheduledCommand(atPositionSeconds: 10, action: .seek(toSeconds: 2))])
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(played.custom("blackoutEnded").map { $0["reason"] } == ["seek", "endTag"])
        let started = try #require(report.blackouts.first?.startedAtSessionSeconds)
        let ended = try #require(report.blackouts.first?.endedAtSessionSeconds)
        let seekAt = try #require(report.seeks.first?.requestedAt)
        #expect(ended > started && ended >= seekAt && ended < seekAt + 1, "started \(started), ended \(ended), seek \(seekAt)")
    }

    @Test func aSessionEndingInsideABlackoutDoesNotEndIt() async throws {
        let played = try await play(duration: 14)
        try #require(played.report.blackouts.count == 1)
        #expect(played.report.blackouts[0].startedAtSessionSeconds != nil)
        #expect(played.report.blackouts[0].endedAtSessionSeconds == nil)
        #expect(played.custom("blackoutEnded").isEmpty)
    }

    @Test func anIDUsedAgainAfterItsBlackoutEndedNamesANewOne() async throws {
        let text = try Self.playlist(tags: [1: ["#EXT-X-BLACKOUT:TYPE=START,ID=\"foo\""], 2: ["#EXT-X-BLACKOUT:TYPE=END,ID=\"foo\""],
                                            4: ["#EXT-X-BLACKOUT:TYPE=START,ID=\"foo\""], 6: ["#EXT-X-BLACKOUT:TYPE=END,ID=\"foo\""]])
        let played = try await play(live: false, playlist: "/blackout/custom.m3u8", texts: ["/blackout/custom.m3u8": text])
        let ranges = played.report.blackouts.map { "\($0.id) \($0.startSeconds)-\($0.endSeconds ?? -1)" }
        #expect(ranges == ["foo 4.0-8.0", "foo#2 16.0-24.0"])
        #expect(played.custom("blackoutTagIgnored").isEmpty)
    }

    @Test func anAlternateWhoseSegmentsAllFailEndsTheBlackoutsAlternateAndTheSessionCompletes() async throws {
        // It was played again and again from its start, each play failing, for ever.
        let broken = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nmissing0.ts\n#EXTINF:4.0,\nmissing1.ts\n#EXT-X-ENDLIST\n"
        let played = try await play(alternate: "/ad/broken.m3u8", texts: ["/ad/broken.m3u8": broken])
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.sessionSeconds < 60)
        #expect(report.damage.contains { $0.contains("alternate content") && $0.contains("missing0.ts") })
        #expect(played.custom("blackoutAlternateFailed").count == 1)
        // Nothing to show in its place: the content plays on.
        #expect(played.hashes.count == 900)
    }

    @Test func anAlternateThatCannotLoadLeavesTheContentOnAndSaysSo() async throws {
        let played = try await play(alternate: "/ad/missing.m3u8")
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.damage.contains { $0.contains("ad/missing.m3u8") && $0.contains("could not be loaded") })
        #expect(report.notifications.contains { $0.code == .networkError })
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].startedAtSessionSeconds == nil && report.blackouts[0].alternateLoops == 0)
        #expect(played.hashes.count == 900)
        // The blackout says it was not honoured, as when the alternate's segments fail (it said nothing).
        let failed = played.custom("blackoutAlternateFailed")
        #expect(failed.count == 1 && failed.first?["id"] == report.blackouts[0].id && failed.first?["description"]?.contains("missing.m3u8") == true,
                "\(failed)")
    }

    @Test func aReloadFailingDuringTheBlackoutIsABackgroundErrorAndTheEndStillComes() async throws {
        // The reload due at about 12.3 s fails; the next one, 2 s later, finds the end tag.
        let played = try await play(failReloads: 11.9...12.5)
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].backgroundErrors == 1)
        #expect(report.blackouts[0].endSeconds == 20)
        #expect(played.custom("backgroundManifestError").first?["url"]?.hasSuffix("/blackout/index.m3u8") == true)
        let content = await Self.hashes("ts/v0/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        #expect(Self.mismatch(played.hashes, Array(content[..<240]) + alternate + Array(alternate[..<60]) + Array(content[600...])) == nil)
    }

    @Test func checkAdsChecksABlackoutsBoundariesAgainstFFmpeg() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let result = try await AdBoundaryChecker(client: client).check(
            url: server.url("/blackout/index.m3u8"), adMap: nil,
            blackout: BlackoutSettings(tag: Self.tag, alternateURL: server.url("/ad/v0/index.m3u8")), live: true)
        try #require(result.boundaries.count == 1)
        let verdict = result.boundaries[0]
        #expect(verdict.kind == "blackout" && verdict.exact, "\(verdict.problems)")
        #expect(verdict.cueSeconds == 8 && verdict.firstContentAfter == 20 && verdict.firstAdFrameMatches)
    }

    @Test func blackoutTagsAreReadAsStartOrEnd() {
        #expect(BlackoutSignal.read("START", fallbackID: "f") == .start(id: "f"))
        #expect(BlackoutSignal.read(" end ", fallbackID: "f") == .end(id: nil))
        #expect(BlackoutSignal.read("TYPE=START,ID=\"game-7\"", fallbackID: "f") == .start(id: "game-7"))
        #expect(BlackoutSignal.read("TYPE=End,ID=game-7", fallbackID: "f") == .end(id: "game-7"))
        #expect(BlackoutSignal.read("STATE=START", fallbackID: "f") == .start(id: "f"))
        #expect(BlackoutSignal.read("TYPE=PAUSE", fallbackID: "f") == nil)
        #expect(BlackoutSignal.read("", fallbackID: "f") == nil)
        #expect(BlackoutSignal.read("something else", fallbackID: "f") == nil)
        // SCTE-35: a Program Start (event 3) whose web delivery is not allowed starts one; its Program End ends it.
        #expect(BlackoutSignal.read("/DA4AAAAAAAA///wBQb+AKpFLgAiAiBDVUVJAAAAA3/PAAApPWwDDEFCQ0QwMTIzNDU2SBAAALsDQfg=", fallbackID: "f")
            == .start(id: "scte35-3"))
        #expect(BlackoutSignal.read("/DA4AAAAAAAA///wBQb+AKpFLgAiAiBDVUVJAAAAA3//AAApPWwDDEFCQ0QwMTIzNDU2SBEAABecSn8=", fallbackID: "f")
            == .end(id: "scte35-3"))
        // The same Program Start with delivery not restricted is no blackout.
        #expect(BlackoutSignal.read("/DA4AAAAAAAA///wBQb+AKpFLgAiAiBDVUVJAAAAA3//AAApPWwDDEFCQ0QwMTIzNDU2SBAAABZE5vg=", fallbackID: "f") == nil)
        // A placement opportunity restricted from the web (a corpus cue) is the ad splicer's, not a blackout.
        #expect(BlackoutSignal.read("/DAvAAAAAAAA///wBQb+cr0AUAAZAhdDVUVJSAAAjn+PCAg3ODUxMTQ1MjQCADhqB9E=", fallbackID: "f") == nil)
    }

    @Test func aBlackoutTagMustBeACustomTagName() {
        #expect(throws: BlackoutSettingsError.tag(.missingHash("EXT-X-BLACKOUT"))) { try BlackoutSettings(tag: "EXT-X-BLACKOUT", alternateURL: "x").validate() }
        #expect(throws: BlackoutSettingsError.dateRange) { try BlackoutSettings(tag: "#EXT-X-DATERANGE", alternateURL: "x").validate() }
        #expect(throws: BlackoutSettingsError.tag(.specTag("#EXTINF"))) { try BlackoutSettings(tag: "#EXTINF", alternateURL: "x").validate() }
        #expect(throws: BlackoutSettingsError.noAlternate) { try BlackoutSettings(tag: "#EXT-X-BLACKOUT", alternateURL: " ").validate() }
        #expect(throws: Never.self) { try BlackoutSettings(tag: "#EXT-OATCLS-SCTE35", alternateURL: "x").validate() }
    }
}
