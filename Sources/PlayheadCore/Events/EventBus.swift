import Foundation

/// The typed event bus of one playback session: every consumer of player events hangs off it.
///
/// Order is explicit and never re-entrant:
/// - ``post(_:)`` numbers events 1, 2, 3, … and stamps them with the session clock under one
///   lock, so sequence order is posting order. Player times never go backwards along the sequence:
///   a time read before the previous event was posted (a session stamping an event with the time of
///   its turn while the real clock has moved on) takes the previous event's time.
/// - Closure subscribers are called one event at a time, in sequence order, each event to every
///   subscriber in subscription order. A handler that posts does not re-enter: its event is
///   queued and delivered once every subscriber has seen the current one.
/// - Handlers run synchronously on the task that is draining the queue: normally the posting
///   task, which returns from ``post(_:)`` after the queue is empty. When several tasks post at
///   once, the one already draining delivers the others' events, so a post may return before its
///   own event has reached the subscribers.
/// - A subscriber sees exactly the events posted after it subscribed, until it cancels.
/// - Streams (``stream(bufferingNewest:)``) get each event as it is posted, in sequence order.
///
/// The bus also keeps the session's ``NotificationHistory`` (every posted `.notification` and
/// `.error` is appended, stamped with the posting time) and a bounded log of recent ``events``.
/// `clock` and `wallClock` are called under the bus's lock: they must not use the bus.
public final class EventBus: Sendable {
    /// The default number of recent events kept in ``events``: 10,000 (a few megabytes at most).
    public static let defaultEventLogCapacity = 10_000
    /// The default buffer of a stream: 10,000 events, the newest kept when a consumer lags.
    public static let defaultStreamBufferSize = 10_000

    private let clock: @Sendable () -> Double
    private let wallClock: @Sendable () -> Date?
    private let state: BusState

    /// Makes a bus for one session.
    ///
    /// - Parameters:
    ///   - clock: The session clock: the player time in seconds (virtual or real).
    ///   - wallClock: The real time of an event; `{ nil }` leaves it out altogether.
    ///   - historyCapacity: The notification history's capacity; by default
    ///     ``NotificationHistory/defaultCapacity``.
    ///   - eventLogCapacity: How many recent events ``events`` keeps; by default
    ///     ``defaultEventLogCapacity``.
    public init(
        clock: @escaping @Sendable () -> Double,
        wallClock: @escaping @Sendable () -> Date? = { Date() },
        historyCapacity: Int = NotificationHistory.defaultCapacity,
        eventLogCapacity: Int = EventBus.defaultEventLogCapacity
    ) {
        self.clock = clock
        self.wallClock = wallClock
        state = BusState(historyCapacity: historyCapacity, eventLogCapacity: eventLogCapacity)
    }

    /// Posts an event: numbers and stamps it, logs it, yields it to streams, then delivers the
    /// queue to closure subscribers unless a delivery is already under way.
    ///
    /// - Parameter kind: What happened.
    /// - Returns: The event as numbered and stamped.
    @discardableResult
    public func post(_ kind: PlayerEventKind) -> PlayerEvent {
        let (event, mustDrain) = state.withLock { s -> (PlayerEvent, Bool) in
            s.lastSequence += 1
            let playerTime = max(clock(), s.lastPlayerTime)
            s.lastPlayerTime = playerTime
            let wallClockTime = wallClock()
            var kind = kind
            switch kind {
            case let .notification(n):
                kind = .notification(n.stamped(playerTime: playerTime, wallClockTime: wallClockTime))
            case let .error(n):
                kind = .error(n.stamped(playerTime: playerTime, wallClockTime: wallClockTime))
            default: break
            }
            let event = PlayerEvent(sequence: s.lastSequence, playerTime: playerTime, wallClockTime: wallClockTime, kind: kind)
            if let notification = kind.notification { s.history.append(notification) }
            s.log.append(event)
            for continuation in s.streams.values { continuation.yield(event) }
            s.pending.append(event)
            if s.isDelivering { return (event, false) }
            s.isDelivering = true
            return (event, true)
        }
        if mustDrain { drain() }
        return event
    }

    /// Adds a custom notification to the history and posts it on the bus as `.notification`
    /// (PSDK `PTNotificationHistory.addNotification`).
    ///
    /// - Parameter notification: The notification, for example from
    ///   ``PlayerNotification/custom(type:code:name:description:)``.
    /// - Returns: The event posted.
    @discardableResult
    public func addCustomNotification(_ notification: PlayerNotification) -> PlayerEvent {
        post(.notification(notification))
    }

    /// Registers a closure called with every event posted from now on (see the type's ordering
    /// rules). The subscription lasts until ``EventSubscription/cancel()``, or as long as the
    /// bus when never cancelled: dropping the returned value does not end it.
    ///
    /// - Parameter handler: Called synchronously, one event at a time; it may post.
    /// - Returns: The subscription, to cancel.
    @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> EventSubscription {
        let id = state.withLock { s -> Int in
            s.lastSubscriberID += 1
            s.subscribers.append(BusSubscriber(id: s.lastSubscriberID, firstSequence: s.lastSequence + 1, handler: handler))
            return s.lastSubscriberID
        }
        return EventSubscription { [weak self] in self?.unsubscribe(id) }
    }

    /// An asynchronous sequence of every event posted from now on, in sequence order, ending
    /// when ``finish()`` is called or the consumer stops iterating.
    ///
    /// A consumer that falls behind by more than `bufferingNewest` events loses the oldest
    /// unread ones (it sees a gap in ``PlayerEvent/sequence``); posting never waits for it.
    ///
    /// - Parameter bufferingNewest: How many unread events to keep; by default
    ///   ``defaultStreamBufferSize``.
    public func stream(bufferingNewest: Int = EventBus.defaultStreamBufferSize) -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlayerEvent.self, bufferingPolicy: .bufferingNewest(max(1, bufferingNewest)))
        let id = state.withLock { s -> Int? in
            if s.isFinished { return nil }
            s.lastSubscriberID += 1
            s.streams[s.lastSubscriberID] = continuation
            return s.lastSubscriberID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in _ = s.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams from ``stream(bufferingNewest:)`` are still open (consumers that stopped
    /// iterating are gone).
    public var openStreamCount: Int { state.withLock { $0.streams.count } }

    /// Ends every stream (after the events already yielded); later streams end at once. Posting
    /// and closure subscribers keep working.
    public func finish() {
        let continuations = state.withLock { s -> [AsyncStream<PlayerEvent>.Continuation] in
            s.isFinished = true
            defer { s.streams.removeAll() }
            return Array(s.streams.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// The session's notification history (a copy).
    public var notificationHistory: NotificationHistory { state.withLock { $0.history } }

    /// The most recent events, oldest first, at most `eventLogCapacity` of them.
    public var events: [PlayerEvent] { state.withLock { $0.log.elements } }

    /// The sequence number of the last event posted (0 before the first).
    public var lastSequence: Int { state.withLock { $0.lastSequence } }

    // MARK: Delivery

    /// Delivers queued events until none is left; only one caller at a time gets here.
    private func drain() {
        while true {
            let next = state.withLock { s -> (PlayerEvent, [BusSubscriber])? in
                guard !s.pending.isEmpty else {
                    s.isDelivering = false
                    return nil
                }
                let event = s.pending.removeFirst()
                return (event, s.subscribers.filter { $0.firstSequence <= event.sequence })
            }
            guard let (event, subscribers) = next else { return }
            for subscriber in subscribers where isSubscribed(subscriber.id) {
                subscriber.handler(event)
            }
        }
    }

    private func isSubscribed(_ id: Int) -> Bool {
        state.withLock { s in s.subscribers.contains { $0.id == id } }
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { s in s.subscribers.removeAll { $0.id == id } }
    }
}

/// A closure subscription to an ``EventBus``; ``cancel()`` ends it.
public final class EventSubscription: Sendable {
    private let onCancel: BusState.Guarded<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = BusState.Guarded(onCancel)
    }

    /// Stops delivery to the subscriber; an event being delivered may still reach it if its
    /// turn came before. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        action?()
    }
}
