/// WebVTT timestamps (`hh:mm:ss.ttt`, `mm:ss.ttt`) and the HLS `X-TIMESTAMP-MAP` value.
enum WebVTTTimestamps {
    /// The spec's "collect a WebVTT timestamp": reads one timestamp at `position` in `scalars`,
    /// leaving `position` after it. Hours may have any number of digits (at least two when present);
    /// minutes and seconds have exactly two, at most 59; the fraction has exactly three digits.
    static func collect(_ scalars: [Unicode.Scalar], _ position: inout Int) throws(WebVTTSyntaxFailure) -> Double {
        func digits() -> String {
            var text = ""
            while position < scalars.count, isDigit(scalars[position]) {
                text.unicodeScalars.append(scalars[position])
                position += 1
            }
            return text
        }
        func expect(_ scalar: Unicode.Scalar, _ what: String) throws(WebVTTSyntaxFailure) {
            guard position < scalars.count, scalars[position] == scalar else {
                throw WebVTTSyntaxFailure(reason: "expected \(what) in timestamp")
            }
            position += 1
        }
        guard position < scalars.count, isDigit(scalars[position]) else {
            throw WebVTTSyntaxFailure(reason: "expected a timestamp")
        }
        let first = digits()
        let value1 = Double(first) ?? .infinity
        let hasHours = first.count != 2 || value1 > 59
        try expect(":", "':'")
        let second = digits()
        guard second.count == 2 else { throw WebVTTSyntaxFailure(reason: "minutes or seconds must have two digits") }
        var hours = 0.0, minutes = value1, seconds = Double(second) ?? 0
        if hasHours || (position < scalars.count && scalars[position] == ":") {
            try expect(":", "':' after the minutes")
            let third = digits()
            guard third.count == 2 else { throw WebVTTSyntaxFailure(reason: "seconds must have two digits") }
            hours = value1
            minutes = seconds
            seconds = Double(third) ?? 0
        }
        try expect(".", "'.' before the milliseconds")
        let fraction = digits()
        guard fraction.count == 3 else { throw WebVTTSyntaxFailure(reason: "milliseconds must have three digits") }
        guard minutes <= 59, seconds <= 59 else {
            throw WebVTTSyntaxFailure(reason: "minutes and seconds must be 59 or less")
        }
        return hours * 3600 + minutes * 60 + seconds + (Double(fraction) ?? 0) / 1000
    }

    /// A whole string that must be one timestamp and nothing else.
    static func timestamp(_ text: Substring) throws(WebVTTSyntaxFailure) -> Double {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        let value = try collect(scalars, &position)
        guard position == scalars.count else { throw WebVTTSyntaxFailure(reason: "text after the timestamp") }
        return value
    }

    /// The value of `X-TIMESTAMP-MAP=`: `MPEGTS:<ticks>` and `LOCAL:<timestamp>`, comma
    /// separated, in either order (RFC 8216 §3.5).
    static func timestampMap(_ value: String) throws(WebVTTSyntaxFailure) -> WebVTTTimestampMap {
        var mpegts: Int64?
        var local: Double?
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let item = item.drop { $0 == " " || $0 == "\t" }
            if item.hasPrefix("MPEGTS:") {
                let digits = item.dropFirst("MPEGTS:".count)
                guard !digits.isEmpty, digits.unicodeScalars.allSatisfy(isDigit), let ticks = Int64(digits) else {
                    throw WebVTTSyntaxFailure(reason: "MPEGTS must be a whole number of 90 kHz ticks, got \(String(digits).debugDescription)")
                }
                mpegts = ticks
            } else if item.hasPrefix("LOCAL:") {
                let text = item.dropFirst("LOCAL:".count)
                do throws(WebVTTSyntaxFailure) {
                    local = try timestamp(text)
                } catch {
                    throw WebVTTSyntaxFailure(reason: "LOCAL \(String(text).debugDescription): \(error.reason)")
                }
            } else {
                throw WebVTTSyntaxFailure(reason: "unknown item \(String(item).debugDescription)")
            }
        }
        guard let mpegts else { throw WebVTTSyntaxFailure(reason: "no MPEGTS") }
        guard let local else { throw WebVTTSyntaxFailure(reason: "no LOCAL") }
        return WebVTTTimestampMap(mpegts: mpegts, local: local)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
}
