/// HLS SAMPLE-AES (Apple's "MPEG-2 Stream Encryption Format for HTTP Live Streaming"): only parts of the
/// samples are encrypted, with AES-128-CBC, the IV starting afresh for each protected block.
///
/// - H.264: NAL units of type 1 and 5 longer than 48 bytes. The first 32 bytes stay clear, then one 16-byte
///   block of every ten is encrypted (16 encrypted, up to 144 clear), a last piece of 16 bytes or fewer stays
///   clear. The NAL unit is encrypted as it stands in the stream and emulation prevention bytes are inserted
///   into the result, so decryption removes them first and gives back the original NAL unit, shorter.
/// - AAC (ADTS), AC-3 and E-AC-3: each frame longer than its header and 31 bytes has, after its header (none
///   for AC-3/E-AC-3) and 16 clear bytes, every whole 16-byte block encrypted; the rest stays clear.
///
/// The segment is decrypted in place, so that every reader (player, thumbnails, ad check) gets a clear
/// segment: MPEG-TS through its PES packets (a NAL unit that shrank is followed by zero bytes, the
/// `trailing_zero_8bits` H.264's byte stream allows; the SAMPLE-AES stream types in the PMT become the clear
/// ones), packed audio frame by frame after its ID3 tag. This is what FFmpeg 5.1's HLS demuxer decrypts
/// (H.264, AAC, AC-3, E-AC-3 in MPEG-TS and packed audio); SAMPLE-AES in fragmented MP4 (`cbcs`) is not.
public enum SampleAES {
    /// What the segment's container allows: nil when it can be decrypted here, else why not.
    public static func unsupportedContainer(_ bytes: [UInt8]) -> String? { unsupported(ContainerFormat.sniff(bytes)) }

    private static func unsupported(_ format: ContainerFormat?) -> String? {
        switch format {
        case .mpegTS, .adts, .ac3, .eac3: nil
        case .mp4: "SAMPLE-AES in fragmented MP4 (cbcs, samples described by the senc/saiz boxes) is not supported: "
            + "Playhead decrypts SAMPLE-AES in MPEG-TS and packed audio segments"
        case .mp3: "SAMPLE-AES is not defined for MP3 packed audio (only AAC, AC-3 and E-AC-3)"
        case nil: "SAMPLE-AES: the segment is neither MPEG-TS nor packed audio"
        }
    }

    /// Decrypts a segment's samples in place with `key` and `iv` (16 bytes each). Parts that cannot be read
    /// (a PES header cut short, a frame running past its packet) are left as they are, for the demuxer to find.
    /// - Throws: `MediaError.decryptionFailed` when the key or IV is not 16 bytes, or the container is not
    ///   one ``unsupportedContainer(_:)`` accepts.
    public static func decrypt(_ bytes: inout [UInt8], key: [UInt8], iv: [UInt8]) throws(MediaError) {
        let cipher = try Cipher(key: key, iv: iv, decrypting: true)
        let format = ContainerFormat.sniff(bytes)
        if let why = unsupported(format) { throw .decryptionFailed(why) }
        if format == .mpegTS {
            TransportStreamSamples.rewrite(&bytes) { codec, payload in
                payload = codec == .h264 ? decryptAnnexB(payload, cipher) : cryptFrames(payload, codec, cipher)
            }
        } else {
            let start = PackedAudio.framesStart(bytes)
            guard let format = PackedAudio.frameFormat(bytes, at: start) else { return }
            bytes = cryptFrames(bytes, format == .adts ? .aac : .ac3, cipher, from: start)
        }
    }

    /// Encrypts an H.264 Annex B byte stream as a SAMPLE-AES packager does (for test streams; the inverse of
    /// decryption): the protected NAL units are encrypted, then escaped, so the stream grows.
    /// - Throws: `MediaError.decryptionFailed` when the key or IV is not 16 bytes.
    public static func encryptAnnexB(_ stream: [UInt8], key: [UInt8], iv: [UInt8]) throws(MediaError) -> [UInt8] {
        let cipher = try Cipher(key: key, iv: iv, decrypting: false)
        var output: [UInt8] = []
        output.reserveCapacity(stream.count + stream.count / 64)
        for unit in nalUnits(stream) {
            output += stream[unit.startCode..<unit.start]
            let nal = Array(stream[unit.start..<unit.end])
            output += isProtected(nal[...]) ? escape(cryptPattern(nal, cipher)) : nal
        }
        return output
    }

    /// Encrypts ADTS (AAC), AC-3 or E-AC-3 frames laid end to end (for test streams; the same length).
    /// - Throws: `MediaError.decryptionFailed` when the key or IV is not 16 bytes.
    public static func encryptAudioFrames(_ frames: [UInt8], key: [UInt8], iv: [UInt8]) throws(MediaError) -> [UInt8] {
        let cipher = try Cipher(key: key, iv: iv, decrypting: false)
        guard let first = frames.first else { return frames }
        return cryptFrames(frames, first == 0xFF ? .aac : .ac3, cipher)
    }

    // MARK: - H.264

    /// A NAL unit of an Annex B stream: its start code from `startCode`, its bytes `start..<end` (a 4-byte start
    /// code's leading zero is the next start code's, not this unit's).
    struct NALUnitRange { var startCode: Int, start: Int, end: Int }

    /// The NAL units of an Annex B stream, each from its start code to the next one; bytes before the first
    /// start code are not a unit.
    static func nalUnits(_ stream: [UInt8]) -> [NALUnitRange] {
        var starts: [(code: Int, body: Int)] = []
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                // A 4-byte start code's leading zero belongs to it, not to the unit before.
                let fourBytes = index > 0 && stream[index - 1] == 0 && (starts.last?.body ?? 0) <= index - 1
                starts.append((fourBytes ? index - 1 : index, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.indices.map { position in
            let end = position + 1 < starts.count ? starts[position + 1].code : stream.count
            return NALUnitRange(startCode: starts[position].code, start: starts[position].body, end: max(starts[position].body, end))
        }
    }

    /// Whether a NAL unit (as it stands in the stream) is one SAMPLE-AES protects: a coded slice (type 1 or 5)
    /// longer than 48 bytes.
    static func isProtected(_ nal: ArraySlice<UInt8>) -> Bool {
        guard let header = nal.first else { return false }
        return [1, 5].contains(header & 0x1F) && nal.count > 48
    }

    /// A PES payload of H.264 with its protected NAL units decrypted in place: each shrinks by the emulation
    /// prevention bytes the packager inserted, and the room left is filled with zero bytes.
    static func decryptAnnexB(_ payload: [UInt8], _ cipher: Cipher) -> [UInt8] {
        var output = payload
        for unit in nalUnits(payload) where isProtected(payload[unit.start..<unit.end]) {
            let plain = cryptPattern(unescape(payload[unit.start..<unit.end]), cipher)
            output.replaceSubrange(unit.start..<unit.start + plain.count, with: plain)
            for index in (unit.start + plain.count)..<unit.end { output[index] = 0 }
        }
        return output
    }

    /// `nal` with every byte after the 32 clear ones put through `cipher` in SAMPLE-AES's pattern: one block of
    /// 16, then up to 144 clear, while more than 16 bytes remain (one CBC chain over the unit's blocks).
    static func cryptPattern(_ nal: [UInt8], _ cipher: Cipher) -> [UInt8] {
        var blocks: [Int] = []
        var position = 32
        while position < nal.count {
            if nal.count - position > 16 {
                blocks.append(position)
                position += 16
            }
            position += min(144, nal.count - position)
        }
        var output = nal
        cipher.crypt(&output, blocks: blocks)
        return output
    }

    /// `nal` without its emulation prevention bytes (each 0x03 after two zero bytes).
    static func unescape(_ nal: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            output.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return output
    }

    /// `nal` with an emulation prevention byte (0x03) before each byte of 0–3 that follows two zero bytes.
    static func escape(_ nal: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(nal.count + nal.count / 256)
        var zeros = 0
        for byte in nal {
            if zeros >= 2, byte <= 3 {
                output.append(3)
                zeros = 0
            }
            output.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return output
    }

    // MARK: - Audio

    /// Audio frames from `start` on, each put through `cipher` (a chain of its own): after its header and 16
    /// clear bytes, every whole block. An ID3 tag between frames is stepped over; elsewhere a byte where no
    /// frame starts is passed, to the next sync word (as FFmpeg looks for the next one); a frame that runs past
    /// the end ends the walk.
    static func cryptFrames(_ frames: [UInt8], _ codec: SampleCodec, _ cipher: Cipher, from start: Int = 0) -> [UInt8] {
        var output = frames
        var offset = start
        while offset + 7 <= frames.count {
            if let tag = PackedAudio.tagLength(frames, at: offset) {
                offset += tag
                continue
            }
            guard let frame = codec == .aac ? PackedAudio.adtsFrame(frames, at: offset) : PackedAudio.ac3Frame(frames, at: offset), frame.length > 0 else {
                offset += 1
                continue
            }
            guard offset + frame.length <= frames.count else { break }
            if frame.length - frame.header > 31 {
                let first = offset + frame.header + 16
                let count = (frame.length - frame.header - 16) / 16
                cipher.crypt(&output, blocks: (0..<count).map { first + $0 * 16 })
            }
            offset += frame.length
        }
        return output
    }
}

/// The codecs SAMPLE-AES protects.
enum SampleCodec {
    case h264, aac, ac3
}

/// AES-128-CBC over chosen 16-byte blocks of a buffer, the chain starting at the IV for each call.
struct Cipher {
    let key: [UInt8]
    let iv: [UInt8]
    let decrypting: Bool

    init(key: [UInt8], iv: [UInt8], decrypting: Bool) throws(MediaError) {
        guard key.count == 16 else { throw .decryptionFailed("SAMPLE-AES: key is \(key.count) bytes, expected 16") }
        guard iv.count == 16 else { throw .decryptionFailed("SAMPLE-AES: IV is \(iv.count) bytes, expected 16") }
        self.key = key
        self.iv = iv
        self.decrypting = decrypting
    }

    /// Puts the blocks of `bytes` starting at `blocks` (in order, each within `bytes`) through one CBC chain.
    func crypt(_ bytes: inout [UInt8], blocks: [Int]) {
        guard !blocks.isEmpty else { return }
        var gathered: [UInt8] = []
        gathered.reserveCapacity(blocks.count * 16)
        for start in blocks { gathered += bytes[start..<start + 16] }
        // The key and IV were checked when the cipher was made: cbc cannot fail.
        guard let result = try? AES128.cbc(gathered, key: key, iv: iv, decrypting: decrypting) else { return }
        for (index, start) in blocks.enumerated() {
            bytes.replaceSubrange(start..<start + 16, with: result[(index * 16)..<(index * 16 + 16)])
        }
    }
}
