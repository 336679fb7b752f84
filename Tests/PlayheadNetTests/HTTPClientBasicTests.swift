import Foundation
import PlayheadNet
import PlayheadOrigin
import Testing

@Suite struct HTTPClientBasicTests {
    @Test func plainGetReturnsBodyHeadersAndOrderedTimings() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(100_000)
        let url = try fixture.write("seg.ts", bytes)
        let response = try await fixture.client.get(url)
        #expect(response.status == 200)
        #expect(response.body == bytes)
        #expect(response.url == url && response.effectiveURL == url)
        #expect(response.header("content-type") == "video/mp2t")
        #expect(response.resourceLength == bytes.count)
        #expect(!response.rangeIgnoredByServer)
        let t = response.timings
        #expect(t.total >= t.firstByte && t.firstByte >= t.connect && t.connect >= 0)
        #expect(t.bytesReceived == bytes.count && t.bytesOnWire == bytes.count)
        #expect(!t.reusedConnection)
        #expect(t.startedAt <= ContinuousClock.now)
    }

    /// A body past ``HTTPClientConfiguration/maxBodyBytes`` is stopped there with an error naming the
    /// URL and the limit (not retried); one of exactly the limit arrives whole.
    @Test func bodiesPastTheLimitAreRefused() async throws {
        let fixture = try Fixture(configuration: .init(maxBodyBytes: 5_000))
        let big = try fixture.write("big.ts", patternBytes(10_000))
        let exact = try fixture.write("exact.ts", patternBytes(5_000))
        let error = await fetchError(fixture.client, big)
        #expect(error == .tooLarge(url: big, limit: 5_000))
        #expect(error?.isRetryable == false)
        #expect(error?.description.contains("larger than 5000 bytes") == true)
        #expect(try await fixture.client.get(exact).body == patternBytes(5_000))
    }

    @Test func byteRangesReturnExactBytes() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(10_000)
        let url = try fixture.write("single.mp4", bytes)

        let middle = try await fixture.client.get(url, range: ByteRangeRequest(offset: 1000, length: 500))
        #expect(middle.status == 206)
        #expect(middle.body == Array(bytes[1000..<1500]))
        #expect(middle.resourceLength == bytes.count)

        let tail = try await fixture.client.get(url, range: ByteRangeRequest(offset: 9_900))
        #expect(tail.status == 206 && tail.body == Array(bytes[9_900...]))

        let pastEnd = try await fixture.client.get(url, range: ByteRangeRequest(offset: 9_990, length: 100))
        #expect(pastEnd.body == Array(bytes[9_990...]))
        #expect(fixture.server.requestLog.map(\.rangeHeader) == ["bytes=1000-1499", "bytes=9900-", "bytes=9990-10089"])
    }

    @Test func rangePastTheEndFailsWith416NamingTheURL() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("short.ts", patternBytes(100))
        let error = await fetchError(fixture.client, url, range: ByteRangeRequest(offset: 500, length: 10))
        guard case .status(let failedURL, let code, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(failedURL == url && code == 416)
        #expect(error!.description.contains(url) && error!.description.contains("416"))
        #expect(error?.isRetryable == false)
    }

    @Test func rangeIgnoredByServerIsSlicedByTheClient() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(4_000_000)
        let url = try fixture.write("whole.ts", bytes)
        fixture.server.setFault(.ignoreRange, forPath: "/whole.ts")
        let response = try await fixture.client.get(url, range: ByteRangeRequest(offset: 1234, length: 100))
        #expect(response.status == 200)
        #expect(response.rangeIgnoredByServer)
        #expect(response.body == Array(bytes[1234..<1334]))
        #expect(response.resourceLength == bytes.count)
        // Reading stopped once the range was in hand.
        #expect(response.timings.bytesReceived >= 1334 && response.timings.bytesReceived < bytes.count)
        let open = try await fixture.client.get(url, range: ByteRangeRequest(offset: 3_999_000))
        #expect(open.rangeIgnoredByServer && open.body == Array(bytes[3_999_000...]))
        #expect(open.timings.bytesReceived == bytes.count)
        let beyond = await fetchError(fixture.client, url, range: ByteRangeRequest(offset: 5_000_000, length: 10))
        guard case .transport(url, 33, _)? = beyond else { Issue.record("got \(String(describing: beyond))"); return }
    }

    @Test func notFoundFailsWithStatusNamingTheURL() async throws {
        let fixture = try Fixture()
        let url = fixture.server.url("/missing.m3u8")
        let error = await fetchError(fixture.client, url)
        guard case .status(let failedURL, 404, let bodyPrefix)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(failedURL == url)
        #expect(!bodyPrefix.isEmpty)
        #expect(error!.description.contains(url) && error!.description.contains("404"))
    }

    @Test func refusedConnectionIsATransportErrorNamingTheURL() async throws {
        let fixture = try Fixture()
        // A port held bound without a listener: a stopped server's port could be handed to another
        // test's server in the meantime.
        let refusing = try RefusingPort()
        defer { refusing.stop() }
        let url = refusing.baseURL + "/a.ts"
        let error = await fetchError(fixture.client, url)
        guard case .transport(let failedURL, let code, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(failedURL == url && code == 7, "\(error!)")  // CURLE_COULDNT_CONNECT
        #expect(error!.description.contains(url))
        #expect(error?.isRetryable == true)
    }

    @Test func truncatedBodyIsATransportError() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("cut.ts", patternBytes(4_000))
        fixture.server.setFault(.truncate(afterBytes: 1_000), forPath: "/cut.ts")
        let error = await fetchError(fixture.client, url)
        guard case .transport(url, 18, _)? = error else { Issue.record("got \(String(describing: error))"); return }  // CURLE_PARTIAL_FILE
    }

    /// A redirect to a scheme the client does not follow (file:) is a transport error that says so, not a bad URL:
    /// the URL asked for was fine.
    @Test func aRedirectToAFileURLIsATransportErrorNotABadURL() async throws {
        let fixture = try Fixture()
        let url = try fixture.write("moved.ts", patternBytes(100))
        fixture.server.setFault(.redirect("file:///etc/passwd"), forPath: "/moved.ts")
        let error = await fetchError(fixture.client, url)
        guard case let .transport(named, 1, message)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(named == url && !message.isEmpty, "\(message)")
        // A redirect inside the server is followed.
        let target = try fixture.write("target.ts", patternBytes(100))
        fixture.server.setFault(.redirect("/target.ts"), forPath: "/moved.ts")
        let followed = try await fixture.client.get(url)
        #expect(followed.body == patternBytes(100) && followed.effectiveURL == target)
    }

    @Test func fileURLsWorkWithAndWithoutRanges() async throws {
        let fixture = try Fixture()
        let bytes = patternBytes(3_000)
        try fixture.write("local.m4s", bytes)
        let url = fixture.fileURL("local.m4s")
        let whole = try await fixture.client.get(url)
        #expect(whole.status == 200 && whole.body == bytes)
        let part = try await fixture.client.get(url, range: ByteRangeRequest(offset: 10, length: 20))
        #expect(part.body == Array(bytes[10..<30]))
        #expect(whole.resourceLength == bytes.count && part.resourceLength == bytes.count)
        let missing = await fetchError(fixture.client, fixture.fileURL("nope.ts"))
        #expect(missing?.url == fixture.fileURL("nope.ts"))
    }

    @Test func badURLsAndArgumentsFailBeforeTheNetwork() async throws {
        let client = HTTPClient()
        #expect(await fetchError(client, "") == .invalidURL(""))
        #expect(await fetchError(client, "gopher://example.invalid/x") == .invalidURL("gopher://example.invalid/x"))
        // Its URL and description name the URL (reading the URL of an invalidURL called itself for ever and crashed).
        let unsupported = await fetchError(client, "foo://127.0.0.1/x.m3u8")
        #expect(unsupported?.url == "foo://127.0.0.1/x.m3u8")
        #expect(unsupported?.description.contains("foo://127.0.0.1/x.m3u8") == true)
        guard case .transport(_, 43, _)? = await fetchError(client, "http://127.0.0.1:1/", range: ByteRangeRequest(offset: -1, length: 2)) else {
            Issue.record("negative offset accepted"); return
        }
        #expect(!HTTPClient.curlVersion.isEmpty)
    }
}

@Suite struct HTTPClientConnectTimeoutTests {
    @Test func connectTimeoutFiresWhenTheHandshakeHangs() async throws {
        let listener = try UnresponsiveListener()
        defer { listener.stop() }
        let client = HTTPClient(configuration: .init(connectTimeout: .milliseconds(300)))
        let url = listener.baseURL + "/x.m3u8"
        let started = ContinuousClock.now
        let error = await fetchError(client, url)
        #expect(error == .timeout(url: url, phase: .connect, after: 0.3))
        #expect(ContinuousClock.now - started < .seconds(20), "the handshake would hang forever")
    }
}
