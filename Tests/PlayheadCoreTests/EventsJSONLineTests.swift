import Foundation
import Logging
import PlayheadCore
import Testing

@Suite struct EventsJSONLineTests {
    /// One scripted session on a virtual clock; the wall clock is real and differs between runs.
    static func run(wallClockOffset: TimeInterval) -> [PlayerEvent] {
        let now = EventsTestBox(0.0)
        let bus = EventBus(clock: { now.get() }, wallClock: { Date(timeIntervalSince1970: 1_800_000_000 + wallClockOffset + now.get()) })
        bus.post(.statusChanged(from: .created, to: .initializing))
        bus.post(.itemChanged(url: "http://o/master.m3u8"))
        bus.post(.playlistLoaded(url: "http://o/v1.m3u8", segments: 3, changed: true))
        now.update { $0 = 0.25 }
        bus.post(.bitrateChanged(fromBitsPerSecond: nil, toBitsPerSecond: 800_000, reason: "initial"))
        bus.post(.segmentLoaded(url: "http://o/s0.ts", mediaSequence: 0, bytes: 250_000, seconds: 0.5, throughputBitsPerSecond: 4_000_000))
        bus.post(.notification(.stateChange(to: .error, inner: .missingFile(url: "http://o/s1.ts", status: 404))))
        now.update { $0 = 1 }
        bus.post(.framesDropped(count: 2, pts: 0.96, latenessSeconds: 0.05))
        bus.post(.seekStarted(from: 1, to: 5.5))
        bus.post(.custom(name: "marker", payload: ["b": "2", "a": "quote \" and\nnewline"]))
        return bus.events
    }

    @Test func lineFormat() throws {
        let events = Self.run(wallClockOffset: 0)
        #expect(events[0].jsonLine(includeWallClock: false) == #"{"seq":1,"time":0.0,"event":"statusChanged","from":"created","to":"initializing"}"#)
        #expect(events[0].jsonLine() == #"{"seq":1,"time":0.0,"event":"statusChanged","from":"created","to":"initializing","wallClockTime":"2027-01-15T08:00:00.000Z"}"#)
        #expect(events[3].jsonLine(includeWallClock: false)
            == #"{"seq":4,"time":0.25,"event":"bitrateChanged","fromBitsPerSecond":null,"toBitsPerSecond":800000,"reason":"initial"}"#)
        #expect(events[8].jsonLine(includeWallClock: false)
            == #"{"seq":9,"time":1.0,"event":"custom","name":"marker","payload":{"a":"quote \" and\nnewline","b":"2"}}"#)
        for event in events {
            let line = event.jsonLine()
            #expect(!line.contains("\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == event.name)
        }
    }

    @Test func droppingWallClockKeysMakesTwoRunsEqual() throws {
        let first = Self.run(wallClockOffset: 0)
        let second = Self.run(wallClockOffset: 3_600)
        #expect(first.map { $0.jsonLine() } != second.map { $0.jsonLine() })
        #expect(first.map { $0.jsonLine(includeWallClock: false) } == second.map { $0.jsonLine(includeWallClock: false) })
        // The same by dropping keys from the full lines, as a test reading NDJSON would.
        func dropWallClock(_ line: String) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let cleaned = strip(object)
            return String(decoding: try JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try first.map { try dropWallClock($0.jsonLine()) } == second.map { try dropWallClock($0.jsonLine()) })
        #expect(first.map(\.withoutWallClock) == second.map(\.withoutWallClock))
    }

    @Test func linesReadBack() throws {
        for event in Self.run(wallClockOffset: 0) {
            let decoded = try PlayerEvent(jsonLine: event.jsonLine())
            #expect(decoded == event, "\(event.jsonLine())")
            #expect(try PlayerEvent(jsonLine: event.jsonLine(includeWallClock: false)) == event.withoutWallClock)
        }
    }

    @Test func loggingUsesTheLevelTable() {
        let levels = PlayerLogLevel.default
        #expect(levels.level(for: .error(.missingFile(url: "u", status: 404))) == .error)
        #expect(levels.level(for: .notification(.networkError(url: "u"))) == .warning)
        #expect(levels.level(for: .statusChanged(from: .ready, to: .playing)) == .info)
        #expect(levels.level(for: .timeChanged(seconds: 1)) == .trace)
        #expect(levels.level(for: .framePresented(pts: 0, latenessSeconds: 0)) == .trace)
        let event = PlayerEvent(sequence: 7, playerTime: 2, kind: .bitrateChanged(fromBitsPerSecond: 1, toBitsPerSecond: 2, reason: "abr-up"))
        #expect(PlayerLogging.message(for: event) == "bitrateChanged fromBitsPerSecond=1 toBitsPerSecond=2 reason=abr-up")
    }
}

/// Removes every key starting with `wallClock`, at any depth.
private func strip(_ value: Any) -> Any {
    if let object = value as? [String: Any] {
        var result: [String: Any] = [:]
        for (key, inner) in object where !key.hasPrefix("wallClock") { result[key] = strip(inner) }
        return result
    }
    if let array = value as? [Any] { return array.map(strip) }
    return value
}

@Suite struct AdEventsJSONLineTests {
    static let info = AdEventInfo(breakId: "splice-17", breakIndex: 1, adId: "ad-1", adIndex: 0, url: "http://127.0.0.1/ad.m3u8",
                                  durationSeconds: 10, offsetSeconds: 2.5, pts: 3.9)

    @Test func adEventsWriteFlatFieldsAndReadBack() throws {
        let kinds: [PlayerEventKind] = [
            .timelineChanged(breaks: 2), .adBreakStarted(breakId: "splice-17", breakIndex: 1, ads: 2), .adStarted(Self.info),
            .adProgress(Self.info), .adCompleted(Self.info), .adSkipped(Self.info), .adClicked(Self.info, clickThrough: "http://x/"),
            .adClicked(Self.info, clickThrough: nil), .adBreakCompleted(breakId: "splice-17", breakIndex: 1),
        ]
        for (index, kind) in kinds.enumerated() {
            let event = PlayerEvent(sequence: index + 1, playerTime: 12.5, wallClockTime: nil, kind: kind)
            #expect(try PlayerEvent(jsonLine: event.jsonLine()) == event, "\(event.jsonLine())")
        }
        let line = PlayerEvent(sequence: 3, playerTime: 12.5, wallClockTime: nil, kind: .adProgress(Self.info)).jsonLine()
        #expect(line == #"{"seq":3,"time":12.5,"event":"adProgress","breakId":"splice-17","breakIndex":1,"adId":"ad-1","adIndex":0,"url":"http://127.0.0.1/ad.m3u8","durationSeconds":10.0,"offsetSeconds":2.5,"pts":3.9}"#)
    }
}
