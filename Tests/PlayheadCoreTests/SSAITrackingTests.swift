import Foundation
import PlayheadCore
import PlayheadHLS
import Testing

/// Server-side ad tracking's parts without a player: the tracking document, the playlist's markers,
/// and the frame-driven tracker.
@Suite struct SSAITrackingTests {
    static let corpus = OpportunityDetectorTests.corpus

    func avails(_ text: String) throws -> [SSAIAvail] {
        guard case let .media(playlist) = try Playlist.parse(text).playlist else { throw CocoaError(.fileReadCorruptFile) }
        let tracker = LivePlaylistTracker(first: playlist, loadedAt: 0)
        return SSAIMarkers.avails(segments: tracker.segments, dateRanges: playlist.dateRanges)
    }

    /// Every frame of 1/30 s from `from` to `to` (exclusive) through `tracker`.
    func play(_ tracker: inout SSAIAdTracker, from: Double, to: Double) -> [SSAIEvent] {
        var events: [SSAIEvent] = []
        var frame = Int((from * 30).rounded())
        while Double(frame) / 30 < to - 1e-9 {
            events += tracker.presented(seconds: Double(frame) / 30, durationSeconds: 1.0 / 30)
            frame += 1
        }
        return events
    }

    // MARK: The tracking document

    @Test func theMediaTailorShapeWithISODurationsAndClickEvents() throws {
        let json = """
        {"avails": [{"availId": "7", "startTime": "PT28S", "duration": "PT30S",
                     "adBreakTrackingEvents": [{"eventType": "breakStart", "beaconUrls": ["http://t/bs"]}],
                     "ads": [{"adId": "8104386", "adTitle": "second", "startTimeInSeconds": 43, "durationInSeconds": 15,
                              "trackingEvents": [{"eventType": "impression", "beaconUrls": ["http://t/i1", "http://t/i2"]},
                                                 {"eventType": "clickThrough", "beaconUrls": ["https://adv/landing"]},
                                                 {"eventType": "clickTracking", "beaconUrls": ["http://t/c"]}]},
                             {"adId": "8104385", "startTime": "PT28S", "duration": "PT15S", "trackingEvents": [],
                              "adClickEvents": [{"type": "ClickThrough", "url": "https://adv/first"}, {"type": "ClickTracking", "url": "http://t/c1"}]}]}],
         "nextToken": "x", "nonLinearAvails": []}
        """
        let avails = try SSAITrackingDocument.parse(Array(json.utf8), source: "tracking.json")
        #expect(avails.count == 1)
        let avail = try #require(avails.first)
        #expect(avail.id == "7" && avail.startSeconds == 28 && avail.durationSeconds == 30 && avail.source == .tracking)
        #expect(avail.trackingEvents["breakStart"] == ["http://t/bs"])
        #expect(avail.ads.map(\.id) == ["8104385", "8104386"], "sorted by start")
        #expect(avail.ads[0].clickThrough == "https://adv/first" && avail.ads[0].clickTracking == ["http://t/c1"])
        #expect(avail.ads[1].trackingEvents["impression"] == ["http://t/i1", "http://t/i2"])
        #expect(avail.ads[1].clickThrough == "https://adv/landing" && avail.ads[1].clickTracking == ["http://t/c"])
        #expect(avail.ads[1].trackingEvents["clickThrough"] == nil, "a click-through is no beacon")
        #expect(avail.adIndex(at: 43) == 1 && avail.adIndex(at: 42.99) == 0 && avail.adIndex(at: 58) == nil)
    }

    @Test func whatIsWrongIsNamedByItsPath() {
        func problem(_ json: String) -> String? {
            do { _ = try SSAITrackingDocument.parse(Array(json.utf8), source: "t.json"); return nil } catch { return error.problem }
        }
        #expect(problem("[1]") == "the document is not a JSON object")
        #expect(problem("{\"avails\": 3}") == "avails is not an array")
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": 0, \"ads\": [{\"startTimeInSeconds\": 1}]}]}")
            == "avails[0].ads[0] has neither durationInSeconds nor duration")
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": -2}]}") == "avails[0].startTimeInSeconds is -2.0: it must be ≥ 0")
        #expect(problem("{\"avails\": [{\"startTime\": \"10 seconds\"}]}") == "avails[0].startTime \"10 seconds\" is not an ISO 8601 duration (PT…S)")
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": 0, \"ads\": [{\"startTimeInSeconds\": 0, \"durationInSeconds\": 0}]}]}")
            == "avails[0].ads[0].durationInSeconds is 0.0: an ad must last")
        #expect(problem("{\"avails\": [")?.hasPrefix("not JSON (12 bytes)") == true)
        #expect(problem("{\"avails\": [],}") == "not JSON (15 bytes): it goes wrong at line 1, column 14 (byte offset 13): a comma before '}'")
        #expect(problem("{}") == nil, "no avails yet (live, before the first break)")
        // Wrong types are said as such, not as missing.
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": \"10\"}]}") == "avails[0].startTimeInSeconds is a string, not a number of seconds")
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": 0, \"adBreakTrackingEvents\": [{\"eventType\": \"breakStart\", \"beaconUrls\": \"http://t/b\"}]}]}")
            == "avails[0].adBreakTrackingEvents[0].beaconUrls is a string, not an array of URLs")
        #expect(problem("{\"avails\": [{\"startTimeInSeconds\": 0, \"ads\": {}}]}") == "avails[0].ads is an object, not an array")
    }

    /// `avails[0]` of 10–20 s holding `ads` (id, start, duration).
    func layoutProblem(_ ads: [(String, Double, Double)], availDuration: Double? = 10) -> String? {
        let list = ads.map { "{\"adId\": \"\($0.0)\", \"startTimeInSeconds\": \($0.1), \"durationInSeconds\": \($0.2)}" }.joined(separator: ",")
        let duration = availDuration.map { ", \"durationInSeconds\": \($0)" } ?? ""
        do {
            _ = try SSAITrackingDocument.parse(Array("{\"avails\": [{\"startTimeInSeconds\": 10\(duration), \"ads\": [\(list)]}]}".utf8), source: "t.json")
            return nil
        } catch { return error.problem }
    }

    @Test func adsMustSitInsideTheirAvailOneAfterTheOther() throws {
        #expect(layoutProblem([("a1", 10, 6), ("a2", 16, 4)]) == nil)
        #expect(layoutProblem([("a1", 10, 6), ("a2", 15, 5)]) == "avails[0]: ad a2 starts at 15 s, inside ad a1 (10–16 s): the ads of an avail play one after the other")
        #expect(layoutProblem([("a1", 10, 6), ("a2", 16, 6)]) == "avails[0]: ad a2 (16–22 s) is not inside its avail (10–20 s)")
        #expect(layoutProblem([("a1", 5, 6)]) == "avails[0]: ad a1 (5–11 s) is not inside its avail (10–20 s)")
        #expect(layoutProblem([("a1", 10, 1e308)]) == "avails[0].ads[0].durationInSeconds is 1e+308: more than 1e+09 s")
        // Frame rounding is allowed: a 6.0333 s ad after a 4 s one in a 10 s avail.
        #expect(layoutProblem([("a1", 10, 4), ("a2", 14, 6.004)]) == nil)
        // Without a duration the avail ends with its last ad.
        #expect(layoutProblem([("a1", 10, 6), ("a2", 16, 40)], availDuration: nil) == nil)
        let overlapping = "{\"avails\": [{\"availId\": \"x\", \"startTimeInSeconds\": 0, \"durationInSeconds\": 10}, {\"availId\": \"y\", \"startTimeInSeconds\": 5}]}"
        #expect(throws: SSAIError(source: "t.json", problem: "avail y starts at 5 s, inside avail x (0–10 s): avails must not overlap (sorted by start, pair 1)")) {
            try SSAITrackingDocument.parse(Array(overlapping.utf8), source: "t.json")
        }
    }

    @Test func anIdGivenTwiceNamesTwoAds() throws {
        let json = "{\"avails\": [{\"availId\": \"b\", \"startTimeInSeconds\": 10, \"durationInSeconds\": 10, \"ads\": ["
            + "{\"adId\": \"same\", \"startTimeInSeconds\": 10, \"durationInSeconds\": 6}, {\"adId\": \"same\", \"startTimeInSeconds\": 16, \"durationInSeconds\": 4}]},"
            + "{\"availId\": \"b\", \"startTimeInSeconds\": 30, \"durationInSeconds\": 2}]}"
        let avails = try SSAITrackingDocument.parse(Array(json.utf8), source: "t.json")
        #expect(avails.map(\.id) == ["b", "b#2"])
        #expect(avails[0].ads.map(\.id) == ["same", "same#2"])
        var tracker = SSAIAdTracker()
        _ = tracker.update(avails)
        let started = play(&tracker, from: 10, to: 20.1).filter { $0.name == "adStarted" || $0.name == "adComplete" }
        #expect(started.map { "\($0.name)@\(String(format: "%g", $0.contentSeconds))" } == ["adStarted@10", "adComplete@16", "adStarted@16", "adComplete@20"])
    }

    // MARK: Markers

    @Test func anElementalCueOutWithItsSCTE35TwinIsOneAvailToItsCueIn() throws {
        let text = try String(contentsOf: Self.corpus.appendingPathComponent("CUE_OUT_ELEMENTAL_PLAYLIST.m3u8"), encoding: .utf8)
        let found = try avails(text)
        #expect(found.count == 1)
        let avail = try #require(found.first)
        #expect(abs(avail.startSeconds - 22.04) < 1e-9 && avail.source == .markers)
        #expect(avail.ads.count == 1 && avail.ads[0].startSeconds == avail.startSeconds)
    }

    @Test func discontinuitiesInsideAnAvailSplitItsAdsAndADateRangeGivesAnother() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        for index in 0..<20 {
            if index == 2 { text += "#EXT-X-CUE-OUT:DURATION=6\n#EXT-X-DISCONTINUITY\n" }
            if index == 3 || index == 5 { text += "#EXT-X-DISCONTINUITY\n" }
            if index == 5 { text += "#EXT-X-CUE-IN\n" }
            text += "#EXTINF:2,\ns\(index).ts\n"
        }
        text += "#EXT-X-DATERANGE:ID=\"dr-1\",START-DATE=\"2026-01-01T00:00:30.000Z\",DURATION=4,SCTE35-OUT=0xFC\n#EXT-X-ENDLIST\n"
        let found = try avails(text)
        #expect(found.map(\.id) == ["EXT-X-CUE-OUT@2", "dr-1"])
        #expect(found[0].startSeconds == 4 && found[0].durationSeconds == 6)
        #expect(found[0].ads.map(\.startSeconds) == [4, 6] && found[0].ads.map(\.durationSeconds) == [2, 4])
        #expect(found[1].startSeconds == 30 && found[1].ads.map(\.durationSeconds) == [4])
    }

    @Test func anAvailEndsAtItsDurationWhenItsCueInComesLater() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
        for index in 0..<12 {
            if index == 2 { text += "#EXT-X-CUE-OUT:DURATION=3\n" }
            if index == 6 { text += "#EXT-X-CUE-IN\n" }
            text += "#EXTINF:1,\ns\(index).ts\n"
        }
        let avail = try #require(try avails(text + "#EXT-X-ENDLIST\n").first)
        #expect(avail.startSeconds == 2 && avail.durationSeconds == 3)
    }

    /// A duration written rounded (10 for five 2.002 s segments) ends where the discontinuity after the stitched
    /// ad is, with a cue in or without: it ended 10 ms inside the ad's last segment, and check-ads failed the
    /// stream. Beyond half a second the duration stands.
    @Test func aRoundedDurationEndsAtTheDiscontinuityItMeans() throws {
        func text(duration: String, cueIn: Bool) -> String {
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nc0.ts\n#EXT-X-CUE-OUT:DURATION=\(duration)\n#EXT-X-DISCONTINUITY\n"
            for index in 0..<5 { text += "#EXTINF:2.002,\na\(index).ts\n" }
            return text + (cueIn ? "#EXT-X-CUE-IN\n" : "") + "#EXT-X-DISCONTINUITY\n#EXTINF:2.0,\nc1.ts\n#EXT-X-ENDLIST\n"
        }
        for cueIn in [true, false] {
            for duration in ["10", "10.3"] {
                let avail = try #require(try avails(text(duration: duration, cueIn: cueIn)).first)
                #expect(abs((avail.durationSeconds ?? 0) - 10.01) < 1e-9 && avail.ads.count == 1, "\(duration) \(cueIn): \(avail)")
            }
            let far = try #require(try avails(text(duration: "9", cueIn: cueIn)).first)
            #expect(far.durationSeconds == 9, "\(far)")
            // Not to the discontinuity the avail starts at: a short duration stands (the avail vanished).
            let short = try avails(text(duration: "0.3", cueIn: cueIn))
            #expect(short.first.map { abs(($0.durationSeconds ?? 0) - 0.3) < 1e-9 } == true, "\(short)")
        }
    }

    @Test func aLiveCueOutWithoutDurationRunsToWhatIsListed() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        for index in 0..<6 {
            if index == 3 { text += "#EXT-X-CUE-OUT\n" }
            text += "#EXTINF:2,\ns\(index).ts\n"
        }
        let avail = try #require(try avails(text).first)
        #expect(avail.startSeconds == 6 && avail.durationSeconds == nil && avail.endSeconds == nil)
        #expect(avail.ads.map(\.durationSeconds) == [6], "the open ad runs to the listed end")
        #expect(avail.contains(1000))
    }

    // MARK: The tracker

    static let twoAds = SSAIAvail(id: "b", startSeconds: 10, durationSeconds: 10, ads: [
        SSAIAd(id: "a1", startSeconds: 10, durationSeconds: 6, trackingEvents: ["complete": ["http://t/a1c"], "skip": ["http://t/a1s"]]),
        SSAIAd(id: "a2", startSeconds: 16, durationSeconds: 4),
    ], source: .tracking)

    @Test func aSeekOutOfAnAdFiresNeitherItsLaterQuartilesNorItsCompletion() {
        var tracker = SSAIAdTracker()
        #expect(tracker.update([Self.twoAds]).map(\.name) == ["adCueTimelineAdded"])
        #expect(tracker.update([Self.twoAds]).isEmpty, "announced once")
        var events = play(&tracker, from: 9, to: 12)
        tracker.jump()
        events += play(&tracker, from: 25, to: 26)
        #expect(events.filter { $0.name != "adRemainingTime" }.map(\.name)
            == ["adCueTimelineStart", "adImpression", "adStarted", "adFirstQuartile", "adCueTimelineEnd"])
        // Back into it: a new play from its start.
        tracker.jump()
        let again = play(&tracker, from: 10, to: 10.1).filter { $0.name != "adRemainingTime" }.map(\.name)
        #expect(again == ["adCueTimelineStart", "adImpression", "adStarted"])
    }

    @Test func aSeekForwardInsideAnAdSkipsTheQuartilesJumpedOverAndASeekBackIsANewPlay() {
        var tracker = SSAIAdTracker()
        _ = tracker.update([Self.twoAds])
        _ = play(&tracker, from: 10, to: 11)
        tracker.jump()
        let forward = play(&tracker, from: 14.6, to: 15).filter { $0.name != "adRemainingTime" }.map(\.name)
        #expect(forward.isEmpty, "the quartiles at 11.5, 13 and 14.5 s were jumped over: \(forward)")
        tracker.jump()
        let back = play(&tracker, from: 11, to: 11.4).filter { $0.name != "adRemainingTime" }.map(\.name)
        #expect(back == ["adImpression", "adStarted"], "a new play")
        // Landing exactly on a quartile fires it.
        tracker.jump()
        let landing = play(&tracker, from: 13, to: 13.01).filter { $0.name != "adRemainingTime" }.map(\.name)
        #expect(landing == ["adMidpoint"])
        // adStarted names each URL's own event.
        var withViews = SSAIAdTracker()
        _ = withViews.update([SSAIAvail(id: "v", startSeconds: 0, durationSeconds: 2, ads: [
            SSAIAd(id: "c", startSeconds: 0, durationSeconds: 2, trackingEvents: ["creativeView": ["http://t/cv"], "start": ["http://t/s"]]),
        ], source: .tracking)])
        let started = play(&withViews, from: 0, to: 0.01).first { $0.name == "adStarted" }
        #expect(started?.beaconURLs == ["http://t/cv", "http://t/s"] && started?.beaconEvents == ["creativeView", "start"])
        #expect(started?.payload["beaconEvents"] == "creativeView\nstart")
    }

    @Test func remainingTimeIsPostedTwiceASecondOfAdWithTheSecondsLeft() {
        var tracker = SSAIAdTracker()
        _ = tracker.update([Self.twoAds])
        let ticks = play(&tracker, from: 10, to: 16).filter { $0.name == "adRemainingTime" }
        #expect(ticks.count == 12)
        let left: [Double] = ticks.map { $0.remainingSeconds ?? -1 }
        let expected: [Double] = (0..<12).map { 6 - Double($0) * 0.5 }
        #expect(zip(left, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(left)")
    }

    @Test func playbackEndingOnAnAdsLastFrameCompletesItAndItsAvail() {
        var tracker = SSAIAdTracker()
        _ = tracker.update([SSAIAvail(id: "post", startSeconds: 30, durationSeconds: 4,
                                      ads: [SSAIAd(id: "p", startSeconds: 30, durationSeconds: 4)], source: .markers)])
        _ = play(&tracker, from: 29, to: 34)
        #expect(tracker.finish().map(\.name) == ["adComplete", "adCueTimelineEnd"])
        // Stopped half-way: nothing completes.
        var stopped = SSAIAdTracker()
        _ = stopped.update([Self.twoAds])
        _ = play(&stopped, from: 10, to: 12)
        #expect(stopped.finish().isEmpty)
    }

    @Test func skippingIsForVODAdsFiveSecondsIn() {
        var tracker = SSAIAdTracker()
        _ = tracker.update([Self.twoAds])
        #expect(tracker.skipRefusal(isLive: false) == "no server-side ad is playing")
        _ = play(&tracker, from: 10, to: 14)
        #expect(tracker.skipRefusal(isLive: false)?.hasSuffix("may be skipped after 5 s") == true)
        _ = play(&tracker, from: 14, to: 15)
        #expect(tracker.skipRefusal(isLive: false) == nil, "the frame before 15 s ends at 15 s: 5 s played")
        #expect(tracker.skipRefusal(isLive: true) == "ads of a live stream cannot be skipped")
        let skipped = tracker.skip(isLive: false)
        #expect(skipped?.toSeconds == 16 && skipped?.event.name == "adSkipped" && skipped?.event.beaconURLs == ["http://t/a1s"])
        // The seek lands on a2: a1 does not complete.
        let next = play(&tracker, from: 16, to: 16.05).map(\.name)
        #expect(!next.contains("adComplete") && next.contains("adStarted"))
    }
}
