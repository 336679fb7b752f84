#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written through C stdio, with errors that name its path.
final class DumpFile {
    /// Where the file is.
    let path: String
    private var handle: UnsafeMutablePointer<FILE>?

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws(DumpError) {
        self.path = path
        guard let handle = fopen(path, "wb") else { throw .cannotOpen(path: path, reason: Self.reason()) }
        self.handle = handle
    }

    deinit { if let handle { fclose(handle) } }

    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(DumpError) {
        guard let handle else { throw .writeFailed(path: path, reason: "file already closed") }
        guard bytes.count > 0 else { return }
        if fwrite(bytes.baseAddress, 1, bytes.count, handle) != bytes.count {
            throw .writeFailed(path: path, reason: Self.reason())
        }
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(DumpError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(DumpError) in try write(raw) } }
        try result.get()
    }

    /// Writes `bytes` at byte `offset` from the start, then returns to the end of the file.
    func overwrite(at offset: Int, with bytes: [UInt8]) throws(DumpError) {
        guard let handle else { throw .writeFailed(path: path, reason: "file already closed") }
        guard fseeko(handle, off_t(offset), SEEK_SET) == 0 else { throw .writeFailed(path: path, reason: Self.reason()) }
        try write(bytes)
        guard fseeko(handle, 0, SEEK_END) == 0 else { throw .writeFailed(path: path, reason: Self.reason()) }
    }

    /// Flushes and closes the file; later calls do nothing.
    func close() throws(DumpError) {
        guard let handle else { return }
        self.handle = nil
        if fclose(handle) != 0 { throw .writeFailed(path: path, reason: Self.reason()) }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
