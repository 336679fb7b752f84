import Foundation

/// A point inside an ad: an absolute time from the ad's start, or a share of its duration.
/// Used by `skipoffset`, progress-event `offset` and icon offsets.
public enum VASTOffset: Sendable, Equatable {
    /// Seconds from the start of the creative.
    case seconds(Double)
    /// A percentage (0–100) of the creative's duration.
    case percent(Double)

    /// Reads `HH:MM:SS`, `HH:MM:SS.mmm` or `n%`; nil when the text is neither.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.hasSuffix("%") {
            guard let percent = Double(value.dropLast()), percent >= 0, percent <= 100 else { return nil }
            self = .percent(percent)
        } else if let seconds = VASTTime.seconds(fromClock: value) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// The offset in seconds for a creative lasting `durationSeconds` (percentages are resolved).
    public func seconds(durationSeconds: Double?) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .percent(let percent): return durationSeconds.map { $0 * percent / 100 }
        }
    }
}

extension VASTOffset: Encodable {
    private enum CodingKeys: String, CodingKey { case seconds, percent }

    /// Encodes as `{"seconds": s}` or `{"percent": p}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .seconds(let seconds): try container.encode(seconds, forKey: .seconds)
        case .percent(let percent): try container.encode(percent, forKey: .percent)
        }
    }
}

/// Clock-time parsing and formatting shared by VAST and VMAP.
public enum VASTTime {
    /// Reads `HH:MM:SS` or `HH:MM:SS.mmm` (any number of fraction digits; hours may exceed 99).
    ///
    /// - Parameter text: the clock text, surrounding whitespace allowed.
    /// - Returns: seconds, or nil when the text is not a clock time or minutes/seconds exceed 59.
    public static func seconds(fromClock text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit), !parts[0].isEmpty,
              parts[1].count == 2,
              let hours = Double(parts[0]), let minutes = Double(parts[1]),
              let seconds = clockSeconds(parts[2]),
              minutes < 60, seconds < 60 else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    private static func clockSeconds(_ text: Substring) -> Double? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), pieces[0].count == 2, pieces[0].allSatisfy(\.isASCIIDigit),
              pieces.count == 1 || (!pieces[1].isEmpty && pieces[1].allSatisfy(\.isASCIIDigit)) else { return nil }
        return Double(text)
    }

    /// Formats seconds as `HH:MM:SS.mmm` (the form VAST macros such as `[CONTENTPLAYHEAD]` use).
    public static func clock(seconds: Double) -> String {
        let totalMilliseconds = Int((max(0, seconds) * 1000).rounded())
        let hours = totalMilliseconds / 3_600_000
        let minutes = totalMilliseconds / 60_000 % 60
        let secs = totalMilliseconds / 1000 % 60
        let millis = totalMilliseconds % 1000
        return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(secs, 2) + "." + pad(millis, 3)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
