import Foundation
import PlayheadCore
import Testing

/// One test per row of the PSDK guide's "Playback behavior with ads" table, the watched marking,
/// the guide's five-minute selector, and registration in the client factory.
///
/// The timeline: content 0…100 s; break 0 at content 10 (two 5 s ads: virtual 10–15, 15–20),
/// break 1 at content 40 (one 10 s ad: virtual 50–60), break 2 at content 70 (virtual 90–100).
@Suite struct AdPolicySelectorTests {
    static func timeline(watched: Set<Int> = []) -> AdTimeline {
        var timeline = AdTimeline(breaks: [
            AdBreak(id: "b0", contentSeconds: 10, ads: [TimelineAd(id: "a", url: "a", durationSeconds: 5),
                                                       TimelineAd(id: "b", url: "b", durationSeconds: 5)]),
            AdBreak(id: "b1", contentSeconds: 40, ads: [TimelineAd(id: "c", url: "c", durationSeconds: 10)]),
            AdBreak(id: "b2", contentSeconds: 70, ads: [TimelineAd(id: "d", url: "d", durationSeconds: 10)]),
        ])
        for index in watched { timeline = timeline.markingWatched(index) }
        return timeline
    }

    let selector = DefaultAdPolicySelector()

    @Test func layoutIsAsDocumented() {
        let timeline = Self.timeline()
        #expect((0..<3).map { timeline.virtualStart(ofBreak: $0) } == [10, 50, 90])
        #expect((0..<3).map { timeline.virtualEnd(ofBreak: $0) } == [20, 60, 100])
        #expect(timeline.virtualStart(ofBreak: 0, ad: 1) == 15)
    }

    // Row: "During normal play, an ad break is encountered" → plays it, whether or not it was watched.
    @Test func normalPlayPlaysTheBreakWatchedOrNot() {
        for watched in [Set<Int>(), [1]] {
            let plan = selector.planBreakReached(Self.timeline(watched: watched), breakIndex: 1, currentVirtual: 50)
            #expect(plan == AdPlaybackPlan(startVirtualSeconds: 50, breaksToPlay: [1]), "watched \(watched)")
        }
    }

    // Row: "seeks forward over ad break(s) into main content" → plays the last unwatched break
    // skipped over, then resumes at the seek target.
    @Test func seekForwardOverUnwatchedBreaksPlaysTheLastThenLands() {
        let plan = selector.planSeek(Self.timeline(), fromVirtual: 5, toVirtual: 75)
        #expect(plan == AdPlaybackPlan(startVirtualSeconds: 50, breaksToPlay: [1], resumeVirtualSeconds: 75))
    }

    // Row: "seeks backward over ad break(s) into main content" → no break plays.
    @Test func seekBackwardOverBreaksPlaysNone() {
        let plan = selector.planSeek(Self.timeline(), fromVirtual: 105, toVirtual: 5)
        #expect(plan == AdPlaybackPlan(startVirtualSeconds: 5))
    }

    // Row: "seeks forward into an ad break" → plays from the beginning of the ad the seek ended in.
    @Test func seekForwardIntoABreakPlaysFromThatAdsStart() {
        #expect(selector.planSeek(Self.timeline(), fromVirtual: 5, toVirtual: 17) == AdPlaybackPlan(startVirtualSeconds: 15, breaksToPlay: [0]))
        #expect(selector.planSeek(Self.timeline(), fromVirtual: 25, toVirtual: 57) == AdPlaybackPlan(startVirtualSeconds: 50, breaksToPlay: [1]))
    }

    // Row: "seeks backward into an ad break" → plays from the beginning of the ad the seek ended in.
    @Test func seekBackwardIntoABreakPlaysFromThatAdsStart() {
        #expect(selector.planSeek(Self.timeline(), fromVirtual: 105, toVirtual: 17) == AdPlaybackPlan(startVirtualSeconds: 15, breaksToPlay: [0]))
    }

    // Row: "seeks forward or backward over watched ad break(s) into main content" → if the last
    // break skipped was watched, lands at the target.
    @Test func seekOverWatchedBreaksLandsAtTheTarget() {
        #expect(selector.planSeek(Self.timeline(watched: [0, 1]), fromVirtual: 5, toVirtual: 75) == AdPlaybackPlan(startVirtualSeconds: 75))
        #expect(selector.planSeek(Self.timeline(watched: [1]), fromVirtual: 5, toVirtual: 75) == AdPlaybackPlan(startVirtualSeconds: 75),
                "only the last break skipped counts")
        #expect(selector.planSeek(Self.timeline(watched: [0, 1, 2]), fromVirtual: 105, toVirtual: 5) == AdPlaybackPlan(startVirtualSeconds: 5))
    }

    // Row: "seeks forward or backward over one or more ad breaks and drops into a watched ad break"
    // → skips the break and lands immediately after it.
    @Test func seekIntoAWatchedBreakLandsRightAfterIt() {
        #expect(selector.planSeek(Self.timeline(watched: [0, 1]), fromVirtual: 5, toVirtual: 57) == AdPlaybackPlan(startVirtualSeconds: 60))
        #expect(selector.planSeek(Self.timeline(watched: [1]), fromVirtual: 105, toVirtual: 57) == AdPlaybackPlan(startVirtualSeconds: 60))
    }

    // Note under the table: a break is marked watched on entering its first ad.
    @Test func breakIsMarkedWatchedOnEnteringItsFirstAd() {
        let timeline = Self.timeline()
        #expect(selector.timeline(timeline, afterAdStarted: 0, adIndex: 0).breaks.map(\.watched) == [true, false, false])
        #expect(selector.timeline(timeline, afterAdStarted: 1, adIndex: 0).breaks.map(\.watched) == [false, true, false])
        let onEnd = DefaultAdPolicySelector(watchedPolicy: .onEnd)
        #expect(onEnd.timeline(timeline, afterAdStarted: 0, adIndex: 0).breaks[0].watched == false)
        #expect(onEnd.timeline(timeline, afterBreakCompleted: 0).breaks[0].watched == true)
        let never = DefaultAdPolicySelector(watchedPolicy: .never)
        #expect(never.timeline(never.timeline(timeline, afterAdStarted: 0, adIndex: 0), afterBreakCompleted: 0).breaks[0].watched == false)
        // Watched by entering it, the break is then skipped by a later seek into it…
        let watched = selector.timeline(timeline, afterAdStarted: 1, adIndex: 0)
        #expect(selector.planSeek(watched, fromVirtual: 70, toVirtual: 55) == AdPlaybackPlan(startVirtualSeconds: 60))
        // …but still plays when normal play reaches it.
        #expect(selector.planBreakReached(watched, breakIndex: 1, currentVirtual: 50).breaksToPlay == [1])
    }

    @Test func startAtASavedPositionIsASeekFromZero() {
        let timeline = Self.timeline()
        // Resume at local 55 (virtual 75): the last break before it plays first (the guide's resume case).
        #expect(selector.planSeek(timeline, fromVirtual: 0, toVirtual: timeline.virtualSeconds(forLocal: 55))
            == AdPlaybackPlan(startVirtualSeconds: 50, breaksToPlay: [1], resumeVirtualSeconds: 75))
    }

    @Test func theGuidesFiveMinuteSelectorSkipsBreaksAfterOne() {
        let clock = FakeClock()
        let fiveMinutes = BreakIntervalAdPolicySelector(now: { clock.now })
        let timeline = Self.timeline()
        #expect(fiveMinutes.shouldPlayAdBreaks)
        #expect(fiveMinutes.planBreakReached(timeline, breakIndex: 0, currentVirtual: 10).breaksToPlay == [0])

        fiveMinutes.observe(PlayerEvent(sequence: 1, playerTime: 20, kind: .adBreakCompleted(breakId: "b0", breakIndex: 0)))
        clock.advance(60)
        #expect(!fiveMinutes.shouldPlayAdBreaks)
        #expect(fiveMinutes.planBreakReached(timeline, breakIndex: 1, currentVirtual: 50) == AdPlaybackPlan(startVirtualSeconds: 60))
        #expect(fiveMinutes.planSeek(timeline, fromVirtual: 25, toVirtual: 75) == AdPlaybackPlan(startVirtualSeconds: 75))
        #expect(fiveMinutes.planSeek(timeline, fromVirtual: 25, toVirtual: 57) == AdPlaybackPlan(startVirtualSeconds: 60))

        clock.advance(241) // 301 s after the break: breaks play again
        #expect(fiveMinutes.shouldPlayAdBreaks)
        #expect(fiveMinutes.planBreakReached(timeline, breakIndex: 1, currentVirtual: 50).breaksToPlay == [1])
        #expect(fiveMinutes.planSeek(timeline, fromVirtual: 25, toVirtual: 75).breaksToPlay == [1])

        let bus = EventBus(clock: { 0 })
        fiveMinutes.attach(to: bus)
        bus.post(.adBreakCompleted(breakId: "b1", breakIndex: 1))
        #expect(!fiveMinutes.shouldPlayAdBreaks)
    }

    @Test func factoryUsesTheDefaultUnlessASelectorIsRegistered() {
        let factory = MediaPlayerClientFactory()
        #expect(!factory.hasCustomAdPolicySelector)
        #expect(factory.adPolicySelector is DefaultAdPolicySelector)
        let custom = BreakIntervalAdPolicySelector()
        factory.register(adPolicySelector: custom)
        #expect((factory.adPolicySelector as? BreakIntervalAdPolicySelector) === custom)
        factory.clearAdPolicySelector()
        #expect(factory.adPolicySelector is DefaultAdPolicySelector)
    }
}

/// A wall clock that moves only when told.
final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: Double) { lock.withLock { current += seconds } }
}
