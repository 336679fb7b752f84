@testable import PlayheadOrigin
import Testing

@Suite struct LoopbackServerUnitTests {
    @Test func interpretsRangeHeaders() {
        #expect(RangeRequest(header: "bytes=0-9", size: 100) == .partial(first: 0, last: 9))
        #expect(RangeRequest(header: "bytes=90-", size: 100) == .partial(first: 90, last: 99))
        #expect(RangeRequest(header: "bytes=90-200", size: 100) == .partial(first: 90, last: 99))
        #expect(RangeRequest(header: "bytes=-10", size: 100) == .partial(first: 90, last: 99))
        #expect(RangeRequest(header: "bytes=100-", size: 100) == .unsatisfiable)
        #expect(RangeRequest(header: "bytes=0-1,5-6", size: 100) == .whole)
        #expect(RangeRequest(header: "bytes=x-", size: 100) == .whole)
        #expect(RangeRequest(header: nil, size: 100) == .whole)
    }

    @Test func parsesRequestHeads() throws {
        let text = "GET /a%20b.ts?x=1 HTTP/1.1\r\nHost: h\r\nRange: bytes=0-1\r\nConnection: close"
        let head = try #require(HTTPRequestHead.parse(Array(text.utf8)[...]))
        #expect(head.method == "GET" && head.path == "/a b.ts" && head.headers["range"] == "bytes=0-1")
        #expect(!head.keepAlive)
        #expect(HTTPRequestHead.parse(Array("nonsense".utf8)[...]) == nil)
    }

    @Test func plansMethodAndPathErrors() throws {
        let root = "/nonexistent-root"
        let post = try #require(HTTPRequestHead.parse(Array("POST / HTTP/1.1\r\nHost: h".utf8)[...]))
        #expect(ResponsePlan.make(for: post, root: root, fault: nil).status == 405)
        let escape = try #require(HTTPRequestHead.parse(Array("GET /../etc/passwd HTTP/1.1\r\nHost: h".utf8)[...]))
        #expect(ResponsePlan.make(for: escape, root: root, fault: nil).status == 403)
        let head = try #require(HTTPRequestHead.parse(Array("HEAD /missing HTTP/1.1\r\nHost: h".utf8)[...]))
        let plan = ResponsePlan.make(for: head, root: root, fault: nil)
        #expect(plan.status == 404 && !plan.sendBody)
    }

    @Test func contentTypes() {
        #expect(ContentType.forPath("/a/b.m3u8") == "application/vnd.apple.mpegurl")
        #expect(ContentType.forPath("/x.M4S") == "video/iso.segment")
        #expect(ContentType.forPath("/k.key") == "application/octet-stream")
        #expect(ContentType.forPath("/a.b/c") == "application/octet-stream")
    }
}
