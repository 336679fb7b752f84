/// A typed attribute value (RFC 8216bis 4.2).
public enum AttributeValue: Sendable, Equatable, Codable {
    /// decimal-integer, e.g. `BANDWIDTH=1280000`.
    case decimalInteger(Int)
    /// decimal-floating-point or signed-decimal-floating-point, e.g. `TIME-OFFSET=-2.5`.
    case signedFloat(Double)
    /// hexadecimal-sequence, e.g. `IV=0x1A2B`, as bytes.
    case hexadecimal([UInt8])
    /// quoted-string, without its quotes.
    case quotedString(String)
    /// enumerated-string, e.g. `METHOD=AES-128`.
    case enumeratedString(String)
    /// decimal-resolution, e.g. `RESOLUTION=1920x1080`.
    case resolution(Resolution)

    /// Infers the type of an unquoted value from its text: hexadecimal, resolution, integer,
    /// float, or else enumerated string.
    /// - Parameter text: the unquoted value.
    public init(unquoted text: Substring) {
        if let bytes = HexBytes.decode(text) {
            self = .hexadecimal(bytes)
        } else if let r = NumberText.resolution(text) {
            self = .resolution(r)
        } else if let i = NumberText.decimalInteger(text) {
            self = .decimalInteger(i)
        } else if let d = NumberText.signedFloat(text) {
            self = .signedFloat(d)
        } else {
            self = .enumeratedString(String(text))
        }
    }

    /// The value as it is written in an attribute list.
    public var playlistText: String {
        switch self {
        case .decimalInteger(let v): String(v)
        case .signedFloat(let v): NumberText.format(v)
        case .hexadecimal(let bytes): HexBytes.encode(bytes)
        case .quotedString(let s): "\"\(s)\""
        case .enumeratedString(let s): s
        case .resolution(let r): "\(r.width)x\(r.height)"
        }
    }
}

/// Number syntax shared by the attribute parser, the tag parser and the serializer.
enum NumberText {
    /// decimal-integer: ASCII digits only (a leading `-` is accepted so negative values can be
    /// reported as warnings rather than lost).
    static func decimalInteger(_ text: Substring) -> Int? {
        let u = text.utf8
        guard let first = u.first else { return nil }
        var negative = false
        var rest = u[...]
        if first == UInt8(ascii: "-") {
            negative = true
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var value = 0
        for c in rest {
            guard c >= 48, c <= 57 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(c - 48))
            if o1 || o2 { return nil }
            value = a
        }
        return negative ? -value : value
    }

    /// Whether `text` is written as a decimal-integer (optional `-`, then digits) yet is too large for
    /// ``decimalInteger(_:)`` to return.
    static func isOverflowingInteger(_ text: Substring) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (48...57).contains($0) } && decimalInteger(text) == nil
    }

    /// decimal-floating-point, signed; digits, one `.`, optional sign, optional exponent.
    static func signedFloat(_ text: Substring) -> Double? {
        var sawDigit = false
        for c in text.utf8 {
            switch c {
            case 48...57: sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit, let d = Double(text), d.isFinite else { return nil }
        return d
    }

    /// decimal-resolution `WxH`.
    static func resolution(_ text: Substring) -> Resolution? {
        guard let x = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }),
              let w = decimalInteger(text[..<x]), let h = decimalInteger(text[text.index(after: x)...]),
              w >= 0, h >= 0 else { return nil }
        return Resolution(width: w, height: h)
    }

    /// Formats a Double in its shortest round-trip form, without a trailing `.0` and without
    /// exponent notation for ordinary magnitudes.
    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let s = String(v)
        guard s.contains("e") else { return s }
        // Exponent form (very small or large values): the parser accepts it back.
        return s
    }
}
