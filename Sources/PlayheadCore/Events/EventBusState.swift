import Foundation

/// A closure subscriber and the first event it is owed.
struct BusSubscriber: Sendable {
    let id: Int
    let firstSequence: Int
    let handler: @Sendable (PlayerEvent) -> Void
}

/// The mutable state of an ``EventBus``, behind a lock.
final class BusState: Sendable {
    /// What the lock guards.
    struct Contents: Sendable {
        var lastSequence = 0
        /// The player time of the last event posted (times never go backwards along the sequence).
        var lastPlayerTime = -Double.infinity
        var lastSubscriberID = 0
        var subscribers: [BusSubscriber] = []
        var streams: [Int: AsyncStream<PlayerEvent>.Continuation] = [:]
        var isFinished = false
        var pending: [PlayerEvent] = []
        var isDelivering = false
        var history: NotificationHistory
        var log: EventRing<PlayerEvent>
    }

    /// A value behind an `NSLock`.
    final class Guarded<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) { self.value = value }

        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    private let contents: Guarded<Contents>

    init(historyCapacity: Int, eventLogCapacity: Int) {
        contents = Guarded(Contents(
            history: NotificationHistory(capacity: historyCapacity), log: EventRing(capacity: eventLogCapacity)))
    }

    func withLock<Result>(_ body: (inout Contents) throws -> Result) rethrows -> Result {
        try contents.withLock(body)
    }
}
