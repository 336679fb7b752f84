import Foundation
import PlayheadAdInsertion
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Server-side ad tracking in the real player on the virtual clock, over the generated stitched stream
/// (`ssai/index.m3u8`: content 0–10 s, a 10 s avail of two ads, 6 s and 4 s, each after a discontinuity,
/// content 20–40 s), with the beacon tracker on the bus; the ad server's own log is the judge of what was fired.
@Suite struct SSAIEndToEndTests {
    struct Session {
        var report: PlaybackReport
        var events: [SSAIEvent]
        var beacons: [BeaconRecord]
    }

    /// Plays the stitched stream with SSAI on, frames hashed.
    func play(origin: LoopbackHTTPServer, client: HTTPClient, tracking: String? = nil, start: Double? = nil, live: Bool = false,
              scheduled: [ScheduledCommand] = [], url: String? = nil) async -> Session {
        MediaLog.level = .quiet
        var configuration = PlayerConfiguration()
        configuration.mode = .decode
        configuration.hashFrames = true
        configuration.startSeconds = start
        configuration.ssai = SSAISettings(trackingURL: tracking)
        var network: any PlayerNetwork = SimulatedNetwork(
            client: client, link: SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [50, 50])))
        if live { network = SimulatedLiveNetwork(inner: network, prefix: origin.url("/ssai/")) }
        let player = MediaPlayer(url: url ?? origin.url("/ssai/index.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: network, scheduled: scheduled)
        let tracker = BeaconTracker(client: client, bus: player.bus)
        let subscription = tracker.attach(to: player.bus)
        let report = await player.run(maxSessionSeconds: 300)
        subscription.cancel()
        await tracker.flush()
        return Session(report: report, events: report.ssai?.events ?? [], beacons: tracker.records)
    }

    /// A MediaTailor-style tracking document for the stitched stream: avail 10–20 s, ads "a1" (10–16 s) and
    /// "a2" (16–20 s), every beacon on `server`.
    static func trackingDocument(_ server: AdServer) -> String {
        func events(_ id: String) -> String {
            ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip"].map {
                "{\"eventType\": \"\($0)\", \"beaconUrls\": [\"\(server.beaconURL(event: $0, adId: id))\"]}"
            }.joined(separator: ", ")
        }
        func ad(_ id: String, start: Double, duration: Double) -> String {
            """
            {"adId": "\(id)", "adTitle": "Ad \(id)", "startTimeInSeconds": \(start), "durationInSeconds": \(duration),
             "trackingEvents": [\(events(id))],
             "adClickEvents": [{"type": "ClickThrough", "url": "https://advertiser.example/\(id)"},
                               {"type": "ClickTracking", "url": "\(server.beaconURL(event: "click", adId: id))"}]}
            """
        }
        return """
        {"avails": [{"availId": "break-1", "startTime": "PT10S", "duration": "PT10S",
                     "adBreakTrackingEvents": [{"eventType": "breakStart", "beaconUrls": ["\(server.beaconURL(event: "breakStart", adId: "break-1"))"]},
                                               {"eventType": "breakEnd", "beaconUrls": ["\(server.beaconURL(event: "breakEnd", adId: "break-1"))"]}],
                     "ads": [\(ad("a1", start: 10, duration: 6)), \(ad("a2", start: 16, duration: 4))]}]}
        """
    }

    @Test func markersAloneGiveTheAvailAndItsTwoAdsAtTheirFramesExactly() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let client = HTTPClient()
        defer { client.shutdown(); origin.stop() }
        let session = await play(origin: origin, client: client)
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let names = session.events.map { "\($0.name)@\(String(format: "%g", $0.contentSeconds))" }
        #expect(names == ["adCueTimelineAdded@10", "adCueTimelineStart@10", "adImpression@10", "adStarted@10", "adFirstQuartile@11.5",
                          "adMidpoint@13", "adThirdQuartile@14.5", "adComplete@16", "adImpression@16", "adStarted@16", "adFirstQuartile@17",
                          "adMidpoint@18", "adThirdQuartile@19", "adComplete@20", "adCueTimelineEnd@20"])
        #expect(session.report.ssai?.avails.map(\.ads.count) == [2])
        // Twice a second of ad: 12 + 8 ticks.
        #expect(session.report.ssai?.remainingTimeEvents == 20)
        // Each ad starts on the first frame of its media; content resumes on the first frame of its segment at 10 s.
        let adFirst = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ad/v1/seg000.ts").first)
        let contentAfter = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ts/seg005.ts").first)
        let started = session.events.filter { $0.name == "adStarted" }
        #expect(started.map(\.frameMD5) == [adFirst, adFirst])
        #expect(session.events.last?.frameMD5 == contentAfter)
        // The first ad's 6 s of a 10 s creative: its last quartile lands on the creative's frame at 4.5 s.
        let adFrames = await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ad/v1/seg002.ts")
        #expect(session.events.first { $0.name == "adThirdQuartile" && $0.adId?.hasSuffix("-1") == true }?.frameMD5 == adFrames[15])
        #expect(session.beacons.isEmpty, "markers alone name no beacon URLs")
    }

    @Test func theTrackingDocumentsBeaconsFireOnceEachInPlayOrderAtTheirAdPlayhead() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(Self.trackingDocument(server), at: "/tracking.json", contentType: "application/json")
        let session = await play(origin: origin, client: client, tracking: server.url("/tracking.json"))
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let perAd = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let hits = server.beacons.map { "\($0.parameter("ad") ?? "?"):\($0.event)" }
        #expect(hits == ["break-1:breakStart"] + perAd.map { "a1:\($0)" } + perAd.map { "a2:\($0)" } + ["break-1:breakEnd"])
        // The records name each URL's own event, as the server saw it.
        #expect(session.beacons.map { "\($0.adId.isEmpty ? $0.breakId : $0.adId):\($0.event)" }.sorted() == hits.sorted())
        // [ADPLAYHEAD] is the presented frame's time into the ad: within one frame of the quartile's share.
        for (id, duration) in [("a1", 6.0), ("a2", 4.0)] {
            for (event, share) in [("start", 0.0), ("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)] {
                let hit = try #require(server.beacons.first { $0.parameter("ad") == id && $0.event == event })
                let parts = try #require(hit.parameter("t")).split(separator: ":").compactMap { Double($0) }
                let seconds = parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1
                #expect(abs(seconds - share * duration) < 1.0 / 30 + 1e-3, "\(id) \(event) at \(seconds)")
            }
        }
        #expect(session.report.ssai?.avails.map(\.source) == [.tracking], "the cue markers' avail is the tracked one")
        #expect(session.events.first { $0.name == "adStarted" }?.adTitle == "Ad a1")
        #expect(session.beacons.count == hits.count && session.beacons.allSatisfy(\.succeeded))
    }

    @Test func aSkipFiveSecondsIntoAVODAdSeeksToItsEndAndFiresSkipNotComplete() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(Self.trackingDocument(server), at: "/tracking.json", contentType: "application/json")
        // 1 s into a1: refused. 5 s into a1: skipped to a2's start. 1 s into a2: refused.
        let session = await play(origin: origin, client: client, tracking: server.url("/tracking.json"),
                                 scheduled: [.init(atPositionSeconds: 11, action: .skipAd), .init(atPositionSeconds: 15, action: .skipAd),
                                             .init(atPositionSeconds: 17, action: .skipAd)])
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let a1 = session.events.filter { $0.adId == "a1" }.map(\.name)
        #expect(a1 == ["adImpression", "adStarted", "adFirstQuartile", "adMidpoint", "adThirdQuartile", "adSkipped"])
        #expect(session.events.filter { $0.adId == "a2" }.map(\.name).last == "adComplete")
        #expect(session.report.ssai?.refusals.count == 2)
        #expect(session.report.ssai?.refusals.first?.contains("may be skipped after 5 s") == true)
        #expect(server.beacons.filter { $0.parameter("ad") == "a1" }.map(\.event).suffix(2) == ["thirdQuartile", "skip"])
        // The seek lands on a2's first frame.
        let seek = try #require(session.report.seeks.first)
        #expect(abs(seek.toSeconds - 16) < 1e-6 && seek.automatic == "ssaiSkip")
        let adFirst = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ad/v1/seg000.ts").first)
        #expect(session.events.first { $0.adId == "a2" && $0.name == "adStarted" }?.frameMD5 == adFirst)
    }

    /// A skip where the EXTINFs before each ad undercount (1.9 s listed for 2 s): the seek lands on the next ad's
    /// first frame, on the media's timeline (the ad's end is the playlist's 15.9 s; the seek went there on the
    /// content's, 0.1 s inside the ad it skipped, which started again: a second impression).
    @Test func aSkipWhereEXTINFsUndercountLandsOnTheNextAdsFirstFrame() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        var lines = try String(contentsOfFile: TestRepository.streams + "/ssai/index.m3u8", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("../") { lines[index] = origin.url("/" + line.dropFirst(3)) }
        let content4 = try #require(lines.firstIndex { $0.hasSuffix("/cues/ts/seg004.ts") })
        lines[content4 - 1] = "#EXTINF:1.9,"
        let secondAd = try #require(lines.indices.filter { lines[$0] == "#EXT-X-DISCONTINUITY" }.dropFirst().first)
        lines[secondAd - 2] = "#EXTINF:1.9,"
        server.register(lines.joined(separator: "\n"), at: "/short.m3u8", contentType: "application/vnd.apple.mpegurl")
        let session = await play(origin: origin, client: client, scheduled: [.init(atPositionSeconds: 15.5, action: .skipAd)],
                                 url: server.url("/short.m3u8"))
        #expect(session.report.finalStatus == .completed, "\(session.report.error ?? "")")
        let first = session.events.filter { $0.adId?.hasSuffix("-1") == true }.map(\.name)
        #expect(first.filter { $0 == "adImpression" }.count == 1 && first.last == "adSkipped", "\(first)")
        let adFirst = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ad/v1/seg000.ts").first)
        let second = try #require(session.events.first { $0.adId?.hasSuffix("-2") == true && $0.name == "adStarted" })
        #expect(second.frameMD5 == adFirst)
    }

    @Test func aClickFiresTheAdsClickTrackingAndNamesItsClickThrough() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register(Self.trackingDocument(server), at: "/tracking.json", contentType: "application/json")
        let session = await play(origin: origin, client: client, tracking: server.url("/tracking.json"),
                                 scheduled: [.init(atPositionSeconds: 5, action: .clickAd), .init(atPositionSeconds: 17, action: .clickAd)])
        let clicks = session.events.filter { $0.name == "adClicked" }
        #expect(clicks.map(\.adId) == ["a2"], "a click on content is no ad's")
        #expect(clicks.first?.clickThrough == "https://advertiser.example/a2")
        #expect(server.beacons.filter { $0.event == "click" }.map { $0.parameter("ad") } == ["a2"])
    }

    @Test func liveTheAvailIsLearntAsTheWindowListsItAndItsAdsMayNotBeSkipped() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let client = HTTPClient()
        defer { client.shutdown(); origin.stop() }
        let session = await play(origin: origin, client: client, live: true, scheduled: [.init(atPositionSeconds: 16, action: .skipAd)])
        #expect(session.report.isLive)
        let names = session.events.filter { $0.name != "adCueTimelineAdded" }.map(\.name)
        #expect(names.filter { $0 == "adStarted" }.count == 2 && names.filter { $0 == "adComplete" }.count == 2 && names.last == "adCueTimelineEnd")
        #expect(session.report.ssai?.refusals.first?.hasSuffix("ads of a live stream cannot be skipped") == true)
        // Announced before its first frame, each time the window's avails changed (an open avail grows as listed).
        let added = try #require(session.events.first { $0.name == "adCueTimelineAdded" })
        #expect(added.contentSeconds == 10 && session.events.firstIndex(of: added)! < session.events.firstIndex { $0.name == "adCueTimelineStart" }!)
    }

    @Test func joiningInsideAnAdStartsItThereWithoutTheQuartilesBehind() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let client = HTTPClient()
        defer { client.shutdown(); origin.stop() }
        let session = await play(origin: origin, client: client, start: 14)
        let first = session.events.filter { $0.name != "adCueTimelineAdded" }.map { "\($0.name)@\(String(format: "%g", $0.contentSeconds))" }
        #expect(Array(first.prefix(5)) == ["adCueTimelineStart@14", "adImpression@14", "adStarted@14", "adThirdQuartile@14.5", "adComplete@16"])
    }

    @Test func aBrokenTrackingDocumentIsReportedAndTheMarkersStillGiveTheAds() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        server.register("{\"avails\": [{\"availId\": \"x\", \"ads\": []}]}", at: "/tracking.json", contentType: "application/json")
        let session = await play(origin: origin, client: client, tracking: server.url("/tracking.json"))
        #expect(session.report.finalStatus == .completed)
        #expect(session.report.ssai?.trackingFailures == ["\(server.url("/tracking.json")): avails[0] has neither startTimeInSeconds nor startTime"])
        #expect(session.events.filter { $0.name == "adStarted" }.count == 2)
        let missing = await play(origin: origin, client: client, tracking: server.url("/none.json"))
        #expect(missing.report.ssai?.trackingFailures.first?.contains("could not be loaded") == true)
    }

    @Test func aResolverURLIsAskedWhereTheStreamAndItsTrackingDocumentAre() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        server.register("{\"manifestUrl\": \"/hls/view/abc/master.m3u8\", \"trackingUrl\": \"tracking/abc.json\"}",
                        at: "/resolver/hls/view/abc", contentType: "application/json")
        let entry = try await SSAIEntry.resolve(server.url("/resolver/hls/view/abc"), client: client)
        #expect(entry.kind == .resolver)
        #expect(entry.playlistURL == server.url("/hls/view/abc/master.m3u8"))
        #expect(entry.trackingURL == server.url("/resolver/hls/view/tracking/abc.json"))
        #expect(SSAIURLKind.classify("https://live.example/hls/view/7a18?api-key=k") == .view)
        #expect(SSAIURLKind.classify("http://host:3001/hls/master.m3u8") == .master)
        // A view URL plays as it is, unasked.
        #expect(try await SSAIEntry.resolve("http://127.0.0.1:1/hls/view/x", client: client).playlistURL == "http://127.0.0.1:1/hls/view/x")
        server.register("<html>busy</html>", at: "/resolver/bad", contentType: "text/html")
        await #expect(throws: SSAIError(source: server.url("/resolver/bad"),
                                        problem: "the resolver answered \"<html>busy</html>\": neither a playlist, a JSON object naming one, nor a URL")) {
            try await SSAIEntry.resolve(server.url("/resolver/bad"), client: client)
        }
        // A bare relative URL counts from the resolver.
        server.register("view/abc.m3u8", at: "/resolver/bare", contentType: "text/plain")
        #expect(try await SSAIEntry.resolve(server.url("/resolver/bare"), client: client).playlistURL == server.url("/resolver/view/abc.m3u8"))
        server.register("{\"other\": 1}", at: "/resolver/json", contentType: "application/json")
        await #expect(throws: SSAIError.self) { try await SSAIEntry.resolve(server.url("/resolver/json"), client: client) }
    }
}

/// `check-ads --ssai`'s checker: each stitched ad's start and each avail's end against FFmpeg's frames.
@Suite struct SSAIBoundaryCheckTests {
    @Test func theStitchedBoundariesAreExactAndADocumentOutOfStepWithTheMediaIsNot() async throws {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        MediaLog.level = .quiet
        let checker = AdBoundaryChecker(client: client)
        let markers = try await checker.checkSSAI(url: origin.url("/ssai/master.m3u8"), trackingURL: nil)
        #expect(markers.boundaries.map(\.kind) == ["adStart", "adStart", "availEnd"])
        #expect(markers.allExact, "\(markers.boundaries.flatMap(\.problems))")
        #expect(markers.boundaries.map(\.boundarySeconds) == [10, 16, 20] && markers.boundaries.allSatisfy { $0.expectedIsKeyframe == true })
        // The document says the second ad starts at 16.5 s; the media changes at 16 s.
        server.register(#"{"avails": [{"availId": "b", "startTimeInSeconds": 10, "durationInSeconds": 10, "ads": [{"adId": "a1", "startTimeInSeconds": 10, "durationInSeconds": 6.5}, {"adId": "a2", "startTimeInSeconds": 16.5, "durationInSeconds": 3.5}]}]}"#,
                        at: "/late.json", contentType: "application/json")
        let late = try await checker.checkSSAI(url: origin.url("/ssai/index.m3u8"), trackingURL: server.url("/late.json"))
        #expect(!late.allExact)
        let a2 = try #require(late.boundaries.first { $0.adId == "a2" })
        #expect(!a2.exact && !a2.onSegmentStart)
        #expect(a2.problems == ["ad a2 at 16.500 s is inside a segment: the stitched media does not change there"])
        #expect(late.boundaries.filter(\.exact).count == 2, "a1's start and the avail's end are right")
    }

    /// Runs `body` with a checker and the URL of the stitched stream (`ssai/index.m3u8`, its media at absolute
    /// URLs) as `edit` rewrote its lines.
    func withStitched<T>(_ edit: (inout [String]) throws -> Void, _ body: (AdBoundaryChecker, String) async throws -> T) async throws -> T {
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop(); origin.stop() }
        MediaLog.level = .quiet
        var lines = try String(contentsOfFile: TestRepository.streams + "/ssai/index.m3u8", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("../") { lines[index] = origin.url("/" + line.dropFirst(3)) }
        try edit(&lines)
        server.register(lines.joined(separator: "\n"), at: "/edited.m3u8", contentType: "application/vnd.apple.mpegurl")
        return try await body(AdBoundaryChecker(client: client), server.url("/edited.m3u8"))
    }

    /// EXTINFs that undercount the media before each discontinuity (content listed 1.9 s for 2 s, the second ad's
    /// last segment 1.95 s): each run goes on where the media before it ended, 0.1 s and 0.15 s after the
    /// playlist's times. The ads' events still come at the ads' first frames, and the check judges them there (the
    /// events came on the content's last three frames, and the check called that exact: it took the first frame at
    /// or after the listed time, which was the content's).
    @Test func stitchedAdsListedShortStartOnTheirOwnFirstFrames() async throws {
        let adFirst = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ad/v1/seg000.ts").first)
        let contentAfter = try #require(await ChildProcess.ffmpegHashes(TestRepository.streams + "/cues/ts/seg005.ts").first)
        try await withStitched({ lines in
            let content4 = try #require(lines.firstIndex { $0.hasSuffix("/cues/ts/seg004.ts") })
            lines[content4 - 1] = "#EXTINF:1.9,"
            let cueIn = try #require(lines.firstIndex(of: "#EXT-X-CUE-IN"))
            lines[cueIn - 2] = "#EXTINF:1.95,"
        }) { checker, url in
            let result = try await checker.checkSSAI(url: url, trackingURL: nil)
            #expect(zip(result.boundaries.map(\.boundarySeconds), [9.9, 15.9, 19.85]).allSatisfy { abs($0 - $1) < 1e-9 } && result.boundaries.count == 3)
            #expect(result.allExact, "\(result.boundaries.flatMap(\.problems))")
            #expect(result.boundaries.map(\.expectedMD5) == [adFirst, adFirst, contentAfter])
            #expect(result.boundaries.map(\.actualMD5) == [adFirst, adFirst, contentAfter])
            // A check that compares the ad's time with the frames' own times is fooled: the event on the content's
            // last frame would be called exact. Against the segments' listed spans it is not.
            let (frames, segments, times) = try await checker.referenceRendition(url)
            let onContent = try #require(frames.last { $0.seconds < 10 - 1e-3 })
            var early = SSAIEvent(name: "adStarted", availId: "x", adId: "x-1", adsInAvail: 2, contentSeconds: 9.9)
            early.frameMD5 = onContent.md5
            let verdict = AdBoundaryChecker.ssaiVerdict(availId: "x", adId: "x-1", at: 9.9, event: early, frames: frames, times: times,
                                                        segmentStarts: segments.map(\.startSeconds))
            #expect(!verdict.exact && verdict.expectedMD5 == adFirst, "\(verdict)")
        }
    }

    /// A cue out whose duration (4 s) is shorter than the ads stitched after it (6 s, then a second ad from 16 s):
    /// the avail ends at 14 s as documented, on the first ad's frames, and the check says so (it called that end
    /// exact: the frame there is the one FFmpeg decodes there, but it is no content).
    @Test func anAvailEndingInsideTheStitchedAdIsNotExact() async throws {
        try await withStitched({ lines in
            let cueOut = try #require(lines.firstIndex(of: "#EXT-X-CUE-OUT:DURATION=10"))
            lines[cueOut] = "#EXT-X-CUE-OUT:DURATION=4"
        }) { checker, url in
            let result = try await checker.checkSSAI(url: url, trackingURL: nil)
            let end = try #require(result.boundaries.first { $0.kind == "availEnd" })
            #expect(end.boundarySeconds == 14 && !end.exact && !result.allExact)
            #expect(end.problems.contains { $0.contains("at no discontinuity") && $0.contains("next at 16.000 s") }, "\(end.problems)")
            let starts = result.boundaries.filter { $0.kind == "adStart" }
            #expect(!starts.isEmpty && starts.allSatisfy { $0.exact })
        }
    }
}
