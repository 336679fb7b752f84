import Foundation

/// Where the tests find the repository, the generated streams and the built `playhead` binary.
public enum TestRepository {
    /// The repository root, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The generated HLS streams folder (`scripts/make-test-streams`, which does the work only once).
    public static let streams: String = ChildProcess.runBlocking(root.appendingPathComponent("scripts/make-test-streams").path, [])
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    /// The `playhead` binary next to the test bundle (test targets that use it depend on it).
    public static let playheadBinary: String = {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("playhead").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/playhead").path
    }()
}

/// Runs child processes (ffmpeg, scripts, the CLI) for tests.
public enum ChildProcess {
    /// A finished process: exit status and both outputs.
    public struct Outcome: Sendable {
        /// Exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// Serialises child launches across the test process's threads.
    private static let launchLock = NSLock()

    /// Launches `process`, one launch at a time in this test process: Foundation's Process.run()
    /// called from several threads at once crashed in its memcpy (a bad pointer dereference, twice in
    /// one fresh-clone run of the suite), and the crash report froze every test for a minute.
    public static func launch(_ process: Process) throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try process.run()
    }

    /// Runs `program` (a path, or a name looked up on PATH) with `arguments`, waiting without
    /// holding a thread of Swift's cooperative pool (other tests keep running meanwhile).
    public static func run(_ program: String, _ arguments: [String]) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: runBlocking(program, arguments)) }
        }
    }

    /// Runs `program` and blocks the calling thread until it exits, reading both pipes concurrently.
    @discardableResult
    public static func runBlocking(_ program: String, _ arguments: [String]) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try! launch(process)
        let errData = LockedBox(Data())
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errData.set(readToEnd(err.fileHandleForReading))
            done.signal()
        }
        let outData = readToEnd(out.fileHandleForReading)
        process.waitUntilExit()
        done.wait()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// Everything `handle` gives until end of file, read with read(2) and retried when a signal
    /// interrupts it. (Foundation's readDataToEndOfFile, readData(ofLength:) and availableData trap on
    /// EINTR: a child's SIGCHLD arriving mid-read crashed the whole test process, twice in a day.)
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        while true {
            let chunk = readSome(handle, upTo: 65_536)
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }

    /// What one read(2) of at most `count` bytes gives (waiting for at least one byte), retried when a
    /// signal interrupts it; empty at end of file or on an error.
    public static func readSome(_ handle: FileHandle, upTo count: Int) -> Data {
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if got >= 0 { return Data(chunk[0..<got]) }
            if errno != EINTR { return Data() }
        }
    }

    /// The hash column of framemd5 text (comment lines skipped).
    public static func framemd5Hashes(_ text: String) -> [String] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The hash column of `ffmpeg -i input -map map -f framemd5 -`.
    public static func ffmpegHashes(_ input: String, map: String = "0:v", inputOptions: [String] = []) async -> [String] {
        let outcome = await run("ffmpeg", ["-nostdin", "-loglevel", "error"] + inputOptions + ["-i", input, "-map", map, "-f", "framemd5", "-"])
        return framemd5Hashes(outcome.stdout)
    }
}

/// A value behind a lock, for handing results between threads.
public final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }
    /// The value.
    public func get() -> Value { lock.withLock { value } }
    /// Replaces the value.
    public func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
