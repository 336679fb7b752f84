import Foundation
import PlayheadNet
import Testing

/// A sink that keeps what it is given, and can refuse after some bytes.
private final class CollectingSink: HTTPBodySink, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var pieces = 0
    private let refuseAfter: Int?

    private var starts: [HTTPBodyStart] = []

    init(refuseAfter: Int? = nil) { self.refuseAfter = refuseAfter }

    func begin(_ start: HTTPBodyStart) -> Bool {
        lock.withLock { starts.append(start) }
        return true
    }

    /// Where each answer's body began, as the client told.
    var begun: [HTTPBodyStart] { lock.withLock { starts } }

    func receive(_ piece: UnsafeRawBufferPointer) -> Bool {
        lock.withLock {
            if let refuseAfter, bytes.count >= refuseAfter { return false }
            bytes.append(contentsOf: piece)
            pieces += 1
            return true
        }
    }

    var collected: (bytes: [UInt8], pieces: Int) { lock.withLock { (bytes, pieces) } }
}

/// `get(_:headers:sink:)`: the body streams to the sink instead of the response.
@Suite struct HTTPBodySinkTests {
    /// The sink gets every byte, in order, in more than one piece; the response keeps none of them but
    /// counts them; the limit on bodies held in memory does not apply.
    @Test func theBodyGoesToTheSinkAndNotTheResponse() async throws {
        let fixture = try Fixture(configuration: .init(maxBodyBytes: 10_000))
        let bytes = patternBytes(400_000)
        let url = try fixture.write("big.ts", bytes)
        let sink = CollectingSink()
        let response = try await fixture.client.get(url, sink: sink)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.timings.bytesReceived == bytes.count)
        #expect(response.resourceLength == bytes.count)
        let (got, pieces) = sink.collected
        #expect(got == bytes)
        #expect(pieces > 1)
    }

    /// An error answer's body stays in the error (its prefix), never reaches the sink.
    @Test func anErrorBodyDoesNotReachTheSink() async throws {
        let fixture = try Fixture()
        let url = fixture.server.url("/missing.ts")
        let sink = CollectingSink()
        do {
            _ = try await fixture.client.get(url, sink: sink)
            Issue.record("a 404 succeeded")
        } catch {
            guard case .status(url, 404, let prefix) = error else { Issue.record("got \(error)"); return }
            #expect(!prefix.isEmpty)
        }
        #expect(sink.collected.bytes.isEmpty)
    }

    /// A sink that refuses a piece stops the transfer with libcurl's write error (23).
    @Test func aRefusingSinkStopsTheTransfer() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("seg.ts", patternBytes(400_000))
        let sink = CollectingSink(refuseAfter: 1)
        do {
            _ = try await fixture.client.get(url, sink: sink)
            Issue.record("the transfer went on")
        } catch {
            guard case .transport(url, 23, _) = error else { Issue.record("got \(error)"); return }
        }
        #expect(sink.collected.bytes.count < 400_000)
    }
}

/// `get(_:range:headers:sink:)`: a range streamed to a sink (a download's resume).
@Suite struct HTTPBodySinkRangeTests {
    /// A 206 is checked and told to begin at the offset; the sink gets the rest of the resource.
    @Test func aRangeBeginsAtItsOffset() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(400_000)
        let url = try fixture.write("seg.ts", bytes)
        let sink = CollectingSink()
        let response = try await fixture.client.get(url, range: ByteRangeRequest(offset: 123_456), sink: sink)
        #expect(response.status == 206 && !response.rangeIgnoredByServer && response.resourceLength == bytes.count)
        #expect(sink.begun.map(\.offset) == [123_456])
        #expect(sink.begun.first?.header("Content-Range") == "bytes 123456-399999/400000")
        #expect(sink.begun.first?.header("ETag") != nil)
        #expect(sink.collected.bytes == Array(bytes[123_456...]))
    }

    /// A server that ignores Range: the sink is told the body begins at 0 and gets it whole, uncut.
    @Test func aServerIgnoringTheRangeGivesTheWholeBodyFromZero() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(400_000)
        let url = try fixture.write("seg.ts", bytes)
        fixture.server.setFault(.ignoreRange, forPath: "/seg.ts")
        let sink = CollectingSink()
        let response = try await fixture.client.get(url, range: ByteRangeRequest(offset: 123_456), sink: sink)
        #expect(response.status == 200 && response.rangeIgnoredByServer && response.resourceLength == bytes.count)
        #expect(sink.begun.map(\.offset) == [0])
        #expect(sink.collected.bytes == bytes)
    }

    /// A range past the end is a 416 error; nothing reaches the sink.
    @Test func aRangePastTheEndIsAnError() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("seg.ts", patternBytes(1000))
        let sink = CollectingSink()
        do {
            _ = try await fixture.client.get(url, range: ByteRangeRequest(offset: 1000), sink: sink)
            Issue.record("a range past the end succeeded")
        } catch {
            guard case .status(url, 416, _) = error else { Issue.record("got \(error)"); return }
        }
        #expect(sink.begun.isEmpty && sink.collected.bytes.isEmpty)
    }
}

/// The origin sends a large body from its file, piece by piece (it held one whole file per request in
/// memory: six slow clients of a 312 MB file took it to 3.7 GB): the bytes are the file's, whole, by range,
/// and cut short by a truncate fault.
@Suite struct OriginLargeBodyTests {
    @Test func aLargeFileIsSentFromItsFile() async throws {
        let fixture = try Fixture(configuration: .init(maxBodyBytes: 64 << 20))
        let bytes = patternBytes(3 << 20)
        let url = try fixture.write("big.ts", bytes)
        #expect(try await fixture.client.get(url).body == bytes)
        let range = try await fixture.client.get(url, range: ByteRangeRequest(offset: 1_000_001, length: 1_500_000))
        #expect(range.status == 206 && range.body == Array(bytes[1_000_001..<2_500_001]))
        fixture.server.setFault(.truncate(afterBytes: 2_000_000), forPath: "/big.ts", times: 1)
        do {
            _ = try await fixture.client.get(url)
            Issue.record("a truncated body was taken whole")
        } catch {
            guard case .transport(url, 18, _) = error else { Issue.record("got \(error)"); return }  // CURLE_PARTIAL_FILE
        }
    }
}
