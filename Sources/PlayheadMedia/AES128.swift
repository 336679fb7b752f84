import CFFmpeg

/// AES-128-CBC decryption of whole HLS segments (EXT-X-KEY METHOD=AES-128), with PKCS#7 padding, and
/// the encryption that makes such segments (for test streams).
public enum AES128 {
    /// The IV HLS uses when EXT-X-KEY has none: the media sequence number as a 128-bit big-endian integer.
    public static func iv(mediaSequence: Int) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: 16)
        var value = UInt64(truncatingIfNeeded: mediaSequence)
        for index in stride(from: 15, through: 8, by: -1) {
            iv[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        return iv
    }

    /// Decrypts `data` with a 16-byte `key` and `iv` and strips the PKCS#7 padding.
    /// - Throws: `MediaError.decryptionFailed` naming what is wrong (size, key length, padding).
    public static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(MediaError) -> [UInt8] {
        guard data.count % 16 == 0, !data.isEmpty else {
            throw .decryptionFailed("AES-128: ciphertext is \(data.count) bytes, not a non-zero multiple of 16")
        }
        var plain = try cbc(data, key: key, iv: iv, decrypting: true)
        let pad = Int(plain[plain.count - 1])
        guard (1...16).contains(pad), plain[(plain.count - pad)...].allSatisfy({ Int($0) == pad }) else {
            throw .decryptionFailed("AES-128: bad PKCS#7 padding: a wrong key or IV, or the data is cut short or damaged")
        }
        plain.removeLast(pad)
        return plain
    }

    /// Encrypts `data` with a 16-byte `key` and `iv` after PKCS#7 padding, as an HLS packager does for
    /// METHOD=AES-128 (the inverse of ``decrypt(_:key:iv:)``).
    /// - Throws: `MediaError.decryptionFailed` when the key or IV is not 16 bytes.
    public static func encrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(MediaError) -> [UInt8] {
        let pad = 16 - data.count % 16
        return try cbc(data + [UInt8](repeating: UInt8(pad), count: pad), key: key, iv: iv, decrypting: false)
    }

    /// AES-128-CBC over whole blocks (`data.count` a multiple of 16) through libavutil.
    static func cbc(_ data: [UInt8], key: [UInt8], iv: [UInt8], decrypting: Bool) throws(MediaError) -> [UInt8] {
        guard key.count == 16 else { throw .decryptionFailed("AES-128: key is \(key.count) bytes, expected 16") }
        guard iv.count == 16 else { throw .decryptionFailed("AES-128: IV is \(iv.count) bytes, expected 16") }
        guard let aes = av_aes_alloc() else { throw .outOfMemory("AES context") }
        defer { av_free(UnsafeMutableRawPointer(aes)) }
        av_aes_init(aes, key, 128, decrypting ? 1 : 0)
        var chain = iv
        var output = [UInt8](repeating: 0, count: data.count)
        output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                av_aes_crypt(aes, out.baseAddress, input.baseAddress, Int32(data.count / 16), &chain, decrypting ? 1 : 0)
            }
        }
        return output
    }
}
