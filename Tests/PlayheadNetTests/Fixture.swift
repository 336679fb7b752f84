import Foundation
import PlayheadNet
import PlayheadOrigin
import Testing

/// A temporary directory served by a loopback server, and a client; cleaned up on deinit.
final class Fixture {
    let directory: String
    let server: LoopbackHTTPServer
    let client: HTTPClient

    init(configuration: HTTPClientConfiguration = .init()) throws {
        directory = NSTemporaryDirectory() + "playhead-net-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A long idle timeout: a test starved of CPU for a few seconds must still find its connection open.
        server = try LoopbackHTTPServer(root: directory, idleTimeout: .seconds(120))
        client = HTTPClient(configuration: configuration)
    }

    deinit {
        client.shutdown()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes `bytes` to `name` below the served directory and returns its URL on the server.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        return server.url("/" + name)
    }

    /// The file:// URL of `name` below the served directory.
    func fileURL(_ name: String) -> String { "file://" + directory + "/" + name }
}

/// `count` bytes of a pattern that does not repeat within 251 bytes (so slicing mistakes show).
func patternBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251 &+ $0 / 251) }
}

/// The error `get` throws, or `nil` (recorded as an issue) when it succeeds.
func fetchError(
    _ client: HTTPClient, _ url: String, range: ByteRangeRequest? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> HTTPError? {
    do {
        let response = try await client.get(url, range: range)
        Issue.record("expected an error, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
