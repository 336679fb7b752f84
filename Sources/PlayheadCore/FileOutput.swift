import Foundation

/// Writing whole files through a descriptor: the loop that survives interruptions and short writes, and an
/// in-place write as a shell redirection does it (``AtomicFile`` renames a temporary file instead).
public enum FileOutput {
    /// Writes all of `bytes` to `descriptor`, again after `EINTR` and after short writes.
    /// - Returns: 0, or the `errno` of the failure (`ENOSPC` for a write that took nothing).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes all of `buffer` to `descriptor`, as ``writeAll(_:to:)-([UInt8],_)`` does.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : ENOSPC }
            offset += written
        }
        return 0
    }

    /// Writes `bytes` to `path` in place: a symbolic link is followed, a device or a pipe is written to (not
    /// replaced by a file), and a failed or short write (a full disk, `/dev/full`) is an error.
    /// - Returns: What went wrong (the system's words), or nil.
    public static func writeInPlace(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        var failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == 0 { failure = errno }
        return failure == 0 ? nil : String(cString: strerror(failure))
    }
}
