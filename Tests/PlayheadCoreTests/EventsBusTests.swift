import Foundation
import PlayheadCore
import Testing

/// A settable clock and a recorder, shared with handlers.
final class EventsTestBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
    func update(_ body: (inout Value) -> Void) { lock.lock(); defer { lock.unlock() }; body(&value) }
}

@Suite struct EventsBusTests {
    @Test func sequenceNumbersAndTimesComeFromTheBus() {
        let now = EventsTestBox(0.0)
        let bus = EventBus(clock: { now.get() }, wallClock: { nil })
        let first = bus.post(.playStarted)
        now.update { $0 = 1.5 }
        let second = bus.post(.timeChanged(seconds: 1))
        #expect(first.sequence == 1 && first.playerTime == 0)
        #expect(second.sequence == 2 && second.playerTime == 1.5)
        #expect(bus.events == [first, second])
        #expect(bus.lastSequence == 2)
    }

    /// A clock read before the previous event (the real clock stamping a turn's time after an event stamped
    /// live) does not put the event before it: 20 µs backwards was seen between BITRATE_CHANGE and its event.
    @Test func playerTimesNeverGoBackwardsAlongTheSequence() {
        let now = EventsTestBox(2.0)
        let bus = EventBus(clock: { now.get() }, wallClock: { nil })
        let first = bus.post(.playStarted)
        now.update { $0 = 1.99998 }
        let second = bus.post(.timeChanged(seconds: 1))
        now.update { $0 = 3 }
        let third = bus.post(.timeChanged(seconds: 2))
        #expect(first.playerTime == 2 && second.playerTime == 2 && third.playerTime == 3)
    }

    @Test func aSubscriberPostingFromItsHandlerDoesNotReenter() {
        let bus = EventBus(clock: { 0 }, wallClock: { nil })
        let log = EventsTestBox<[String]>([])
        let depth = EventsTestBox(0)
        bus.subscribe { event in
            depth.update { $0 += 1 }
            #expect(depth.get() == 1, "re-entered while handling \(event.sequence)")
            log.update { $0.append("A\(event.sequence)") }
            if event.kind == .playStarted { bus.post(.timeChanged(seconds: 0)) }
            if case .timeChanged = event.kind { bus.post(.playCompleted) }
            log.update { $0.append("A\(event.sequence)-end") }
            depth.update { $0 -= 1 }
        }
        bus.subscribe { event in log.update { $0.append("B\(event.sequence)") } }
        bus.post(.playStarted)
        #expect(log.get() == ["A1", "A1-end", "B1", "A2", "A2-end", "B2", "A3", "A3-end", "B3"])
        #expect(bus.events.map(\.name) == ["playStarted", "timeChanged", "playCompleted"])
    }

    @Test func twoSubscribersSeeTheSameStrictlyIncreasingOrder() async {
        let bus = EventBus(clock: { 0 }, wallClock: { nil })
        let first = EventsTestBox<[Int]>([])
        let second = EventsTestBox<[Int]>([])
        bus.subscribe { event in first.update { $0.append(event.sequence) } }
        bus.subscribe { event in second.update { $0.append(event.sequence) } }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<250 { bus.post(.custom(name: "t\(task)", payload: ["i": "\(index)"])) }
                }
            }
        }
        let seen = first.get()
        #expect(seen.count == 1000)
        #expect(seen == Array(1...1000))
        #expect(second.get() == seen)
    }

    @Test func subscribersSeeOnlyLaterEventsAndCancelStopsDelivery() {
        let bus = EventBus(clock: { 0 }, wallClock: { nil })
        bus.post(.playStarted)
        let seen = EventsTestBox<[Int]>([])
        let subscription = bus.subscribe { event in seen.update { $0.append(event.sequence) } }
        bus.post(.bufferEmpty)
        subscription.cancel()
        bus.post(.stalled)
        subscription.cancel()
        #expect(seen.get() == [2])
    }

    @Test func streamDeliversInOrderAndEndsOnFinish() async {
        let bus = EventBus(clock: { 0 }, wallClock: { nil })
        let stream = bus.stream()
        bus.post(.statusChanged(from: .created, to: .initializing))
        bus.post(.itemChanged(url: "http://o/master.m3u8"))
        bus.post(.statusChanged(from: .initializing, to: .initialized))
        bus.finish()
        var names: [String] = []
        var sequences: [Int] = []
        for await event in stream {
            names.append(event.name)
            sequences.append(event.sequence)
        }
        #expect(names == ["statusChanged", "itemChanged", "statusChanged"])
        #expect(sequences == [1, 2, 3])
        var afterFinish = 0
        for await _ in bus.stream() { afterFinish += 1 }
        #expect(afterFinish == 0)
    }

    @Test func aLaggingStreamKeepsTheNewest() async {
        let bus = EventBus(clock: { 0 }, wallClock: { nil })
        let stream = bus.stream(bufferingNewest: 2)
        for _ in 0..<5 { bus.post(.likelyToKeepUp) }
        bus.finish()
        var sequences: [Int] = []
        for await event in stream { sequences.append(event.sequence) }
        #expect(sequences == [4, 5])
    }

    @Test func notificationsGoIntoTheHistoryStampedWithThePostingTime() {
        let now = EventsTestBox(3.0)
        let bus = EventBus(clock: { now.get() }, wallClock: { nil }, historyCapacity: 2)
        bus.post(.notification(.playbackStart))
        bus.post(.timeChanged(seconds: 1))
        bus.post(.error(.missingFile(url: "http://o/x.ts", status: 404)))
        now.update { $0 = 4 }
        bus.addCustomNotification(.custom(type: .warning, code: 99_999, description: "custom"))
        let history = bus.notificationHistory
        #expect(history.items.map(\.name) == ["MISSING_FILE_ERROR", "CUSTOM"])
        #expect(history.items.map(\.playerTime) == [3, 4])
        #expect(history.droppedCount == 1)
        #expect(bus.events.last?.kind.notification?.playerTime == 4)
    }

    @Test func theEventLogIsBounded() {
        let bus = EventBus(clock: { 0 }, wallClock: { nil }, eventLogCapacity: 3)
        for _ in 0..<10 { bus.post(.stalled) }
        #expect(bus.events.map(\.sequence) == [8, 9, 10])
    }
}
