import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet

/// Fires an ad's VAST beacons from the player's ad events, with retries, and records each one.
///
/// | Event | Beacons |
/// |---|---|
/// | `adBreakStarted` / `adBreakCompleted` | the break's VMAP `breakStart` / `breakEnd` URLs (once per play of the break) |
/// | `adStarted` | impression URLs, then `creativeView`, then `start` |
/// | `adProgress` | `firstQuartile`, `midpoint`, `thirdQuartile` when `offsetSeconds` first reaches 25, 50, 75 % of `durationSeconds`; each `progress` URL when it first reaches that URL's offset; in offset order |
/// | `adCompleted` | any quartile or progress URL (offset within the ad) not yet fired, then `complete` |
/// | `adSkipped` | `skip`, for an ad with a skip offset left at or past it (other early ends fire nothing) |
/// | `adClicked`, ``click(info:)`` | click-tracking URLs |
/// | `adPaused` / `adResumed` | `pause` / `resume` (at the paused frame's offset) |
/// | a server-side ad event (`custom` with `ssai` = 1, ``SSAIEvent``) | the URLs it carries, as its `beaconEvent` |
/// | a notification naming an ad (`AD_ID`, `BREAK_ID`) with `VAST_ERROR_CODE` | the ad's error URLs (or the notification's `ERROR_URLS`) with `[ERRORCODE]` |
/// | a notification naming a VMAP break that failed, with `ERROR_URLS` | the break's VMAP `error` URLs with the VMAP code as `[ERRORCODE]` |
///
/// Each event fires once per play of an ad (an ad played again after a seek back is a new play,
/// from its next `adStarted`); pause and resume fire at each pause and each resume of that play.
/// URLs are expanded with ``VASTMacros``: `[CACHEBUSTING]`, `[TIMESTAMP]` (the firing's wall time),
/// `[ADPLAYHEAD]` (the event's offset in the ad), `[ASSETURI]` and, for errors, `[ERRORCODE]`.
///
/// The ad of an event is looked up in the ``timeline`` by break and ad id (``update(timeline:)``
/// whenever the player's timeline changes). Each beacon's first call is made in event order by one
/// task; one that fails and may pass is retried per ``BeaconRetryPolicy`` on a task of its own, so it
/// does not hold back the beacons behind it. Every beacon, answered or not, lands in ``log`` with the
/// event's media time (`offsetSeconds`, `pts`), its wall time, URL, HTTP status and attempts — and, when a bus is
/// given, as a `beacon` custom event (what the daemon's store records). ``flush()`` waits until
/// every beacon queued so far is done, retries included.
public final class BeaconTracker: Sendable {
    /// Every beacon fired, in the order they finished.
    public let log: BeaconLog

    private let state: Locked<TrackerState>
    private let queue: AsyncStream<TrackerJob>.Continuation
    private let clock: @Sendable () -> Date
    private let random: @Sendable () -> UInt64

    /// Creates a tracker and its sending task.
    ///
    /// - Parameters:
    ///   - client: The HTTP client beacons go through.
    ///   - timeline: The current ad timeline.
    ///   - retry: Attempts and backoff.
    ///   - log: Where records go (pass one to share it with the playback report).
    ///   - bus: When given, each finished beacon is posted on it as `.custom(name: "beacon", …)`.
    ///   - clock: The wall clock (for `[TIMESTAMP]` and the records).
    ///   - random: The random source of `[CACHEBUSTING]`.
    ///   - sleep: Waits between attempts, seconds; tests pass one that returns at once.
    public init(client: HTTPClient, timeline: AdTimeline = AdTimeline(), retry: BeaconRetryPolicy = .init(),
                log: BeaconLog = BeaconLog(), bus: EventBus? = nil, clock: @escaping @Sendable () -> Date = { Date() },
                random: @escaping @Sendable () -> UInt64 = { UInt64.random(in: 0..<100_000_000) },
                sleep: @escaping @Sendable (Double) async -> Void = { seconds in
                    try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
                }) {
        self.log = log
        self.clock = clock
        self.random = random
        state = Locked(TrackerState(timeline: timeline))
        let (stream, continuation) = AsyncStream.makeStream(of: TrackerJob.self)
        queue = continuation
        let sender = BeaconSender(client: client, log: log, retry: retry, clock: clock, sleep: sleep, bus: bus)
        let retries = PendingRetries()
        Task {
            for await job in stream {
                switch job {
                case let .beacon(beacon):
                    let first = await sender.attempt(beacon, number: 1)
                    guard first.retryable else { sender.finish(beacon, first); continue }
                    retries.begin()
                    Task {
                        await sender.retry(beacon, after: first)
                        retries.end()
                    }
                case let .flush(done):
                    await retries.wait()
                    done.resume()
                }
            }
        }
    }

    deinit { queue.finish() }

    /// The timeline ads are looked up in.
    public var timeline: AdTimeline { state.withLock { $0.timeline } }

    /// Replaces the timeline (call it on every `timelineChanged`).
    public func update(timeline: AdTimeline) { state.withLock { $0.timeline = timeline } }

    /// The records so far (``log``'s).
    public var records: [BeaconRecord] { log.records }

    /// Consumes every event of `bus` from now on.
    @discardableResult
    public func attach(to bus: EventBus) -> EventSubscription { bus.subscribe { [weak self] in self?.consume($0) } }

    /// Consumes one player event (see the table on the type).
    public func consume(_ event: PlayerEvent) { consume(event.kind) }

    /// Consumes one event kind.
    public func consume(_ kind: PlayerEventKind) {
        switch kind {
        case let .adBreakStarted(breakId, _, _):
            enqueue { state in
                guard !state.openBreaks.contains(breakId) else { return [] }
                state.openBreaks.insert(breakId)
                return self.breakBeacons("breakStart", breakId: breakId, state)
            }
        case let .adBreakCompleted(breakId, _):
            enqueue { state in
                guard state.openBreaks.remove(breakId) != nil else { return [] }
                return self.breakBeacons("breakEnd", breakId: breakId, state)
            }
        case let .adStarted(info):
            enqueue { state in
                let key = PlayKey(info)
                if let play = state.plays[key], !play.ended { return [] }
                state.plays[key] = AdPlay()
                state.current = key
                return self.beacons(["impression", "creativeView", "start"], info, &state)
            }
        case let .adProgress(info):
            enqueue { state in self.quartiles(reachedBy: info, &state) }
        case let .adCompleted(info):
            enqueue { state in
                let beacons = self.quartiles(reachedBy: info, &state, ending: true) + self.beacons(["complete"], info, &state)
                self.end(info, &state)
                return beacons
            }
        case let .adSkipped(info):
            enqueue { state in
                // VAST's skip is the viewer using the skip control: only an ad with a skip offset, left at or
                // past it, fires it. Any other early end (a seek out, a stop, the session's end) fires nothing;
                // every one used to report a skip, a non-skippable creative's too.
                let skippable = state.timeline.ad(for: info)?.skipOffsetSeconds.map { info.offsetSeconds + 1e-9 >= $0 } ?? false
                let beacons = skippable ? self.beacons(["skip"], info, &state) : []
                self.end(info, &state)
                return beacons
            }
        case let .adClicked(info, _):
            enqueue { state in self.beacons(["click"], info, &state) }
        case let .adPaused(info), let .adResumed(info):
            let event = if case .adPaused = kind { "pause" } else { "resume" }
            enqueue { state in
                guard let play = state.plays[PlayKey(info)], !play.ended else { return [] }
                return self.beacons([event], info, &state, repeatable: true)
            }
        case let .notification(notification), let .error(notification):
            enqueue { state in self.errorBeacons(for: notification, &state) }
        case let .custom(_, payload) where payload["ssai"] == "1":
            enqueue { _ in self.ssaiBeacons(payload) }
        default:
            break
        }
    }

    /// Fires the ad's error URLs with `[ERRORCODE]` = `vastErrorCode` (once per play of the ad).
    public func reportError(_ info: AdEventInfo, vastErrorCode: Int) {
        enqueue { state in self.beacons(["error"], info, &state, errorCode: vastErrorCode) }
    }

    /// The viewer clicked the playing ad: fires its click tracking (once per play; the player's
    /// `adClicked` event for the same click fires nothing more) and returns where the click leads.
    ///
    /// - Returns: The ad's click-through URL, or `nil` when it has none or is not on the timeline.
    @discardableResult
    public func click(info: AdEventInfo) -> String? {
        consume(.adClicked(info, clickThrough: nil))
        return timeline.ad(for: info)?.clickThrough
    }

    /// The companion banners to show with the ad of `info` (PSDK `companionAssets`).
    public func companions(for info: AdEventInfo) -> [AdCompanion] { timeline.ad(for: info)?.companions ?? [] }

    /// A companion of the ad was shown: fires its `creativeView` URLs (event `companionView`, once per play).
    public func companionShown(_ companion: AdCompanion, info: AdEventInfo) {
        enqueue { state in self.beacons(["companionView"], info, &state, urls: companion.creativeViewTracking) }
    }

    /// A companion was clicked: fires its click tracking (event `companionClick`) and returns its click-through.
    @discardableResult
    public func companionClicked(_ companion: AdCompanion, info: AdEventInfo) -> String? {
        enqueue { state in self.beacons(["companionClick"], info, &state, urls: companion.clickTracking) }
        return companion.clickThrough
    }

    /// Returns once every beacon queued before the call has been fired (or given up) and logged,
    /// retries included.
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if case .terminated = queue.yield(.flush(done)) { done.resume() }
        }
    }

    // MARK: Decisions (under the lock)

    /// Decides under the lock and queues in the same critical section, so beacons keep event order.
    private func enqueue(_ decide: (inout TrackerState) -> [Beacon]) {
        state.withLock { state in
            for beacon in decide(&state) { queue.yield(.beacon(beacon)) }
        }
    }

    /// The beacons of `events` for the ad of `info` not yet fired in this play, expanded.
    /// `label` names the beacons in the records when the event's once-per-play key differs (one key per progress URL).
    private func beacons(_ events: [String], _ info: AdEventInfo, _ state: inout TrackerState, repeatable: Bool = false,
                         errorCode: Int? = nil, urls explicit: [String]? = nil, label: String? = nil) -> [Beacon] {
        guard let ad = state.timeline.ad(for: info) else { return [] }
        let key = PlayKey(info)
        var play = state.plays[key] ?? AdPlay()
        if play.ended, !events.contains("error") { return [] }
        play.lastInfo = info
        var result: [Beacon] = []
        for event in events {
            if !repeatable, play.fired.contains(event) { continue }
            play.fired.insert(event)
            let templates = explicit ?? Self.templates(event, of: ad)
            result += templates.map { template in
                Beacon(event: label ?? event, breakId: info.breakId, adId: info.adId, mediaTimeSeconds: info.offsetSeconds, pts: info.pts,
                       url: expand(template, ad: ad, offset: info.offsetSeconds, errorCode: errorCode))
            }
        }
        state.plays[key] = play
        return result
    }

    /// Quartiles and progress URLs whose offset `info.offsetSeconds` has reached (with `ending`: every
    /// quartile, and every progress URL within the ad's duration), in offset order (quartiles first on a tie).
    private func quartiles(reachedBy info: AdEventInfo, _ state: inout TrackerState, ending: Bool = false) -> [Beacon] {
        remember(info, &state)
        func reached(_ seconds: Double) -> Bool {
            info.offsetSeconds + 1e-9 >= seconds || (ending && seconds <= info.durationSeconds + 1e-9)
        }
        var marks: [(seconds: Double, event: String, urls: [String]?)] = []
        for quartile in Self.quartiles where reached(quartile.share * info.durationSeconds) {
            marks.append((quartile.share * info.durationSeconds, quartile.event, nil))
        }
        let progress = state.timeline.ad(for: info)?.progressTracking ?? []
        for (index, tracking) in progress.enumerated() where reached(tracking.offsetSeconds(forDuration: info.durationSeconds)) {
            marks.append((tracking.offsetSeconds(forDuration: info.durationSeconds), "progress#\(index)", [tracking.url]))
        }
        let ordered = marks.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
        return ordered.flatMap { _, mark in
            beacons([mark.event], info, &state, urls: mark.urls, label: mark.urls == nil ? nil : "progress")
        }
    }

    /// The VMAP tracking URLs of `event` for break `breakId`, expanded (no ad: `[ADPLAYHEAD]` is 0).
    private func breakBeacons(_ event: String, breakId: String, _ state: TrackerState) -> [Beacon] {
        guard let adBreak = state.timeline.breaks.first(where: { $0.id == breakId }) else { return [] }
        let none = TimelineAd(id: "", url: "", durationSeconds: 0)
        return (adBreak.trackingEvents[event] ?? []).map { template in
            Beacon(event: event, breakId: breakId, adId: "", mediaTimeSeconds: 0, pts: 0,
                   url: expand(template, ad: none, offset: 0, errorCode: nil))
        }
    }

    /// The beacons a server-side ad event carries (``SSAIEvent/payload``): its URLs, expanded. The SSAI
    /// tracker has already decided that they fire (once per play), so nothing is deduplicated here.
    private func ssaiBeacons(_ payload: [String: String]) -> [Beacon] {
        guard let event = payload["beaconEvent"], let urls = payload["beaconUrls"], !urls.isEmpty else { return [] }
        let adId = payload["adId"] ?? "", offset = payload["offsetSeconds"].flatMap(Double.init) ?? 0
        let ad = TimelineAd(id: adId, url: "", durationSeconds: 0)
        let lines = urls.split(separator: "\n")
        let events = payload["beaconEvents"].map { $0.split(separator: "\n").map(String.init) } ?? []
        return lines.enumerated().map { index, template in
            Beacon(event: events.count == lines.count ? events[index] : event, breakId: payload["availId"] ?? "", adId: adId, mediaTimeSeconds: offset,
                   pts: payload["contentSeconds"].flatMap(Double.init) ?? 0, url: expand(String(template), ad: ad, offset: offset, errorCode: nil))
        }
    }

    /// Keeps `info` as the play's latest event (pause and resume beacons read their offset from it).
    private func remember(_ info: AdEventInfo, _ state: inout TrackerState) {
        let key = PlayKey(info)
        guard state.timeline.ad(for: info) != nil, state.plays[key]?.ended != true else { return }
        state.plays[key, default: AdPlay()].lastInfo = info
    }

    private func end(_ info: AdEventInfo, _ state: inout TrackerState) {
        let key = PlayKey(info)
        state.plays[key, default: AdPlay()].ended = true
        if state.current == key { state.current = nil }
    }

    /// Error beacons for a notification naming an ad and a VAST error code.
    private func errorBeacons(for notification: PlayerNotification, _ state: inout TrackerState) -> [Beacon] {
        guard let code = notification[.vastErrorCode].flatMap(Int.init) else { return [] }
        let breakId = notification[.breakId] ?? "", adId = notification[.adId] ?? ""
        let listed = (notification[.errorURLs] ?? "").split(separator: "\n").map(String.init)
        let key = PlayKey(breakId: breakId, adId: adId)
        if let ad = state.timeline.ad(breakId: breakId, adId: adId) {
            let offset = state.plays[key]?.lastInfo?.offsetSeconds ?? 0
            let info = AdEventInfo(breakId: breakId, breakIndex: state.timeline.breakIndex(id: breakId) ?? 0, adId: adId,
                                   adIndex: 0, url: ad.url, durationSeconds: ad.durationSeconds, offsetSeconds: offset,
                                   pts: state.plays[key]?.lastInfo?.pts ?? 0)
            return beacons(["error"], info, &state, errorCode: code, urls: listed.isEmpty ? nil : listed)
        }
        // Once per break, ad and list: a VMAP break's error and its VAST document's both name the break alone.
        let loose = LooseError(key: key, urls: listed)
        guard !listed.isEmpty, !state.looseErrors.contains(loose) else { return [] }
        state.looseErrors.insert(loose)
        let placeholder = TimelineAd(id: adId, url: notification[.url] ?? "", durationSeconds: 0)
        return listed.map { template in
            Beacon(event: "error", breakId: breakId, adId: adId, mediaTimeSeconds: 0, pts: 0,
                   url: expand(template, ad: placeholder, offset: 0, errorCode: code))
        }
    }

    private func expand(_ template: String, ad: TimelineAd, offset: Double, errorCode: Int?) -> String {
        var values: [VASTMacro: String] = [
            .cacheBusting: VASTMacros.cacheBusting(random: random()), .timestamp: VASTMacros.timestamp(clock()),
            .adPlayhead: VASTMacros.playhead(seconds: offset), .assetURI: ad.url,
        ]
        values[.errorCode] = errorCode.map(String.init)
        return VASTMacros.expand(template, values: values)
    }

    /// The quartile events and their shares of the duration.
    static let quartiles: [(event: String, share: Double)] = [("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75)]

    /// The URL templates of `event` for `ad`.
    static func templates(_ event: String, of ad: TimelineAd) -> [String] {
        switch event {
        case "impression": ad.impressions
        case "click": ad.clickTracking
        case "error": ad.errorURLs
        default: ad.trackingEvents[event] ?? []
        }
    }
}

/// What the sending task does next.
enum TrackerJob: Sendable {
    case beacon(Beacon)
    case flush(CheckedContinuation<Void, Never>)
}

/// One ad of one break.
struct PlayKey: Hashable, Sendable {
    var breakId: String
    var adId: String

    init(breakId: String, adId: String) {
        self.breakId = breakId
        self.adId = adId
    }

    init(_ info: AdEventInfo) { self.init(breakId: info.breakId, adId: info.adId) }
}

/// Error URLs named by a notification for an ad (or break) not on the timeline, fired once.
struct LooseError: Hashable, Sendable {
    var key: PlayKey
    var urls: [String]
}

/// The current play of one ad: what has fired, whether it ended, the last event seen.
struct AdPlay: Sendable {
    var fired: Set<String> = []
    var ended = false
    var lastInfo: AdEventInfo?
}

/// The tracker's state.
struct TrackerState: Sendable {
    var timeline: AdTimeline
    var plays: [PlayKey: AdPlay] = [:]
    var current: PlayKey?
    var looseErrors: Set<LooseError> = []
    var openBreaks: Set<String> = []
}
