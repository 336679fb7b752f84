import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// The beacon tracker against the test ad server: quartiles at the right media time, once, in order;
/// retries; pause, resume, skip, clicks, errors, replays.
@Suite struct BeaconTrackerTests {
    static let fps = 25.0

    /// A break of two ads (10 s and 6 s) whose beacons point at `server`.
    func twoAdBreak(_ server: AdServer, skipOffsetSeconds: Double? = nil) -> AdTimeline {
        func ad(_ id: String, _ duration: Double) -> TimelineAd {
            let vast = AdDocuments.tracked(id: id, durationSeconds: duration, mediaURL: server.url("/\(id).m3u8"), server: server)
            return TimelineAd(id: id, url: server.url("/\(id).m3u8"), durationSeconds: duration, impressions: vast.impressions,
                              trackingEvents: vast.tracking, clickThrough: vast.clickThrough, clickTracking: vast.clickTracking,
                              errorURLs: vast.errorURLs, skipOffsetSeconds: skipOffsetSeconds)
        }
        return AdTimeline(breaks: [AdBreak(id: "mid", contentSeconds: 30, ads: [ad("a1", 10), ad("a2", 6)])])
    }

    func info(_ timeline: AdTimeline, ad index: Int, frame: Int) -> AdEventInfo {
        let ad = timeline.breaks[0].ads[index]
        let offset = Double(frame) / Self.fps
        return AdEventInfo(breakId: "mid", breakIndex: 0, adId: ad.id, adIndex: index, url: ad.url,
                           durationSeconds: ad.durationSeconds, offsetSeconds: offset, pts: 10 + offset)
    }

    func events(_ timeline: AdTimeline, ad index: Int) -> [PlayerEventKind] {
        adEvents(timeline, breakIndex: 0, adIndex: index, fps: Self.fps)
    }

    @Test func everyQuartileOnceInOrderAtTheRightMediaTime() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let tracker = BeaconTracker(client: client, timeline: timeline)
        for kind in [PlayerEventKind.adBreakStarted(breakId: "mid", breakIndex: 0, ads: 2)] + events(timeline, ad: 0) + events(timeline, ad: 1)
            + [.adBreakCompleted(breakId: "mid", breakIndex: 0)] {
            tracker.consume(kind)
        }
        await tracker.flush()

        let expected = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let hits = server.beacons
        #expect(hits.map { "\($0.parameter("ad") ?? "?"):\($0.event)" } == expected.map { "a1:\($0)" } + expected.map { "a2:\($0)" })
        #expect(hits.allSatisfy { $0.status == 200 })
        let frame = 1 / Self.fps
        for (adId, duration) in [("a1", 10.0), ("a2", 6.0)] {
            for (event, share) in [("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)] {
                let hit = try #require(hits.first { $0.parameter("ad") == adId && $0.event == event })
                let seconds = try #require(clockSeconds(hit.parameter("t")))
                #expect(seconds >= share * duration - 1e-6 && seconds < share * duration + frame, "\(adId) \(event) at \(seconds)")
                let record = try #require(tracker.records.first { $0.adId == adId && $0.event == event })
                #expect(abs(record.mediaTimeSeconds - seconds) < 0.0011)
                #expect(record.pts == 10 + record.mediaTimeSeconds)
            }
            let cacheBusters = hits.filter { $0.parameter("ad") == adId }.compactMap { $0.parameter("cb") }
            #expect(cacheBusters.count == 7 && cacheBusters.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isNumber) })
            #expect(hits.compactMap { $0.parameter("ts") }.allSatisfy { $0.hasSuffix("Z") && $0.contains("T") })
        }
        #expect(tracker.records.count == 14)
        #expect(tracker.records.allSatisfy { $0.httpStatus == 200 && $0.attempts == 1 && $0.breakId == "mid" })
    }

    @Test func aBeaconTheServerFailsOnceIsRetriedWithBackoff() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let waits = WaitRecorder()
        let tracker = BeaconTracker(client: client, timeline: timeline, retry: BeaconRetryPolicy(attempts: 3, initialBackoffSeconds: 0.5),
                                    sleep: { await waits.record($0) })
        server.setFault(.status(503), forPath: "/beacon/start", times: 1)
        tracker.consume(.adStarted(info(timeline, ad: 0, frame: 0)))
        await tracker.flush()
        let start = try #require(tracker.records.first { $0.event == "start" })
        #expect(start.attempts == 2 && start.httpStatus == 200 && start.error == nil)
        #expect(server.beacons.filter { $0.event == "start" }.map(\.status) == [503, 200])
        #expect(await waits.seconds == [0.5])
        #expect(tracker.records.map(\.event) == ["impression", "creativeView", "start"])

        server.setFault(.status(404), forPath: "/beacon/firstQuartile")
        tracker.consume(.adProgress(info(timeline, ad: 0, frame: 63)))
        await tracker.flush()
        let failed = try #require(tracker.records.last)
        #expect(failed.event == "firstQuartile" && failed.httpStatus == 404 && failed.attempts == 1 && failed.error != nil)
        #expect(BeaconRetryPolicy().backoff(beforeAttempt: 3) == 1.0)
    }

    @Test func aBeaconWaitingForItsRetryDoesNotHoldBackTheOthers() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let gate = Gate()
        // The backoff lasts until the test opens the gate.
        let tracker = BeaconTracker(client: client, timeline: timeline, retry: BeaconRetryPolicy(attempts: 2, initialBackoffSeconds: 0.5),
                                    sleep: { _ in await gate.wait() })
        server.setFault(.status(503), forPath: "/beacon/start", times: 1)
        tracker.consume(.adStarted(info(timeline, ad: 0, frame: 0)))
        tracker.consume(.adProgress(info(timeline, ad: 0, frame: 63)))
        // firstQuartile goes out, and is answered, while start waits for its retry (a bounded wait for it).
        for _ in 0..<500 where !tracker.records.contains(where: { $0.event == "firstQuartile" }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        await gate.open()
        await tracker.flush()
        #expect(server.beacons.map { "\($0.event):\($0.status)" }
            == ["impression:200", "creativeView:200", "start:503", "firstQuartile:200", "start:200"])
        #expect(tracker.records.map(\.event) == ["impression", "creativeView", "firstQuartile", "start"])
        #expect(tracker.records.last?.attempts == 2)
    }

    /// `skip` is the viewer skipping: a non-skippable ad left early (a seek out, a stop, the session's end)
    /// or a skippable one left before its skip offset fires none; they all used to fire it.
    @Test func onlyASkippableAdLeftPastItsOffsetFiresSkip() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        for (offset, leftAt, fires) in [(nil, 100, false), (5.0, 100, false), (5.0, 125, true)] as [(Double?, Int, Bool)] {
            let timeline = twoAdBreak(server, skipOffsetSeconds: offset)
            let tracker = BeaconTracker(client: client, timeline: timeline)
            tracker.consume(.adStarted(info(timeline, ad: 0, frame: 0)))
            tracker.consume(.adSkipped(info(timeline, ad: 0, frame: leftAt)))
            await tracker.flush()
            #expect(tracker.records.contains { $0.event == "skip" } == fires, "skip offset \(String(describing: offset)), left at frame \(leftAt)")
        }
    }

    @Test func pauseResumeSkipAndNothingAfterTheAdEnded() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server, skipOffsetSeconds: 1)
        let tracker = BeaconTracker(client: client, timeline: timeline)
        // Before the ad started: nothing to pause.
        tracker.consume(.adPaused(info(timeline, ad: 0, frame: 0)))
        tracker.consume(.adStarted(info(timeline, ad: 0, frame: 0)))
        tracker.consume(.adProgress(info(timeline, ad: 0, frame: 25)))
        // Pause and resume carry the paused frame's own offset (frame 27: 1.08 s), not the last
        // progress tick's (1 s): they used to read it from the last adProgress.
        tracker.consume(.adPaused(info(timeline, ad: 0, frame: 27)))
        tracker.consume(.adResumed(info(timeline, ad: 0, frame: 27)))
        tracker.consume(.adPaused(info(timeline, ad: 0, frame: 29)))
        tracker.consume(.adResumed(info(timeline, ad: 0, frame: 29)))
        tracker.consume(.adSkipped(info(timeline, ad: 0, frame: 30)))
        tracker.consume(.adPaused(info(timeline, ad: 0, frame: 30)))
        tracker.consume(.adProgress(info(timeline, ad: 0, frame: 200)))
        await tracker.flush()
        #expect(server.beacons.map(\.event) == ["impression", "creativeView", "start", "pause", "resume", "pause", "resume", "skip"])
        #expect(tracker.records.first { $0.event == "pause" }?.mediaTimeSeconds == 1.08)
        #expect(tracker.records.last { $0.event == "resume" }?.mediaTimeSeconds == 1.16)
        #expect(tracker.records.last?.mediaTimeSeconds == 1.2)
    }

    @Test func clickReturnsTheClickThroughAndTracksOnce() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let tracker = BeaconTracker(client: client, timeline: timeline)
        let playing = info(timeline, ad: 1, frame: 50)
        tracker.consume(.adStarted(info(timeline, ad: 1, frame: 0)))
        #expect(tracker.click(info: playing) == "https://advertiser.example/a2")
        tracker.consume(.adClicked(playing, clickThrough: "https://advertiser.example/a2"))
        await tracker.flush()
        #expect(server.beacons.filter { $0.event == "click" }.map { $0.parameter("ad") } == ["a2"])
        #expect(tracker.records.last?.event == "click" && tracker.records.last?.mediaTimeSeconds == 2)
    }

    @Test func errorsCallErrorURLsWithTheCode() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let tracker = BeaconTracker(client: client, timeline: timeline)
        tracker.reportError(info(timeline, ad: 0, frame: 12), vastErrorCode: 405)
        // An ad that never reached the timeline: its error URLs travel in the warning.
        tracker.consume(.notification(.adNotInserted(description: "MP4 only", breakId: "mid", adId: "gone", vastErrorCode: 403,
                                                     errorURLs: [server.url("/beacon/error?ad=gone&code=[ERRORCODE]")])))
        // A requirement check naming an ad on the timeline: the ad's own error URLs.
        tracker.consume(.notification(.adNotInserted(description: "bitrate", breakId: "mid", adId: "a2", vastErrorCode: 403)))
        // No VAST error code: nothing to report.
        tracker.consume(.notification(.adNotInserted(description: "x", breakId: "mid", adId: "a1")))
        await tracker.flush()
        let errors = server.beacons.filter { $0.event == "error" }
        #expect(errors.map { "\($0.parameter("ad") ?? "?")=\($0.parameter("code") ?? "?")" } == ["a1=405", "gone=403", "a2=403"])
        #expect(tracker.records.first?.mediaTimeSeconds == 0.48)
    }

    @Test func anAdPlayedAgainIsTrackedAgainAndBeaconsGoOnTheBus() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let timeline = twoAdBreak(server)
        let bus = EventBus(clock: { 0 })
        let tracker = BeaconTracker(client: client, bus: bus)
        tracker.update(timeline: timeline)
        let subscription = tracker.attach(to: bus)
        defer { subscription.cancel() }
        bus.post(.adStarted(info(timeline, ad: 1, frame: 0)))
        bus.post(.adStarted(info(timeline, ad: 1, frame: 0)))
        bus.post(.adCompleted(info(timeline, ad: 1, frame: 150)))
        bus.post(.adStarted(info(timeline, ad: 1, frame: 0)))
        await tracker.flush()
        let impressions = server.beacons.filter { $0.event == "impression" }
        #expect(impressions.count == 2)
        #expect(server.beacons.filter { $0.event == "complete" }.count == 1)
        #expect(server.beacons.filter { $0.event == "thirdQuartile" }.count == 1)
        let posted = bus.events.compactMap { event -> [String: String]? in
            if case let .custom(name, payload) = event.kind, name == "beacon" { payload } else { nil }
        }
        #expect(posted.count == tracker.records.count)
        #expect(posted.first?["event"] == "impression" && posted.first?["status"] == "200" && posted.first?["adId"] == "a2")
    }
}

/// Holds its waiters until opened.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Records the waits a tracker asks for, without waiting.
actor WaitRecorder {
    private(set) var seconds: [Double] = []
    func record(_ value: Double) { seconds.append(value) }
}
