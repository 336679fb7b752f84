import PlayheadHLS

/// Writes big-endian bit fields, for hand-built sections.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// Appends the low `width` bits of `value`.
    mutating func put(_ value: UInt64, _ width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if (value >> UInt64(shift)) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(0x80 >> (bitCount % 8)) }
            bitCount += 1
        }
    }

    /// Appends a flag.
    mutating func flag(_ value: Bool) { put(value ? 1 : 0, 1) }

    /// Appends whole bytes.
    mutating func append(_ more: [UInt8]) { for byte in more { put(UInt64(byte), 8) } }
}

/// A bit-at-a-time CRC-32/MPEG-2, independent of the decoder's table version.
func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        for bit in 0..<8 {
            let inBit = (UInt32(byte) >> UInt32(7 - bit)) & 1
            let top = crc >> 31
            crc <<= 1
            if top ^ inBit == 1 { crc ^= 0x04C1_1DB7 }
        }
    }
    return crc
}

/// Builds a splice_info_section around a command and a descriptor loop, with a correct CRC.
///
/// - Parameters:
///   - legacyLength: write splice_command_length as 0xFFF instead of the command's size.
///   - encrypted: set encrypted_packet with algorithm 1 and cw_index 7 (the bytes stay clear).
func buildSection(commandType: UInt8, command: [UInt8], descriptors: [UInt8] = [], ptsAdjustmentTicks: UInt64 = 0,
                  tier: UInt64 = 0xFFF, legacyLength: Bool = false, encrypted: Bool = false) -> [UInt8] {
    let sectionLength = 11 + command.count + 2 + descriptors.count + 4
    var w = BitWriter()
    w.put(0xFC, 8)
    w.flag(false); w.flag(false); w.put(3, 2)
    w.put(UInt64(sectionLength), 12)
    w.put(0, 8)
    w.flag(encrypted); w.put(encrypted ? 1 : 0, 6)
    w.put(ptsAdjustmentTicks, 33)
    w.put(encrypted ? 7 : 0, 8)
    w.put(tier, 12)
    w.put(legacyLength ? 0xFFF : UInt64(command.count), 12)
    w.put(UInt64(commandType), 8)
    w.append(command)
    w.put(UInt64(descriptors.count), 16)
    w.append(descriptors)
    let crc = referenceCRC32(w.bytes)
    w.put(UInt64(crc), 32)
    return w.bytes
}

/// splice_time() bytes: 5 with a PTS, 1 without.
func spliceTimeBytes(_ pts: UInt64?) -> [UInt8] {
    var w = BitWriter()
    if let pts { w.flag(true); w.put(0x3F, 6); w.put(pts, 33) } else { w.flag(false); w.put(0x7F, 7) }
    return w.bytes
}

/// A descriptor: tag, length, identifier, body.
func descriptorBytes(tag: UInt8, identifier: [UInt8] = Array("CUEI".utf8), body: [UInt8]) -> [UInt8] {
    [tag, UInt8(4 + body.count)] + identifier + body
}

/// A segmentation_descriptor body (program-wide, unrestricted) with the given UPID and type.
func segmentationBody(eventId: UInt32 = 0x1234_5678, durationTicks: UInt64? = nil, upidType: UInt8, upid: [UInt8],
                      typeId: UInt8, segmentNum: UInt8 = 1, segmentsExpected: UInt8 = 1, subSegments: (UInt8, UInt8)? = nil,
                      restricted: Bool = false) -> [UInt8] {
    var w = BitWriter()
    w.put(UInt64(eventId), 32)
    w.flag(false); w.flag(true); w.put(0x3F, 6)
    w.flag(true); w.flag(durationTicks != nil); w.flag(!restricted)
    if restricted { w.flag(true); w.flag(false); w.flag(true); w.put(2, 2) } else { w.put(0x1F, 5) }
    if let durationTicks { w.put(durationTicks, 40) }
    w.put(UInt64(upidType), 8); w.put(UInt64(upid.count), 8); w.append(upid)
    w.put(UInt64(typeId), 8); w.put(UInt64(segmentNum), 8); w.put(UInt64(segmentsExpected), 8)
    if let (num, expected) = subSegments { w.put(UInt64(num), 8); w.put(UInt64(expected), 8) }
    return w.bytes
}

/// Decodes bytes, failing the test with the error's message instead of throwing an untyped error.
func decoded(_ bytes: [UInt8]) throws -> SpliceInfoSection {
    try SCTE35.decode(bytes: bytes)
}
