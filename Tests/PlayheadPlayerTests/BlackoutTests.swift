import Foundation
import PlayheadCore
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
              playlist: String = "/blackout/index.m3u8", tag: String = BlackoutTests.tag) async throws -> Played {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        var network: any PlayerNetwork = SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50))
        if live { network = SimulatedLiveNetwork(inner: network, prefix: server.url("/blackout/"), initialSegments: initialSegments) }
        if let failReloads { network = FailingPlaylistNetwork(inner: network, suffix: playlist, window: failReloads) }
        var configuration = PlayerConfiguration()
        configuration.hashFrames = true
        configuration.startSeconds = start
        configuration.blackout = BlackoutSettings(tag: tag, alternateURL: server.url(alternate))
        let player = MediaPlayer(url: server.url(playlist), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: network, scheduled: scheduled)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        player.observeFrames(streams: { _ in }, packets: { _ in }, presented: { collected.present($0) })
        let report = await player.run(maxSessionSeconds: 120)
        subscription.cancel()
        let video = collected.frames.filter { $0.kind == .video }.compactMap(\.md5)
        return Played(report: report, events: collected.events, hashes: video)
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
        #expect(played.hashes == expected)
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
        #expect(played.hashes == Array(content[..<60]) + Array(content[600...]))
        #expect(report.blackouts[0].startedAtSessionSeconds == nil)
    }

    @Test func aSessionJoiningInsideAnOpenBlackoutShowsTheAlternateContentFromTheJoin() async throws {
        // Five segments listed at the start (0–20 s): the start tag is there, the end tag not yet.
        let played = try await play(initialSegments: 5, start: 12)
        let report = played.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        try #require(report.blackouts.count == 1)
        #expect(report.blackouts[0].replacedFromSeconds == 12)
        let content = await Self.hashes("ts/v0/index.m3u8"), alternate = await Self.hashes("ad/v0/index.m3u8")
        // The blacked-out content is never shown: the alternate content from its start at 12 s, then content at 20 s.
        #expect(played.hashes == Array(alternate[..<240]) + Array(content[600...]))
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
        #expect(played.hashes == Array(content[..<240]) + alternate + Array(alternate[..<60]) + Array(content[600...]))
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
        #expect(throws: SubscribedTagError.self) { try BlackoutSettings(tag: "EXT-X-BLACKOUT", alternateURL: "x").validate() }
        #expect(throws: SubscribedTagError.self) { try BlackoutSettings(tag: "#EXT-X-DATERANGE", alternateURL: "x").validate() }
        #expect(throws: SubscribedTagError.self) { try BlackoutSettings(tag: "#EXTINF", alternateURL: "x").validate() }
        #expect(throws: Never.self) { try BlackoutSettings(tag: "#EXT-OATCLS-SCTE35", alternateURL: "x").validate() }
    }
}
