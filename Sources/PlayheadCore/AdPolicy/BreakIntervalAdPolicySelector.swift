import Foundation

/// The guide's custom selector ("skip ad breaks for a certain period of time",
/// `PTS5MinuteSkipBreakPolicySelector`): once a break has been watched to its end, no break plays
/// for the next five minutes of wall-clock time (or ``minimumIntervalSeconds``), whatever the seeks.
/// Otherwise it decides as its ``base`` does.
///
/// It learns of completed breaks from the player's `adBreakCompleted` events (``observe(_:)``, or
/// ``attach(to:)`` on the session's bus) or from ``noteBreakCompleted(at:)``. The clock is injected,
/// so tests run without waiting.
///
/// Beyond the guide's code (which overrides the two break decisions), a seek that lands in an ad
/// inside the interval skips that break too, so no ad at all plays within the interval.
public final class BreakIntervalAdPolicySelector: AdPolicySelector, @unchecked Sendable {
    /// The guide's interval: five minutes, in seconds.
    public static let fiveMinutesSeconds = 300.0

    /// How long after a completed break no break plays, seconds.
    public let minimumIntervalSeconds: Double
    /// The selector deciding outside the interval.
    public let base: any AdPolicySelector
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var lastBreakCompleted: Date?

    /// Creates the selector.
    ///
    /// - Parameters:
    ///   - minimumIntervalSeconds: The quiet interval after a break; five minutes by default.
    ///   - base: Who decides outside the interval; the default selector by default.
    ///   - now: The wall clock.
    public init(minimumIntervalSeconds: Double = fiveMinutesSeconds, base: any AdPolicySelector = DefaultAdPolicySelector(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.minimumIntervalSeconds = minimumIntervalSeconds
        self.base = base
        self.now = now
    }

    /// The base's watched policy.
    public var watchedPolicy: AdBreakWatchedPolicy { base.watchedPolicy }

    /// Records that a break completed at `date` (now by default).
    public func noteBreakCompleted(at date: Date? = nil) {
        let when = date ?? now()
        lock.withLock { lastBreakCompleted = when }
    }

    /// Records `adBreakCompleted` events; ignores the rest.
    public func observe(_ event: PlayerEvent) {
        if case .adBreakCompleted = event.kind { noteBreakCompleted() }
    }

    /// Observes every event of `bus` from now on.
    @discardableResult
    public func attach(to bus: EventBus) -> EventSubscription { bus.subscribe { [weak self] in self?.observe($0) } }

    /// Whether breaks may play now: none completed yet, or the last one more than the interval ago.
    public var shouldPlayAdBreaks: Bool {
        guard let last = lock.withLock({ lastBreakCompleted }) else { return true }
        return now().timeIntervalSince(last) > minimumIntervalSeconds
    }

    /// The base's choice outside the interval; none inside it.
    public func selectAdBreaksToPlay(_ info: AdPolicyInfo) -> [Int] { shouldPlayAdBreaks ? base.selectAdBreaksToPlay(info) : [] }

    /// The base's choice outside the interval; skip inside it.
    public func selectPolicyForAdBreak(_ info: AdPolicyInfo) -> AdBreakPolicy {
        shouldPlayAdBreaks ? base.selectPolicyForAdBreak(info) : .skip
    }

    /// The base's choice outside the interval; skip the break inside it.
    public func selectPolicyForSeekIntoAd(_ info: AdPolicyInfo) -> AdSeekPolicy {
        shouldPlayAdBreaks ? base.selectPolicyForSeekIntoAd(info) : .skipBreak
    }
}
