/// Decides how ads play around seeks and breaks (PSDK `PTAdPolicySelector`). Register one with
/// ``MediaPlayerClientFactory/register(adPolicySelector:)``; ``DefaultAdPolicySelector`` is used
/// when none is. Custom selectors usually wrap the default and change one decision.
///
/// Selectors are pure decisions; the player calls the planning functions of the extension
/// (``planBreakReached(_:breakIndex:currentVirtual:)``, ``planSeek(_:fromVirtual:toVirtual:)``,
/// ``timeline(_:afterAdStarted:adIndex:)``, ``timeline(_:afterBreakCompleted:)``), which ask the
/// selector and turn its answer into positions on the ``AdTimeline``.
public protocol AdPolicySelector: Sendable {
    /// Which of the breaks a seek passed over play before landing (`info.breakIndices`); a subset
    /// of them, by index.
    func selectAdBreaksToPlay(_ info: AdPolicyInfo) -> [Int]
    /// What to do with the break normal playback reaches (`info.breakIndices[0]`).
    func selectPolicyForAdBreak(_ info: AdPolicyInfo) -> AdBreakPolicy
    /// What to do when a seek lands in ad `info.adIndex` of break `info.breakIndices[0]`.
    func selectPolicyForSeekIntoAd(_ info: AdPolicyInfo) -> AdSeekPolicy
    /// When a break counts as watched.
    var watchedPolicy: AdBreakWatchedPolicy { get }
}

extension AdPolicySelector {
    /// The PSDK's default: watched on entering the first ad.
    public var watchedPolicy: AdBreakWatchedPolicy { .onBegin }

    /// Normal playback reached break `breakIndex`: play it, or jump to the content after it.
    ///
    /// - Parameters:
    ///   - timeline: The timeline.
    ///   - breakIndex: The break reached.
    ///   - currentVirtual: The playhead, virtual seconds.
    public func planBreakReached(_ timeline: AdTimeline, breakIndex: Int, currentVirtual: Double) -> AdPlaybackPlan {
        let info = AdPolicyInfo(timeline: timeline, breakIndices: [breakIndex], currentVirtualSeconds: currentVirtual, mode: .play)
        switch selectPolicyForAdBreak(info) {
        case .play: return AdPlaybackPlan(startVirtualSeconds: timeline.virtualStart(ofBreak: breakIndex), breaksToPlay: [breakIndex])
        case .skip: return AdPlaybackPlan(startVirtualSeconds: timeline.virtualEnd(ofBreak: breakIndex))
        }
    }

    /// A seek from `from` to `to` (virtual seconds; a start at a saved position is a seek from 0).
    ///
    /// Landing in an ad asks ``selectPolicyForSeekIntoAd(_:)``; landing in content (or skipping the
    /// break landed in) asks ``selectAdBreaksToPlay(_:)`` about the breaks passed over — those wholly
    /// between `from` and the landing point — and plays the chosen ones first, then resumes at the
    /// landing point.
    public func planSeek(_ timeline: AdTimeline, fromVirtual from: Double, toVirtual to: Double) -> AdPlaybackPlan {
        var landing = to
        var landedBreak: Int?
        if case let .ad(breakIndex, adIndex, _) = timeline.position(atVirtual: to) {
            let info = AdPolicyInfo(timeline: timeline, breakIndices: [breakIndex], adIndex: adIndex,
                                    currentVirtualSeconds: from, seekToVirtualSeconds: to, mode: .seek)
            let ads = timeline.breaks[breakIndex].ads.count
            switch selectPolicyForSeekIntoAd(info) {
            case .playFromAdStart:
                return AdPlaybackPlan(startVirtualSeconds: timeline.virtualStart(ofBreak: breakIndex, ad: adIndex), breaksToPlay: [breakIndex])
            case .playFromBreakStart:
                return AdPlaybackPlan(startVirtualSeconds: timeline.virtualStart(ofBreak: breakIndex), breaksToPlay: [breakIndex])
            case .playFromSeekPoint:
                return AdPlaybackPlan(startVirtualSeconds: to, breaksToPlay: [breakIndex])
            case .skipToNextAd where adIndex + 1 < ads:
                return AdPlaybackPlan(startVirtualSeconds: timeline.virtualStart(ofBreak: breakIndex, ad: adIndex + 1), breaksToPlay: [breakIndex])
            case .skipToNextAd, .skipBreak:
                landing = timeline.virtualEnd(ofBreak: breakIndex)
                landedBreak = breakIndex
            }
        }
        let passed = timeline.breaks.indices.filter { index in
            guard index != landedBreak else { return false }
            let start = timeline.virtualStart(ofBreak: index), end = timeline.virtualEnd(ofBreak: index)
            return landing >= from ? (start >= from && end <= landing) : (start >= landing && end <= from)
        }
        guard !passed.isEmpty else { return AdPlaybackPlan(startVirtualSeconds: landing) }
        let info = AdPolicyInfo(timeline: timeline, breakIndices: passed, currentVirtualSeconds: from,
                                seekToVirtualSeconds: landing, mode: .seek)
        let chosen = Set(selectAdBreaksToPlay(info)).intersection(passed).sorted()
        guard let first = chosen.first else { return AdPlaybackPlan(startVirtualSeconds: landing) }
        return AdPlaybackPlan(startVirtualSeconds: timeline.virtualStart(ofBreak: first), breaksToPlay: chosen,
                              resumeVirtualSeconds: landing)
    }

    /// The timeline once ad `adIndex` of break `breakIndex` started: the break is marked watched
    /// under ``AdBreakWatchedPolicy/onBegin`` (whichever ad was entered first).
    public func timeline(_ timeline: AdTimeline, afterAdStarted breakIndex: Int, adIndex: Int) -> AdTimeline {
        watchedPolicy == .onBegin && !timeline.breaks[breakIndex].watched ? timeline.markingWatched(breakIndex) : timeline
    }

    /// The timeline once break `breakIndex` played to its end: marked watched under
    /// ``AdBreakWatchedPolicy/onBegin`` and ``AdBreakWatchedPolicy/onEnd``.
    public func timeline(_ timeline: AdTimeline, afterBreakCompleted breakIndex: Int) -> AdTimeline {
        watchedPolicy != .never && !timeline.breaks[breakIndex].watched ? timeline.markingWatched(breakIndex) : timeline
    }
}
