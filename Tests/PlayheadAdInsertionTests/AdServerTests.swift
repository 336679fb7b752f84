import Foundation
import PlayheadAds
import PlayheadNet
import PlayheadOrigin
import Testing

/// The test ad server: documents by path, beacons recorded in order (Swift and `GET /beacons`),
/// media from a folder, faults on demand.
@Suite struct AdServerTests {
    @Test func servesRegisteredDocumentsAndRecordsBeaconsInOrder() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        server.register("<VAST version=\"3.0\"/>", at: "/vast/empty.xml")
        let document = try await client.get(server.url("/vast/empty.xml"))
        #expect(String(decoding: document.body, as: UTF8.self) == "<VAST version=\"3.0\"/>")
        #expect(document.header("Content-Type") == "application/xml")

        let before = Date()
        for event in ["impression", "start", "firstQuartile"] {
            _ = try await client.get(server.url("/beacon/\(event)?ad=a1&t=00%3A00%3A01.000"))
        }
        let hits = server.beacons
        #expect(hits.map(\.event) == ["impression", "start", "firstQuartile"])
        #expect(hits.map(\.sequence) == [1, 2, 3])
        #expect(hits.allSatisfy { $0.status == 200 && $0.wallTime >= before.addingTimeInterval(-1) })
        #expect(hits[2].query == "ad=a1&t=00%3A00%3A01.000")
        #expect(hits[2].parameter("t") == "00:00:01.000")
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.wallTime <= $1.wallTime })

        let json = try await client.get(server.url(AdServer.beaconLogPath))
        let decoded = try JSONDecoder().decode([BeaconHit].self, from: Data(json.body))
        #expect(decoded.map(\.path) == hits.map(\.path))
        #expect(decoded.map(\.query) == hits.map(\.query))
        #expect(decoded.map(\.sequence) == [1, 2, 3])

        server.removeDocument(at: "/vast/empty.xml")
        await #expect(throws: HTTPError.self) { _ = try await client.get(server.url("/vast/empty.xml")) }
    }

    @Test func failsOnDemandForSomeRequestsThenRecovers() async throws {
        let server = try AdServer()
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        server.setFault(.status(503), forPath: "/beacon/start", times: 1)
        let first = await Result(catching: { () async throws(HTTPError) in try await client.get(server.url("/beacon/start?n=1")) })
        guard case let .failure(.status(_, code, _)) = first else { Issue.record("expected 503, got \(first)"); return }
        #expect(code == 503)
        _ = try await client.get(server.url("/beacon/start?n=2"))
        #expect(server.beacons.map(\.status) == [503, 200])

        server.setFault(.closeConnection, forPath: "/vast/x.xml")
        server.register("<VAST version=\"3.0\"/>", at: "/vast/x.xml")
        let dropped = await Result(catching: { () async throws(HTTPError) in try await client.get(server.url("/vast/x.xml")) })
        guard case .failure(.transport) = dropped else { Issue.record("expected a transport error, got \(dropped)"); return }
        #expect(server.requestLog.last?.status == 0)
        server.setFault(nil, forPath: "/vast/x.xml")
        #expect(try await client.get(server.url("/vast/x.xml")).status == 200)
    }

    @Test func delayIsCutShortByTheClientTimeout() async throws {
        let server = try AdServer()
        let client = HTTPClient(configuration: .init(firstByteTimeout: .milliseconds(200), totalTimeout: .milliseconds(200)))
        defer { client.shutdown(); server.stop() }
        server.register("<VAST version=\"3.0\"/>", at: "/slow.xml")
        server.setFault(.delay(seconds: 2), forPath: "/slow.xml")
        // A timeout (not the 200 the server sends after 2 s) shows the delay was cut short.
        let result = await Result(catching: { () async throws(HTTPError) in try await client.get(server.url("/slow.xml")) })
        guard case .failure(.timeout) = result else { Issue.record("expected a timeout, got \(result)"); return }
    }

    @Test func servesAdMediaFromAFolderAndRefusesAMissingOne() async throws {
        let folder = NSTemporaryDirectory() + "playhead-ad-media-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/ad1", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: folder + "/ad1/index.m3u8"))
        let server = try AdServer(adMediaDirectory: folder)
        let client = HTTPClient()
        defer { client.shutdown(); server.stop() }
        let playlist = try await client.get(server.url("/ad1/index.m3u8"))
        #expect(String(decoding: playlist.body, as: UTF8.self) == "#EXTM3U\n")
        #expect(playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
        #expect(throws: AdServerError.notAFolder(folder + "/missing")) { try AdServer(adMediaDirectory: folder + "/missing") }
    }

    @Test func documentsBuilderWritesParsableVASTAndVMAP() throws {
        let server = try AdServer()
        defer { server.stop() }
        let ad = AdDocuments.tracked(id: "a1", sequence: 1, durationSeconds: 10, mediaURL: server.url("/ad1/index.m3u8"), server: server)
        let vast = AdDocuments.vast([ad])
        #expect(vast.contains("<Ad id=\"a1\" sequence=\"1\">"))
        #expect(vast.contains("<Duration>00:00:10.000</Duration>"))
        #expect(vast.contains("[CACHEBUSTING]"))
        let vmap = AdDocuments.vmap([
            .init(timeOffset: "start", breakId: "pre", source: .vast(vast)),
            .init(timeOffset: "00:00:30.000", breakId: "mid", source: .adTagURI(server.url("/vast/mid.xml"))),
        ])
        #expect(!vmap.dropFirst(10).contains("<?xml"))
        let parsedVAST = try VASTParser.parse(Array(vast.utf8))
        let linear = try #require(parsedVAST.ads.first?.inline?.linears.first)
        #expect(linear.durationSeconds == 10)
        #expect(linear.trackingEvents.urls(for: "midpoint") == [server.beaconURL(event: "midpoint", adId: "a1")])
        #expect(parsedVAST.ads.first?.inline?.creatives.flatMap(\.companionAds).first?.width == 300)
        let parsedVMAP = try VMAPParser.parse(Array(vmap.utf8))
        #expect(parsedVMAP.adBreaks.map(\.breakId) == ["pre", "mid"])
        guard case let .vastAdData(inline)? = parsedVMAP.adBreaks.first?.adSource?.content else {
            Issue.record("the pre-roll's VAST is not inline"); return
        }
        #expect(inline.ads.map(\.id) == ["a1"])
        #expect(parsedVMAP.adBreaks.last?.adSource?.content == .adTagURI(url: server.url("/vast/mid.xml"), templateType: "vast3"))
    }
}

extension Result where Failure == HTTPError {
    /// The outcome of an async call with typed throws.
    init(catching body: () async throws(HTTPError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
