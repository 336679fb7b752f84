import Foundation
import PlayheadServer
import PlayheadTestFixtures
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Shared set-up for the daemon's tests: generated streams, temporary data directories, the built
/// `playhead` binary run as a child process, and an SSE parser.
enum ServerFixtures {
    static let repoRoot = TestRepository.root

    /// The generated streams folder (made on first use).
    static let streams = TestRepository.streams

    /// The `playhead` binary next to the test bundle.
    static let playhead = TestRepository.playheadBinary

    /// Whether the built binary knows `serve` (it does once `Serve` is registered as a subcommand).
    static let binaryHasServe: Bool = {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: ServerFixtures.playhead)
        process.arguments = ["serve", "--help"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? ChildProcess.launch(process)) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// A new empty directory under the temporary folder.
    static func temporaryDirectory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "playhead-\(name)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// One Server-Sent Event.
    struct SSE: Equatable {
        var id: Int
        var event: String
        var data: String
    }

    /// Parses an SSE body into its events (a last event cut short is left out).
    static func parseSSE(_ text: String) -> [SSE] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            var id: Int?, event = "", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            return id.map { SSE(id: $0, event: event, data: data) }
        }
    }

    /// The JSON object of a reply body.
    static func object(_ reply: LoopbackHTTPClient.Reply) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any] ?? [:]
    }
}

/// `playhead serve` running as a child process, so that SIGKILL is real.
final class DaemonProcess: @unchecked Sendable {
    let process = TestProcess()
    let baseURL: String
    let token: String?

    /// Starts the daemon on a free port with `data` as its data directory and waits until it listens.
    init(data: String, token: String? = nil, extra: [String] = []) throws {
        self.token = token
        process.executableURL = URL(fileURLWithPath: ServerFixtures.playhead)
        process.arguments = ["serve", "--port", "0", "--data", data] + (token.map { ["--token", $0] } ?? []) + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        var seen = Data()
        let handle = out.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let chunk = ChildProcess.readSome(handle, upTo: 65_536)
            if chunk.isEmpty { break }
            seen += chunk
            if let text = String(data: seen, encoding: .utf8), let range = text.range(of: "listening on ") {
                let rest = text[range.upperBound...]
                if let end = rest.firstIndex(of: "\n") {
                    baseURL = String(rest[..<end])
                    return
                }
            }
        }
        process.terminate()
        throw LoopbackHTTPClient.Failure(description: "the daemon did not start: \(String(decoding: seen, as: UTF8.self))")
    }

    /// Sends a request with the token.
    func send(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:],
              timeoutSeconds: Double = 30) throws -> LoopbackHTTPClient.Reply {
        var fields = headers
        if let token { fields["Authorization"] = "Bearer " + token }
        if json != nil { fields["Content-Type"] = "application/json" }
        return try LoopbackHTTPClient.send(method, baseURL + path, headers: fields, body: json.map { Data($0.utf8) },
                                           timeoutSeconds: timeoutSeconds)
    }

    /// Creates a session from `json`, expecting 201, and returns its id.
    func create(_ json: String) throws -> String {
        let reply = try send("POST", "/v1/sessions", json: json)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(ServerFixtures.object(reply)["id"] as? String)
    }

    /// A session's status as `GET /v1/sessions/{id}` gives it.
    func status(_ id: String) throws -> String {
        ServerFixtures.object(try send("GET", "/v1/sessions/\(id)"))["status"] as? String ?? "?"
    }

    /// SIGKILL, then wait for the process to be gone.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM (graceful), then wait.
    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
}
