import Foundation

/// Runs the built `playhead` executable and reference tools for end-to-end tests.
enum CLI {
    /// The repository root, found from this file's path.
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `playhead` binary next to the test bundle (the test target depends on it, so it is built).
    static let playhead: String = {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("playhead").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return repoRoot.appendingPathComponent(".build/debug/playhead").path
    }()

    /// The generated streams folder; generates them on first use.
    static let streams: String = runBlocking(repoRoot.appendingPathComponent("scripts/make-test-streams").path, []).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)

    /// A finished process: exit status and both outputs.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `program` (a path, or a name looked up on PATH) with `arguments`, waiting without
    /// holding a thread of Swift's cooperative pool (other tests keep running meanwhile).
    static func run(_ program: String, _ arguments: [String]) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: runBlocking(program, arguments)) }
        }
    }

    /// Runs `program` and blocks the calling thread until it exits, reading both pipes concurrently.
    @discardableResult
    static func runBlocking(_ program: String, _ arguments: [String]) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try! process.run()
        let errData = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// The hash column of framemd5 text (comment lines skipped).
    static func hashes(_ framemd5: String) -> [String] {
        framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

/// A value behind a lock, for handing results between threads.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
