/// Packed audio segments (RFC 8216bis section 3.4): ID3v2 tags, the first carrying the segment's start as a
/// PRIV frame `com.apple.streaming.transportStreamTimestamp` (a 33-bit MPEG-2 timestamp, 90 kHz), then
/// elementary audio frames (ADTS AAC, AC-3, E-AC-3, MP3), with more ID3 tags allowed between them.
enum PackedAudio {
    /// Whether an ID3v2 tag header ("ID3", version, flags, a syncsafe size) starts at `offset`.
    static func isID3(_ bytes: [UInt8], at offset: Int) -> Bool {
        offset + 10 <= bytes.count && bytes[offset] == 0x49 && bytes[offset + 1] == 0x44 && bytes[offset + 2] == 0x33
            && bytes[(offset + 6)..<(offset + 10)].allSatisfy { $0 < 0x80 }
    }

    /// The length of the ID3v2 tag at `offset` (header, body and footer), when one starts there.
    static func tagLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard isID3(bytes, at: offset) else { return nil }
        let size = bytes[(offset + 6)..<(offset + 10)].reduce(0) { $0 << 7 | Int($1) }
        return 10 + size + (bytes[offset + 5] & 0x10 != 0 ? 10 : 0)
    }

    /// The offset after the ID3v2 tags that follow one another from `start`.
    static func tagsEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var offset = start
        while let length = tagLength(bytes, at: offset) { offset += length }
        return offset
    }

    /// The packed-audio format whose frame sync word is at `offset`: ADTS (0xFFF, layer 0), AC-3 or E-AC-3
    /// (0x0B77, told apart by bsid), MPEG audio (11 sync bits, a layer other than 0); nil for anything else.
    static func frameFormat(_ bytes: [UInt8], at offset: Int) -> ContainerFormat? {
        guard offset >= 0, offset + 1 < bytes.count else { return nil }
        let first = bytes[offset], second = bytes[offset + 1]
        if first == 0xFF, second & 0xF6 == 0xF0 { return .adts }
        if first == 0x0B, second == 0x77 {
            guard offset + 5 < bytes.count else { return .ac3 }
            return bytes[offset + 5] >> 3 > 10 ? .eac3 : .ac3
        }
        if first == 0xFF, second & 0xE0 == 0xE0, second & 0x06 != 0 { return .mp3 }
        return nil
    }

    /// The segment's start in 90 kHz units: the `com.apple.streaming.transportStreamTimestamp` PRIV frame of
    /// the ID3 tag it begins with (ID3v2.3 or 2.4); nil when there is none.
    static func timestamp(_ bytes: [UInt8]) -> Int64? {
        guard let length = tagLength(bytes, at: 0), length <= bytes.count else { return nil }
        let version = bytes[3]
        let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        var frame = 10
        if bytes[5] & 0x40 != 0, frame + 4 <= length {
            // An extended header: skip it (its size is syncsafe in 2.4, plain and excluding itself in 2.3).
            let size = bytes[frame..<(frame + 4)].reduce(0) { $0 << (version >= 4 ? 7 : 8) | Int($1) }
            frame += version >= 4 ? size : size + 4
        }
        while frame + 10 <= length {
            let id = bytes[frame..<(frame + 4)]
            guard id.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { return nil }
            let size = bytes[(frame + 4)..<(frame + 8)].reduce(0) { $0 << (version >= 4 ? 7 : 8) | Int($1) }
            let body = frame + 10
            guard size >= 0, body + size <= length else { return nil }
            if id.elementsEqual("PRIV".utf8), size == owner.count + 8, bytes[body..<(body + owner.count)].elementsEqual(owner) {
                let value = bytes[(body + owner.count)..<(body + size)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                return value & (1 << 33 - 1)
            }
            frame = body + size
        }
        return nil
    }

    /// The length and header length of the ADTS frame at `offset` (7 bytes, 9 with a CRC).
    static func adtsFrame(_ bytes: [UInt8], at offset: Int) -> (length: Int, header: Int)? {
        guard offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0 else { return nil }
        let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
        return (length, bytes[offset + 1] & 0x01 == 1 ? 7 : 9)
    }

    /// The length of the AC-3 or E-AC-3 sync frame at `offset` (no header is skipped for these).
    static func ac3Frame(_ bytes: [UInt8], at offset: Int) -> (length: Int, header: Int)? {
        guard offset + 6 <= bytes.count, bytes[offset] == 0x0B, bytes[offset + 1] == 0x77 else { return nil }
        let bsid = bytes[offset + 5] >> 3
        if bsid > 10 {
            // E-AC-3: frmsiz, 11 bits, in 16-bit words minus one.
            let words = (Int(bytes[offset + 2] & 0x07) << 8 | Int(bytes[offset + 3])) + 1
            return (words * 2, 0)
        }
        let fscod = Int(bytes[offset + 4] >> 6), code = Int(bytes[offset + 4] & 0x3F)
        guard fscod < 3, code < 38 else { return nil }
        let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640][code / 2]
        // 16-bit words per 1536-sample frame: at 48 kHz 2 per kbit/s, at 32 kHz 3, at 44.1 kHz rounded down
        // plus one for an odd code.
        let words = switch fscod {
        case 0: kbps * 2
        case 1: kbps * 1_536_000 / (44_100 * 16) + (code & 1)
        default: kbps * 3
        }
        return (words * 2, 0)
    }

    /// `bytes` without the ID3 tags that stand between its frames (the leading ones stay: the demuxer reads
    /// them), as FFmpeg's HLS demuxer takes them out before its audio demuxer sees the data: a raw AC-3
    /// demuxer counted a tag as a frame, and every later frame came a frame's time late. Only frames whose
    /// length their header gives (ADTS, AC-3, E-AC-3) are walked; other bytes are passed one at a time.
    static func withoutInnerTags(_ bytes: [UInt8]) -> [UInt8] {
        let start = tagsEnd(bytes, from: 0)
        guard let format = frameFormat(bytes, at: start), format != .mp3 else { return bytes }
        var output: [UInt8] = []
        var offset = start
        var copiedTo = 0
        while offset + 7 <= bytes.count {
            if let tag = tagLength(bytes, at: offset) {
                if output.isEmpty { output.reserveCapacity(bytes.count) }
                output += bytes[copiedTo..<offset]
                offset = min(offset + tag, bytes.count)
                copiedTo = offset
                continue
            }
            let frame = format == .adts ? adtsFrame(bytes, at: offset) : ac3Frame(bytes, at: offset)
            offset += max(frame?.length ?? 1, 1)
        }
        guard copiedTo > 0 else { return bytes }
        return output + bytes[min(copiedTo, bytes.count)...]
    }

    /// Where the frames begin: after the ID3 tags in front, or after a damaged one (``frameAfterDamagedTag(_:)``).
    static func framesStart(_ bytes: [UInt8]) -> Int { frameAfterDamagedTag(bytes) ?? tagsEnd(bytes, from: 0) }

    /// Where the first audio frame's sync word is, within the first 4 KB, when `bytes` begin with "ID3" but not
    /// with a tag header that reads (its size bytes are not syncsafe, or it is cut short); nil otherwise.
    static func frameAfterDamagedTag(_ bytes: [UInt8]) -> Int? {
        guard bytes.starts(with: Array("ID3".utf8)), !isID3(bytes, at: 0) else { return nil }
        // A frame whose length leads to another of the same codec (or to the end): a lone sync-like pair of bytes
        // (the damaged size's FF FF) is not one.
        return (3..<min(bytes.count, 4096)).first { offset in
            guard let format = frameFormat(bytes, at: offset), format != .mp3,
                  let frame = format == .adts ? adtsFrame(bytes, at: offset) : ac3Frame(bytes, at: offset), frame.length >= 7 else { return false }
            let next = offset + frame.length
            return next == bytes.count || frameFormat(bytes, at: next) == format
        }
    }
}
