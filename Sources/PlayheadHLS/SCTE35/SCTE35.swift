/// Entry points of the SCTE-35 decoder.
///
/// ```swift
/// let section = try SCTE35.decode("/DAlAAAAAAAAAP/wFAUAAAPof+//SVqZrP4Ae5igAAEBAQAAQcfnVA==")
/// if section.isOutOfNetworkStart { print(section.breakDurationSeconds ?? 0) }
/// ```
public enum SCTE35 {
    /// Decodes a cue given as base64 or hexadecimal text (with or without `0x`; whitespace ignored).
    ///
    /// - Parameter text: the cue, as found in `#EXT-X-DATERANGE:SCTE35-OUT=0x…` or `#EXT-OATCLS-SCTE35:…`.
    /// - Returns: the decoded section; check ``SpliceInfoSection/crcValid``.
    /// - Throws: ``SCTE35Error`` naming the character or byte offset and field where decoding stopped.
    public static func decode(_ text: String) throws(SCTE35Error) -> SpliceInfoSection {
        try SpliceInfoSection.parse(try SCTE35Input.bytes(from: text).bytes)
    }

    /// Decodes a section from raw bytes starting at table_id; bytes after the section are ignored.
    ///
    /// - Parameter bytes: the splice_info_section.
    /// - Returns: the decoded section; check ``SpliceInfoSection/crcValid``.
    /// - Throws: ``SCTE35Error`` naming the byte offset and field where decoding stopped.
    public static func decode(bytes: [UInt8]) throws(SCTE35Error) -> SpliceInfoSection {
        try SpliceInfoSection.parse(bytes)
    }

    /// The bytes a cue text stands for (base64 or hex, auto-detected), without decoding the section.
    ///
    /// - Parameter text: base64 or hexadecimal text.
    /// - Throws: ``SCTE35Error/invalidHex(characterOffset:character:)`` and the other input errors.
    public static func bytes(from text: String) throws(SCTE35Error) -> [UInt8] {
        try SCTE35Input.bytes(from: text).bytes
    }

    /// The CRC-32/MPEG-2 (polynomial 0x04C11DB7, no reflection) of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        SCTE35CRC32.checksum(bytes, 0..<bytes.count)
    }
}
