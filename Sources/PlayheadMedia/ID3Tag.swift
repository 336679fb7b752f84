/// An ID3v2 tag (versions 2.2, 2.3 and 2.4) as carried by timed-ID3 metadata in MPEG-TS (HLS timed
/// metadata): its frames, each with its value as text. Pure parsing; nothing here throws.
public struct ID3Tag: Sendable, Equatable {
    /// One frame of the tag.
    public struct Frame: Sendable, Equatable {
        /// The frame id (`TIT2`, `TXXX`, `PRIV`, …).
        public var id: String
        /// The key the frame is reported under: the id, with the description or owner after a colon for
        /// `TXXX`, `WXXX`, `COMM` and `PRIV` (`TXXX:tag`, `PRIV:com.apple.streaming.transportStreamTimestamp`).
        public var key: String
        /// The value as text: the text of text and URL frames; for `PRIV`, the data in hex, or for Apple's
        /// transport-stream timestamp the 33-bit PTS in decimal; for other frames, their size (`<12 bytes>`).
        public var value: String
    }

    /// The version: 2, 3 or 4.
    public var version: Int
    /// The frames in tag order.
    public var frames: [Frame]

    /// Apple's PRIV owner whose data is the MPEG-2 timestamp of the segment's first sample.
    public static let transportStreamTimestampOwner = "com.apple.streaming.transportStreamTimestamp"

    /// The tag of a timed-ID3 packet as FFmpeg's MPEG-TS demuxer hands it out. FFmpeg 5.1 takes the first
    /// five bytes of every stream-type 0x15 PES payload for an ISO 13818-1 metadata AU cell header and
    /// drops them; HLS origins (Apple's timed metadata) put the ID3 tag there directly, so what is left
    /// starts with the header's flags and size. When the size matches what follows, the header is put
    /// back (`ID3`, version 4, or 3 when only that reading parses to the end); a packet that starts with
    /// `ID3` is returned as it is; anything else gives nil.
    public static func tagBytes(ofTimedID3Packet bytes: [UInt8]) -> [UInt8]? {
        if bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 { return bytes }
        guard bytes.count >= 5, bytes[1..<5].allSatisfy({ $0 < 0x80 }), syncsafe(bytes[1..<5]) == bytes.count - 5 else { return nil }
        for version: UInt8 in [4, 3] {
            let candidate: [UInt8] = [0x49, 0x44, 0x33, version, 0] + bytes
            if let tag = ID3Tag(candidate), tag.parsedToEnd { return candidate }
        }
        return [0x49, 0x44, 0x33, 4, 0] + bytes
    }

    /// Whether the frames read ran to the tag's end (or its padding).
    var parsedToEnd = false

    /// Parses `bytes`, which start with the `ID3` header; nil when they do not hold a whole tag header.
    /// Frames past a malformed one are left out.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33, (2...4).contains(Int(bytes[3])) else { return nil }
        version = Int(bytes[3])
        let flags = bytes[5]
        let size = Self.syncsafe(bytes[6..<10])
        let end = min(bytes.count, 10 + size)
        var offset = 10
        if flags & 0x40 != 0, version >= 3, end >= offset + 4 {
            // Extended header: its size is syncsafe and counts itself in 2.4, not in 2.3.
            let extended = version == 4 ? Self.syncsafe(bytes[offset..<offset + 4]) : Self.bigEndian(bytes[offset..<offset + 4]) + 4
            offset += extended
        }
        frames = []
        let idLength = version == 2 ? 3 : 4, headerLength = version == 2 ? 6 : 10
        while offset + headerLength <= end, bytes[offset] != 0 {
            let idBytes = bytes[offset..<offset + idLength]
            guard idBytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { break }
            let id = String(decoding: idBytes, as: UTF8.self)
            let sizeBytes = version == 2 ? bytes[offset + 3..<offset + 6] : bytes[offset + 4..<offset + 8]
            let frameSize = version == 4 ? Self.syncsafe(sizeBytes) : Self.bigEndian(sizeBytes)
            let start = offset + headerLength
            guard frameSize > 0, start + frameSize <= end else { break }
            frames.append(Self.frame(id: id, body: Array(bytes[start..<start + frameSize])))
            offset = start + frameSize
        }
        parsedToEnd = offset >= end || bytes[offset..<end].allSatisfy { $0 == 0 }
    }

    /// The frames as key-value pairs; a key met again gets `#2`, `#3`, … after it.
    public var keyValues: [String: String] {
        var result: [String: String] = [:]
        for frame in frames {
            var key = frame.key, n = 1
            while result[key] != nil { n += 1; key = "\(frame.key)#\(n)" }
            result[key] = frame.value
        }
        return result
    }

    private static func frame(id: String, body: [UInt8]) -> Frame {
        switch id.first {
        case "T" where id == "TXXX" || id == "TXX":
            guard let encoding = body.first else { return Frame(id: id, key: id, value: "") }
            let (description, rest) = splitString(Array(body.dropFirst()), encoding: encoding)
            return Frame(id: id, key: "TXXX:" + description, value: text(rest, encoding: encoding))
        case "T":
            guard let encoding = body.first else { return Frame(id: id, key: id, value: "") }
            return Frame(id: id, key: id, value: text(Array(body.dropFirst()), encoding: encoding))
        case "W" where id == "WXXX" || id == "WXX":
            guard let encoding = body.first else { return Frame(id: id, key: id, value: "") }
            let (description, rest) = splitString(Array(body.dropFirst()), encoding: encoding)
            return Frame(id: id, key: "WXXX:" + description, value: text(rest, encoding: 0))
        case "W":
            return Frame(id: id, key: id, value: text(body, encoding: 0))
        default:
            if id == "PRIV" {
                let (owner, data) = splitString(body, encoding: 0)
                if owner == transportStreamTimestampOwner, data.count == 8 {
                    return Frame(id: id, key: "PRIV:" + owner, value: String(bigEndian64(data) & 0x1_FFFF_FFFF))
                }
                return Frame(id: id, key: "PRIV:" + owner, value: data.map { hexDigits($0) }.joined())
            }
            if id == "COMM" || id == "COM", body.count >= 4 {
                let encoding = body[0]
                let (description, rest) = splitString(Array(body.dropFirst(4)), encoding: encoding)
                return Frame(id: id, key: "COMM:" + description, value: text(rest, encoding: encoding))
            }
            return Frame(id: id, key: id, value: "<\(body.count) bytes>")
        }
    }

    /// Text in ID3 encoding `encoding` (0 ISO-8859-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8), up to a terminator.
    static func text(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 1, 2:
            var units: [UInt16] = []
            var bigEndian = encoding == 2
            var index = 0
            if encoding == 1, bytes.count >= 2 {
                if bytes[0] == 0xFF, bytes[1] == 0xFE { bigEndian = false; index = 2 } else if bytes[0] == 0xFE, bytes[1] == 0xFF { bigEndian = true; index = 2 }
            }
            while index + 1 < bytes.count {
                let unit = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]) : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                if unit == 0 { break }
                units.append(unit)
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 3:
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        default:
            return String(bytes.prefix { $0 != 0 }.map { Character(Unicode.Scalar($0)) })
        }
    }

    /// A terminated string at the start of `bytes` (one or two zero bytes by encoding) and what follows it.
    static func splitString(_ bytes: [UInt8], encoding: UInt8) -> (String, [UInt8]) {
        if encoding == 1 || encoding == 2 {
            var index = 0
            while index + 1 < bytes.count, !(bytes[index] == 0 && bytes[index + 1] == 0) { index += 2 }
            return (text(Array(bytes[..<min(index, bytes.count)]), encoding: encoding), Array(bytes.dropFirst(index + 2)))
        }
        let index = bytes.firstIndex(of: 0) ?? bytes.count
        return (text(Array(bytes[..<index]), encoding: encoding), Array(bytes.dropFirst(index + 1)))
    }

    static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) } }
    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
    static func bigEndian64(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
