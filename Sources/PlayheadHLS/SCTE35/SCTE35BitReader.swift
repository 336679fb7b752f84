/// Reads big-endian bit fields from a window of a splice_info_section, throwing on overrun.
///
/// Offsets in errors are absolute byte offsets in the section, so a nested reader (a command or a
/// descriptor) still reports positions a user can find in the hex dump.
struct SCTE35BitReader {
    /// The whole section.
    let bytes: [UInt8]
    /// Current position in bits from the start of `bytes`.
    private(set) var bitPosition: Int
    /// Exclusive end of this reader's window, in bytes.
    let endByte: Int

    /// A reader over `bytes[startByte..<endByte]`.
    init(_ bytes: [UInt8], startByte: Int = 0, endByte: Int? = nil) {
        self.bytes = bytes
        self.bitPosition = startByte * 8
        self.endByte = min(endByte ?? bytes.count, bytes.count)
    }

    /// The byte holding the next bit.
    var byteOffset: Int { bitPosition / 8 }

    /// Whole bytes left in the window (from the next byte boundary).
    var remainingBytes: Int { max(0, endByte - (bitPosition + 7) / 8) }

    /// True when the window has been read to its end.
    var isAtEnd: Bool { bitPosition >= endByte * 8 }

    /// Reads `count` (≤ 64) bits as an unsigned integer.
    mutating func bits(_ count: Int, _ field: String) throws(SCTE35Error) -> UInt64 {
        guard bitPosition + count <= endByte * 8 else {
            throw .truncated(field: field, byteOffset: byteOffset,
                             bitsNeeded: bitPosition + count - endByte * 8, bytesAvailable: endByte)
        }
        var value: UInt64 = 0
        for _ in 0..<count {
            let byte = bytes[bitPosition >> 3]
            let bit = (byte >> UInt8(7 - (bitPosition & 7))) & 1
            value = (value << 1) | UInt64(bit)
            bitPosition += 1
        }
        return value
    }

    /// Reads one bit as a flag.
    mutating func flag(_ field: String) throws(SCTE35Error) -> Bool {
        try bits(1, field) == 1
    }

    /// Reads 8 bits.
    mutating func uint8(_ field: String) throws(SCTE35Error) -> UInt8 {
        UInt8(try bits(8, field))
    }

    /// Reads 16 bits.
    mutating func uint16(_ field: String) throws(SCTE35Error) -> UInt16 {
        UInt16(try bits(16, field))
    }

    /// Reads 32 bits.
    mutating func uint32(_ field: String) throws(SCTE35Error) -> UInt32 {
        UInt32(try bits(32, field))
    }

    /// Skips `count` reserved bits.
    mutating func skip(_ count: Int, _ field: String = "reserved") throws(SCTE35Error) {
        _ = try bits(count, field)
    }

    /// Reads `count` whole bytes (the reader must be byte-aligned).
    mutating func byteArray(_ count: Int, _ field: String) throws(SCTE35Error) -> [UInt8] {
        let start = byteOffset
        guard count >= 0, start + count <= endByte else {
            throw .lengthBeyondData(field: field, byteOffset: start, declaredBytes: count,
                                    availableBytes: max(0, endByte - start))
        }
        bitPosition += count * 8
        return Array(bytes[start..<start + count])
    }

    /// Splits off a reader for the next `count` bytes and moves past them.
    mutating func window(_ count: Int, _ field: String) throws(SCTE35Error) -> SCTE35BitReader {
        let start = byteOffset
        guard count >= 0, start + count <= endByte else {
            throw .lengthBeyondData(field: field, byteOffset: start, declaredBytes: count,
                                    availableBytes: max(0, endByte - start))
        }
        bitPosition += count * 8
        return SCTE35BitReader(bytes, startByte: start, endByte: start + count)
    }
}
