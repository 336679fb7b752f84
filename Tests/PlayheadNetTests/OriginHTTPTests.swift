import Foundation
@testable import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// What the origin answers to requests RFC 9110/9112 gives rules for: Range values that are not plain
/// digits or overflow, percent-escapes that are not escapes, HTTP/1.1 requests without Host, and
/// If-Range with its validators. Over real HTTP on 127.0.0.1.
@Suite struct OriginHTTPTests {
    /// One response read off the wire.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Sends `request` (its lines; `Connection: close` and the blank line are added) and reads the answer.
    func exchange(_ server: LoopbackHTTPServer, _ lines: [String]) throws -> Reply {
        let text = (lines + ["Connection: close", "", ""]).joined(separator: "\r\n")
        let reply = try RawSocket.exchange(port: server.port, sending: Array(text.utf8))
        let bytes = reply.bytes
        let end = try #require(HTTPRequestHead.end(in: bytes))
        var headLines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = headLines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in headLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: Int(statusLine[1]) ?? 0, headers: headers,
                     body: String(decoding: bytes[end.upperBound...], as: UTF8.self))
    }

    /// Responses carry an ETag and a Last-Modified; If-Range with the current ETag, or with the
    /// Last-Modified date of a file last changed more than a second ago, gets the range (206); any other
    /// validator, a weak ETag, or a file changed since gets the whole file (200). The range used to be
    /// served whatever If-Range said.
    @Test func ifRangeServesTheRangeOnlyWhenTheValidatorMatches() throws {
        let tree = try OriginPathTests.Tree()
        let file = tree.root + "/v0/a.ts"
        // A file changed long ago: its Last-Modified is a strong validator.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: file)
        let server = try LoopbackHTTPServer(root: tree.root)
        defer { server.stop() }
        let get = ["GET /v0/a.ts HTTP/1.1", "Host: h"]
        let plain = try exchange(server, get)
        #expect(plain.status == 200 && plain.body == "0123456789")
        let etag = try #require(plain.headers["etag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(plain.headers["last-modified"] == "Sun, 09 Sep 2001 01:46:40 GMT")
        let ranged = try exchange(server, ["HEAD /v0/a.ts HTTP/1.1", "Host: h", "Range: bytes=2-4"])
        #expect(ranged.status == 206 && ranged.headers["etag"] == etag)

        func conditional(_ validator: String) throws -> Reply {
            try exchange(server, get + ["Range: bytes=2-4", "If-Range: \(validator)"])
        }
        let byTag = try conditional(etag)
        #expect(byTag.status == 206 && byTag.body == "234" && byTag.headers["content-range"] == "bytes 2-4/10")
        let byDate = try conditional("Sun, 09 Sep 2001 01:46:40 GMT")
        #expect(byDate.status == 206 && byDate.body == "234")
        for stale in ["\"other\"", "W/\(etag)", "Sun, 09 Sep 2001 01:46:41 GMT", "yesterday"] {
            let reply = try conditional(stale)
            #expect(reply.status == 200 && reply.body == "0123456789", "If-Range: \(stale)")
            #expect(reply.headers["content-range"] == nil)
        }

        // The file changes: the old ETag no longer matches.
        try Data("abcdefghijk".utf8).write(to: URL(fileURLWithPath: file))
        // Dated a minute ahead, so the file still counts as changed within the last second when the requests come
        // (on a loaded machine they came more than a second after the write, and the date matched).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file)
        let changed = try conditional(etag)
        #expect(changed.status == 200 && changed.body == "abcdefghijk")
        #expect(changed.headers["etag"] != etag)
        // Changed within the last second, a date cannot tell two versions apart: it never matches.
        let fresh = try #require(changed.headers["last-modified"])
        #expect(try conditional(fresh).status == 200)
    }

    /// A percent sign not followed by two hex digits is refused with 400 naming it; it used to be
    /// looked up with the next two bytes dropped (`/%zzabc` as `/%abc`).
    @Test func malformedPercentEscapesAreRefused() throws {
        let tree = try OriginPathTests.Tree()
        let server = try LoopbackHTTPServer(root: tree.root)
        defer { server.stop() }
        for (target, escape) in [("/%zzabc", "%zz"), ("/v0/a.ts%", "%"), ("/v0/a.ts%4", "%4"), ("/v0/%g1a.ts", "%g1")] {
            let reply = try exchange(server, ["GET \(target) HTTP/1.1", "Host: h"])
            #expect(reply.status == 400, "\(target)")
            #expect(reply.body.contains("malformed percent-escape \"\(escape)\""), "\(target): \(reply.body)")
        }
        #expect(try exchange(server, ["GET /v0/a%2Ets HTTP/1.1", "Host: h"]).status == 200)
        #expect(try exchange(server, ["GET /v0/a.ts?q=%zz HTTP/1.1", "Host: h"]).status == 200)
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request without a Host header (or with two) is answered 400; it used
    /// to be served. HTTP/1.0 needs none.
    @Test func http11RequestsNeedOneHost() throws {
        let tree = try OriginPathTests.Tree()
        let server = try LoopbackHTTPServer(root: tree.root)
        defer { server.stop() }
        let missing = try exchange(server, ["GET /v0/a.ts HTTP/1.1"])
        #expect(missing.status == 400 && missing.body.contains("Host"), "\(missing.body)")
        #expect(try exchange(server, ["GET /v0/a.ts HTTP/1.1", "Host: a", "Host: b"]).status == 400)
        #expect(try exchange(server, ["GET /v0/a.ts HTTP/1.0"]).status == 200)
        #expect(try exchange(server, ["GET /v0/a.ts HTTP/1.1", "Host: 127.0.0.1"]).status == 200)
    }

    /// RFC 9110 §14.1.1: positions are plain digits; a value with a sign is invalid and ignored (200).
    /// Digits past Int's range mean "past the end": a last position clamps to the end (206), a first
    /// position or suffix that large is past the end or the whole file.
    @Test func rangeNumbersAreDigitsAndMayOverflow() throws {
        #expect(RangeRequest(header: "bytes=+1-5", size: 100) == .whole)
        #expect(RangeRequest(header: "bytes=1-+5", size: 100) == .whole)
        #expect(RangeRequest(header: "bytes=-+5", size: 100) == .whole)
        #expect(RangeRequest(header: "bytes= 1-5", size: 100) == .whole)
        #expect(RangeRequest(header: "bytes=0-99999999999999999999999", size: 100) == .partial(first: 0, last: 99))
        #expect(RangeRequest(header: "bytes=-99999999999999999999999", size: 100) == .partial(first: 0, last: 99))
        #expect(RangeRequest(header: "bytes=99999999999999999999999-", size: 100) == .unsatisfiable)
        #expect(RangeRequest(header: "bytes=99999999999999999999999-5", size: 100) == .whole)

        let tree = try OriginPathTests.Tree()
        let server = try LoopbackHTTPServer(root: tree.root)
        defer { server.stop() }
        let signed = try exchange(server, ["GET /v0/a.ts HTTP/1.1", "Host: h", "Range: bytes=+1-5"])
        #expect(signed.status == 200 && signed.body == "0123456789")
        let huge = try exchange(server, ["GET /v0/a.ts HTTP/1.1", "Host: h", "Range: bytes=3-99999999999999999999999"])
        #expect(huge.status == 206 && huge.body == "3456789" && huge.headers["content-range"] == "bytes 3-9/10")
    }
}
