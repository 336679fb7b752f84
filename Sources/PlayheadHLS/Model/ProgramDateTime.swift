/// An absolute date and time (EXT-X-PROGRAM-DATE-TIME, DATERANGE dates), exact to the microsecond.
///
/// Stored as microseconds since 1970-01-01T00:00:00Z so that equality is exact and a
/// serialize/parse round trip is lossless. Encoded in JSON as ISO 8601 in UTC with fractional
/// seconds (`2019-02-14T02:13:36.106Z`).
public struct ProgramDateTime: Sendable, Equatable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Microseconds since the Unix epoch (UTC).
    public var microsecondsSince1970: Int64

    /// Creates a date from microseconds since the Unix epoch.
    public init(microsecondsSince1970: Int64) {
        self.microsecondsSince1970 = microsecondsSince1970
    }

    /// Seconds since the Unix epoch, as a floating-point value.
    public var secondsSince1970: Double { Double(microsecondsSince1970) / 1_000_000 }

    /// Returns the date moved by a duration in seconds (rounded to the microsecond).
    public func adding(seconds: Double) -> ProgramDateTime {
        ProgramDateTime(microsecondsSince1970: microsecondsSince1970 + Int64((seconds * 1_000_000).rounded()))
    }

    /// Orders dates in time.
    public static func < (lhs: ProgramDateTime, rhs: ProgramDateTime) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }

    /// Parses an ISO 8601 / RFC 3339 date-time such as `2010-02-19T14:54:23.031+08:00`.
    ///
    /// Accepts `T`, `t` or a space between date and time, any number of fractional digits
    /// (kept to the microsecond), `Z`/`z`, `±HH:MM`, `±HHMM` or `±HH`; a missing zone means UTC.
    /// - Parameter text: the date-time text.
    /// - Returns: nil when the text is not a valid date-time.
    public init?(iso8601 text: Substring) {
        var s = DateScanner(bytes: Array(text.utf8))
        guard let year = s.digits(4), s.expect("-"), let month = s.digits(2), s.expect("-"),
              let day = s.digits(2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard s.expectAny(["T", "t", " "]), let hour = s.digits(2), s.expect(":"),
              let minute = s.digits(2), s.expect(":"), let second = s.digits(2),
              hour < 24, minute < 60, second < 61 else { return nil }
        var micros: Int64 = 0
        if s.expect(".") || s.expect(",") {
            var scale: Int64 = 100_000
            var count = 0
            while let d = s.digit() {
                micros += Int64(d) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if s.expectAny(["Z", "z"]) {
        } else if let sign = s.sign() {
            guard let oh = s.digits(2) else { return nil }
            _ = s.expect(":")
            let om = s.digits(2) ?? 0
            offsetSeconds = sign * Int64(oh * 3600 + om * 60)
        }
        guard s.atEnd else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let secs = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - offsetSeconds
        microsecondsSince1970 = secs * 1_000_000 + micros
    }

    /// ISO 8601 in UTC with milliseconds, or microseconds when they are not whole milliseconds.
    public var iso8601: String {
        let micros = microsecondsSince1970
        var secs = micros / 1_000_000
        var frac = micros % 1_000_000
        if frac < 0 { frac += 1_000_000; secs -= 1 }
        var days = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = Self.civilFromDays(days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let fraction = frac % 1000 == 0 ? pad(frac / 1000, 3) : pad(frac, 6)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):"
            + "\(pad(rem % 60, 2)).\(fraction)Z"
    }

    /// The ISO 8601 form.
    public var description: String { iso8601 }

    /// Decodes from an ISO 8601 string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let value = ProgramDateTime(iso8601: Substring(text)) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO 8601 date: \(text)")
        }
        self = value
    }

    /// Encodes as an ISO 8601 string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(iso8601)
    }

    // Proleptic Gregorian calendar conversions (days since 1970-01-01).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// A cursor over the bytes of a date-time.
private struct DateScanner {
    let bytes: [UInt8]
    var i = 0

    var atEnd: Bool { i == bytes.count }

    mutating func digit() -> Int? {
        guard i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 else { return nil }
        i += 1
        return Int(bytes[i - 1] - 48)
    }

    mutating func digits(_ n: Int) -> Int? {
        var v = 0
        for _ in 0..<n {
            guard let d = digit() else { return nil }
            v = v * 10 + d
        }
        return v
    }

    mutating func expect(_ c: Unicode.Scalar) -> Bool {
        guard i < bytes.count, bytes[i] == UInt8(ascii: c) else { return false }
        i += 1
        return true
    }

    mutating func expectAny(_ cs: [Unicode.Scalar]) -> Bool { cs.contains { expect($0) } }

    mutating func sign() -> Int64? {
        if expect("+") { return 1 }
        if expect("-") { return -1 }
        return nil
    }
}
