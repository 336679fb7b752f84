/// The elementary streams SAMPLE-AES protects in an MPEG-TS segment, found through its PAT and PMT and
/// rewritten in place one PES packet at a time (the PES payload gathered from its TS packets, transformed to
/// the same length, and put back into the same bytes). Only whole 188-byte packets are read; a PAT or PMT
/// section is read from the packet that starts it.
enum TransportStreamSamples {
    /// The clear stream type of each SAMPLE-AES one (Apple's private types for H.264, AAC, AC-3, E-AC-3).
    static let clearTypes: [UInt8: UInt8] = [0xDB: 0x1B, 0xCF: 0x0F, 0xC1: 0x81, 0xC2: 0x87]

    /// The codec of a PMT stream type, when it is one SAMPLE-AES protects.
    static func codec(streamType: UInt8) -> SampleCodec? {
        switch streamType {
        case 0x1B, 0xDB: .h264
        case 0x0F, 0xCF: .aac
        case 0x81, 0xC1, 0x87, 0xC2: .ac3
        default: nil
        }
    }

    /// Hands `transform` the payload of every PES packet of a protected stream (its codec, the bytes after the
    /// PES header), and puts back what it leaves when that has the same length; the PMT's SAMPLE-AES stream
    /// types become the clear ones (its CRC written again).
    static func rewrite(_ bytes: inout [UInt8], _ transform: (SampleCodec, inout [UInt8]) -> Void) {
        var streams: [Int: SampleCodec] = [:]
        var pieces: [Int: [Range<Int>]] = [:]
        // Run after the walk: it needs the bytes the walk holds.
        func flush(_ pid: Int) {
            guard let ranges = pieces.removeValue(forKey: pid), let codec = streams[pid] else { return }
            var pes: [UInt8] = []
            for range in ranges { pes += bytes[range] }
            guard pes.count >= 9, pes[0] == 0, pes[1] == 0, pes[2] == 1 else { return }
            let headerEnd = 9 + Int(pes[8])
            guard headerEnd <= pes.count else { return }
            var payload = Array(pes[headerEnd...])
            transform(codec, &payload)
            guard payload.count == pes.count - headerEnd else { return }
            pes.replaceSubrange(headerEnd..., with: payload)
            var offset = 0
            for range in ranges {
                bytes.replaceSubrange(range, with: pes[offset..<offset + range.count])
                offset += range.count
            }
        }
        let found = walk(&bytes, streamTypes: clearTypes)
        streams = found.streams
        for (pid, start, range) in found.payloads where streams[pid] != nil {
            if start {
                flush(pid)
                pieces[pid] = [range]
            } else {
                pieces[pid]?.append(range)
            }
        }
        for pid in Array(pieces.keys) { flush(pid) }
    }

    /// Walks the TS packets of `bytes`: reads the PAT and PMTs (changing the stream types `streamTypes` maps,
    /// and the section's CRC). Returns each protected stream's PID with its codec, and every other packet's
    /// PID, whether it starts a PES packet, and where its payload lies.
    @discardableResult
    static func walk(_ bytes: inout [UInt8], streamTypes: [UInt8: UInt8])
        -> (streams: [Int: SampleCodec], payloads: [(pid: Int, unitStart: Bool, range: Range<Int>)]) {
        var streams: [Int: SampleCodec] = [:]
        var payloads: [(pid: Int, unitStart: Bool, range: Range<Int>)] = []
        var pmtPIDs: Set<Int> = []
        var packet = 0
        while packet + 188 <= bytes.count {
            defer { packet += 188 }
            guard bytes[packet] == 0x47 else { continue }
            let pid = Int(bytes[packet + 1] & 0x1F) << 8 | Int(bytes[packet + 2])
            let unitStart = bytes[packet + 1] & 0x40 != 0
            let control = bytes[packet + 3] >> 4 & 0x03
            var start = packet + 4
            if control & 0x02 != 0 { start += 1 + Int(bytes[packet + 4]) }
            let end = packet + 188
            guard control & 0x01 != 0, start < end else { continue }
            if pid == 0 || pmtPIDs.contains(pid) {
                guard unitStart else { continue }
                let section = start + 1 + Int(bytes[start])
                guard section + 3 <= end else { continue }
                let sectionEnd = section + 3 + (Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2]))
                guard sectionEnd <= end, sectionEnd - section >= 16 else { continue }
                if pid == 0, bytes[section] == 0x00 {
                    for entry in stride(from: section + 8, to: sectionEnd - 4 - 3, by: 4)
                    where (Int(bytes[entry]) << 8 | Int(bytes[entry + 1])) != 0 {
                        pmtPIDs.insert(Int(bytes[entry + 2] & 0x1F) << 8 | Int(bytes[entry + 3]))
                    }
                } else if bytes[section] == 0x02 {
                    var changed = false
                    var entry = section + 12 + (Int(bytes[section + 10] & 0x0F) << 8 | Int(bytes[section + 11]))
                    while entry + 5 <= sectionEnd - 4 {
                        let type = bytes[entry]
                        let streamPID = Int(bytes[entry + 1] & 0x1F) << 8 | Int(bytes[entry + 2])
                        if let codec = codec(streamType: type) { streams[streamPID] = codec }
                        if let replacement = streamTypes[type] {
                            bytes[entry] = replacement
                            changed = true
                        }
                        entry += 5 + (Int(bytes[entry + 3] & 0x0F) << 8 | Int(bytes[entry + 4]))
                    }
                    if changed {
                        let crc = crc32(bytes[section..<(sectionEnd - 4)])
                        for index in 0..<4 { bytes[sectionEnd - 4 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
                    }
                }
                continue
            }
            payloads.append((pid, unitStart, start..<end))
        }
        return (streams, payloads)
    }

    /// The MPEG-2 CRC-32 of a PSI section (polynomial 0x04C11DB7, initial value all ones, not reflected).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

extension SampleAES {
    /// Changes a TS segment's clear H.264, AAC, AC-3 and E-AC-3 stream types to the SAMPLE-AES ones Apple's
    /// packagers write (0xDB, 0xCF, 0xC1, 0xC2), for test streams.
    public static func markProtectedStreamTypes(_ segment: inout [UInt8]) {
        let protected = Dictionary(uniqueKeysWithValues: TransportStreamSamples.clearTypes.map { ($0.value, $0.key) })
        TransportStreamSamples.walk(&segment, streamTypes: protected)
    }
}
