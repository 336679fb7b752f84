import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// The whole chain in the real player on the virtual clock: the ad server's VMAP or VAST, the default
/// resolver, the splicer, and the beacon tracker on the player's bus; the ad server's own log is the
/// judge. Content and ads are the generated cue streams (2 s segments) served on 127.0.0.1.
@Suite struct PlayerAdsEndToEndTests {
    struct Session {
        var report: PlaybackReport
        var events: [PlayerEvent]
        var beacons: [BeaconRecord]
    }

    /// Plays `path` of the generated streams with `resolver`, a beacon tracker attached.
    func play(_ path: String, resolver: DefaultAdResolver, client: HTTPClient, origin: LoopbackHTTPServer,
              live: Bool = false, perFrameEvents: Bool = false, scheduled: [ScheduledCommand] = []) async -> Session {
        MediaLog.level = .quiet
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: resolver)
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.perFrameEvents = perFrameEvents
        configuration.ads = AdSettings(factory: factory)
        var network: any PlayerNetwork = SimulatedNetwork(
            client: client, link: SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [50, 50])))
        if live { network = SimulatedLiveNetwork(inner: network, prefix: origin.url("/cues/ts/")) }
        let player = MediaPlayer(url: origin.url(path), configuration: configuration, driver: VirtualTimeDriver(), network: network,
                                 scheduled: scheduled)
        let tracker = BeaconTracker(client: client, bus: player.bus)
        let events = LockedBox<[PlayerEvent]>([])
        let subscription = player.bus.subscribe { event in
            if case .timelineChanged = event.kind { tracker.update(timeline: player.timeline) }
            events.set(events.get() + [event])
        }
        let trackerSubscription = tracker.attach(to: player.bus)
        let report = await player.run(maxSessionSeconds: 300)
        subscription.cancel()
        trackerSubscription.cancel()
        await tracker.flush()
        return Session(report: report, events: events.get(), beacons: tracker.records)
    }

    @Test func aVMAPOfPreMidAndPostRollsHasEveryQuartileOfEveryAdAtItsMediaTime() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let media = origin.url("/cues/ad/master.m3u8")
        func ad(_ id: String) -> AdDocuments.Ad { AdDocuments.tracked(id: id, durationSeconds: 10, mediaURL: media, server: server) }
        server.register(AdDocuments.vast([ad("mid1")]), at: "/vast/mid.xml")
        server.register(AdDocuments.vmap([
            .init(timeOffset: "start", breakId: "pre", source: .vast(AdDocuments.vast([ad("pre1")]))),
            .init(timeOffset: "00:00:10.000", breakId: "mid", source: .adTagURI(server.url("/vast/mid.xml"))),
            .init(timeOffset: "end", breakId: "post", source: .vast(AdDocuments.vast([ad("post1")]))),
        ]), at: "/vmap")
        // A generous (real-time) timeout: these tests share the machine with others.
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        #expect(session.report.adBoundaries.map(\.breakId) == ["pre", "mid", "post"])
        #expect(session.report.framesPresented["video"] == 900 + 3 * 300)

        // The server's beacon log: every ad's beacons once, in the order they played.
        let order = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let hits = server.beacons
        #expect(hits.map { "\($0.parameter("ad") ?? "?"):\($0.event)" } == ["pre1", "mid1", "post1"].flatMap { id in order.map { "\(id):\($0)" } })
        // Each quartile at the true media time of the presented ad frame: within one frame (1/30 s) of its share.
        for id in ["pre1", "mid1", "post1"] {
            for (event, share) in [("start", 0.0), ("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)] {
                let hit = try #require(hits.first { $0.parameter("ad") == id && $0.event == event })
                let seconds = try #require(clockSeconds(hit.parameter("t")))
                #expect(seconds >= share * 10 - 1e-3 && seconds < share * 10 + 1.0 / 30, "\(id) \(event) at \(seconds)")
            }
        }
        // The tracker's own records, for the report: every one answered.
        #expect(session.beacons.count == 3 * order.count)
        #expect(session.beacons.allSatisfy { $0.succeeded })
    }

    @Test func progressURLsFireAtTheirOffsetsInOrderWithTheQuartilesInsideTheBreaksTracking() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        var ad = AdDocuments.tracked(id: "p1", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)
        // Clock and percentage offsets, out of order on purpose; the last lies past the ad's end.
        ad.progress = [("00:00:07.000", "at7"), ("00:00:01.500", "at1.5"), ("33%", "at3.3"), ("00:00:30.000", "at30")].map {
            AdDocuments.ProgressURL(offset: $0.0, url: server.beaconURL(event: "progress-" + $0.1, adId: "p1"))
        }
        let tracking = ["breakStart": [server.beaconURL(event: "breakStart", adId: "mid")],
                        "breakEnd": [server.beaconURL(event: "breakEnd", adId: "mid")]]
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([ad])),
                                                tracking: tracking)]),
                        at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")

        // The break's VMAP tracking around its ad's, once each.
        #expect(server.beacons.map { "\($0.parameter("ad") ?? "?"):\($0.event)" } == ["mid:breakStart"]
            + ["impression", "creativeView", "start", "progress-at1.5", "firstQuartile", "progress-at3.3",
               "midpoint", "progress-at7", "thirdQuartile", "complete"].map { "p1:\($0)" } + ["mid:breakEnd"])
        let hits = server.beacons.filter { $0.parameter("ad") == "p1" }
        for (event, offset) in [("progress-at1.5", 1.5), ("progress-at3.3", 3.3), ("progress-at7", 7.0)] {
            let hit = try #require(hits.first { $0.event == event })
            let seconds = try #require(clockSeconds(hit.parameter("t")))
            #expect(seconds >= offset - 1e-3 && seconds < offset + 1.0 / 30, "\(event) at \(seconds)")
        }
        // The records name them all "progress".
        #expect(session.beacons.filter { $0.event == "progress" }.count == 3)
    }

    /// A creative declared 10.4 s whose media lasts 10 s, as a mid-roll and as a post-roll: its quartiles and its
    /// `60%` progress URL fall at shares of the 10 s it plays, the same in both breaks (the mid-roll mixed both:
    /// first quartile at 2.6 s, midpoint at 5 s, 60 % at 6.267 s; the post-roll, loaded before it began, 2.5 s).
    /// The same with an ad playlist listing 1.5 s for each of its 2 s segments, declared 10 s (`listedShort`): the
    /// mid-roll's first quartile came at 25 % of the 7.5 s listed, 1.9 s, and the others at shares of 10 s.
    @Test(arguments: [false, true])
    func quartilesAndPercentOffsetsAreSharesOfTheMediaInEveryBreak(listedShort: Bool) async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let segments = (0..<5).map { "#EXTINF:1.5,\n" + origin.url("/cues/ad/v1/seg00\($0).ts") }.joined(separator: "\n")
        server.register("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n\(segments)\n#EXT-X-ENDLIST\n", at: "/short.m3u8",
                        contentType: "application/vnd.apple.mpegurl")
        let media = listedShort ? server.url("/short.m3u8") : origin.url("/cues/ad/master.m3u8")
        func ad(_ id: String) -> AdDocuments.Ad {
            var ad = AdDocuments.tracked(id: id, durationSeconds: listedShort ? 10 : 10.4, mediaURL: media, server: server)
            ad.progress = [AdDocuments.ProgressURL(offset: "60%", url: server.beaconURL(event: "progress-60", adId: id))]
            return ad
        }
        server.register(AdDocuments.vmap([
            // At 4 s the mid-roll's last segment comes in after its first quartile (the buffer ahead is full).
            .init(timeOffset: listedShort ? "00:00:04.000" : "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([ad("mid1")]))),
            .init(timeOffset: "end", breakId: "post", source: .vast(AdDocuments.vast([ad("post1")]))),
        ]), at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        for id in ["mid1", "post1"] {
            for (event, seconds) in [("firstQuartile", 2.5), ("midpoint", 5.0), ("progress-60", 6.0), ("thirdQuartile", 7.5), ("complete", 10.0)] {
                let hit = try #require(server.beacons.first { $0.parameter("ad") == id && $0.event == event }, "\(id) \(event)")
                let at = try #require(clockSeconds(hit.parameter("t")))
                #expect(at >= seconds - 1e-3 && at < seconds + 1.0 / 30, "\(id) \(event) at \(at)")
            }
        }
    }

    /// A VMAP break whose only ad's HLS playlist is a 404: the ad's error URL fires with 401 and the break's VMAP
    /// error URL with 1004, as for a break whose ad the resolver could not take (only the ad's fired).
    @Test func aBreakWhoseEveryAdFailsToLoadFiresItsVMAPErrorURLs() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let ad = AdDocuments.tracked(id: "gone", durationSeconds: 10, mediaURL: origin.url("/nope/master.m3u8"), server: server)
        let breakError = server.beaconURL(event: "breakError", adId: "mid") + "&code=[ERRORCODE]"
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([ad])),
                                                tracking: ["error": [breakError]])]), at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        #expect(session.report.adBoundaries.isEmpty)
        let errors = server.beacons.filter { $0.event == "error" || $0.event == "breakError" }
            .map { "\($0.event):\($0.parameter("ad") ?? "?"):\($0.parameter("code") ?? "?")" }
        #expect(errors == ["error:gone:401", "breakError:mid:1004"], "\(errors)")
    }

    /// A pause 6.3 s into the mid-roll: the pause and resume beacons carry the paused frame's offset
    /// (the end of the frame at 6.267 s), not the last progress tick's 6 s.
    @Test func pauseAndResumeBeaconsCarryThePausedFramesOffset() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([
            AdDocuments.tracked(id: "paused", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)])))]),
                        at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin,
                                 scheduled: [.init(atPositionSeconds: 16.3, action: .pause(forSeconds: 2))])
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let pause = try #require(session.beacons.first { $0.event == "pause" })
        let resume = try #require(session.beacons.first { $0.event == "resume" })
        #expect(abs(pause.mediaTimeSeconds - 6.3) < 1e-6, "\(pause.mediaTimeSeconds)")
        #expect(resume.mediaTimeSeconds == pause.mediaTimeSeconds)
        #expect(server.beacons.filter { ["pause", "resume"].contains($0.event) }.map(\.event) == ["pause", "resume"])
        let paused = session.events.compactMap { if case let .adPaused(info) = $0.kind { return info.offsetSeconds } else { return nil } }
        #expect(paused.count == 1)
    }

    @Test func aClickOnThePlayingAdGivesItsClickThroughAndFiresItsClickTracking() async throws {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([
            AdDocuments.tracked(id: "clicked", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)])))]),
                        at: "/vmap")
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout))
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.ads = AdSettings(factory: factory)
        let player = MediaPlayer(url: origin.url("/cues/ts/master.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: SimulatedLink(trace: BandwidthTrace(name: "c", times: [0, 1], megabitsPerSecond: [50, 50]))))
        let tracker = BeaconTracker(client: client, bus: player.bus)
        let clicks = LockedBox<[(AdEventInfo, String?)]>([])
        let companions = LockedBox<[AdCompanion]>([])
        let posted = LockedBox<[[String: String]]>([])
        let subscription = player.bus.subscribe { event in
            switch event.kind {
            case let .custom("adCompanions", payload): posted.set(posted.get() + [payload])
            case .timelineChanged: tracker.update(timeline: player.timeline)
            case let .adStarted(info):
                companions.set(tracker.companions(for: info))
                player.notifyClick()   // the viewer clicks as soon as the ad shows
            case let .adClicked(info, clickThrough): clicks.set(clicks.get() + [(info, clickThrough)])
            default: break
            }
        }
        let trackerSubscription = tracker.attach(to: player.bus)
        player.notifyClick()   // outside an ad: nothing happens
        let report = await player.run()
        subscription.cancel()
        trackerSubscription.cancel()
        await tracker.flush()
        #expect(report.finalStatus == .completed)
        #expect(clicks.get().count == 1)
        #expect(clicks.get().first?.0.adId == "clicked" && clicks.get().first?.1 == "https://advertiser.example/clicked")
        #expect(server.beacons.filter { $0.event == "click" }.compactMap { $0.parameter("ad") } == ["clicked"])
        // The companion banner came with the ad.
        #expect(companions.get().map(\.width) == [300] && companions.get().first?.height == 250)
        // And headless, as an event: the ad's companions as JSON, at its start.
        #expect(posted.get().count == 1 && posted.get().first?["adId"] == "clicked", "\(posted.get())")
        let decoded = try posted.get().first.flatMap { try JSONDecoder().decode([AdCompanion].self, from: Data(($0["companions"] ?? "").utf8)) }
        #expect(decoded == companions.get())
    }

    /// The 60 s stream with a 30 s CUE-OUT at 10 s, played live.
    @Test func aLiveCueOfThirtySecondsIsOneRequestAndTheAdsFillIt() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        let media = origin.url("/cues/ad/master.m3u8")
        server.register(AdDocuments.vast((1...3).map { (n: Int) in AdDocuments.tracked(id: "a\(n)", sequence: n, durationSeconds: 10, mediaURL: media, server: server) }),
                        at: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server, preroll: false), isLive: true, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/long-master.m3u8", resolver: resolver, client: client, origin: origin, live: true)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let requests = server.requestLog.filter { $0.path == "/vast" }
        #expect(requests.count == 1)
        #expect(requests.first?.query?.contains("dur=30") == true)
        let boundary = try #require(session.report.adBoundaries.first)
        #expect(session.report.adBoundaries.count == 1)
        #expect(boundary.adMediaURLs.count == 3)
        #expect(boundary.cueContentSeconds == 10 && boundary.replacedContentSeconds == 30)
        #expect(boundary.firstContentAfter?.sourceSeconds == 40)
        #expect(session.report.framesPresented["video"] == 1800)
        #expect(session.report.rebuffers.isEmpty)
        #expect(Set(server.beacons.filter { $0.event == "complete" }.compactMap { $0.parameter("ad") }) == ["a1", "a2", "a3"])
    }

    @Test func aLiveCueWhoseServerAnswersTooLateTimesOutAndContentPlaysOnWithoutAGap() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(AdDocuments.vast([AdDocuments.tracked(id: "late", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)]),
                        at: "/vast")
        server.setFault(.delay(seconds: 3), forPath: "/vast")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server, preroll: false), isLive: true, timeoutSeconds: 0.3)
        let session = await play("/cues/ts/long-master.m3u8", resolver: resolver, client: client, origin: origin, live: true, perFrameEvents: true)
        #expect(session.report.finalStatus == .completed)
        #expect(session.report.notifications.contains { $0.code == .adTimeout })
        #expect(session.report.adBoundaries.isEmpty)
        #expect(session.report.rebuffers.isEmpty)
        let times = session.events.compactMap { event -> Double? in
            if case let .framePresented(pts, _) = event.kind { return pts } else { return nil }
        }
        #expect(times.count == 1800)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-6 }, "no gap")
        #expect(server.beacons.isEmpty)
    }

    /// An inline ad whose HLS media answers 404 is left out and its VAST Error URL fires with 401
    /// (file not found); none fired. The pod's other ad plays.
    @Test func anAdWhoseMediaIsMissingCallsItsErrorURLsWith401() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([
            AdDocuments.tracked(id: "gone", durationSeconds: 10, mediaURL: origin.url("/cues/ad/missing.m3u8"), server: server),
            AdDocuments.tracked(id: "here", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server),
        ])))]), at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let errors = server.beacons.filter { $0.event == "error" }
        #expect(errors.map { "\($0.parameter("ad") ?? "?"):\($0.parameter("code") ?? "?")" } == ["gone:401"])
        #expect(server.beacons.filter { $0.event == "complete" }.compactMap { $0.parameter("ad") } == ["here"])
    }

    /// The ad's second segment answers 404 after its retries: the ad plays cut short and ends skipped,
    /// its Error URL called with 401; it ended "completed" (its duration rewritten to 2 s) and fired
    /// its complete beacon.
    @Test func anAdWhoseSegmentFailsPartWayEndsSkippedWithItsErrorURL() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        for rung in 0..<4 { origin.setFault(.status(404), forPath: "/cues/ad/v\(rung)/seg001.ts") }
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([
            AdDocuments.tracked(id: "cut", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)])))]),
                        at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let events = server.beacons.map(\.event)
        #expect(events.contains("error") && !events.contains("complete"), "\(events)")
        #expect(server.beacons.first { $0.event == "error" }?.parameter("code") == "401")
        #expect(session.events.contains { if case .adSkipped = $0.kind { return true } else { return false } })
    }

    /// An ad the PSDK's ad checks refuse (4 s segments for content of 2 s: AD_TARGET_DURATION_TOO_LONG,
    /// VAST 403) calls its Error URL with 403; it called none.
    @Test func anAdTheAdChecksRefuseCallsItsErrorURLWith403() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([
            AdDocuments.tracked(id: "long", durationSeconds: 30, mediaURL: origin.url("/ts/master.m3u8"), server: server)])))]),
                        at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        #expect(session.report.notifications.contains { $0.name == "AD_TARGET_DURATION_TOO_LONG" })
        #expect(server.beacons.map { "\($0.event):\($0.parameter("code") ?? "")" } == ["error:403"])
    }

    @Test func aVMAPBreakThatFailsCallsItsErrorURLsWithTheVMAPCode() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        func errorURL(_ id: String) -> [String: [String]] { ["error": [server.beaconURL(event: "error", adId: id) + "&code=[ERRORCODE]"]] }
        let ad = AdDocuments.tracked(id: "p1", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: server)
        let noAds = AdDocuments.vast([], errorURLs: [server.beaconURL(event: "error", adId: "empty-vast") + "&code=[ERRORCODE]"])
        server.register(AdDocuments.vmap([
            .init(timeOffset: "start", breakId: "gone", source: .adTagURI(server.url("/missing")), tracking: errorURL("gone")),
            .init(timeOffset: "00:00:04.000", breakId: "overlay", source: .vast(AdDocuments.vast([ad])), tracking: errorURL("overlay"),
                  breakType: "nonlinear"),
            .init(timeOffset: "00:00:06.000", breakId: "empty", source: .vast(noAds), tracking: errorURL("empty")),
            .init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([ad])), tracking: errorURL("mid")),
        ]), at: "/vmap")
        let resolver = try DefaultAdResolver(metadata: metadata(for: server), isLive: false, timeoutSeconds: generousResolverTimeout)
        let session = await play("/cues/ts/master.m3u8", resolver: resolver, client: client, origin: origin)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")

        // VMAP 1.0's codes: 1008 for a tag the server answers with 404, 1003 for a break type the player
        // does not play, 1004 for a response with no ad; the empty VAST's own error URL gets VAST's 303.
        let errors = server.beacons.filter { $0.event == "error" }.map { "\($0.parameter("ad") ?? "?"):\($0.parameter("code") ?? "?")" }
        #expect(errors.sorted() == ["empty-vast:303", "empty:1004", "gone:1008", "overlay:1003"], "\(errors)")
        // The break that played fires no error, and its ad plays whole.
        #expect(server.beacons.filter { $0.parameter("ad") == "p1" }.map(\.event).last == "complete")
    }
}
