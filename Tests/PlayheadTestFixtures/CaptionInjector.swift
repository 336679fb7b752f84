/// Adds CEA-608 closed captions to an H.264 Annex-B elementary stream, as broadcast encoders carry them
/// (the ffmpeg CLI cannot write them): before the first slice of each access unit goes an SEI NAL unit
/// (type 6) with one `user_data_registered_itu_t_t35` message (payload type 4): country 0xB5, provider
/// 0x0031, `GA94`, user_data_type_code 3, process_cc_data_flag with cc_count, em_data 0xFF, the cc_data
/// triplets (`0xFC b1 b2`: valid, field 1, odd-parity 608 bytes), marker 0xFF. One byte pair a frame, as a
/// 29.97/30 fps stream carries field 1; frames with nothing to say carry the null pair `0x80 0x80`.
///
/// Meant for streams without B-frames: the n-th access unit is then the n-th frame presented.
public enum CaptionInjector {
    /// A 608 byte pair as written before parity (7-bit values).
    public typealias Pair = [UInt8]

    /// Resume caption loading (pop-on), channel 1.
    public static let resumeCaptionLoading: Pair = [0x14, 0x20]
    /// End of caption: the loaded caption is displayed, the displayed one goes back to memory.
    public static let endOfCaption: Pair = [0x14, 0x2F]
    /// Erase displayed memory.
    public static let eraseDisplayedMemory: Pair = [0x14, 0x2C]
    /// Erase non-displayed memory.
    public static let eraseNonDisplayedMemory: Pair = [0x14, 0x2E]
    /// Carriage return: a roll-up caption's rows move up one.
    public static let carriageReturn: Pair = [0x14, 0x2D]

    /// Roll-up captions of `rows` rows (2, 3 or 4), channel 1.
    public static func rollUp(rows: Int) -> Pair { [0x14, UInt8(0x23 + min(max(rows, 2), 4))] }

    /// The preamble address code of `row` (1…15), white, column 0, channel 1.
    public static func preamble(row: Int) -> Pair {
        // Rows by first byte (channel 1) and the second byte's bit 5: CEA-608 table 53.
        let rows: [Int: (UInt8, UInt8)] = [
            1: (0x11, 0x40), 2: (0x11, 0x60), 3: (0x12, 0x40), 4: (0x12, 0x60), 5: (0x15, 0x40), 6: (0x15, 0x60),
            7: (0x16, 0x40), 8: (0x16, 0x60), 9: (0x17, 0x40), 10: (0x17, 0x60), 11: (0x10, 0x40),
            12: (0x13, 0x40), 13: (0x13, 0x60), 14: (0x14, 0x40), 15: (0x14, 0x60),
        ]
        let code = rows[row] ?? rows[15]!
        return [code.0, code.1 | 0x10]  // 0x10: white, with the indent bits 0 (column 0)
    }

    /// The pairs of printable text (basic character set), two characters a pair, the last padded with 0.
    public static func characters(_ text: String) -> [Pair] {
        let bytes = Array(text.utf8).map { $0 & 0x7F }
        return stride(from: 0, to: bytes.count, by: 2).map { i in [bytes[i], i + 1 < bytes.count ? bytes[i + 1] : 0] }
    }

    /// `pair` twice, as broadcasters send control codes (a decoder ignores the repeat).
    public static func twice(_ pair: Pair) -> [Pair] { [pair, pair] }

    /// A pop-on caption: RCL, a PAC for `row`, the text, EOC (control codes twice).
    public static func popOn(_ text: String, row: Int = 15) -> [Pair] {
        popOn(rows: [(row, text)])
    }

    /// A pop-on caption of several rows: RCL, then a PAC and the text of each row, EOC (control codes twice).
    public static func popOn(rows: [(row: Int, text: String)]) -> [Pair] {
        twice(resumeCaptionLoading) + rows.flatMap { twice(preamble(row: $0.row)) + characters($0.text) } + twice(endOfCaption)
    }

    /// The pair each of `frames` frames carries: each entry's pairs from its frame on, one a frame (an entry
    /// that starts before the previous one ran out waits for it); nil where there is nothing to send.
    public static func schedule(_ entries: [(frame: Int, pairs: [Pair])], frames: Int) -> [Pair?] {
        var out = [Pair?](repeating: nil, count: frames)
        var next = 0
        for entry in entries.sorted(by: { $0.frame < $1.frame }) {
            var frame = max(entry.frame, next)
            for pair in entry.pairs where frame < frames {
                out[frame] = pair
                frame += 1
            }
            next = frame
        }
        return out
    }

    /// `byte` (7 bits) with the odd-parity bit 7 set as CEA-608 requires.
    public static func withParity(_ byte: UInt8) -> UInt8 {
        let value = byte & 0x7F
        return value.nonzeroBitCount % 2 == 0 ? value | 0x80 : value
    }

    /// The cc_data triplets of one frame: `pair` (or the null pair) for field 1, and, when `fieldTwo` is given,
    /// a second triplet with that pair (or the null pair) for field 2; parity applied unless `parity` is false
    /// (the bytes then go as given).
    public static func ccData(_ pair: Pair?, fieldTwo: Pair?? = nil, parity: Bool = true) -> [UInt8] {
        func triplet(_ marker: UInt8, _ pair: Pair?) -> [UInt8] {
            let bytes = pair ?? [0, 0]
            return [marker] + (parity ? bytes.map(withParity) : bytes)
        }
        return triplet(0xFC, pair) + (fieldTwo.map { triplet(0xFD, $0) } ?? [])
    }

    /// `pairs` moved to the second data channel of their field (CC2 or CC4): control codes 0x10–0x17 become
    /// 0x18–0x1F.
    public static func onSecondChannel(_ pairs: [Pair]) -> [Pair] {
        pairs.map { pair in (0x10...0x17).contains(pair[0]) ? [pair[0] + 0x08, pair[1]] : pair }
    }

    /// The SEI NAL unit (start code excluded, emulation prevention applied) carrying `ccData` triplets.
    public static func seiNAL(ccData: [UInt8]) -> [UInt8] {
        let count = ccData.count / 3
        let payload: [UInt8] = [0xB5, 0x00, 0x31] + Array("GA94".utf8) + [0x03, UInt8(0x40 | count & 0x1F), 0xFF]
            + ccData + [0xFF]
        var rbsp: [UInt8] = [0x04]
        var size = payload.count
        while size >= 255 { rbsp.append(0xFF); size -= 255 }
        rbsp.append(UInt8(size))
        rbsp += payload
        rbsp.append(0x80)  // rbsp_trailing_bits
        return [0x06] + escaped(rbsp)
    }

    /// `rbsp` with an emulation prevention byte 0x03 after each two zero bytes that a byte ≤ 3 follows.
    static func escaped(_ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rbsp.count + 4)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2, byte <= 3 {
                out.append(0x03)
                zeros = 0
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// `stream` (H.264 Annex B) with an SEI carrying `pairs[n]` before the first slice of access unit n
    /// (access units past the end of `pairs` carry the null pair), and `fieldTwo[n]` for field 2 when
    /// `fieldTwo` is not empty. Nil when no slice is found.
    /// - Parameter parity: Apply odd parity to the pairs (false sends them as given, to test bad parity).
    public static func inject(_ pairs: [Pair?], fieldTwo: [Pair?] = [], into stream: [UInt8], parity: Bool = true) -> [UInt8]? {
        let units = nalUnits(stream)
        var out: [UInt8] = []
        out.reserveCapacity(stream.count + units.count * 24)
        var accessUnit = 0
        for unit in units {
            let type = unit.first.map { $0 & 0x1F } ?? 0
            // A slice (1 non-IDR, 5 IDR) whose first_mb_in_slice is 0 (ue(v) 0 is the single bit 1) opens a picture.
            if type == 1 || type == 5, unit.count > 1, unit[unit.startIndex + 1] & 0x80 != 0 {
                let pair = accessUnit < pairs.count ? pairs[accessUnit] : nil
                let second: Pair?? = fieldTwo.isEmpty ? nil : .some(accessUnit < fieldTwo.count ? fieldTwo[accessUnit] : nil)
                out += [0, 0, 0, 1] + seiNAL(ccData: ccData(pair, fieldTwo: second, parity: parity))
                accessUnit += 1
            }
            out += [0, 0, 0, 1] + unit
        }
        return accessUnit > 0 ? out : nil
    }

    /// The NAL units of an Annex-B stream, start codes removed (trailing zero bytes go with the start code).
    static func nalUnits(_ stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [(code: Int, payload: Int)] = []
        var i = 0
        while i + 2 < stream.count {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 1 {
                var code = i
                while code > 0, stream[code - 1] == 0 { code -= 1 }
                starts.append((code, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        return starts.indices.map { n in
            stream[starts[n].payload..<(n + 1 < starts.count ? starts[n + 1].code : stream.count)]
        }
    }
}
