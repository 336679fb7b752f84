import Logging
import PlayheadCore
import Testing

/// A LogHandler that keeps what it is given.
struct EventsMemoryLogHandler: LogHandler {
    let records: EventsTestBox<[(Logger.Level, String, Logger.Metadata?)]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.update { $0.append((event.level, "\(event.message)", event.metadata)) }
    }
}

@Suite struct EventsLoggingTests {
    @Test func busEventsReachAPluggedLoggerAtTheirLevels() {
        let records = EventsTestBox<[(Logger.Level, String, Logger.Metadata?)]>([])
        let logger = Logger(label: "playhead.test") { _ in EventsMemoryLogHandler(records: records) }
        let bus = EventBus(clock: { 1.5 }, wallClock: { nil })
        let subscription = PlayerLogging(logger: logger).attach(to: bus)
        bus.post(.statusChanged(from: .ready, to: .playing))
        bus.post(.timeChanged(seconds: 1))          // trace: below the handler's info level
        bus.post(.error(.missingFile(url: "http://o/a.ts", status: 404)))
        subscription.cancel()
        bus.post(.stalled)
        let got = records.get()
        #expect(got.map(\.0) == [.info, .error])
        #expect(got.first?.1 == "statusChanged from=ready to=playing")
        #expect(got.first?.2?["seq"] == "1")
        #expect(got.first?.2?["time"] == "1.5")
        #expect(got.last?.2?["code"] == "170006")
    }
}
