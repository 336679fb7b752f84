/// CRC-32/MPEG-2: polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final XOR.
enum SCTE35CRC32 {
    /// The 256-entry table for byte-at-a-time computation.
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 {
            crc = (crc & 0x8000_0000) != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        return crc
    }

    /// The CRC of `bytes[range]`.
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for index in range {
            crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(bytes[index])) & 0xFF)]
        }
        return crc
    }
}
