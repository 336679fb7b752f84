import Foundation

/// A VAST macro name, written `[NAME]` in URL templates (VAST 4.x §6.1).
public struct VASTMacro: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral {
    /// The name without brackets.
    public var rawValue: String

    /// Creates a macro from its name without brackets.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a macro from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `[ERRORCODE]`: the VAST error code (e.g. 303).
    public static let errorCode: VASTMacro = "ERRORCODE"
    /// `[CACHEBUSTING]`: a random 8-digit number.
    public static let cacheBusting: VASTMacro = "CACHEBUSTING"
    /// `[TIMESTAMP]`: the time of the call, ISO 8601.
    public static let timestamp: VASTMacro = "TIMESTAMP"
    /// `[CONTENTPLAYHEAD]`: the content position, `HH:MM:SS.mmm` (VAST 3.0; 4.1 calls it MEDIAPLAYHEAD).
    public static let contentPlayhead: VASTMacro = "CONTENTPLAYHEAD"
    /// `[MEDIAPLAYHEAD]`: the content position, `HH:MM:SS.mmm` (VAST 4.1).
    public static let mediaPlayhead: VASTMacro = "MEDIAPLAYHEAD"
    /// `[ADPLAYHEAD]`: the position inside the ad, `HH:MM:SS.mmm`.
    public static let adPlayhead: VASTMacro = "ADPLAYHEAD"
    /// `[ASSETURI]`: the media file being played.
    public static let assetURI: VASTMacro = "ASSETURI"
    /// `[BREAKPOSITION]`: 1 pre-roll, 2 mid-roll, 3 post-roll, 4 standalone.
    public static let breakPosition: VASTMacro = "BREAKPOSITION"
}

/// Expands VAST macros in tracking URL templates. Pure: the caller passes every value (random
/// numbers and clocks included), so expansion is deterministic under test.
public enum VASTMacros {
    /// Characters left as they are when a value is percent-encoded (RFC 3986 unreserved).
    static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Replaces each `[NAME]` whose name is in `values` with the value, percent-encoded. Macros
    /// without a value are left as written (callers may pass `"-1"` for unknown ones, as VAST 4.1 asks).
    ///
    /// - Parameters:
    ///   - template: the URL template.
    ///   - values: the values by macro.
    /// - Returns: the expanded URL.
    public static func expand(_ template: String, values: [VASTMacro: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "[") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[VASTMacro(rawValue: name)] {
                result += value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The `[CACHEBUSTING]` value for a caller-supplied random number: its last 8 decimal digits,
    /// zero-padded.
    public static func cacheBusting(random: UInt64) -> String {
        VASTTime.pad(Int(random % 100_000_000), 8)
    }

    /// The `[TIMESTAMP]` value: ISO 8601 in UTC with milliseconds (`2024-05-01T12:00:00.000Z`).
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// The `[CONTENTPLAYHEAD]` / `[ADPLAYHEAD]` value: `HH:MM:SS.mmm`.
    public static func playhead(seconds: Double) -> String { VASTTime.clock(seconds: seconds) }
}
