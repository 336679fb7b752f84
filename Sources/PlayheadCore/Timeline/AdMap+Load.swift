import Foundation

/// Why an ad map could not be used: the file, the JSON, or a value, each said in one line.
public struct AdMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, with the JSON path of the value (`breaks[1].time`) where there is one.
    public var message: String

    /// Creates an error with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension AdMap {
    /// The largest `time` and `duration` accepted, seconds (about 32 years, as for playlists).
    public static let maxSeconds = 1e9

    /// Reads and checks the ad map in the file at `path`; errors name the file, and the JSON path and
    /// value at fault.
    public static func load(path: String) throws(AdMapError) -> AdMap {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw AdMapError("\(path): cannot read the ad map: \(reason)")
        }
        do throws(AdMapError) {
            return try decode(data)
        } catch {
            throw AdMapError("\(path): \(error.message)")
        }
    }

    /// Decodes the JSON form and checks every value (``parse(_:)`` only decodes).
    public static func decode(_ data: Data) throws(AdMapError) -> AdMap {
        // Checked strictly first: Foundation takes a comma before `}` or `]`, keeps one of a key given twice
        // silently, and names no line for what it refuses.
        if let problem = JSONBodyChecks.problem(data) { throw AdMapError("not valid JSON: \(problem)") }
        let map: AdMap
        do {
            map = try parse(data)
        } catch let error as DecodingError {
            throw AdMapError(describe(error))
        } catch {
            throw AdMapError("not an ad map: \(error.localizedDescription)")
        }
        try map.check()
        return map
    }

    /// Times that are finite, at least 0 and at most ``maxSeconds``; durations above 0 up to it; an entry
    /// matched by a time or a cue id, with at least one ad.
    public func check() throws(AdMapError) {
        func inRange(_ value: Double, _ path: String, allowZero: Bool) throws(AdMapError) {
            guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= Self.maxSeconds else {
                throw AdMapError("\(path) is \(value): it must be \(allowZero ? "0" : "above 0") to \(Int(Self.maxSeconds)) seconds")
            }
        }
        for (index, entry) in breaks.enumerated() {
            if let time = entry.time { try inRange(time, "breaks[\(index)].time", allowZero: true) }
            if entry.time == nil, entry.cueId == nil { throw AdMapError("breaks[\(index)] has neither a time nor a cueId: it can match no cue") }
            if entry.ads.isEmpty { throw AdMapError("breaks[\(index)].ads is empty") }
            for (adIndex, ad) in entry.ads.enumerated() {
                try inRange(ad.duration, "breaks[\(index)].ads[\(adIndex)].duration", allowZero: false)
            }
        }
    }

    /// `DecodingError` as one line: what was wrong, at which JSON path.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])) is missing"
        case let .typeMismatch(type, context):
            return "\(path(context.codingPath)) should be \(describe(type))"
        case let .valueNotFound(type, context):
            return "\(path(context.codingPath)) is null; it should be \(describe(type))"
        case let .dataCorrupted(context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON at \(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        @unknown default:
            return "not an ad map: \(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
