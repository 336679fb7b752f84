/// Packed audio segments (RFC 8216bis section 3.4) for tests: an ID3v2.4 tag whose PRIV frame
/// `com.apple.streaming.transportStreamTimestamp` gives the segment's start (90 kHz), then audio frames (ADTS
/// AAC, AC-3, E-AC-3) cut from an elementary stream the ffmpeg CLI wrote.
public enum PackedAudioMaker {
    /// An ID3v2.4 frame: its id, syncsafe size, no flags, its body.
    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    /// An ID3v2.4 tag with the timestamp PRIV frame for `ticks` (90 kHz) and, when given, a TXXX frame of `text`.
    public static func tag(ticks: Int64? = nil, text: String? = nil) -> [UInt8] {
        var frames: [UInt8] = []
        if let ticks {
            let value = (0..<8).map { UInt8(truncatingIfNeeded: (ticks & (1 << 33 - 1)) >> (56 - 8 * $0)) }
            frames += frame("PRIV", Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0] + value)
        }
        if let text { frames += frame("TXXX", [3] + Array("note".utf8) + [0] + Array(text.utf8)) }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames
    }

    /// The frames of an ADTS, AC-3 or E-AC-3 elementary stream, each whole.
    public static func frames(_ stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var frames: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset + 6 <= stream.count {
            let length: Int
            if stream[offset] == 0xFF {
                length = Int(stream[offset + 3] & 0x03) << 11 | Int(stream[offset + 4]) << 3 | Int(stream[offset + 5]) >> 5
            } else if stream[offset + 5] >> 3 > 10 {
                length = ((Int(stream[offset + 2] & 0x07) << 8 | Int(stream[offset + 3])) + 1) * 2
            } else {
                // AC-3 at 48 kHz: 2 words a kbit/s of the frmsizecod's bitrate.
                let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640][Int(stream[offset + 4] & 0x3F) / 2]
                precondition(stream[offset + 4] >> 6 == 0, "AC-3 test streams are 48 kHz")
                length = kbps * 4
            }
            guard length > 0, offset + length <= stream.count else { break }
            frames.append(stream[offset..<(offset + length)])
            offset += length
        }
        return frames
    }

    /// Segments of `framesPerSegment` frames each, the first starting at `startTicks` (90 kHz) and each at the
    /// time its first frame has (`samplesPerFrame` at `sampleRate`); with `midTag`, an ID3 tag with a TXXX frame
    /// also stands between the frames in the middle of each segment.
    public static func segments(_ frames: [ArraySlice<UInt8>], framesPerSegment: Int, samplesPerFrame: Int, sampleRate: Int,
                                startTicks: Int64 = 126_000, midTag: Bool = false) -> [[UInt8]] {
        stride(from: 0, to: frames.count, by: framesPerSegment).map { first in
            let ticks = startTicks + Int64(first * samplesPerFrame) * 90_000 / Int64(sampleRate)
            var segment = tag(ticks: ticks)
            let own = frames[first..<min(first + framesPerSegment, frames.count)]
            for (index, frame) in own.enumerated() {
                if midTag, index == own.count / 2 { segment += tag(text: "between frames") }
                segment += frame
            }
            return segment
        }
    }
}
