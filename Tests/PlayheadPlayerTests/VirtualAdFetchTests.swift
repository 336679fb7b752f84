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
