import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// VOD: one VMAP request before playback gives pre-, mid- and post-rolls, VAST inline or by URI,
/// wrappers merged, HLS media chosen, MP4-only ads left out with a warning.
@Suite struct ServerMapResolverTests {
    @Test func vmapGivesPreMidAndPostRollsWithTrackingMerged() async throws {
        let server = try AdServer()
        defer { server.stop() }
        let pre = AdDocuments.tracked(id: "pre1", sequence: 1, durationSeconds: 10, mediaURL: server.url("/ads/pre1/index.m3u8"), server: server)
        var mp4 = AdDocuments.tracked(id: "mp4only", sequence: 2, durationSeconds: 10, mediaURL: server.url("/ads/mp4only.mp4"), server: server)
        mp4.mediaFiles = [AdDocuments.MediaFile(url: server.url("/ads/mp4only.mp4"), mimeType: "video/mp4", delivery: "progressive")]
        var wrapper = AdDocuments.Ad(id: "w1", durationSeconds: 0, impressions: [server.beaconURL(event: "wrapperImpression", adId: "w1")],
                                     tracking: ["start": [server.beaconURL(event: "wrapperStart", adId: "w1")]],
                                     wrapperTagURI: server.url("/vast/mid-inline.xml"))
        wrapper.clickTracking = [server.beaconURL(event: "wrapperClick", adId: "w1")]
        var mid = AdDocuments.tracked(id: "mid1", durationSeconds: 15, mediaURL: server.url("/ads/mid1/index.m3u8"), server: server)
        mid.skipOffset = "00:00:05"
        server.register(AdDocuments.vast([wrapper]), at: "/vast/mid-wrapper.xml")
        server.register(AdDocuments.vast([mid]), at: "/vast/mid-inline.xml")
        server.register(AdDocuments.vast([
            AdDocuments.tracked(id: "post2", sequence: 2, durationSeconds: 5, mediaURL: server.url("/ads/post2/index.m3u8"), server: server),
            AdDocuments.tracked(id: "post1", sequence: 1, durationSeconds: 5, mediaURL: server.url("/ads/post1/index.m3u8"), server: server),
        ]), at: "/vast/post.xml")
        server.register(AdDocuments.vmap([
            .init(timeOffset: "start", breakId: "pre", source: .vast(AdDocuments.vast([pre, mp4]))),
            .init(timeOffset: "00:00:30.000", breakId: "mid", source: .adTagURI(server.url("/vast/mid-wrapper.xml"))),
            .init(timeOffset: "end", breakId: "post", source: .adTagURI(server.url("/vast/post.xml"))),
        ]), at: "/vmap")

        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let delegate = RecordingDelegate()
        let resolution = await resolver.resolveServerMap(contentDurationSeconds: 60, delegate: delegate)

        #expect(resolution.breaks.map(\.id) == ["pre", "mid", "post"])
        #expect(resolution.breaks.map(\.contentSeconds) == [0, 30, 60])
        #expect(resolution.breaks.map { $0.placement(contentDurationSeconds: 60) } == ["preroll", "midroll", "postroll"])
        #expect(resolution.breaks.allSatisfy { $0.replacedContentSeconds == 0 })
        #expect(resolution.breaks.map { $0.ads.map(\.id) } == [["pre1"], ["mid1"], ["post1", "post2"]])
        #expect(resolution.breaks[0].ads[0].url == server.url("/ads/pre1/index.m3u8"))

        let midAd = resolution.breaks[1].ads[0]
        #expect(midAd.durationSeconds == 15)
        #expect(midAd.skipOffsetSeconds == 5)
        #expect(midAd.impressions == [server.beaconURL(event: "wrapperImpression", adId: "w1"), server.beaconURL(event: "impression", adId: "mid1")])
        #expect(midAd.trackingEvents["start"] == [server.beaconURL(event: "wrapperStart", adId: "w1"), server.beaconURL(event: "start", adId: "mid1")])
        #expect(midAd.trackingEvents["thirdQuartile"] == [server.beaconURL(event: "thirdQuartile", adId: "mid1")])
        #expect(midAd.clickThrough == "https://advertiser.example/mid1")
        #expect(midAd.clickTracking == [server.beaconURL(event: "wrapperClick", adId: "w1"), server.beaconURL(event: "click", adId: "mid1")])
        #expect(midAd.errorURLs == [server.beaconURL(event: "error", adId: "mid1") + "&code=[ERRORCODE]"])
        let companion = try #require(midAd.companions.first)
        #expect(companion.width == 300 && companion.height == 250)
        #expect(companion.primaryResource == AdCompanion.Resource(type: .staticResource, data: server.url("/companion/mid1.png"), creativeType: "image/png"))
        #expect(companion.creativeViewTracking == [server.beaconURL(event: "companionView", adId: "mid1")])

        // The MP4-only ad: left out with AD_NOT_INSERTED (270001), its error URLs carried for the tracker.
        let warning = try #require(resolution.notifications.first { $0[.adId] == "mp4only" })
        #expect(warning.code == .adNotInserted && warning.type == .warning)
        #expect(warning[.vastErrorCode] == "403")
        #expect(warning[.errorURLs] == server.beaconURL(event: "error", adId: "mp4only") + "&code=[ERRORCODE]")
        #expect(delegate.warnings.contains(warning))
        #expect(delegate.resolved.map(\.id) == ["pre", "mid", "post"])
        #expect(delegate.failures.isEmpty)

        // One server-map request, carrying the metadata.
        let maps = server.requestLog.filter { $0.path == "/vmap" }
        #expect(maps.count == 1)
        let query = try #require(maps.first?.query)
        #expect(query.hasPrefix("z=zone%207&m=movie-1&type=vmap&dur=60&device=linux&cust_params=NW_ID%3Dnw%25261"))
        #expect(resolution.timeline.breaks.count == 3)
    }

    @Test func vmapRequestFailureGivesNoBreaksAndTheNotification() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register("", at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let delegate = RecordingDelegate()
        let resolution = await resolver.resolveServerMap(contentDurationSeconds: 60, delegate: delegate)
        #expect(resolution.breaks.isEmpty)
        #expect(codeChain(resolution.notifications.last) == [170_007, 104_005, 270_001])
        #expect(delegate.calls.first == .failed("server-map", resolution.notifications.last!))
    }

    @Test func unplaceableBreaksAreLeftOutWithWarnings() async throws {
        let server = try AdServer()
        defer { server.stop() }
        let ad = AdDocuments.tracked(id: "a", durationSeconds: 5, mediaURL: server.url("/a.m3u8"), server: server)
        server.register(AdDocuments.vmap([
            .init(timeOffset: "50%", breakId: "half", source: .vast(AdDocuments.vast([ad]))),
            .init(timeOffset: "end", breakId: "post", source: .vast(AdDocuments.vast([ad]))),
            .init(timeOffset: "#2", breakId: "second-cue", source: .vast(AdDocuments.vast([ad]))),
            .init(timeOffset: "00:00:10", breakId: "ten", source: .vast(AdDocuments.vast([ad]))),
        ]), at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let resolution = await resolver.resolveServerMap(contentDurationSeconds: nil, delegate: nil)
        #expect(resolution.breaks.map(\.id) == ["ten"])
        #expect(resolution.notifications.compactMap { $0[.breakId] } == ["half", "post", "second-cue"])
        #expect(resolution.notifications.allSatisfy { $0.code == .adNotInserted })
    }

    @Test func liveAndManifestCueModesMakeNoServerMapRequest() async throws {
        let server = try AdServer()
        defer { server.stop() }
        let live = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let cues = try DefaultAdResolver(metadata: metadata(for: server, mode: .manifestCues), isLive: false, timeoutSeconds: generousResolverTimeout)
        #expect(await live.resolveServerMap(contentDurationSeconds: 60, delegate: nil).breaks.isEmpty)
        #expect(await cues.resolveServerMap(contentDurationSeconds: 60, delegate: nil).breaks.isEmpty)
        #expect(server.requestLog.isEmpty)
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: cues)
        factory.register(resolver: AdMapResolver(map: try AdMap.parse(Data(#"{"breaks":[]}"#.utf8))))
        #expect(factory.serverMapResolver === cues, "the first registered server-map resolver")
    }
}
