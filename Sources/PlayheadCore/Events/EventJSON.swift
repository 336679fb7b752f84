import Foundation

/// A JSON value with ordered object keys, for event lines whose field order is fixed
/// (`seq`, `time`, `event`, payload, wall clock) and whose text must be byte-for-byte repeatable.
enum EventJSON: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([EventJSON])
    case object([(String, EventJSON)])

    static func == (lhs: EventJSON, rhs: EventJSON) -> Bool { lhs.text == rhs.text }

    /// Compact JSON text.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case let .string(value): EventJSON.writeString(value, to: &out)
        case let .integer(value): out += String(value)
        case let .number(value): out += value.isFinite ? EventJSON.number(value) : "null"
        case let .bool(value): out += value ? "true" : "false"
        case .null: out += "null"
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                EventJSON.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The shortest text that reads back as the same `Double` (Swift's own), such as `1.5` or `0.0`.
    static func number(_ value: Double) -> String { "\(value)" }

    /// A date as ISO 8601 text in UTC with milliseconds, such as `2026-01-02T03:04:05.678Z`.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Reads ISO 8601 text, with or without fractional seconds.
    static func date(iso8601 text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    /// The JSON form of a notification, in a fixed key order, optionally without wall-clock times
    /// (also those of inner notifications).
    static func notification(_ notification: PlayerNotification, includeWallClock: Bool) -> EventJSON {
        var fields: [(String, EventJSON)] = [
            ("type", .string(notification.type.rawValue)),
            ("code", .integer(notification.code.code)),
            ("name", .string(notification.name)),
            ("metadata", stringMap(notification.metadata)),
            ("playerTime", .number(notification.playerTime)),
        ]
        if let mediaTime = notification.mediaTime { fields.append(("mediaTime", .number(mediaTime))) }
        if let inner = notification.inner.first {
            fields.append(("innerNotification", EventJSON.notification(inner, includeWallClock: includeWallClock)))
        }
        if includeWallClock, let date = notification.wallClockTime { fields.append(("wallClockTime", .string(iso8601(date)))) }
        return .object(fields)
    }

    /// A string dictionary as an object with keys in ascending order.
    /// The flat fields of an ad event.
    static func ad(_ info: AdEventInfo) -> [(String, EventJSON)] {
        [("breakId", .string(info.breakId)), ("breakIndex", .integer(info.breakIndex)), ("adId", .string(info.adId)),
         ("adIndex", .integer(info.adIndex)), ("url", .string(info.url)), ("durationSeconds", .number(info.durationSeconds)),
         ("offsetSeconds", .number(info.offsetSeconds)), ("pts", .number(info.pts))]
    }

    static func stringMap(_ map: [String: String]) -> EventJSON {
        .object(map.keys.sorted().map { ($0, .string(map[$0]!)) })
    }
}
