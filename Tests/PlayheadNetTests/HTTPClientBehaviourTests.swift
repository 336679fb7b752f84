import Foundation
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

@Suite struct HTTPClientBehaviourTests {
    @Test func sequentialRequestsReuseOneConnection() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("live.m3u8", Array("#EXTM3U\n".utf8))
        let first = try await fixture.client.get(url)
        let second = try await fixture.client.get(url, range: ByteRangeRequest(offset: 1, length: 3))
        #expect(!first.timings.reusedConnection)
        #expect(second.timings.reusedConnection)
        #expect(first.header("Content-Type") == "application/vnd.apple.mpegurl")
        let ids = fixture.server.requestLog.map(\.connectionID)
        #expect(ids.count == 2 && ids[0] == ids[1])
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let fixture = try Fixture()
        let text = Array((0..<2_000).map { "#EXTINF:4.000,\nsegment\($0).ts\n" }.joined().utf8)
        let url = try fixture.write("big.m3u8", text)
        let gzip = TestProcess()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", "-9", fixture.directory + "/big.m3u8"]
        try ChildProcess.launch(gzip)
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)

        let response = try await fixture.client.get(url)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.body == text)
        #expect(response.timings.bytesReceived == text.count)
        #expect(response.timings.bytesOnWire < response.timings.bytesReceived / 4)
        #expect(fixture.server.requestLog.first?.acceptEncoding?.contains("gzip") == true)
    }

    @Test func firstByteTimeoutFires() async throws {
        let fixture = try Fixture(configuration: .init(firstByteTimeout: .milliseconds(300)))
        let url = try fixture.write("slow.ts", patternBytes(100))
        fixture.server.setFault(.delay(seconds: 30), forPath: "/slow.ts")
        let started = ContinuousClock.now
        let error = await fetchError(fixture.client, url)
        let elapsed = ContinuousClock.now - started
        #expect(error == .timeout(url: url, phase: .firstByte, after: 0.3))
        // The upper bound only says "long before the server would have answered" (30 s): the suite runs
        // tests in parallel on 2 cores, so tighter wall-clock bounds would be flaky.
        #expect(elapsed >= .milliseconds(290) && elapsed < .seconds(20))
        #expect(error!.description.contains(url) && error!.description.contains("first byte"))
    }

    @Test func totalTimeoutFiresWhenTheBodyStalls() async throws {
        let fixture = try Fixture(configuration: .init(firstByteTimeout: nil, totalTimeout: .milliseconds(300)))
        let url = try fixture.write("stall.ts", patternBytes(10_000))
        fixture.server.setFault(.stallAfter(bytes: 1_000), forPath: "/stall.ts")
        let started = ContinuousClock.now
        let error = await fetchError(fixture.client, url)
        #expect(error == .timeout(url: url, phase: .total, after: 0.3))
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    /// A body that starts, then stops: the stall timeout ends it long before the total timeout would.
    @Test func stallTimeoutFiresWhenTheBodyStopsAfterItStarted() async throws {
        let fixture = try Fixture(configuration: .init(firstByteTimeout: nil, totalTimeout: .seconds(60), stallTimeout: .milliseconds(300)))
        let url = try fixture.write("half.ts", patternBytes(10_000))
        fixture.server.setFault(.stallAfter(bytes: 5_000), forPath: "/half.ts")
        let started = ContinuousClock.now
        let error = await fetchError(fixture.client, url)
        #expect(error == .timeout(url: url, phase: .stall, after: 0.3))
        #expect(error?.description == "stall timeout after 0.3 s for \(url)")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func cancellingTheTaskCancelsTheTransfer() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("hang.ts", patternBytes(100))
        fixture.server.setFault(.delay(seconds: 30), forPath: "/hang.ts")
        let client = fixture.client
        let started = ContinuousClock.now
        let task = Task { await fetchError(client, url) }
        await fixture.server.waitForRequests(path: "/hang.ts")
        task.cancel()
        #expect(await task.value == .cancelled(url: url))
        #expect(ContinuousClock.now - started < .seconds(20), "long before the 30 s delay ends")

        let preCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await fetchError(client, url)
        }
        #expect(await preCancelled.value == .cancelled(url: url))
        // The client still works afterwards.
        fixture.server.setFault(nil, forPath: "/hang.ts")
        #expect(try await fixture.client.get(url).body == patternBytes(100))  // via fixture: keeps it alive
    }

    @Test func fiftyConcurrentRequestsEachGetTheirOwnBytes() async throws {
        let fixture = try Fixture()
        let files = try (0..<10).map { index in
            let bytes = (0..<(20_000 + index * 1_000)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3) &+ index) }
            return (try fixture.write("seg\(index).ts", bytes), bytes)
        }
        let client = fixture.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 0..<50 {
                let (url, bytes) = files[request % files.count]
                let range = request % 2 == 0 ? nil : ByteRangeRequest(offset: request * 100, length: 777)
                group.addTask {
                    let response = try await client.get(url, range: range)
                    let expected = range.map { Array(bytes[$0.offset..<($0.offset + 777)]) } ?? bytes
                    #expect(response.body == expected, "request \(request) for \(url)")
                }
            }
            try await group.waitForAll()
        }
        let log = fixture.server.requestLog
        #expect(log.count == 50)
        #expect(Set(log.map(\.connectionID)).count <= HTTPClientConfiguration.defaultMaxConnectionsPerHost)
    }

    @Test func corruptFaultChangesBytesButNotLength() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(8_192)
        let url = try fixture.write("bad.ts", bytes)
        fixture.server.setFault(.corrupt(seed: 42), forPath: "/bad.ts")
        let first = try await fixture.client.get(url)
        let second = try await fixture.client.get(url)
        #expect(first.body.count == bytes.count && first.body != bytes)
        #expect(first.body == second.body)
    }

    @Test func statusFaultAndShutdown() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("busy.ts", patternBytes(10))
        fixture.server.setFault(.status(503), forPath: "/busy.ts")
        let error = await fetchError(fixture.client, url)
        guard case .status(url, 503, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(error?.isRetryable == true)
        fixture.client.shutdown()
        #expect(await fetchError(fixture.client, url) == .cancelled(url: url))
    }
}
