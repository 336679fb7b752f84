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

    /// Launches `process` (kept for the call sites that read as launches).
    public static func launch(_ process: TestProcess) throws {
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
        let process = TestProcess()
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

/// A child process for tests, with the part of Foundation's `Process` the tests use, started by
/// posix_spawn with every descriptor but its three standard ones closed in the child.
///
/// Foundation's `Process.run()` on Linux lists the parent's open descriptors to close them in the child;
/// with the many sockets of tests running in parallel (past 1,300 descriptors) it crashed the whole test
/// process in a memcpy, three times in a week, even with launches serialised.
public final class TestProcess: @unchecked Sendable {
    /// The program to run.
    public var executableURL: URL?
    /// Its arguments (without the program).
    public var arguments: [String] = []
    /// A `Pipe`, a `FileHandle` (``FileHandle/nullDevice`` included) or nil (/dev/null).
    public var standardInput: Any?
    /// A `Pipe`, a `FileHandle` or nil (/dev/null).
    public var standardOutput: Any?
    /// A `Pipe`, a `FileHandle` or nil (/dev/null).
    public var standardError: Any?
    /// The child's process id once running.
    public private(set) var processIdentifier: Int32 = 0

    private let lock = NSLock()
    private var status: Int32?

    /// Creates an unstarted process.
    public init() {}

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc module does not show.
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Starts the child.
    public func run() throws {
        guard let path = executableURL?.path else { throw POSIXError(.ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentCloses: [FileHandle] = []
        func bind(_ stream: Any?, to target: Int32, childWrites: Bool) {
            switch stream {
            case let pipe as Pipe:
                let end = childWrites ? pipe.fileHandleForWriting : pipe.fileHandleForReading
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
                parentCloses.append(end)
            case let handle as FileHandle where handle !== FileHandle.nullDevice && handle.fileDescriptor >= 0:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", childWrites ? O_WRONLY : O_RDONLY, 0)
            }
        }
        bind(standardInput, to: 0, childWrites: false)
        bind(standardOutput, to: 1, childWrites: true)
        bind(standardError, to: 2, childWrites: true)
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { (text: String) in text.withCString { strdup($0) } } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        processIdentifier = pid
        // The child has its ends; the parent's copies would keep the pipes open.
        for handle in parentCloses { try? handle.close() }
    }

    /// Waits for the child to exit.
    public func waitUntilExit() {
        lock.lock()
        defer { lock.unlock() }
        guard status == nil, processIdentifier > 0 else { return }
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) == -1 {
            if errno != EINTR { status = -1; return }
        }
        status = raw
    }

    /// Whether the child is still running.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard status == nil, processIdentifier > 0 else { return false }
        var raw: Int32 = 0
        let result = waitpid(processIdentifier, &raw, WNOHANG)
        if result == processIdentifier { status = raw; return false }
        return result == 0
    }

    /// Its exit status, or the signal that ended it (as Foundation's `terminationStatus`).
    public var terminationStatus: Int32 {
        waitUntilExit()
        let raw = lock.withLock { status ?? 0 }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    /// How the child ended: by exiting, or by a signal it did not handle.
    public var terminationReason: Process.TerminationReason {
        waitUntilExit()
        return lock.withLock { status ?? 0 } & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// Sends SIGINT.
    public func interrupt() { if processIdentifier > 0 { kill(processIdentifier, SIGINT) } }

    /// Sends SIGTERM.
    public func terminate() { if processIdentifier > 0 { kill(processIdentifier, SIGTERM) } }
}
