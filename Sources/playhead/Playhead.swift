import ArgumentParser
import Foundation

/// The `playhead` command: a headless HLS reference player.
@main
struct Playhead: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "playhead",
        abstract: "A headless HLS reference player: real fetches (libcurl), real decoding (FFmpeg).",
        version: version,
        subcommands: [Play.self, QueueCommand.self, CatalogueCommand.self, Inspect.self, Frames.self, ThumbnailCommand.self, DownloadCommand.self, CheckAds.self, Origin.self, AdServerCommand.self, Bench.self, Serve.self, Soak.self]
    )

    /// Runs the command line. Usage errors exit with 2 (not ArgumentParser's 64), so scripts can tell
    /// "bad arguments" (2) from "bad input" (1).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Writes text to a file descriptor through a buffer (one `write` per 64 KiB, not per line).
/// Not thread-safe by itself: callers that share one across tasks hold their own lock.
final class OutputBuffer: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let ownsDescriptor: Bool

    /// Standard output.
    static let standardOutput: Int32 = 1
    /// Standard error.
    static let standardError: Int32 = 2

    init(fd: Int32, ownsDescriptor: Bool = false) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// Opens (creating or truncating) `path` for writing; nil with errno set on failure.
    convenience init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.init(fd: fd, ownsDescriptor: true)
    }

    /// When set, a write also flushes once this many nanoseconds have passed since the last flush, so a
    /// reader following the output (events of a real-clock session) sees it as it comes.
    var flushIntervalNanoseconds: UInt64?
    private var lastFlush = DispatchTime.now().uptimeNanoseconds

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush(); return }
        if let interval = flushIntervalNanoseconds, DispatchTime.now().uptimeNanoseconds - lastFlush >= interval { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 { if errno == EINTR { continue }; break }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
        lastFlush = DispatchTime.now().uptimeNanoseconds
    }

    deinit {
        flush()
        if ownsDescriptor { close(fd) }
    }
}

/// Prints a message on standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(("playhead: " + message + "\n").utf8))
}
