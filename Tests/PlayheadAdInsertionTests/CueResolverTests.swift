import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// A VAST pod of ads lasting `durations`, their media and beacons on `server`.
func pod(_ durations: [Double], server: AdServer) -> String {
    AdDocuments.vast(durations.enumerated().map { index, duration in
        AdDocuments.tracked(id: "ad\(index + 1)", sequence: index + 1, durationSeconds: duration,
                            mediaURL: server.url("/ads/ad\(index + 1)/index.m3u8"), server: server)
    })
}

/// Live: one request per cue for the cue's duration, a pod filling it, a pre-roll request unless
/// disabled, DVR cues only when enabled; failures as the guide's nested notifications.
@Suite struct CueResolverTests {

    @Test func cueOfThirtySecondsMakesOneRequestAndThePodFillsIt() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register(pod([10, 10, 10], server: server), at: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let delegate = RecordingDelegate()
        let opportunity = cue("splice-7", at: 120, duration: 30)
        #expect(resolver.shouldHandle(opportunity))
        resolver.process(opportunity, delegate: delegate)
        await delegate.waitForAnswers(1)

        let requests = server.requestLog.filter { $0.path == "/vast" }
        #expect(requests.count == 1)
        #expect(requests.first?.query?.contains("type=midroll&cue=splice-7&pos=120&dur=30") == true)
        let adBreak = try #require(delegate.resolved.first)
        #expect(adBreak.id == "splice-7" && adBreak.contentSeconds == 120)
        #expect(adBreak.ads.map(\.id) == ["ad1", "ad2", "ad3"])
        #expect(adBreak.durationSeconds == 30)
        #expect(adBreak.replacedContentSeconds == 30)
        #expect(delegate.warnings.isEmpty && delegate.failures.isEmpty)
    }

    @Test func adsThatDoNotFitTheCueAreLeftOutWithAWarning() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register(pod([10, 15, 10], server: server), at: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let resolution = await resolver.resolveCue(cue("c1", at: 0, duration: 30))
        #expect(resolution.adBreak?.ads.map(\.id) == ["ad1", "ad2"])
        #expect(resolution.adBreak?.replacedContentSeconds == 25)
        #expect(resolution.notifications.map(\.code) == [.adNotInserted])
        #expect(resolution.notifications.first?[.adId] == "ad3")
        // VAST 202 (expecting a different duration) with the ad's own Error URLs, for a tracker to call.
        #expect(resolution.notifications.first?[.vastErrorCode] == "202")
        #expect(resolution.notifications.first?[.errorURLs]?.contains("/beacon/error") == true)
        #expect(!resolution.failed)
    }

    @Test func prerollIsRequestedUnlessDisabled() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register(pod([6], server: server), at: "/vast")
        let enabled = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let delegate = RecordingDelegate()
        let preroll = try #require(await enabled.resolvePreroll(atContentSeconds: 0, delegate: delegate))
        #expect(preroll.adBreak?.ads.map(\.id) == ["ad1"])
        #expect(preroll.adBreak?.replacedContentSeconds == 0)
        #expect(delegate.calls == [.resolved("preroll", [preroll.adBreak!])])
        #expect(server.requestLog.filter { $0.path == "/vast" }.compactMap(\.query).allSatisfy { $0.contains("type=preroll") })
        #expect(server.requestLog.count == 1)

        let disabled = try DefaultAdResolver(metadata: metadata(for: server, preroll: false), isLive: true, timeoutSeconds: generousResolverTimeout)
        #expect(await disabled.resolvePreroll(atContentSeconds: 0) == nil)
        #expect(server.requestLog.count == 1)
    }

    @Test func cuesBeforeTheJoinPointOnlyWithDVRAds() throws {
        let server = try AdServer()
        defer { server.stop() }
        let plain = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let dvr = try DefaultAdResolver(metadata: metadata(for: server, dvr: true), isLive: true, timeoutSeconds: generousResolverTimeout)
        for resolver in [plain, dvr] { resolver.setLiveJoinPoint(contentSeconds: 100) }
        #expect(!plain.shouldHandle(cue("old", at: 40, duration: 30)))
        #expect(plain.shouldHandle(cue("new", at: 130, duration: 30)))
        #expect(dvr.shouldHandle(cue("old", at: 40, duration: 30)))
        let vod = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        #expect(!vod.shouldHandle(cue("vod", at: 40, duration: 30)), "VOD in server-map mode ignores cues")
        #expect(!plain.shouldHandle(PlacementOpportunity(id: "in", kind: .breakEnd, contentSeconds: 150, durationSeconds: nil,
                                                         mediaSequence: 0, tag: "#EXT-X-CUE-IN", rawText: "", attributes: [:])))
    }

    @Test func emptyAnswersGiveAdEmptyResponse() async throws {
        let server = try AdServer()
        defer { server.stop() }
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        server.register("  \n", at: "/vast")
        let blank = await resolver.resolveCue(cue("c", at: 0, duration: 30))
        #expect(blank.failed && codeChain(blank.failure) == [170_007, 104_005, 270_001])
        server.register(AdDocuments.vast([], errorURLs: [server.url("/beacon/noad?code=[ERRORCODE]")]), at: "/vast")
        let noAds = await resolver.resolveCue(cue("c", at: 0, duration: 30))
        #expect(noAds.failed && codeChain(noAds.failure) == [170_007, 104_005, 270_001])
        #expect(noAds.adBreak == nil)
    }

    @Test func unreachableServerGivesAdUnreachable() async throws {
        // A port held bound with no listener (a stopped server's port could go to another test's server).
        let gone = try RefusingPort()
        defer { gone.stop() }
        let resolver = try DefaultAdResolver(metadata: AdMetadata(zoneId: "zone 7", domain: gone.baseURL, mediaId: "movie-1"),
                                             isLive: true)
        let refused = await resolver.resolveCue(cue("c", at: 0, duration: 30))
        #expect(codeChain(refused.failure) == [104_006])
        #expect(refused.failure?[.internalError]?.contains("curl 7") == true)

        let server = try AdServer()
        defer { server.stop() }
        server.setFault(.status(500), forPath: "/vast")
        let failing = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let status = await failing.resolveCue(cue("c", at: 0, duration: 30))
        #expect(codeChain(status.failure) == [104_006])
        #expect(status.failure?[.httpStatus] == "500")
    }

    @Test func unplayableAnswerGivesAdInsertionFailWithTheReasons() async throws {
        let server = try AdServer()
        defer { server.stop() }
        var mp4 = AdDocuments.tracked(id: "only", durationSeconds: 10, mediaURL: server.url("/only.mp4"), server: server)
        mp4.mediaFiles = [AdDocuments.MediaFile(url: server.url("/only.mp4"), mimeType: "video/mp4", delivery: "progressive")]
        server.register(AdDocuments.vast([mp4]), at: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let delegate = RecordingDelegate()
        resolver.process(cue("c", at: 0, duration: 30), delegate: delegate)
        await delegate.waitForAnswers(1)
        #expect(delegate.warnings.map(\.code) == [.adNotInserted])
        #expect(codeChain(delegate.failures.first) == [104_005, 270_001])
        #expect(delegate.failures.first?.metadata["SKIPPED"]?.contains("no HLS media file (found video/mp4)") == true)

        server.register("<VAST version=\"3.0\"><Ad", at: "/vast")
        let broken = await resolver.resolveCue(cue("c", at: 0, duration: 30))
        #expect(codeChain(broken.failure) == [104_005, 270_001])
        #expect(broken.failure?[.description]?.hasPrefix("unreadable VAST") == true)
    }

    @Test func wrapperLoopsSkipTheAd() async throws {
        let server = try AdServer()
        defer { server.stop() }
        let loop = AdDocuments.Ad(id: "loop", durationSeconds: 0, wrapperTagURI: server.url("/vast/loop.xml"))
        server.register(AdDocuments.vast([loop]), at: "/vast/loop.xml")
        server.register(AdDocuments.vast([loop, AdDocuments.tracked(id: "ok", durationSeconds: 10, mediaURL: server.url("/ok.m3u8"), server: server)]),
                        at: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: generousResolverTimeout)
        let resolution = await resolver.resolveCue(cue("c", at: 0, duration: 30))
        #expect(resolution.adBreak?.ads.map(\.id) == ["ok"])
        #expect(resolution.notifications.first?[.description]?.contains("wrapper loop") == true)
        #expect(server.requestLog.filter { $0.path == "/vast/loop.xml" }.count == 1)
    }
}

/// Wall-clock behaviour of the resolver: its timeout and its cancel race a server that answers late.
/// `scripts/test` runs these on their own (like the other wall-clock suites): CPU-heavy tests running
/// alongside starve the cooperative pool their timers run on.
@Suite struct ResolverWallClockTests {
    @Test func serverDelayPastTheTimeoutGivesAdTimeoutQuickly() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register(pod([10], server: server), at: "/vast")
        server.setFault(.delay(seconds: 2), forPath: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true, timeoutSeconds: 0.3)
        let delegate = RecordingDelegate()
        let start = ContinuousClock.now
        resolver.process(cue("late", at: 60, duration: 30), delegate: delegate)
        await delegate.waitForAnswers(1)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(1.5), "answered after \(elapsed)")
        guard case let .failed(id, notification)? = delegate.calls.last else { Issue.record("no failure: \(delegate.calls)"); return }
        #expect(id == "late")
        #expect(codeChain(notification) == [170_008, 104_005, 270_001])
        #expect(notification.type == .error)
        #expect(notification[.breakId] == "late")
        #expect(notification[.url]?.hasPrefix(server.url("/vast?")) == true)
    }

    /// Cancelling abandons a resolution under way: its transfer ends and its delegate hears nothing.
    @Test func cancelledResolutionNeverAnswers() async throws {
        let server = try AdServer()
        defer { server.stop() }
        server.register(AdDocuments.vast([AdDocuments.tracked(id: "a", durationSeconds: 10, mediaURL: server.url("/a.m3u8"), server: server)]),
                        at: "/vast")
        server.setFault(.delay(seconds: 2), forPath: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: true)
        let delegate = RecordingDelegate()
        let start = ContinuousClock.now
        resolver.process(cue("c", at: 0, duration: 30), delegate: delegate)
        await server.waitForRequests(path: "/vast")
        resolver.cancel()
        await resolver.waitUntilIdle()
        #expect(ContinuousClock.now - start < .seconds(1.5))
        #expect(delegate.calls.isEmpty)
    }
}
