@testable import PlayheadNet
import Testing

@Suite struct RangeCheckTests {
    let body: [UInt8] = Array(0..<100)

    @Test func parsesContentRange() {
        #expect(RangeCheck.parse("bytes 0-99/1000") == .init(first: 0, last: 99, completeLength: 1000))
        #expect(RangeCheck.parse("bytes 5-9/*") == .init(first: 5, last: 9, completeLength: nil))
        #expect(RangeCheck.parse("bytes 9-5/100") == nil)
        #expect(RangeCheck.parse("bytes 0-99/50") == nil)
        #expect(RangeCheck.parse("items 0-1/2") == nil)
    }

    @Test func acceptsMatching206AndClampsAtTheEnd() throws {
        let asked = ByteRangeRequest(offset: 900, length: 200)
        let outcome = try RangeCheck.apply(requested: asked, status: 206, contentRange: "bytes 900-999/1000", body: body).get()
        #expect(outcome == .init(body: body, rangeIgnoredByServer: false, resourceLength: 1000))
    }

    /// A streamed body's start: a 206 for the open range asked for gives its Content-Range; one starting
    /// elsewhere, or malformed, is a mismatch; a 200 is the whole resource.
    @Test func checksAStreamedBodysStart() throws {
        let asked = ByteRangeRequest(offset: 500)
        #expect(try RangeCheck.start(requested: asked, status: 206, contentRange: "bytes 500-999/1000").get()
            == .init(first: 500, last: 999, completeLength: 1000))
        #expect(try RangeCheck.start(requested: asked, status: 200, contentRange: nil).get() == nil)
        #expect(throws: RangeMismatch.self) { try RangeCheck.start(requested: asked, status: 206, contentRange: "bytes 0-999/1000").get() }
        #expect(throws: RangeMismatch.self) { try RangeCheck.start(requested: asked, status: 206, contentRange: "bytes 500-998/1000").get() }
        #expect(throws: RangeMismatch.self) { try RangeCheck.start(requested: asked, status: 206, contentRange: nil).get() }
        #expect(throws: RangeMismatch.self) { try RangeCheck.start(requested: nil, status: 206, contentRange: "bytes 0-9/10").get() }
    }

    @Test func rejectsMismatched206() {
        let asked = ByteRangeRequest(offset: 0, length: 100)
        #expect(throws: RangeMismatch.self) {
            try RangeCheck.apply(requested: asked, status: 206, contentRange: "bytes 1-100/1000", body: body).get()
        }
        #expect(throws: RangeMismatch.self) {
            try RangeCheck.apply(requested: asked, status: 206, contentRange: "bytes 0-99/1000", body: Array(body.prefix(50))).get()
        }
        #expect(throws: RangeMismatch.self) {
            try RangeCheck.apply(requested: asked, status: 206, contentRange: nil, body: body).get()
        }
        #expect(throws: RangeMismatch.self) {
            try RangeCheck.apply(requested: nil, status: 206, contentRange: "bytes 0-99/1000", body: body).get()
        }
    }

    @Test func slicesA200AnsweringARange() throws {
        let outcome = try RangeCheck.apply(requested: .init(offset: 10, length: 5), status: 200, contentRange: nil, body: body).get()
        #expect(outcome == .init(body: [10, 11, 12, 13, 14], rangeIgnoredByServer: true, resourceLength: 100))
        #expect(throws: RangeMismatch.self) {
            try RangeCheck.apply(requested: .init(offset: 100), status: 200, contentRange: nil, body: body).get()
        }
    }

    @Test func rangeForms() {
        #expect(ByteRangeRequest(offset: 100, length: 100).description == "bytes=100-199")
        #expect(ByteRangeRequest(offset: 7).description == "bytes=7-")
        #expect(!ByteRangeRequest(offset: 0, length: 0).isValid)
    }
}
