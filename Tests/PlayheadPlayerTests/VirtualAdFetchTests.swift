import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// A network that adds `extraSeconds` to every transfer of URLs ending in `suffix`.
struct SlowPathNetwork: PlayerNetwork {
    let inner: any PlayerNetwork
    let suffix: String
    let extraSeconds: Double

    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        var transfer = try await inner.fetch(url, range: range, at: sessionSeconds)
        if url.hasSuffix(suffix) { transfer.seconds += extraSeconds }
        return transfer
    }
}

/// On the virtual clock, a live break's ad playlists cost what the network says their fetch took.
@Suite struct VirtualAdFetchTests {
    /// The live cue at 10 s (listed at about 4 s of session time) with the ad's multivariant playlist
    /// taking `adPlaylistSeconds` more; returns the session times at which that ad started.
    func adStarts(adPlaylistSeconds: Double) async throws -> [Double] {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let configuration = try PlayerFixtures.liveAdConfiguration(for: url)
        let client = HTTPClient()
        defer { client.shutdown() }
        let slow = SlowPathNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)),
                                   suffix: "/cues/ad/master.m3u8", extraSeconds: adPlaylistSeconds)
        let network = SimulatedLiveNetwork(inner: slow, prefix: server.url("/cues/ts/"), initialSegments: 4)
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(), network: network)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        _ = await player.run(maxSessionSeconds: 40)
        subscription.cancel()
        return collected.events.compactMap { event in
            if case let .adStarted(info) = event.kind, info.adId == "ad-at-10" { return event.playerTime } else { return nil }
        }
    }

    @Test func aSlowAdPlaylistDelaysTheBreakOnTheVirtualClock() async throws {
        // 1.5 s: the answer and the playlist are in long before the cue is reached.
        let quick = try await adStarts(adPlaylistSeconds: 1.5)
        #expect(quick.count == 1)
        // 20 s: the playlist arrives at about 24 s of session time. Playback waits at the cue for the
        // break, as on the real clock, and the ad starts then. (Free, as it was, the ad started at its
        // cue whatever the playlist cost.)
        let slow = try await adStarts(adPlaylistSeconds: 20)
        let at = try #require(quick.first)
        #expect(slow.count == 1)
        #expect(slow.allSatisfy { $0 > at + 10 && $0 < at + 20 }, "the ad started at \(slow) with a 20 s playlist, \(at) with 1.5 s")
    }
}

/// On the virtual clock, what the player fetches in line before playback costs what the network says:
/// the item's playlists, and a VOD's ad playlists.
@Suite struct VirtualLoadChargeTests {
    /// Plays `path` with `extraSeconds` added to every fetch of URLs ending in `suffix` and returns
    /// the session times of the statuses reached.
    func statusTimes(_ path: String, suffix: String, extraSeconds: Double, ads: Bool = false,
                     resolver: (any ContentResolver)? = nil) async throws -> (times: [PlayerStatus: Double], report: PlaybackReport) {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url(path)
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        if ads {
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: AdMapResolver(map: try SpliceTests.adMap.resolvingURLs(against: url)))
            configuration.ads = AdSettings(factory: factory)
        }
        if let resolver {
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: resolver)
            configuration.ads = AdSettings(factory: factory)
        }
        let client = HTTPClient()
        defer { client.shutdown() }
        let network = SlowPathNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)),
                                      suffix: suffix, extraSeconds: extraSeconds)
        let report = await MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(), network: network).run()
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        var times: [PlayerStatus: Double] = [:]
        for record in report.statuses where times[record.status] == nil { times[record.status] = record.playerTime }
        return (times, report)
    }

    @Test func theItemsPlaylistsDelayReadyByWhatTheyCost() async throws {
        let free = try await statusTimes("/ts/master.m3u8", suffix: "/ts/master.m3u8", extraSeconds: 0).times
        let ready = try #require(free[.ready])
        // Two fetches (multivariant, then media playlist) over a 50 Mbit/s link with an 80 ms round trip.
        #expect(ready > 0.16 && ready < 0.2, "ready at \(ready) s")
        // 3 s more on the multivariant playlist: everything after it, 3 s later. (Free, as it was,
        // ready came at 0 s whatever the playlists cost.)
        let slow = try await statusTimes("/ts/master.m3u8", suffix: "/ts/master.m3u8", extraSeconds: 3).times
        #expect(abs((slow[.initialized] ?? 0) - (free[.initialized] ?? 0) - 3) < 1e-9)
        #expect(abs((slow[.ready] ?? 0) - ready - 3) < 1e-9)
        #expect(abs((slow[.completed] ?? 0) - (free[.completed] ?? 0) - 3) < 1e-9)
    }

    @Test func aVODsAdPlaylistsDelayPlaybackByWhatTheyCost() async throws {
        // Both of the map's breaks (at 10 s, and at the cue splice-17) are placed before playback, and
        // each fetches its ad's multivariant playlist then: 5 s more on it is 10 s more before ready.
        let quick = try await statusTimes("/cues/ts/master.m3u8", suffix: "/cues/ad/master.m3u8", extraSeconds: 0, ads: true).times
        let slow = try await statusTimes("/cues/ts/master.m3u8", suffix: "/cues/ad/master.m3u8", extraSeconds: 5, ads: true).times
        #expect(abs((slow[.initialized] ?? 0) - (quick[.initialized] ?? 0)) < 1e-9, "the item's playlists are not the ad's")
        #expect(abs((slow[.ready] ?? 0) - (quick[.ready] ?? 0) - 10) < 1e-9)
        #expect(abs((slow[.completed] ?? 0) - (quick[.completed] ?? 0) - 10) < 1e-9)
    }

    /// A resolver that takes every cue and never answers.
    final class SilentResolver: ContentResolver, @unchecked Sendable {
        func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.kind == .breakStart }
        func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {}
        var timeoutSeconds: Double { 0.5 }
    }

    @Test func aVODsCueThatTimesOutDelaysPlaybackByTheTimeout() async throws {
        let plain = try await statusTimes("/cues/ts/vod.m3u8", suffix: "none", extraSeconds: 0)
        let silent = try await statusTimes("/cues/ts/vod.m3u8", suffix: "none", extraSeconds: 0, resolver: SilentResolver())
        let timeouts = silent.report.notifications.filter { $0.code == .adTimeout }.count
        #expect(timeouts >= 1)
        #expect(abs((silent.times[.ready] ?? 0) - (plain.times[.ready] ?? 0) - 0.5 * Double(timeouts)) < 1e-9,
                "each of the \(timeouts) cues waited its 0.5 s timeout")
    }
}
