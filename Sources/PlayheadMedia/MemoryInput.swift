import CFFmpeg

/// A read-only, seekable `AVIOContext` over bytes held in memory.
///
/// libavformat reads a segment through this instead of a URL, so the network and the demuxer stay
/// apart. The instance must outlive the format context that uses its `context`.
final class MemoryInput {
    /// The bytes being read (dropped by `release()` once everything was read).
    private(set) var bytes: [UInt8]
    /// The read position in `bytes`.
    private(set) var position = 0
    /// Whether libavformat ever sought past the end: the segment is cut short of what its index lists, and an end
    /// of file may be one sample out of reach rather than the end of the samples.
    private(set) var wentPastEnd = false
    /// The AVIOContext handed to libavformat.
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// The AVIO buffer size; libavformat reads in chunks of this many bytes.
    static let bufferSize = 32 * 1024

    init(bytes: [UInt8]) throws(MediaError) {
        self.bytes = bytes
        guard let buffer = av_malloc(Self.bufferSize) else { throw .outOfMemory("AVIO buffer") }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0, opaque,
            { opaque, target, size in
                MemoryInput.from(opaque).read(into: target, size: Int(size))
            },
            nil,
            { opaque, offset, whence in
                MemoryInput.from(opaque).seek(offset: offset, whence: whence)
            })
        if context == nil {
            av_free(buffer)
            throw .outOfMemory("AVIOContext")
        }
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }

    /// Drops the bytes once the demuxer has read them all (its packets own their data), so a
    /// buffered segment does not hold its payload twice. Later reads see end of file.
    func release() {
        bytes = []
        position = 0
    }

    private static func from(_ opaque: UnsafeMutableRawPointer?) -> MemoryInput {
        Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private func read(into target: UnsafeMutablePointer<UInt8>?, size: Int) -> Int32 {
        let count = min(size, bytes.count - position)
        guard count > 0, let target else { return AVError.eof }  // also past the end (see seek)
        bytes.withUnsafeBufferPointer { source in
            target.update(from: source.baseAddress! + position, count: count)
        }
        position += count
        return Int32(count)
    }

    private func seek(offset: Int64, whence: Int32) -> Int64 {
        let whence = whence & ~Int32(AVSEEK_FORCE)
        let target: Int64
        switch whence {
        case Int32(AVSEEK_SIZE): return Int64(bytes.count)
        case SEEK_SET: target = offset
        case SEEK_CUR: target = Int64(position) + offset
        case SEEK_END: target = Int64(bytes.count) + offset
        default: return -1
        }
        // Past the end is allowed, as a file allows it (reads there see end of file): a cut fMP4 segment whose
        // trun lists samples beyond its bytes had libavformat's mov demuxer retry the first of them for ever (a
        // failed seek is retried, end of file is not), and every sample after it was lost (QA41 #3: 11 frames FFmpeg
        // decodes never shown).
        guard target >= 0 else { return -1 }
        if target > Int64(bytes.count) { wentPastEnd = true }
        position = Int(target)
        return target
    }
}
