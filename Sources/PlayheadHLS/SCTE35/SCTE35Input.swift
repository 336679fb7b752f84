/// Turns cue text (base64 or hexadecimal) into bytes.
///
/// Whitespace anywhere is ignored. Text starting with `0x`/`0X`, or made only of hex digits, is
/// read as hexadecimal; anything else as base64 (standard or URL-safe alphabet, padding optional).
/// A base64 splice_info_section starts with `/`, which is not a hex digit, so the two cannot be
/// confused for well-formed cues.
enum SCTE35Input {
    /// The encoding a text was read with.
    enum Encoding: String, Sendable {
        /// Hexadecimal digits, optionally after `0x`.
        case hex
        /// RFC 4648 base64.
        case base64
    }

    /// Decodes `text`, reporting which encoding was detected.
    static func bytes(from text: String) throws(SCTE35Error) -> (bytes: [UInt8], encoding: Encoding) {
        let characters = Array(text.unicodeScalars.filter { !($0.properties.isWhitespace) })
        guard !characters.isEmpty else { throw .emptyInput }
        if characters.count >= 2, characters[0] == "0", characters[1] == "x" || characters[1] == "X" {
            return (try hex(Array(characters.dropFirst(2)), offsetBase: 2), .hex)
        }
        if characters.allSatisfy({ hexValue($0) != nil }) {
            return (try hex(characters, offsetBase: 0), .hex)
        }
        return (try base64(characters), .base64)
    }

    /// The value of a hex digit, or nil.
    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: return UInt8(scalar.value - 0x30)
        case 0x41...0x46: return UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: return UInt8(scalar.value - 0x61 + 10)
        default: return nil
        }
    }

    /// Decodes hex digits; `offsetBase` is the count of characters before them (the `0x`).
    private static func hex(_ digits: [Unicode.Scalar], offsetBase: Int) throws(SCTE35Error) -> [UInt8] {
        guard !digits.isEmpty else { throw .emptyInput }
        var values: [UInt8] = []
        values.reserveCapacity(digits.count)
        for (index, scalar) in digits.enumerated() {
            guard let value = hexValue(scalar) else {
                throw .invalidHex(characterOffset: offsetBase + index, character: Character(scalar))
            }
            values.append(value)
        }
        guard values.count % 2 == 0 else { throw .oddHexDigitCount(digitCount: values.count) }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }

    /// The 6-bit value of a base64 character (either alphabet), or nil.
    private static func base64Value(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x41...0x5A: return scalar.value - 0x41
        case 0x61...0x7A: return scalar.value - 0x61 + 26
        case 0x30...0x39: return scalar.value - 0x30 + 52
        case 0x2B, 0x2D: return 62  // + or -
        case 0x2F, 0x5F: return 63  // / or _
        default: return nil
        }
    }

    /// Decodes base64 characters; `=` padding is allowed only at the end.
    private static func base64(_ characters: [Unicode.Scalar]) throws(SCTE35Error) -> [UInt8] {
        var end = characters.count
        while end > 0, characters[end - 1] == "=" { end -= 1 }
        guard characters.count - end <= 2 else {
            throw .invalidBase64(characterOffset: end, reason: "more than two '=' padding characters")
        }
        var output: [UInt8] = []
        output.reserveCapacity(end * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for index in 0..<end {
            guard let value = base64Value(characters[index]) else {
                let reason = characters[index] == "="
                    ? "'=' padding before the end"
                    : "character \(String(reflecting: Character(characters[index]))) is not in the base64 alphabet"
                throw .invalidBase64(characterOffset: index, reason: reason)
            }
            accumulator = (accumulator << 6) | value
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8((accumulator >> UInt32(bitCount)) & 0xFF))
            }
        }
        guard end % 4 != 1 else {
            throw .invalidBase64(characterOffset: end - 1, reason: "a single character cannot end a base64 group")
        }
        return output
    }
}
