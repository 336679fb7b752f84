/// Hexadecimal sequences (`0x…`) as used by IV, SCTE35-* and similar attributes.
public enum HexBytes {
    /// Decodes `0x`/`0X` followed by hex digits; an odd digit count is left-padded with a zero.
    /// - Parameter text: the hexadecimal sequence including its prefix.
    /// - Returns: the bytes, or nil when the prefix or a digit is wrong or no digits follow.
    public static func decode(_ text: Substring) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count > 2, utf8.first == UInt8(ascii: "0") else { return nil }
        let x = utf8[utf8.index(after: utf8.startIndex)]
        guard x == UInt8(ascii: "x") || x == UInt8(ascii: "X") else { return nil }
        let digits = utf8.dropFirst(2)
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count + 1) / 2)
        var pending: UInt8? = digits.count % 2 == 1 ? 0 : nil
        for c in digits {
            guard let v = nibble(c) else { return nil }
            if let high = pending {
                bytes.append(high << 4 | v)
                pending = nil
            } else {
                pending = v
            }
        }
        return bytes
    }

    /// Encodes bytes as `0x` followed by upper-case hex digits.
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = [UInt8(ascii: "0"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
