/// The PSDK's default ad behaviour (`PTDefaultAdPolicySelector`), row by row of the guide's
/// "Playback behavior with ads" table:
///
/// | Situation | Behaviour |
/// |---|---|
/// | Normal play reaches a break | play it, watched or not |
/// | Seek forward over breaks into content | play the last break passed over if it is unwatched, then land at the target |
/// | Seek forward over breaks whose last is watched | land at the target, no break plays |
/// | Seek backward over breaks (watched or not) into content | land at the target, no break plays |
/// | Seek (forward or backward) into an unwatched break | play from the start of the ad landed in |
/// | Seek into a watched break | skip it: land immediately after it |
///
/// A break is marked watched on entering its first ad (``AdBreakWatchedPolicy/onBegin``) unless
/// another ``watchedPolicy`` is given.
public struct DefaultAdPolicySelector: AdPolicySelector {
    /// When a break counts as watched.
    public let watchedPolicy: AdBreakWatchedPolicy

    /// Creates the default selector.
    ///
    /// - Parameter watchedPolicy: When a break counts as watched; the PSDK marks it on entering its first ad.
    public init(watchedPolicy: AdBreakWatchedPolicy = .onBegin) { self.watchedPolicy = watchedPolicy }

    /// On a forward seek, the last break passed over when it is unwatched; otherwise none.
    public func selectAdBreaksToPlay(_ info: AdPolicyInfo) -> [Int] {
        guard info.isForwardSeek, let last = info.breakIndices.max(), !info.timeline.breaks[last].watched else { return [] }
        return [last]
    }

    /// Always play: during normal play a break plays whether or not it was watched.
    public func selectPolicyForAdBreak(_ info: AdPolicyInfo) -> AdBreakPolicy { .play }

    /// A watched break is skipped; otherwise the ad landed in plays from its start.
    public func selectPolicyForSeekIntoAd(_ info: AdPolicyInfo) -> AdSeekPolicy {
        guard let index = info.breakIndices.first else { return .playFromAdStart }
        return info.timeline.breaks[index].watched ? .skipBreak : .playFromAdStart
    }
}
