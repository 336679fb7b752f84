import Foundation
import PlayheadNet

/// Settings of a ``PlaybackQueue``.
public struct QueueSettings: Sendable {
    /// The queue's clock.
    public enum Clock: Sendable {
        /// Virtual time over a simulated link: each item's session starts where the one before ended, its
        /// link at that point of the trace.
        case virtual(SimulatedLink)
        /// Wall-clock time over the real network.
        case real
    }

    /// The clock (default: virtual, a constant 50 Mbit/s link).
    public var clock: Clock
    /// Each session's settings (mode, ABR, variant, …).
    public var configuration: PlayerConfiguration
    /// Preload the next item's playlists while the current one plays (default true).
    public var preload: Bool
    /// Stop each item after this many seconds of its session (nil: play it to its end).
    public var maxSessionSecondsPerItem: Double?

    /// Creates settings.
    public init(clock: Clock = .virtual(SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: 50))),
                configuration: PlayerConfiguration = .init(), preload: Bool = true, maxSessionSecondsPerItem: Double? = nil) {
        self.clock = clock
        self.configuration = configuration
        self.preload = preload
        self.maxSessionSecondsPerItem = maxSessionSecondsPerItem
    }
}

/// Plays a list of items one after another in the real player (F30; the PSDK's playback controller
/// with several videos): each item is a ``MediaPlayer`` session, and when it ends (completed, stopped
/// at the per-item limit, or failed) the queue advances to the next. A bumper, when given, plays before
/// content (``BumperPlacement``). While an item plays, from its first frame, the next item's playlists
/// are preloaded (the multivariant playlist and every variant's media playlist), so the next session
/// starts with them in hand; the gap between the last frame of one item and the first frame of the
/// next is measured on the queue's clock (``QueueReport/gaps``).
///
/// Events on ``bus`` (custom events, times on the queue clock), named after the PSDK's lifecycle:
/// `sessionStarted` (a session was created for an item: index, url, role, videoId), `queueAdvanced`
/// (`didAdvanceToPlaybackSession`: from, to), `sessionEnded` (`kBCOVPlaybackSessionLifecycleEventEnd`:
/// index, status), `sessionFailed` (`…EventFail`: index, error; the queue goes on), `preloadStarted` and
/// `preloadCompleted` (index, urls, seconds), `videoInserted` / `videoInsertFailed` (`didInsertVideo` /
/// `failedToInsertVideo`), `queueCompleted` (`didCompletePlaylist`: items, failed).
public final class PlaybackQueue: @unchecked Sendable {
    /// The queue's events.
    public let bus: EventBus
    /// The settings.
    public let settings: QueueSettings
    private let client: HTTPClient
    private let lock = NSLock()
    private var items: [QueueItem]
    /// The index playing (-1 before the first).
    private var current = -1
    private var player: MediaPlayer?
    private var stopRequested = false
    private var sessionObserver: (@Sendable (Int, QueueItem, MediaPlayer) -> Void)?
    private var clockState = ClockState()
    /// Preloads under way or done, by the URL they are for.
    private var preloads: [String: Preload] = [:]

    private struct Preload {
        var cache: PreloadCache
        var task: Task<PreloadOutcome, Never>
    }

    private struct ClockState {
        var itemStart = 0.0
        var driver: (any SessionDriver)?
    }

    /// Creates a queue.
    /// - Parameters:
    ///   - items: The content, in order.
    ///   - bumper: A bumper to play before content, if any.
    ///   - bumperPlacement: Once before the first content item, or before each.
    ///   - settings: Clock, player settings, preloading.
    ///   - client: The HTTP client every session fetches with.
    public init(items: [QueueItem], bumper: QueueItem? = nil, bumperPlacement: BumperPlacement = .once,
                settings: QueueSettings = .init(), client: HTTPClient) {
        var list: [QueueItem] = []
        var bumperItem = bumper
        bumperItem?.role = .bumper
        for (index, item) in items.enumerated() {
            if let bumperItem, bumperPlacement == .everyItem || index == 0 { list.append(bumperItem) }
            list.append(item)
        }
        if items.isEmpty, let bumperItem { list.append(bumperItem) }
        self.items = list
        self.settings = settings
        self.client = client
        let isVirtual: Bool
        if case .real = settings.clock { isVirtual = false } else { isVirtual = true }
        let box = ClockBox()
        bus = EventBus(clock: { box.read() }, wallClock: { isVirtual ? nil : Date() })
        clockBox = box
    }

    private let clockBox: ClockBox

    /// The queue clock as the bus reads it.
    final class ClockBox: @unchecked Sendable {
        private let lock = NSLock()
        private var reader: (@Sendable () -> Double)?
        func set(_ reader: @escaping @Sendable () -> Double) { lock.withLock { self.reader = reader } }
        func read() -> Double { (lock.withLock { reader })?() ?? 0 }
    }

    /// The entries, in play order (bumpers included).
    public var entries: [QueueItem] { lock.withLock { items } }

    /// The index of the entry playing (-1 before the first; the count after the last).
    public var currentIndex: Int { lock.withLock { current } }

    /// Where the item playing (or about to) starts on the queue's timeline, seconds: its session's time 0. An
    /// observer adds it to a session event's time to place the event on the queue's timeline.
    public var currentItemStartSeconds: Double { lock.withLock { clockState.itemStart } }

    /// Calls `handler` with each item's player before its session runs (to attach outputs or observers;
    /// the player must not be run by the handler).
    public func observeSessions(_ handler: @escaping @Sendable (Int, QueueItem, MediaPlayer) -> Void) {
        lock.withLock { sessionObserver = handler }
    }

    /// Inserts `item` after the entry at `afterIndex` (the PSDK's `insertVideo:afterVideoAtIndex:`), before
    /// or while the queue plays. Refused (false, and a `videoInsertFailed` event) when the index is not in
    /// the queue or is an entry already played (only the playing entry or a later one may be named).
    @discardableResult
    public func insert(_ item: QueueItem, afterIndex: Int) -> Bool {
        let inserted: Bool = lock.withLock {
            guard afterIndex >= 0, afterIndex < items.count, afterIndex >= current else { return false }
            items.insert(item, at: afterIndex + 1)
            return true
        }
        if inserted {
            bus.post(.custom(name: "videoInserted", payload: ["index": String(afterIndex + 1), "url": item.url ?? "", "title": item.title]))
        } else {
            bus.post(.custom(name: "videoInsertFailed", payload: [
                "afterIndex": String(afterIndex), "title": item.title,
                "reason": "index \(afterIndex) is not an entry still to play (\(currentIndex < 0 ? 0 : currentIndex)...\(entries.count - 1))",
            ]))
        }
        return inserted
    }

    /// Stops the item playing and ends the queue there.
    public func stop() {
        let player = lock.withLock { () -> MediaPlayer? in
            stopRequested = true
            return self.player
        }
        player?.stop()
    }

    /// Plays every entry in order and returns the report. Call once.
    public func run() async -> QueueReport {
        let baseLink: SimulatedLink?
        if case let .virtual(link) = settings.clock { baseLink = link } else { baseLink = nil }
        let isVirtual = baseLink != nil
        let origin = ContinuousClock.now
        let clock: @Sendable () -> Double = { [weak self] in
            guard let self else { return 0 }
            if !isVirtual { return (ContinuousClock.now - origin).secondsDouble }
            let state = self.lock.withLock { self.clockState }
            return state.itemStart + (state.driver?.now ?? 0)
        }
        clockBox.set(clock)
        var report = QueueReport(clock: isVirtual ? "virtual" : "real", preload: settings.preload)
        var queueTime = 0.0
        var lastPlayed: (index: Int, end: Double)?
        var index = 0
        while true {
            let next: QueueItem? = lock.withLock {
                guard !stopRequested, index < items.count else { return nil }
                current = index
                return items[index]
            }
            guard let item = next else { break }
            if index > 0 {
                bus.post(.custom(name: "queueAdvanced", payload: ["from": String(index - 1), "to": String(index)]))
            }
            let itemStart = isVirtual ? queueTime : (ContinuousClock.now - origin).secondsDouble
            guard let url = item.url else {
                let reason = item.failure ?? "no URL"
                bus.post(.custom(name: "sessionFailed", payload: ["index": String(index), "title": item.title, "error": reason]))
                report.items.append(.init(index: index, item: item, startSeconds: itemStart, endSeconds: itemStart, firstFrameSeconds: nil,
                                          status: "failed", error: reason, preload: nil, preloadedURLsUsed: [], report: nil))
                report.failed.append(index)
                index += 1
                continue
            }
            let driver: any SessionDriver
            let inner: any PlayerNetwork
            if let baseLink {
                driver = VirtualTimeDriver()
                inner = SimulatedNetwork(client: client, link: Self.link(baseLink, shiftedBy: itemStart))
            } else {
                driver = RealTimeDriver()
                inner = LiveNetwork(client: client)
            }
            let preload = lock.withLock { preloads.removeValue(forKey: url) }
            var preloadOutcome: PreloadOutcome?
            if let preload { preloadOutcome = await preload.task.value }
            let cache = preload?.cache ?? PreloadCache()
            let player = MediaPlayer(url: url, configuration: settings.configuration, driver: driver,
                                     network: PreloadingNetwork(inner: inner, cache: cache))
            let observer = lock.withLock { () -> (@Sendable (Int, QueueItem, MediaPlayer) -> Void)? in
                clockState.itemStart = itemStart
                clockState.driver = driver
                self.player = player
                return sessionObserver
            }
            bus.post(.custom(name: "sessionStarted", payload: [
                "index": String(index), "url": url, "role": item.role.rawValue, "title": item.title, "videoId": item.videoId ?? "",
            ]))
            observer?(index, item, player)
            // From the first frame on, the next playable entry's playlists are fetched.
            let playing = index
            let preloadSubscription: EventSubscription? = settings.preload ? player.bus.subscribe { [weak self] event in
                guard case .playStarted = event.kind, let self else { return }
                self.startPreload(after: playing, at: itemStart + event.playerTime, baseLink: baseLink)
            } : nil
            if lock.withLock({ stopRequested }) { player.stop() }
            let result = await player.run(maxSessionSeconds: settings.maxSessionSecondsPerItem)
            preloadSubscription?.cancel()
            let end = isVirtual ? itemStart + result.sessionSeconds : (ContinuousClock.now - origin).secondsDouble
            let firstFrame = result.playbackInformation?.timeToFirstFrameSeconds.map { itemStart + $0 }
            let failed = result.finalStatus == .error
            report.items.append(.init(index: index, item: item, startSeconds: itemStart, endSeconds: end, firstFrameSeconds: firstFrame,
                                      status: result.finalStatus.rawValue, error: result.error, preload: preloadOutcome,
                                      preloadedURLsUsed: cache.usedURLs, report: result))
            if failed {
                report.failed.append(index)
                bus.post(.custom(name: "sessionFailed", payload: ["index": String(index), "title": item.title, "error": result.error ?? "playback failed"]))
            }
            if let firstFrame, let previous = lastPlayed {
                report.gaps.append(.init(fromIndex: previous.index, toIndex: index, fromEndSeconds: previous.end, toFirstFrameSeconds: firstFrame,
                                         seconds: firstFrame - previous.end, preloaded: !cache.usedURLs.isEmpty))
            }
            if firstFrame != nil { lastPlayed = (index, end) }
            bus.post(.custom(name: "sessionEnded", payload: ["index": String(index), "status": result.finalStatus.rawValue]))
            lock.withLock {
                clockState.itemStart = end
                clockState.driver = nil
                self.player = nil
            }
            queueTime = end
            index += 1
        }
        for preload in lock.withLock({ preloads.values }) { preload.task.cancel() }
        let (stopped, left) = lock.withLock {
            current = max(current, index)
            return (stopRequested, Array(items.dropFirst(index)))
        }
        report.stopped = stopped
        report.totalSeconds = isVirtual ? queueTime : (ContinuousClock.now - origin).secondsDouble
        // A stop leaves the rest of the queue unplayed: said, so the report accounts for every entry.
        for (offset, item) in left.enumerated() {
            report.items.append(.notPlayed(index: index + offset, item: item, at: report.totalSeconds))
        }
        bus.post(.custom(name: "queueCompleted", payload: ["items": String(report.items.count), "failed": String(report.failed.count),
                                                           "stopped": String(report.stopped), "notPlayed": String(left.count)]))
        return report
    }

    /// Starts preloading the first playable entry after `index` (once per URL).
    private func startPreload(after index: Int, at queueTime: Double, baseLink: SimulatedLink?) {
        let target: (Int, String)? = lock.withLock {
            var next = index + 1
            while next < items.count {
                if let url = items[next].url { return preloads[url] == nil ? (next, url) : nil }
                next += 1
            }
            return nil
        }
        guard let (nextIndex, url) = target else { return }
        let network: any PlayerNetwork = baseLink.map { SimulatedNetwork(client: client, link: $0) } ?? LiveNetwork(client: client)
        let cache = PreloadCache()
        bus.post(.custom(name: "preloadStarted", payload: ["index": String(nextIndex), "url": url]))
        let bus = self.bus
        let task = Task {
            let outcome = await Preloader.preload(url, network: network, cache: cache, at: queueTime)
            var payload = ["index": String(nextIndex), "urls": outcome.urls.joined(separator: " "), "seconds": String(format: "%.3f", outcome.seconds)]
            if let error = outcome.error { payload["error"] = error }
            bus.post(.custom(name: "preloadCompleted", payload: payload))
            return outcome
        }
        lock.withLock { preloads[url] = Preload(cache: cache, task: task) }
    }

    /// `link` with session time 0 moved `seconds` further into its trace.
    static func link(_ link: SimulatedLink, shiftedBy seconds: Double) -> SimulatedLink {
        SimulatedLink(trace: link.trace, roundTripSeconds: link.roundTripSeconds, payloadFactor: link.payloadFactor,
                      startOffsetSeconds: link.startOffsetSeconds + seconds, wrapRule: link.wrapRule)
    }
}
