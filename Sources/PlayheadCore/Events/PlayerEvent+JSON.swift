import Foundation

/// NDJSON: one event is one JSON object on one line, keys in a fixed order:
/// `{"seq":1,"time":0.0,"event":"statusChanged","from":"created","to":"initializing","wallClockTime":"…"}`.
///
/// Payload fields are flat and named after the case's labels (`seconds`, `url`,
/// `toBitsPerSecond`, …); a notification is one nested object under `notification`, a custom
/// event's payload one under `payload`. Only wall-clock fields are named `wallClock…`, so
/// dropping those keys (or passing `includeWallClock: false`) leaves a line that two runs of the
/// same session under the virtual clock write identically.
extension PlayerEvent: Codable {
    /// The event as one line of compact JSON, without a line break.
    ///
    /// - Parameter includeWallClock: Whether to write `wallClockTime` (here and in a carried
    ///   notification); leave it out to compare runs.
    public func jsonLine(includeWallClock: Bool = true) -> String {
        jsonValue(includeWallClock: includeWallClock).text
    }

    /// The ordered JSON object of the line.
    func jsonValue(includeWallClock: Bool) -> EventJSON {
        var fields: [(String, EventJSON)] = [
            ("seq", .integer(sequence)), ("time", .number(playerTime)), ("event", .string(name)),
        ]
        fields += kind.payloadFields(includeWallClock: includeWallClock)
        if includeWallClock, let date = wallClockTime { fields.append(("wallClockTime", .string(EventJSON.iso8601(date)))) }
        return .object(fields)
    }

    /// Reads an event back from a line written by ``jsonLine(includeWallClock:)``.
    ///
    /// - Parameter jsonLine: One line of NDJSON.
    /// - Throws: `DecodingError` when the line is not an event.
    public init(jsonLine: String) throws {
        self = try JSONDecoder().decode(PlayerEvent.self, from: Data(jsonLine.utf8))
    }

    /// Encodes the same object as ``jsonLine(includeWallClock:)`` with wall clock.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue(includeWallClock: true).encode(to: encoder)
    }

    /// Decodes the object of a JSON line.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: EventKey.self)
        let reader = EventFieldReader(container: container)
        sequence = try reader.int("seq")
        playerTime = try reader.double("time")
        wallClockTime = try reader.optionalString("wallClockTime").flatMap(EventJSON.date(iso8601:))
        kind = try PlayerEventKind(name: try reader.string("event"), reader: reader)
    }
}

extension PlayerEventKind {
    /// The payload as flat, ordered JSON fields.
    func payloadFields(includeWallClock: Bool) -> [(String, EventJSON)] {
        switch self {
        case let .statusChanged(from, to): [("from", .string(from.rawValue)), ("to", .string(to.rawValue))]
        case let .timeChanged(seconds): [("seconds", .number(seconds))]
        case .playStarted, .playCompleted, .bufferingStarted, .bufferEmpty, .likelyToKeepUp, .stalled: []
        case let .itemChanged(url): [("url", .string(url))]
        case let .seekStarted(from, to): [("from", .number(from)), ("to", .number(to))]
        case let .seekCompleted(at): [("at", .number(at))]
        case let .bufferingCompleted(duration), let .recovered(duration): [("durationSeconds", .number(duration))]
        case let .bitrateChanged(from, to, reason):
            [("fromBitsPerSecond", from.map(EventJSON.integer) ?? .null), ("toBitsPerSecond", .integer(to)), ("reason", .string(reason))]
        case let .segmentLoaded(url, mediaSequence, bytes, seconds, throughput):
            [("url", .string(url)), ("mediaSequence", .integer(mediaSequence)), ("bytes", .integer(bytes)),
             ("seconds", .number(seconds)), ("throughputBitsPerSecond", .number(throughput))]
        case let .playlistLoaded(url, segments, changed):
            [("url", .string(url)), ("segments", .integer(segments)), ("changed", .bool(changed))]
        case let .framePresented(pts, lateness): [("pts", .number(pts)), ("latenessSeconds", .number(lateness))]
        case let .framesDropped(count, pts, lateness):
            [("count", .integer(count)), ("pts", .number(pts)), ("latenessSeconds", .number(lateness))]
        case let .notification(notification), let .error(notification):
            [("notification", EventJSON.notification(notification, includeWallClock: includeWallClock))]
        case let .timelineChanged(breaks): [("breaks", .integer(breaks))]
        case let .adBreakStarted(id, index, ads): [("breakId", .string(id)), ("breakIndex", .integer(index)), ("ads", .integer(ads))]
        case let .adBreakCompleted(id, index): [("breakId", .string(id)), ("breakIndex", .integer(index))]
        case let .adStarted(info), let .adProgress(info), let .adCompleted(info), let .adSkipped(info),
             let .adPaused(info), let .adResumed(info): EventJSON.ad(info)
        case let .adClicked(info, clickThrough): EventJSON.ad(info) + [("clickThrough", clickThrough.map(EventJSON.string) ?? .null)]
        case let .timedMetadata(metadata):
            [("id", .string(metadata.id)), ("name", metadata.name.map(EventJSON.string) ?? .null), ("timeSeconds", .number(metadata.timeSeconds)),
             ("type", .string(metadata.type.rawValue)), ("metadata", EventJSON.stringMap(metadata.metadata)), ("content", .string(metadata.content)),
             ("mediaSequence", metadata.mediaSequence.map(EventJSON.integer) ?? .null)]
        case let .subtitleCueStarted(cue), let .subtitleCueEnded(cue):
            [("id", .string(cue.id)), ("track", .string(cue.track)), ("startSeconds", .number(cue.startSeconds)),
             ("endSeconds", .number(cue.endSeconds)), ("text", .string(cue.text)), ("markup", .string(cue.markup))]
        case let .custom(name, payload): [("name", .string(name)), ("payload", EventJSON.stringMap(payload))]
        }
    }

    /// Reads the payload of the event named `name`.
    init(name: String, reader r: EventFieldReader) throws {
        switch name {
        case "statusChanged": self = .statusChanged(from: try r.status("from"), to: try r.status("to"))
        case "timeChanged": self = .timeChanged(seconds: try r.double("seconds"))
        case "playStarted": self = .playStarted
        case "playCompleted": self = .playCompleted
        case "itemChanged": self = .itemChanged(url: try r.string("url"))
        case "seekStarted": self = .seekStarted(from: try r.double("from"), to: try r.double("to"))
        case "seekCompleted": self = .seekCompleted(at: try r.double("at"))
        case "bufferingStarted": self = .bufferingStarted
        case "bufferingCompleted": self = .bufferingCompleted(durationSeconds: try r.double("durationSeconds"))
        case "bufferEmpty": self = .bufferEmpty
        case "likelyToKeepUp": self = .likelyToKeepUp
        case "stalled": self = .stalled
        case "recovered": self = .recovered(durationSeconds: try r.double("durationSeconds"))
        case "bitrateChanged":
            self = .bitrateChanged(
                fromBitsPerSecond: try r.optionalInt("fromBitsPerSecond"), toBitsPerSecond: try r.int("toBitsPerSecond"),
                reason: try r.string("reason"))
        case "segmentLoaded":
            self = .segmentLoaded(
                url: try r.string("url"), mediaSequence: try r.int("mediaSequence"), bytes: try r.int("bytes"),
                seconds: try r.double("seconds"), throughputBitsPerSecond: try r.double("throughputBitsPerSecond"))
        case "playlistLoaded":
            self = .playlistLoaded(url: try r.string("url"), segments: try r.int("segments"), changed: try r.bool("changed"))
        case "framePresented": self = .framePresented(pts: try r.double("pts"), latenessSeconds: try r.double("latenessSeconds"))
        case "framesDropped":
            self = .framesDropped(count: try r.int("count"), pts: try r.double("pts"), latenessSeconds: try r.double("latenessSeconds"))
        case "notification": self = .notification(try r.notification("notification"))
        case "error": self = .error(try r.notification("notification"))
        case "timelineChanged": self = .timelineChanged(breaks: try r.int("breaks"))
        case "adBreakStarted": self = .adBreakStarted(breakId: try r.string("breakId"), breakIndex: try r.int("breakIndex"), ads: try r.int("ads"))
        case "adBreakCompleted": self = .adBreakCompleted(breakId: try r.string("breakId"), breakIndex: try r.int("breakIndex"))
        case "adStarted": self = .adStarted(try r.ad())
        case "adProgress": self = .adProgress(try r.ad())
        case "adCompleted": self = .adCompleted(try r.ad())
        case "adSkipped": self = .adSkipped(try r.ad())
        case "adPaused": self = .adPaused(try r.ad())
        case "adResumed": self = .adResumed(try r.ad())
        case "adClicked": self = .adClicked(try r.ad(), clickThrough: try r.optionalString("clickThrough"))
        case "timedMetadata":
            guard let type = TimedMetadata.Kind(rawValue: try r.string("type")) else {
                throw DecodingError.dataCorruptedError(forKey: EventKey("type"), in: r.container, debugDescription: "type is TAG or ID3")
            }
            self = .timedMetadata(TimedMetadata(id: try r.string("id"), name: try r.optionalString("name"), timeSeconds: try r.double("timeSeconds"),
                                                type: type, metadata: try r.stringMap("metadata"), content: try r.string("content"),
                                                mediaSequence: try r.optionalInt("mediaSequence")))
        case "subtitleCueStarted", "subtitleCueEnded":
            let cue = SubtitleCue(id: try r.string("id"), track: try r.string("track"), startSeconds: try r.double("startSeconds"),
                                  endSeconds: try r.double("endSeconds"), text: try r.string("text"), markup: try r.string("markup"))
            self = name == "subtitleCueStarted" ? .subtitleCueStarted(cue) : .subtitleCueEnded(cue)
        case "custom": self = .custom(name: try r.string("name"), payload: try r.stringMap("payload"))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: EventKey("event"), in: r.container, debugDescription: "unknown event \(name)")
        }
    }
}

/// A JSON key made from any string.
struct EventKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Typed reads of an event line's fields by name.
struct EventFieldReader {
    let container: KeyedDecodingContainer<EventKey>

    func int(_ key: String) throws -> Int { try container.decode(Int.self, forKey: EventKey(key)) }
    func optionalInt(_ key: String) throws -> Int? { try container.decodeIfPresent(Int.self, forKey: EventKey(key)) }
    func double(_ key: String) throws -> Double { try container.decode(Double.self, forKey: EventKey(key)) }
    func bool(_ key: String) throws -> Bool { try container.decode(Bool.self, forKey: EventKey(key)) }
    func string(_ key: String) throws -> String { try container.decode(String.self, forKey: EventKey(key)) }
    func optionalString(_ key: String) throws -> String? { try container.decodeIfPresent(String.self, forKey: EventKey(key)) }
    func status(_ key: String) throws -> PlayerStatus { try container.decode(PlayerStatus.self, forKey: EventKey(key)) }
    func stringMap(_ key: String) throws -> [String: String] { try container.decode([String: String].self, forKey: EventKey(key)) }
    func ad() throws -> AdEventInfo {
        AdEventInfo(breakId: try string("breakId"), breakIndex: try int("breakIndex"), adId: try string("adId"), adIndex: try int("adIndex"),
                    url: try string("url"), durationSeconds: try double("durationSeconds"), offsetSeconds: try double("offsetSeconds"),
                    pts: try double("pts"))
    }
    func notification(_ key: String) throws -> PlayerNotification {
        try container.decode(PlayerNotification.self, forKey: EventKey(key))
    }
}

extension EventJSON: Encodable {
    /// Encodes the value through any encoder, keeping object key order where the encoder does.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case let .object(fields):
            var container = encoder.container(keyedBy: EventKey.self)
            for (key, value) in fields { try container.encode(value, forKey: EventKey(key)) }
        case let .array(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case let .string(value): try container.encode(value)
            case let .integer(value): try container.encode(value)
            case let .number(value): if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
            case let .bool(value): try container.encode(value)
            default: try container.encodeNil()
            }
        }
    }
}
