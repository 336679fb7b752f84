import Foundation
@testable import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// What the origin serves for odd request paths and heads: dot segments, symbolic links out of the
/// folder, control characters, absolute-form targets, trailing slashes, bare-LF heads, long targets
/// and bad lengths.
@Suite struct OriginPathTests {
    /// A folder with `v0/a.ts` (10 bytes), a link `v0/inside.ts` to it, a link `out` to a folder outside
    /// holding `secret.txt`, and a link `v0/secret.ts` to that file.
    final class Tree {
        let base = NSTemporaryDirectory() + "playhead-origin-paths-\(UUID().uuidString)"
        var root: String { base + "/root" }

        init() throws {
            let files = FileManager.default
            try files.createDirectory(atPath: root + "/v0", withIntermediateDirectories: true)
            try files.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
            try Data("0123456789".utf8).write(to: URL(fileURLWithPath: root + "/v0/a.ts"))
            try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret.txt"))
            try files.createSymbolicLink(atPath: root + "/v0/inside.ts", withDestinationPath: root + "/v0/a.ts")
            try files.createSymbolicLink(atPath: root + "/out", withDestinationPath: base + "/outside")
            try files.createSymbolicLink(atPath: root + "/v0/secret.ts", withDestinationPath: base + "/outside/secret.txt")
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        func status(_ target: String) throws -> Int {
            let head = try #require(HTTPRequestHead.parse(Array("GET \(target) HTTP/1.1\r\nHost: h".utf8)[...]))
            return ResponsePlan.make(for: head, root: root, fault: nil).status
        }
    }

    @Test func dotSegmentsAreRemovedAndMayNotClimbOut() throws {
        let tree = try Tree()
        #expect(try tree.status("/v0/a.ts") == 200)
        #expect(try tree.status("/v0/../v0/a.ts") == 200)
        #expect(try tree.status("/v0/./a.ts") == 200)
        #expect(try tree.status("/v0/%2e%2e/v0/a.ts") == 200)
        #expect(try tree.status("/../root/v0/a.ts") == 403)
        #expect(try tree.status("/v0/../../etc/passwd") == 403)
    }

    @Test func symbolicLinksMustStayInside() throws {
        let tree = try Tree()
        #expect(try tree.status("/v0/inside.ts") == 200)
        #expect(try tree.status("/out/secret.txt") == 403)
        #expect(try tree.status("/v0/secret.ts") == 403)
        #expect(try tree.status("/out/missing.txt") == 403)
    }

    @Test func oddTargets() throws {
        let tree = try Tree()
        #expect(try tree.status("/v0/a.ts%00.m3u8") == 400)
        #expect(try tree.status("/v0/a.ts%0a") == 400)
        #expect(try tree.status("v0/a.ts") == 400)
        #expect(try tree.status("http://127.0.0.1:8080/v0/a.ts") == 200)
        #expect(try tree.status("HTTP://example/v0/a.ts?x=1") == 200)
        #expect(try tree.status("/v0/a.ts/") == 404)
        #expect(try tree.status("/v0/") == 404)
        #expect(try tree.status("/") == 404)
    }

    @Test func headsMayEndLinesWithABareLF() throws {
        let bytes = Array("GET /a.ts HTTP/1.1\nHost: h\nRange: bytes=0-1\n\nrest".utf8)
        let end = try #require(HTTPRequestHead.end(in: bytes))
        #expect(String(decoding: bytes[end.upperBound...], as: UTF8.self) == "rest")
        let head = try #require(HTTPRequestHead.parse(bytes[..<end.lowerBound]))
        #expect(head.path == "/a.ts" && head.headers["range"] == "bytes=0-1" && head.headers["host"] == "h")
        let crlf = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        #expect(HTTPRequestHead.end(in: crlf) == 23..<27)
        #expect(HTTPRequestHead.end(in: Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8)) == nil)
    }

    @Test func anEmptySuffixRangeIsUnsatisfiable() {
        #expect(RangeRequest(header: "bytes=-0", size: 100) == .unsatisfiable)
    }

    /// Sends raw bytes to the server and reads the answer's status line.
    func statusLine(_ server: LoopbackHTTPServer, _ request: [UInt8]) throws -> String {
        let reply = try RawSocket.exchange(port: server.port, sending: request) { $0.contains(10) }
        return String(String(decoding: reply.bytes, as: UTF8.self).split(separator: "\r\n").first ?? "")
    }

    @Test func connectionLevelAnswers() throws {
        let tree = try Tree()
        let server = try LoopbackHTTPServer(root: tree.root)
        defer { server.stop() }
        #expect(try statusLine(server, Array("GET /v0/a.ts HTTP/1.1\nHost: h\n\n".utf8)) == "HTTP/1.1 200 OK")
        let long = "GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\n\r\n"
        #expect(try statusLine(server, Array(long.utf8)) == "HTTP/1.1 414 URI Too Long")
        let fat = "GET / HTTP/1.1\r\n" + (0..<2000).map { "X-\($0): padding\r\n" }.joined() + "\r\n"
        #expect(try statusLine(server, Array(fat.utf8)) == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(try statusLine(server, Array("GET /v0/a.ts HTTP/1.1\r\nContent-Length: -1\r\n\r\n".utf8)) == "HTTP/1.1 400 Bad Request")
        #expect(try statusLine(server, Array("GET /v0/a.ts HTTP/1.1\r\nHost: h\r\nRange: bytes=-0\r\n\r\n".utf8)) == "HTTP/1.1 416 Range Not Satisfiable")
    }
}
