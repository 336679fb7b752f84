/// Why a SCTE-35 cue could not be decoded.
///
/// Every case names where decoding stopped: a character offset in the text for input errors, or a
/// byte offset into the splice_info_section (0 = `table_id`) and the field being read for section
/// errors. A bad CRC is not an error: it is reported by ``SpliceInfoSection/crcValid``.
public enum SCTE35Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text held no characters other than whitespace.
    case emptyInput
    /// A character that is not a hexadecimal digit, at a 0-based offset in the whitespace-free text.
    case invalidHex(characterOffset: Int, character: Character)
    /// Hexadecimal text with an odd number of digits.
    case oddHexDigitCount(digitCount: Int)
    /// Base64 text that cannot be decoded; the offset counts characters of the whitespace-free text.
    case invalidBase64(characterOffset: Int, reason: String)
    /// The first byte is not 0xFC, the splice_info_section table id.
    case badTableId(found: UInt8)
    /// The data ended inside `field`, which starts at `byteOffset` and needs `bitsNeeded` more bits.
    case truncated(field: String, byteOffset: Int, bitsNeeded: Int, bytesAvailable: Int)
    /// A length field declares more bytes than its enclosing structure holds.
    case lengthBeyondData(field: String, byteOffset: Int, declaredBytes: Int, availableBytes: Int)
    /// splice_command_length is the legacy 0xFFF and the command's end cannot be found by parsing it.
    case unknownCommandLength(commandType: UInt8, byteOffset: Int)
    /// A field holds a value the syntax does not allow (for example a loop that overruns its command).
    case invalidValue(field: String, byteOffset: Int, reason: String)

    /// The byte offset in the section (or character offset in the text) where decoding stopped.
    public var offset: Int? {
        switch self {
        case .emptyInput, .oddHexDigitCount: return nil
        case .invalidHex(let offset, _), .invalidBase64(let offset, _): return offset
        case .badTableId: return 0
        case .truncated(_, let offset, _, _), .lengthBeyondData(_, let offset, _, _),
             .unknownCommandLength(_, let offset), .invalidValue(_, let offset, _):
            return offset
        }
    }

    /// The syntax field being read when decoding stopped, with the spec's spelling.
    public var field: String? {
        switch self {
        case .emptyInput, .invalidHex, .oddHexDigitCount, .invalidBase64: return nil
        case .badTableId: return "table_id"
        case .unknownCommandLength: return "splice_command_length"
        case .truncated(let field, _, _, _), .lengthBeyondData(let field, _, _, _), .invalidValue(let field, _, _):
            return field
        }
    }

    /// A one-line message naming the offset and field.
    public var description: String {
        switch self {
        case .emptyInput:
            return "empty input: expected a base64 or hexadecimal splice_info_section"
        case .invalidHex(let offset, let character):
            return "bad hex: character \(String(reflecting: character)) at offset \(offset) is not a hexadecimal digit"
        case .oddHexDigitCount(let count):
            return "bad hex: \(count) digits, expected an even number"
        case .invalidBase64(let offset, let reason):
            return "bad base64 at character offset \(offset): \(reason)"
        case .badTableId(let found):
            return "bad table_id at byte 0: 0x\(hex2(found)), expected 0xFC"
        case .truncated(let field, let offset, let bits, let available):
            return "truncated at byte \(offset) reading \(field): needs \(bits) more bits, the data has \(available) bytes"
        case .lengthBeyondData(let field, let offset, let declared, let available):
            return "\(field) at byte \(offset) declares \(declared) bytes but only \(available) remain"
        case .unknownCommandLength(let type, let offset):
            return "splice_command_length at byte \(offset) is the legacy 0xFFF and command type 0x\(hex2(type)) cannot be parsed to find its end"
        case .invalidValue(let field, let offset, let reason):
            return "invalid \(field) at byte \(offset): \(reason)"
        }
    }
}

/// Two upper-case hex digits.
func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// Lower-case hex of `bytes`, two digits per byte, no prefix.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return out
}

/// The bytes spelled by hex digits (no prefix, even count), or nil; "" gives [].
func bytesFromHex(_ text: String) -> [UInt8]? {
    guard !text.isEmpty else { return [] }
    return try? SCTE35Input.bytes(from: "0x" + text).bytes
}
