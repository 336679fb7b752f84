import CFFmpeg
import Foundation

/// SHA-256 digests (libavutil's `av_sha`), for checking downloaded files against their manifest.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// Starts an empty digest.
    public init() {
        context = av_sha_alloc()
        av_sha_init(context, 256)
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Ends the digest: 64 lowercase hexadecimal digits.
    public consuming func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return PlayheadMedia.hex(digest)
    }

    /// The digest of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        var sha = SHA256()
        bytes.withUnsafeBytes { sha.update($0) }
        return sha.finish()
    }

    /// The digest of the file at `path` and its size, read in 1 MiB pieces; nil when it cannot be read.
    public static func hex(ofFile path: String) -> (sha256: String, size: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var sha = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 { if errno == EINTR { continue }; return nil }
            if got == 0 { break }
            size += got
            buffer.withUnsafeBytes { sha.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return (sha.finish(), size)
    }
}
