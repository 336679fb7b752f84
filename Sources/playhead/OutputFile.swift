import Foundation

/// Writing a command's output file.
enum OutputFile {
    /// Writes `bytes` to `path` in place, as a shell redirection does: a symbolic link is followed, a device or
    /// a pipe is written to (not replaced by a file), a read-only file is refused, and a short or failed write
    /// (a full disk, `/dev/full`) is an error. Returns what went wrong, or nil.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { failure = count < 0 ? String(cString: strerror(errno)) : "nothing written"; return }
                written += count
            }
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        return failure
    }
}
