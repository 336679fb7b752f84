import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// The resolver and the tracker together, with the player's ad events played by the test: a VOD's
/// VMAP of pre-, mid- and post-roll from the ad server, then every ad's events at 25 fps; the
/// server's beacon log holds every quartile of every ad once, in order, within a frame of its time.
@Suite struct ResolveAndTrackTests {
    @Test func everyQuartileOfEveryAdOfAVMAP() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        func ad(_ id: String, _ seconds: Double, _ sequence: Int? = nil) -> AdDocuments.Ad {
            AdDocuments.tracked(id: id, sequence: sequence, durationSeconds: seconds, mediaURL: server.url("/ads/\(id)/index.m3u8"), server: server)
        }
        server.register(AdDocuments.vast([ad("mid1", 6)]), at: "/vast/mid.xml")
        server.register(AdDocuments.vast([ad("post1", 4)]), at: "/vast/post.xml")
        server.register(AdDocuments.vmap([
            .init(timeOffset: "start", breakId: "pre", source: .vast(AdDocuments.vast([ad("pre1", 5, 1), ad("pre2", 3, 2)]))),
            .init(timeOffset: "00:00:20.000", breakId: "mid", source: .adTagURI(server.url("/vast/mid.xml"))),
            .init(timeOffset: "end", breakId: "post", source: .adTagURI(server.url("/vast/post.xml"))),
        ]), at: "/vmap")

        let factory = MediaPlayerClientFactory()
        factory.register(resolver: try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout))
        let resolver = try #require(factory.serverMapResolver)
        let timeline = await resolver.resolveServerMap(contentDurationSeconds: 40, delegate: nil).timeline
        #expect(timeline.breaks.map { $0.ads.map(\.id) } == [["pre1", "pre2"], ["mid1"], ["post1"]])

        let bus = EventBus(clock: { 0 })
        let tracker = BeaconTracker(client: client, timeline: timeline, bus: bus)
        let subscription = tracker.attach(to: bus)
        defer { subscription.cancel() }
        for (breakIndex, adBreak) in timeline.breaks.enumerated() {
            bus.post(.adBreakStarted(breakId: adBreak.id, breakIndex: breakIndex, ads: adBreak.ads.count))
            for adIndex in adBreak.ads.indices {
                for kind in adEvents(timeline, breakIndex: breakIndex, adIndex: adIndex, fps: 25) { bus.post(kind) }
            }
            bus.post(.adBreakCompleted(breakId: adBreak.id, breakIndex: breakIndex))
        }
        await tracker.flush()

        let order = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let hits = server.beacons
        let ads = timeline.breaks.flatMap(\.ads)
        #expect(hits.map { "\($0.parameter("ad") ?? "?"):\($0.event)" } == ads.flatMap { ad in order.map { "\(ad.id):\($0)" } })
        for ad in ads {
            for (event, share) in [("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)] {
                let hit = try #require(hits.first { $0.parameter("ad") == ad.id && $0.event == event })
                let seconds = try #require(clockSeconds(hit.parameter("t")))
                #expect(seconds >= share * ad.durationSeconds - 1e-6 && seconds < share * ad.durationSeconds + 1.0 / 25,
                        "\(ad.id) \(event) at \(seconds)")
            }
        }
        #expect(tracker.records.count == ads.count * order.count)
        #expect(tracker.records.allSatisfy { $0.succeeded })
    }
}
