import Foundation
import PlayheadCore
import Testing

/// Virtual, content and local time over a VOD with two inserted breaks.
@Suite struct AdTimelineTests {
    // Content 0…60 s; a 15 s break (10 + 5) at content 10 s, a 20 s break at content 30 s.
    let timeline = AdTimeline(breaks: [
        AdBreak(id: "b2", contentSeconds: 30, ads: [TimelineAd(id: "c", url: "c.m3u8", durationSeconds: 20)]),
        AdBreak(id: "b1", contentSeconds: 10, ads: [TimelineAd(id: "a", url: "a.m3u8", durationSeconds: 10),
                                                   TimelineAd(id: "b", url: "b.m3u8", durationSeconds: 5)]),
    ])

    @Test func handComputedTable() {
        // virtual → (position, local)
        let table: [(Double, TimelinePosition, Double)] = [
            (0, .content(seconds: 0), 0),
            (9.5, .content(seconds: 9.5), 9.5),
            (10, .ad(breakIndex: 0, adIndex: 0, offsetSeconds: 0), 10),
            (19, .ad(breakIndex: 0, adIndex: 0, offsetSeconds: 9), 10),
            (20, .ad(breakIndex: 0, adIndex: 1, offsetSeconds: 0), 10),
            (25, .content(seconds: 10), 10),
            (40, .content(seconds: 25), 25),
            (45, .ad(breakIndex: 1, adIndex: 0, offsetSeconds: 0), 30),
            (64.5, .ad(breakIndex: 1, adIndex: 0, offsetSeconds: 19.5), 30),
            (65, .content(seconds: 30), 30),
            (95, .content(seconds: 60), 60),
        ]
        for (virtual, position, local) in table {
            #expect(timeline.position(atVirtual: virtual) == position, "virtual \(virtual)")
            #expect(timeline.localSeconds(atVirtual: virtual) == local, "virtual \(virtual)")
            #expect(timeline.convertToLocalTime(virtual) == local)
        }
        #expect(timeline.breaks.map(\.id) == ["b1", "b2"])
        #expect(timeline.virtualStart(ofBreak: 1) == 45)
        // seekToLocalTime: local 10 plays after the first break, local 30 after the second.
        #expect(timeline.virtualSeconds(forLocal: 9.9) == 9.9)
        #expect(timeline.virtualSeconds(forLocal: 10) == 25)
        #expect(timeline.virtualSeconds(forLocal: 30) == 65)
    }

    @Test func liveReplacementShortAdReturnsAtCueIn() {
        // A 30 s cue filled with 20 s of ads: the replaced content is the ads' length; content resumes at cue + 20.
        let live = AdTimeline(breaks: [AdBreak(id: "x", contentSeconds: 100, ads: [TimelineAd(id: "a", url: "a", durationSeconds: 20)], replacedContentSeconds: 20)])
        #expect(live.virtualSeconds(forContent: 99) == 99)
        #expect(live.virtualSeconds(forContent: 120) == 120)
        #expect(live.position(atVirtual: 110) == .ad(breakIndex: 0, adIndex: 0, offsetSeconds: 10))
        #expect(live.position(atVirtual: 121) == .content(seconds: 121))
    }

    @Test func adMapResolvesByCueIdThenTime() async throws {
        let json = #"{"breaks":[{"cueId":"splice-7","ads":[{"url":"http://a/1.m3u8","duration":10}]},{"time":30,"ads":[{"url":"http://a/2.m3u8","duration":5,"id":"two"}]}]}"#
        let map = try AdMap.parse(Data(json.utf8))
        final class Catcher: ContentResolverDelegate, @unchecked Sendable {
            var breaks: [AdBreak] = []
            func resolver(_ resolver: any ContentResolver, didResolve opportunity: PlacementOpportunity, into breaks: [AdBreak]) { self.breaks += breaks }
            func resolver(_ resolver: any ContentResolver, didFail opportunity: PlacementOpportunity, with notification: PlayerNotification) {}
        }
        let catcher = Catcher()
        let resolver = AdMapResolver(map: map)
        let cue = { (id: String, time: Double) in
            PlacementOpportunity(id: id, kind: .breakStart, contentSeconds: time, durationSeconds: nil, mediaSequence: 0,
                                 tag: "#EXT-X-CUE-OUT", rawText: "#EXT-X-CUE-OUT", attributes: [:])
        }
        resolver.process(cue("splice-7", 12), delegate: catcher)
        resolver.process(cue("other", 30.2), delegate: catcher)
        resolver.process(cue("none", 50), delegate: catcher)
        #expect(catcher.breaks.map(\.id) == ["splice-7", "other"])
        #expect(catcher.breaks[0].contentSeconds == 12 && catcher.breaks[0].ads[0].url == "http://a/1.m3u8")
        #expect(catcher.breaks[1].ads[0].id == "two")
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: resolver)
        #expect(factory.resolver(for: cue("x", 1)) != nil)
        factory.clearResolvers()
        #expect(factory.resolver(for: cue("x", 1)) == nil)

        // As a server map it places the timed entry itself; a cue at that time then gets no break from
        // it (an ad that failed there is not tried twice), while the cue-id entry still waits for its cue.
        let placed = await resolver.resolveServerMap(contentDurationSeconds: 60, delegate: nil)
        #expect(placed.breaks.map(\.contentSeconds) == [30])
        catcher.breaks = []
        resolver.process(cue("other", 30.2), delegate: catcher)
        resolver.process(cue("splice-7", 12), delegate: catcher)
        #expect(catcher.breaks.map(\.id) == ["splice-7"])
        // A new item starts afresh.
        resolver.prepare(isLive: false, joinPointSeconds: nil)
        resolver.process(cue("other", 30.2), delegate: catcher)
        #expect(catcher.breaks.map(\.id) == ["splice-7", "other"])
    }
}
