import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// The playback service client against the mock Playback API on 127.0.0.1: the requests it makes (paths,
/// paging, the policy key and token headers as the server saw them) and every failure mapped to an error
/// naming the URL and the service's code.
@Suite struct PlaybackServiceTests {
    /// A server with three videos (one with a bumper_id, one MP4 only) and a playlist of five entries.
    static func server(token: String? = nil) throws -> PlaybackAPIServer {
        let server = try PlaybackAPIServer(accountId: "57838016001", policyKey: "BCpkADawqM-test", authToken: token)
        try server.registerVideo(json: PlaybackAPIServer.videoDocument(id: "101", referenceId: "first", name: "First", durationSeconds: 30,
                                                                       hlsURL: server.url("/ts/master.m3u8"), mp4URL: "https://x/101.mp4",
                                                                       customFields: ["bumper_id": "103"], tags: ["a"], accountId: "57838016001"))
        try server.registerVideo(json: PlaybackAPIServer.videoDocument(id: "102", referenceId: "second thing/2", name: "Second", durationSeconds: 10,
                                                                       hlsURL: nil, mp4URL: "https://x/102.mp4", dashURL: "https://x/102.mpd"))
        try server.registerVideo(json: PlaybackAPIServer.videoDocument(id: "103", name: "Bumper", durationSeconds: 5, hlsURL: server.url("/ad/master.m3u8")))
        for id in ["104", "105"] {
            try server.registerVideo(json: PlaybackAPIServer.videoDocument(id: id, name: "V\(id)", durationSeconds: 1, hlsURL: server.url("/\(id).m3u8")))
        }
        server.registerPlaylist(id: "900", referenceId: "top-five", name: "Top five", videoIds: ["101", "102", "103", "104", "105"])
        return server
    }

    @Test func findsVideosByIdAndReferenceWithThePolicyKey() async throws {
        let server = try Self.server()
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        let video = try await service.findVideo(.id("101"))
        #expect(video.id == "101" && video.name == "First" && video.durationSeconds == 30 && video.referenceId == "first")
        #expect(video.sources.map(\.delivery) == [.hls, .mp4])
        #expect(try SourceSelectionPolicy.default.select(from: video).src == server.url("/ts/master.m3u8"))
        let byReference = try await service.findVideo(.referenceId("second thing/2"))
        #expect(byReference.id == "102")

        let requests = server.requests
        #expect(requests.map(\.path) == ["/playback/v1/accounts/57838016001/videos/101", "/playback/v1/accounts/57838016001/videos/ref:second thing/2"])
        #expect(requests.allSatisfy { $0.accept == "application/json;pk=BCpkADawqM-test" && $0.authorization == nil && $0.status == 200 })
        // The reference id is escaped in the URL (its space and slash), decoded by the server.
        #expect(service.videoURL(.referenceId("second thing/2")).hasSuffix("/videos/ref:second%20thing%2F2"))
    }

    @Test func pagesThroughAPlaylist() async throws {
        let server = try Self.server()
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        let whole = try await service.findPlaylist(.id("900"))
        #expect(whole.videos.map(\.id) == ["101", "102", "103", "104", "105"] && whole.count == 5 && whole.hasMore == false)
        var pages: [[String]] = []
        var offset = 0
        while true {
            let page = try await service.findPlaylist(.referenceId("top-five"), limit: 2, offset: offset)
            pages.append(page.videos.map(\.id))
            #expect(page.name == "Top five" && page.id == "900")
            guard page.hasMore == true else { break }
            offset += page.videos.count
        }
        #expect(pages == [["101", "102"], ["103", "104"], ["105"]])
        #expect(server.requests.map(\.query) == [nil, "limit=2&offset=0", "limit=2&offset=2", "limit=2&offset=4"])
        await #expect(throws: CatalogueError.invalidRequest("limit must be 1 or more, got 0")) { try await service.findPlaylist(.id("900"), limit: 0) }
    }

    /// A playlist longer than a page (the service's default page is 20; here 2): the whole playlist is every page,
    /// not the first (a queue of bc:playlist: played 20 of 25).
    @Test func theWholePlaylistIsEveryPage() async throws {
        let server = try Self.server()
        server.defaultLimit = 2
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        #expect(try await service.findPlaylist(.id("900")).videos.count == 2)
        let whole = try await service.findWholePlaylist(.id("900"), pageSize: 2)
        #expect(whole.videos.map(\.id) == ["101", "102", "103", "104", "105"])
        #expect(server.requests.map(\.query) == [nil, nil, "limit=2&offset=2", "limit=2&offset=4"])
    }

    /// Ids and accounts of dots are refused (URL normalisation would take `..` as the parent); sources the player
    /// cannot fetch are never chosen, and a relative one counts from the service's URL.
    @Test func dotIdsAreRefusedAndUnfetchableSourcesAreNotChosen() async throws {
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: "http://127.0.0.1:1", accountId: "1", policyKey: "k", client: client)
        await #expect(throws: CatalogueError.invalidRequest("\"..\" is not an id")) { try await service.findVideo(.id("..")) }
        let dots = PlaybackService(baseURL: "http://127.0.0.1:1", accountId: ".", policyKey: "k", client: client)
        await #expect(throws: CatalogueError.invalidRequest("\".\" is not an account id")) { try await dots.findVideo(.id("7")) }
        let json = #"{"id": "7", "sources": [{"src": "ftp://h/a.m3u8", "type": "application/x-mpegURL"}, {"src": " v/7/index.m3u8 ", "type": "application/x-mpegURL"}]}"#
        let video = try CatalogueJSON.video(from: Array(json.utf8), url: "http://api.example/playback/v1/accounts/1/videos/7")
        #expect(try SourceSelectionPolicy.default.select(from: video).src == "http://api.example/playback/v1/accounts/1/videos/v/7/index.m3u8")
    }

    @Test func theBumperInCustomFieldsTakesPrecedence() async throws {
        let server = try Self.server()
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        let first = try await service.findVideo(.id("101"))
        #expect(try await service.findBumper(for: first, configured: .id("104"))?.id == "103")
        let second = try await service.findVideo(.id("102"))
        #expect(try await service.findBumper(for: second, configured: .id("104"))?.id == "104")
        #expect(try await service.findBumper(for: second) == nil)
    }

    @Test func errorsNameTheURLAndTheServicesCode() async throws {
        let server = try Self.server(token: "jwt-abc")
        let client = HTTPClient()
        defer { client.shutdown() }
        let good = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", authToken: "jwt-abc", client: client,
                                   retryDelay: .zero)

        // The token reaches the server as a bearer token.
        _ = try await good.findVideo(.id("101"))
        #expect(server.requests.last?.authorization == "Bearer jwt-abc")

        func failure(_ work: () async throws -> Void) async -> CatalogueError? {
            do { try await work() } catch { return error as? CatalogueError }
            return nil
        }
        let notFound = await failure { _ = try await good.findVideo(.id("999")) }
        #expect(notFound == .api(url: good.videoURL(.id("999")), status: 404, code: "VIDEO_NOT_FOUND", subcode: nil, message: "The designated resource was not found."))
        #expect(notFound?.description == "VIDEO_NOT_FOUND from \(good.videoURL(.id("999"))), HTTP 404: The designated resource was not found.")
        let noPlaylist = await failure { _ = try await good.findPlaylist(.referenceId("nope")) }
        #expect(noPlaylist?.errorCode == "RESOURCE_NOT_FOUND" && noPlaylist?.httpStatus == 404)

        let badKey = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "wrong", authToken: "jwt-abc", client: client)
        let keyError = await failure { _ = try await badKey.findVideo(.id("101")) }
        #expect(keyError?.errorCode == "INVALID_POLICY_KEY" && keyError?.httpStatus == 403)
        #expect(server.requests.last?.accept == "application/json;pk=wrong")

        let noToken = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        let tokenError = await failure { _ = try await noToken.findVideo(.id("101")) }
        #expect(tokenError == .api(url: noToken.videoURL(.id("101")), status: 403, code: "ACCESS_DENIED", subcode: "TOKEN_REQUIRED",
                                   message: "a playback authorization token is required"))
        let badToken = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", authToken: "jwt-other", client: client)
        #expect(await failure { _ = try await badToken.findVideo(.id("101")) }?.description.contains("ACCESS_DENIED (INVALID_TOKEN)") == true)

        let otherAccount = PlaybackService(baseURL: server.baseURL, accountId: "1", policyKey: "BCpkADawqM-test", authToken: "jwt-abc", client: client)
        #expect(await failure { _ = try await otherAccount.findVideo(.id("101")) }?.errorCode == "ACCOUNT_MISMATCH")

        // A 500 without an error array, three times (the request and its two retries): the status and the body's start.
        server.setFault(.status(500), forPath: "/playback/v1/accounts/57838016001/videos/101", times: 3)
        let serverError = await failure { _ = try await good.findVideo(.id("101")) }
        // All three faults were taken: the next single request gets the video.
        let single = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", authToken: "jwt-abc",
                                     client: client, retries: 0)
        #expect(try await single.findVideo(.id("101")).id == "101")
        guard case let .http(url, status, body) = serverError else { Issue.record("\(String(describing: serverError))"); return }
        #expect(url == good.videoURL(.id("101")) && status == 500 && body.contains("fault injected"))

        // A 200 whose body is not JSON, and one with a wrong field: the path is named.
        server.registerRawVideo(id: "bad1", body: "<html>maintenance</html>")
        let notJSON = await failure { _ = try await good.findVideo(.id("bad1")) }
        #expect(notJSON?.description.hasPrefix("\(good.videoURL(.id("bad1"))): $: not JSON") == true, "\(String(describing: notJSON))")
        server.registerRawVideo(id: "bad2", body: #"{"id": "bad2", "sources": [{"src": "https://a/m.m3u8", "type": "application/x-mpegURL"}, {"src": false}]}"#)
        let wrongField = await failure { _ = try await good.findVideo(.id("bad2")) }
        #expect(wrongField == .malformed(url: good.videoURL(.id("bad2")), path: "$.sources[1].src", problem: "expected text, found a boolean"))

        // Nobody listening.
        let refused = PlaybackService(baseURL: "http://127.0.0.1:9", accountId: "1", policyKey: "k", client: client, retryDelay: .zero)
        let transport = await failure { _ = try await refused.findVideo(.id("1")) }
        guard case .transport(let transportURL, _) = transport else { Issue.record("\(String(describing: transport))"); return }
        #expect(transportURL == "http://127.0.0.1:9/playback/v1/accounts/1/videos/1")
        await #expect(throws: CatalogueError.invalidRequest("the service URL must be http, https or file, got \"ftp://x\"")) {
            try await PlaybackService(baseURL: "ftp://x", accountId: "1", policyKey: "k", client: client).findVideo(.id("1"))
        }
    }

    /// A 503 or a 429 is asked again (twice by default) and then succeeds; a 404 is the answer and is asked
    /// once; `retries: 0` takes the first answer. A 200 carrying an error array is that error.
    @Test func passingFailuresAreRetriedAndMeantOnesAreNot() async throws {
        let server = try Self.server()
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client, retryDelay: .zero)
        let path = server.videoPath("101")
        server.setFault(.status(503), forPath: path, times: 2)
        #expect(try await service.findVideo(.id("101")).id == "101")
        server.setFault(.status(429), forPath: path, times: 1)
        #expect(try await service.findVideo(.id("101")).id == "101")
        let missing = server.requests.count
        await #expect(throws: CatalogueError.self) { try await service.findVideo(.id("999")) }
        #expect(server.requests.count - missing == 1)
        let once = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client, retries: 0)
        server.setFault(.status(503), forPath: path, times: 1)
        await #expect(throws: CatalogueError.self) { try await once.findVideo(.id("101")) }

        server.registerRawVideo(id: "gate", body: #"[{"error_code": "SERVER_ERROR", "message": "upstream down"}]"#)
        await #expect(throws: CatalogueError.api(url: service.videoURL(.id("gate")), status: 200, code: "SERVER_ERROR", subcode: nil,
                                                 message: "upstream down")) { try await service.findVideo(.id("gate")) }
    }

    /// A playlist entry that is not a readable video is skipped (with its index, its id and the JSON path of
    /// the problem); the others are kept, and paging counts it as an entry.
    @Test func aMalformedPlaylistEntryIsSkippedNotFatal() async throws {
        let server = try Self.server()
        server.registerRawVideo(id: "106", body: #"{"id": "106", "sources": [{"src": 7}]}"#)
        server.registerPlaylist(id: "901", name: "With a bad one", videoIds: ["101", "106", "103", "104"])
        server.defaultLimit = 2
        let client = HTTPClient()
        defer { client.shutdown() }
        let service = PlaybackService(baseURL: server.baseURL, accountId: "57838016001", policyKey: "BCpkADawqM-test", client: client)
        let whole = try await service.findWholePlaylist(.id("901"), pageSize: 2)
        #expect(whole.videos.map(\.id) == ["101", "103", "104"])
        #expect(whole.skipped.count == 1)
        let skipped = try #require(whole.skipped.first)
        #expect(skipped.index == 1 && skipped.id == "106")
        #expect(skipped.reason.contains("$.videos[1].sources[0].src: expected text, found a number"), "\(skipped.reason)")
        #expect(server.requests.map(\.query) == [nil, "limit=2&offset=2"])
    }
}
