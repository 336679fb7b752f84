/// Adds a timed-ID3 elementary stream to an MPEG-TS segment, as HLS origins carry timed metadata (the
/// ffmpeg CLI cannot write one): the PMT gains a stream of type 0x15 with a metadata descriptor naming
/// `ID3 `, and one PES packet (private stream 1, a PTS) with the tag follows the PMT.
public enum TimedID3Injector {
    /// The PID the ID3 stream is given.
    public static let pid = 0x0102

    /// An ID3v2.4 tag with one TXXX frame (UTF-8): `description` → `value`.
    public static func tag(description: String, value: String) -> [UInt8] {
        let body: [UInt8] = [3] + Array(description.utf8) + [0] + Array(value.utf8)
        let frame: [UInt8] = Array("TXXX".utf8) + syncsafe(body.count) + [0, 0] + body
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(frame.count) + frame
    }

    /// `segment` with `id3` added at the PTS of its first video PES (or `pts` when given).
    public static func inject(_ id3: [UInt8], into segment: [UInt8], pts: UInt64? = nil) -> [UInt8]? {
        guard segment.count % 188 == 0, id3.count <= 150 else { return nil }
        var packets = stride(from: 0, to: segment.count, by: 188).map { Array(segment[$0..<$0 + 188]) }
        guard let pmtPID = programMapPID(packets),
              let pmtIndex = packets.firstIndex(where: { packetPID($0) == pmtPID && $0[1] & 0x40 != 0 }),
              let patched = patchPMT(packets[pmtIndex]),
              let time = pts ?? firstPTS(packets) else { return nil }
        packets[pmtIndex] = patched
        packets.insert(pesPacket(id3, pts: time), at: pmtIndex + 1)
        return packets.flatMap { $0 }
    }

    static func packetPID(_ packet: [UInt8]) -> Int { Int(packet[1] & 0x1F) << 8 | Int(packet[2]) }

    static func payloadStart(_ packet: [UInt8]) -> Int {
        packet[3] & 0x20 != 0 ? 5 + Int(packet[4]) : 4
    }

    static func programMapPID(_ packets: [[UInt8]]) -> Int? {
        guard let pat = packets.first(where: { packetPID($0) == 0 && $0[1] & 0x40 != 0 }) else { return nil }
        let section = payloadStart(pat) + 1 + Int(pat[payloadStart(pat)])
        // table_id(1) section_length(2) ts_id(2) version(1) numbers(2), then program(2) PID(2).
        let entry = section + 8
        return Int(pat[entry + 2] & 0x1F) << 8 | Int(pat[entry + 3])
    }

    static func patchPMT(_ packet: [UInt8]) -> [UInt8]? {
        let start = payloadStart(packet)
        let sectionStart = start + 1 + Int(packet[start])
        let length = Int(packet[sectionStart + 1] & 0x0F) << 8 | Int(packet[sectionStart + 2])
        var section = Array(packet[sectionStart..<sectionStart + 3 + length - 4])  // without the CRC
        let descriptor: [UInt8] = [0x26, 13, 0xFF, 0xFF] + Array("ID3 ".utf8) + [0xFF] + Array("ID3 ".utf8) + [0x00, 0x0F]
        section += [0x15, UInt8(0xE0 | pid >> 8), UInt8(pid & 0xFF), UInt8(0xF0 | descriptor.count >> 8), UInt8(descriptor.count & 0xFF)] + descriptor
        let newLength = section.count - 3 + 4
        section[1] = (section[1] & 0xF0) | UInt8(newLength >> 8)
        section[2] = UInt8(newLength & 0xFF)
        let crc = crc32(section)
        section += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        var out = Array(packet[..<sectionStart]) + section
        guard out.count <= 188 else { return nil }
        out += [UInt8](repeating: 0xFF, count: 188 - out.count)
        return out
    }

    static func firstPTS(_ packets: [[UInt8]]) -> UInt64? {
        for packet in packets where packet[1] & 0x40 != 0 && packetPID(packet) != 0 {
            let start = payloadStart(packet)
            guard start + 14 <= 188, packet[start] == 0, packet[start + 1] == 0, packet[start + 2] == 1,
                  packet[start + 3] >= 0xC0, packet[start + 7] & 0x80 != 0 else { continue }
            let b = packet[(start + 9)..<(start + 14)].map(UInt64.init)
            return (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
        }
        return nil
    }

    static func pesPacket(_ payload: [UInt8], pts: UInt64) -> [UInt8] {
        let ptsBytes: [UInt8] = [UInt8(0x21 | (pts >> 29 & 0x0E)), UInt8(pts >> 22 & 0xFF), UInt8(pts >> 14 & 0xFE | 1),
                                 UInt8(pts >> 7 & 0xFF), UInt8(pts << 1 & 0xFE | 1)]
        let pesLength = 3 + ptsBytes.count + payload.count
        let pes: [UInt8] = [0, 0, 1, 0xBD, UInt8(pesLength >> 8), UInt8(pesLength & 0xFF), 0x84, 0x80, 5] + ptsBytes + payload
        let adaptation = 188 - 4 - pes.count  // its length byte, a flags byte, stuffing
        let header: [UInt8] = [0x47, UInt8(0x40 | pid >> 8), UInt8(pid & 0xFF), 0x30]
        let field: [UInt8] = [UInt8(adaptation - 1)] + (adaptation > 1 ? [0x00] + [UInt8](repeating: 0xFF, count: adaptation - 2) : [])
        return header + field + pes
    }

    static func syncsafe(_ n: Int) -> [UInt8] { [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] }

    /// CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial all ones, no reflection).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
