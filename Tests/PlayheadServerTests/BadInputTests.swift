import Foundation
import Hummingbird
import HummingbirdTesting
import PlayheadOrigin
import PlayheadServer
import Testing

/// Each bad input of issue #7 answers with its status and a JSON error, and loses nothing recorded.
@Suite struct BadInputTests {
    static let token = "s3cret"

    /// Runs `test` against the API routes (in memory, no socket) with a token, a 512-byte body limit and
    /// at most one running session.
    func withAPI(_ test: @escaping @Sendable (any TestClientProtocol, SessionManager) async throws -> Void) async throws {
        var settings = ServerSettings()
        settings.token = Self.token
        settings.maxBodyBytes = 512
        settings.maxSessions = 1
        let data = ServerFixtures.temporaryDirectory("bad-input")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let manager = try SessionManager(dataDirectory: data, maxSessions: 1)
        let responder = APIRoutes.responder(manager: manager, metrics: ServerMetrics(manager: manager), settings: settings)
        let app = Application(responder: responder)
        try await app.test(.router) { client in try await test(client, manager) }
        await manager.shutdown()
    }

    var auth: HTTPFields { [.authorization: "Bearer \(Self.token)", .contentType: "application/json"] }

    func error(_ body: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
        return try #require(object?["error"] as? [String: Any])
    }

    func post(_ client: any TestClientProtocol, _ json: String, headers: HTTPFields? = nil) async throws -> TestResponse {
        try await client.execute(uri: "/v1/sessions", method: .post, headers: headers ?? auth, body: ByteBuffer(string: json))
    }

    /// Posts each `(path, body, field)` to session `id`'s command `path`: each is a 400 naming `field`.
    func expectRefused(_ client: any TestClientProtocol, _ id: String, _ cases: [(String, String, String)]) async throws {
        for (path, body, field) in cases {
            let response = try await client.execute(uri: "/v1/sessions/\(id)/\(path)", method: .post, headers: auth, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest, "\(path) \(body)")
            #expect(try error(response.body)["field"] as? String == field, "\(path) \(body)")
        }
    }

    /// Waits until session `id` has ended (completed or error).
    func waitEnded(_ manager: SessionManager, _ id: String) async throws {
        while (try manager.store.session(id: id)?.status).map({ ["completed", "error"].contains($0) }) != true { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Creates a session from `spec` and waits until it is ready; its id.
    func createReady(_ client: any TestClientProtocol, _ manager: SessionManager, _ spec: String) async throws -> String {
        let created = try await post(client, spec)
        #expect(created.status == .created)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])?["id"] as? String)
        while (try manager.store.session(id: id)?.status) != "ready" { try await Task.sleep(for: .milliseconds(20)) }
        return id
    }

    @Test func malformedJSONIs400() async throws {
        try await withAPI { client, _ in
            let response = try await post(client, "{\"url\": ")
            #expect(response.status == .badRequest)
            #expect(try error(response.body)["code"] as? String == "malformedJSON")
            // An empty body is said to be empty (QA: "The given data was not valid JSON.").
            let empty = try await post(client, " \n")
            #expect(empty.status == .badRequest)
            #expect(try error(empty.body)["message"] as? String == "the body is not valid JSON: it is empty (a JSON object is required)")
            // Where it goes wrong (QA: "The given data was not valid JSON." and no more).
            let wrong = try await post(client, "{\"url\": \"http://127.0.0.1:1/a.m3u8\",\n  \"mode\": }")
            let wrongMessage = try error(wrong.body)["message"] as? String
            #expect(wrongMessage == "the body is not valid JSON: it goes wrong at line 2, column 11 (byte offset 47): "
                    + "expected a value (an object, array, string, number, true, false or null), found '}'", "\(wrongMessage ?? "")")
            let cut = try await post(client, "{\"url\": \"http://127.0.0.1:1/a.m3u8")
            let cutMessage = try error(cut.body)["message"] as? String ?? ""
            #expect(cutMessage == "the body is not valid JSON: it ends too soon: the string opened at byte 8 is never closed", "\(cutMessage)")
            // Tokens JSONDecoder took for a number out of range, and trailing commas it took (QA32); escapes and
            // literals Foundation said no place for (QA33).
            let cases = [(#"{"url":"x\q"}"#, #"line 1, column 10 (byte offset 9): \q is no escape (\" \\ \/ \b \f \n \r \t \uXXXX are)"#),
                         ("{\"url\":\"a\tb\"}", "line 1, column 10 (byte offset 9): a raw control character (U+0009) in a string: write it as an escape"),
                         (#"{"url": 01}"#, "line 1, column 9 (byte offset 8): a number with a leading zero"),
                         (#"{"url": "http://127.0.0.1:1/a.m3u8",}"#, "line 1, column 36 (byte offset 35): a comma before '}'"),
                         (##"{"url": "http://127.0.0.1:1/a.m3u8", "subscribedTags": ["#A",]}"##, "line 1, column 61 (byte offset 60): a comma before ']'"),
                         (#"{"url": "\ud800"}"#, #"line 1, column 10 (byte offset 9): \uD800 is a high surrogate without a low one after it"#),
                         (#"{"url": "\uZZZZ"}"#, #"line 1, column 10 (byte offset 9): \u needs four hex digits"#),
                         (#"{"url":tru}"#, "line 1, column 8 (byte offset 7): expected true")]
            for (body, position) in cases {
                let response = try await post(client, body)
                let message = try error(response.body)["message"] as? String ?? ""
                #expect(response.status == .badRequest && message == "the body is not valid JSON: it goes wrong at " + position, "\(body): \(message)")
            }
        }
    }

    /// A key given twice in one object is refused, named by its path (JSONDecoder kept one silently).
    @Test func aKeyGivenTwiceIs400NamingIt() async throws {
        try await withAPI { client, _ in
            let body = #"{"url": "http://127.0.0.1:1/a.m3u8", "abr": {"variant": 0, "variant": 1}}"#
            let response = try await post(client, body)
            #expect(response.status == .badRequest)
            #expect(try error(response.body)["code"] as? String == "malformedJSON")
            #expect(try error(response.body)["message"] as? String == "the body is not valid JSON: $.abr.variant is given twice (the second at line 1, column 60 (byte offset 59))")
            // Escapes are read: "\u0075rl" is "url".
            let escaped = try await post(client, #"{"url": "http://127.0.0.1:1/a.m3u8", "\u0075rl": "http://127.0.0.1:1/b.m3u8"}"#)
            #expect(try error(escaped.body)["message"] as? String == "the body is not valid JSON: $.url is given twice (the second at line 1, column 38 (byte offset 37))")
            // Inside an array, the element is named by its index.
            let inArray = try await post(client, #"{"url": "http://127.0.0.1:1/a.m3u8", "x": [{"a": 1}, {"b": 1, "b": 2}]}"#)
            let inArrayMessage = try error(inArray.body)["message"] as? String ?? ""
            #expect(inArrayMessage.hasPrefix("the body is not valid JSON: $.x[1].b is given twice"), "\(inArrayMessage)")
            // The same name in two objects, or as a string value, is no duplicate.
            let distinct = try await post(client, #"{"url": "http://127.0.0.1:1/a.m3u8", "tags": ["url"], "abr": {"url": 1}}"#)
            let distinctError = try error(distinct.body)
            #expect(distinctError["code"] as? String == "unknownField", "\(distinctError)")
        }
    }

    /// A body that is not UTF-8 is named so, with the byte (it was "a number out of range"); a bad seek
    /// body's message holds no Swift type names.
    @Test func badUTF8AndBadSeekBodiesSayWhatIsWrong() async throws {
        try await withAPI { client, _ in
            var bytes = ByteBuffer(string: #"{"url":"http://127.0.0.1:1/"#)
            bytes.writeBytes([0xFF])
            bytes.writeString(#"x.m3u8"}"#)
            let response = try await client.execute(uri: "/v1/sessions", method: .post, headers: auth, body: bytes)
            #expect(response.status == .badRequest)
            let message = try error(response.body)["message"] as? String ?? ""
            #expect(message.contains("not valid UTF-8 (at byte offset 27, counted from 0)"), "\(message)")
            let seek = try await client.execute(uri: "/v1/sessions/nope/seek", method: .post, headers: auth, body: ByteBuffer(string: "nope"))
            #expect(seek.status == .badRequest)
            let seekMessage = try error(seek.body)["message"] as? String ?? ""
            #expect(!seekMessage.contains("DecodingError") && !seekMessage.contains("Context("), "\(seekMessage)")
        }
    }

    @Test func unknownFieldsAre400NamingTheField() async throws {
        try await withAPI { client, _ in
            let top = try await post(client, #"{"url": "http://127.0.0.1:1/a.m3u8", "colour": "red"}"#)
            #expect(top.status == .badRequest)
            #expect(try error(top.body)["field"] as? String == "colour")
            let nested = try await post(client, #"{"url": "http://127.0.0.1:1/a.m3u8", "abr": {"variant": 0, "speed": 2}}"#)
            #expect(nested.status == .badRequest)
            #expect(try error(nested.body)["field"] as? String == "abr.speed")
            #expect(try error(nested.body)["code"] as? String == "unknownField")
        }
    }

    @Test func badURLAndBadValuesAre400NamingTheField() async throws {
        try await withAPI { client, _ in
            for (json, field) in [
                (#"{"url": "not a url"}"#, "url"), (#"{"url": "ftp://host/x.m3u8"}"#, "url"), (#"{"url": 12}"#, "url"),
                (#"{"url": "http://h/mas ter.m3u8"}"#, "url"), (#"{"url": "http://h/x.m3u8\t"}"#, "url"),
                (#"{}"#, "url"), (#"{"url": "http://h/x.m3u8", "clock": "sundial"}"#, "clock"),
                (#"{"url": "http://h/x.m3u8", "durationSeconds": "long"}"#, "durationSeconds"),
                (#"{"url": "http://h/x.m3u8", "autoplay": 1}"#, "autoplay"),
                (##"{"url": "http://h/x.m3u8", "subscribedTags": ["#EXT-X-DATERANGE", 3]}"##, "subscribedTags[1]"),
                (#"{"url": "http://h/x.m3u8", "abr": {"minBufferSeconds": 40}}"#, "abr.minBufferSeconds"),
                (#"{"url": "http://h/x.m3u8", "abr": {"minBufferSeconds": 10, "maxBufferSeconds": 5}}"#, "abr.maxBufferSeconds"),
                (#"{"url": "http://h/x.m3u8", "ads": {"enabled": true}}"#, "ads.adTagURL"),
            ] {
                let response = try await post(client, json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(try error(response.body)["field"] as? String == field, "\(json)")
            }
        }
    }

    @Test func unknownSessionIs404() async throws {
        try await withAPI { client, _ in
            for (method, path) in [(HTTPRequest.Method.get, "/v1/sessions/nope"), (.post, "/v1/sessions/nope/play"),
                                   (.post, "/v1/sessions/nope/pause"), (.post, "/v1/sessions/nope/stop"),
                                   (.get, "/v1/sessions/nope/events"), (.get, "/v1/sessions/nope/report"),
                                   (.get, "/v1/sessions/nope/report.html"), (.delete, "/v1/sessions/nope")] {
                let response = try await client.execute(uri: path, method: method, headers: auth)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(try error(response.body)["code"] as? String == "notFound")
            }
            let seek = try await client.execute(uri: "/v1/sessions/nope/seek", method: .post, headers: auth, body: ByteBuffer(string: #"{"seconds": 3}"#))
            #expect(seek.status == .notFound)
        }
    }

    @Test func unknownRoutesAndMethodsAnswerInJSON() async throws {
        try await withAPI { client, _ in
            let unknown = try await client.execute(uri: "/v2/things", method: .get, headers: auth)
            #expect(unknown.status == .notFound)
            #expect(try error(unknown.body)["message"] as? String == "no route /v2/things")
            let put = try await client.execute(uri: "/v1/sessions", method: .put, headers: auth)
            #expect(put.status == .methodNotAllowed)
            #expect(put.headers[.allow] == "POST, GET, HEAD")
            #expect(try error(put.body)["code"] as? String == "methodNotAllowed")
            let play = try await client.execute(uri: "/v1/sessions/abc/play", method: .get, headers: auth)
            #expect(play.status == .methodNotAllowed && play.headers[.allow] == "POST")
            // HEAD is answered as GET without the body.
            let head = try await client.execute(uri: "/healthz", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            let missing = try await client.execute(uri: "/v1/sessions/nope", method: .head, headers: auth)
            #expect(missing.status == .notFound)
        }
    }

    @Test func theResumePointIsNamedAsGiven() async throws {
        try await withAPI { client, manager in
            let id = try manager.create(SessionSpec(url: "http://127.0.0.1:9/none.m3u8")).id
            let query = try await client.execute(uri: "/v1/sessions/\(id)/events?lastEventId=x", method: .get, headers: auth)
            #expect(query.status == .badRequest)
            #expect(try error(query.body)["field"] as? String == "lastEventId")
            var headers = auth
            headers[HTTPFields.Element.Name("Last-Event-ID")!] = "-3"
            let header = try await client.execute(uri: "/v1/sessions/\(id)/events", method: .get, headers: headers)
            #expect(try error(header.body)["field"] as? String == "Last-Event-ID")
        }
    }

    @Test func theBearerSchemeIsCaseInsensitive() async throws {
        try await withAPI { client, _ in
            for scheme in ["bearer", "BEARER", "Bearer"] {
                let response = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "\(scheme) \(Self.token)"])
                #expect(response.status == .ok, "\(scheme)")
            }
            // One or more spaces after the scheme (RFC 9110); two were refused.
            let twoSpaces = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer  \(Self.token)"])
            #expect(twoSpaces.status == .ok)
            let none = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer\(Self.token)"])
            #expect(none.status == .unauthorized)
            let wrongCase = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer S3CRET"])
            #expect(wrongCase.status == .unauthorized)
        }
    }

    @Test func missingOrWrongTokenIs401() async throws {
        try await withAPI { client, _ in
            let missing = try await client.execute(uri: "/v1/sessions", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer guess"])
            #expect(wrong.status == .unauthorized)
            #expect(try error(wrong.body)["code"] as? String == "unauthorized")
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        try await withAPI { client, _ in
            let padding = String(repeating: "x", count: 2_000)
            let response = try await post(client, #"{"url": "http://h/x.m3u8", "subscribedTags": ["\#(padding)"]}"#)
            #expect(response.status == .contentTooLarge)
            #expect(try error(response.body)["message"] as? String == "the body is larger than the limit of 512 bytes")
        }
    }

    /// At the limit a new session is refused with the limit in the message; the running session, its
    /// events and the list are untouched by that and by every other bad request.
    @Test func tooManySessionsIs429AndNothingRecordedIsLost() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        try await withAPI { client, manager in
            let url = origin.url("/ts/v0/index.m3u8")
            let created = try await post(client, #"{"url": "\#(url)", "autoplay": false, "mode": "demux"}"#)
            #expect(created.status == .created)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            while (try manager.store.session(id: id)?.status) != "ready" { try await Task.sleep(for: .milliseconds(50)) }
            let before = try manager.store.events(sessionID: id)
            let refused = try await post(client, #"{"url": "\#(url)"}"#)
            #expect(refused.status == .tooManyRequests)
            #expect((try error(refused.body)["message"] as? String)?.contains("at most 1 ") == true)
            _ = try await post(client, "{oops")
            _ = try await post(client, #"{"url": "\#(url)", "bogus": 1}"#, headers: [.contentType: "application/json"])
            _ = try await client.execute(uri: "/v1/sessions/\(id)/seek", method: .post, headers: auth, body: ByteBuffer(string: #"{"secs": 1}"#))
            let sessions = try manager.store.sessions()
            #expect(sessions.map(\.id) == [id])
            #expect(Array(try manager.store.events(sessionID: id).prefix(before.count)) == before)
            let listed = try await client.execute(uri: "/v1/sessions", method: .get, headers: auth)
            #expect(listed.status == .ok)
        }
    }
}

/// `POST …/audio` and `POST …/subtitles`: the track asked for, checked like every body.
@Suite struct TrackRouteTests {
    @Test func aTrackIsSwitchedAndABadBodyIsNamed() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let tests = BadInputTests()
        try await tests.withAPI { client, manager in
            let id = try await tests.createReady(client, manager, #"{"url": "\#(origin.url("/altaudio/ts-master.m3u8"))", "autoplay": false, "mode": "demux", "clock": "virtual"}"#)
            try await tests.expectRefused(client, id, [("audio", "{}", "track"), ("audio", #"{"track": " "}"#, "track"), ("subtitles", #"{"track": 3}"#, "track"),
                                        ("audio", #"{"track": "fr", "when": 1}"#, "when")])
            let unknown = try await client.execute(uri: "/v1/sessions/nope/audio", method: .post, headers: tests.auth, body: ByteBuffer(string: #"{"track": "fr"}"#))
            #expect(unknown.status == .notFound)
            let switched = try await client.execute(uri: "/v1/sessions/\(id)/audio", method: .post, headers: tests.auth, body: ByteBuffer(string: #"{"track": "fr"}"#))
            #expect(switched.status == .accepted)
            #expect(try await client.execute(uri: "/v1/sessions/\(id)/play", method: .post, headers: tests.auth).status == .accepted)
            try await tests.waitEnded(manager, id)
            let report = try #require(try manager.store.session(id: id)?.report)
            #expect(report.audio?.selected == 1, "\(report.audio.map { "\($0)" } ?? "no audio report")")
            #expect(report.finalStatus == .completed)
        }
    }
}

/// `POST …/resume` (F25): `{"seconds", "autoplay"}`, both optional; the spec's `resumeAfterFailure`.
@Suite struct ResumeRouteTests {
    /// A session given a resume policy and a segment that fails four times: it resumes by itself and completes;
    /// then a resume asked through the route re-initialises it; bad bodies are named.
    @Test func aSessionResumesAfterAFailureAndOnRequest() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        origin.setFault(.status(404), forPath: "/ts/v0/seg003.ts", times: 4)
        let tests = BadInputTests()
        try await tests.withAPI { client, manager in
            let id = try await tests.createReady(client, manager, #"{"url": "\#(origin.url("/ts/v0/index.m3u8"))", "autoplay": false, "mode": "demux", "clock": "virtual", "resumeAfterFailure": {"attempts": 1, "delaySeconds": 2}}"#)
            try await tests.expectRefused(client, id, [("resume", #"{"seconds": -1}"#, "seconds"), ("resume", #"{"autoplay": "yes"}"#, "autoplay"),
                                                       ("resume", #"{"at": 3}"#, "at")])
            let accepted = try await client.execute(uri: "/v1/sessions/\(id)/resume", method: .post, headers: tests.auth, body: ByteBuffer(string: #"{"seconds": 4}"#))
            #expect(accepted.status == .accepted)
            try await tests.waitEnded(manager, id)
            let report = try #require(try manager.store.session(id: id)?.report)
            #expect(report.finalStatus == .completed, "\(report.error ?? "")")
            #expect(report.resumes?.map(\.reason) == ["command", "policy"] && report.resumes?.map(\.outcome) == ["complete", "complete"], "\(report.resumes ?? [])")
            // Custom events are stored as `custom`, their own name in the line.
            let names = try manager.store.events(sessionID: id).compactMap { event in
                (try? JSONSerialization.jsonObject(with: Data(event.line.utf8)) as? [String: Any])?["name"] as? String
            }
            #expect(names.filter { ["failedToPlayToEnd", "resumeBegin", "resumeComplete", "resumeFail"].contains($0) }
                        == ["resumeBegin", "resumeComplete", "failedToPlayToEnd", "resumeBegin", "resumeComplete"], "\(names)")
        }
    }
}

/// `POST …/rate`, `…/replace` and `…/seek` with `local` (F4): the player's rate, replace-item and seekToLocalTime
/// controls, library-only before (the audit); a running session's figures give its local time and seekable range.
@Suite struct PlayerControlRouteTests {
    @Test func rateReplaceAndLocalSeekReachThePlayer() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let tests = BadInputTests()
        try await tests.withAPI { client, manager in
            let id = try await tests.createReady(client, manager, #"{"url": "\#(origin.url("/ts/v0/index.m3u8"))", "autoplay": false, "mode": "demux", "clock": "virtual"}"#)
            try await tests.expectRefused(client, id, [("rate", #"{"rate": 0}"#, "rate"), ("rate", "{}", "rate"), ("replace", #"{"url": "ftp://h/x.m3u8"}"#, "url"),
                                        ("seek", #"{"seconds": 3, "local": 1}"#, "local")])
            let shown = try await client.execute(uri: "/v1/sessions/\(id)", method: .get, headers: tests.auth)
            let live = (try JSONSerialization.jsonObject(with: Data(shown.body.readableBytesView)) as? [String: Any])?["live"] as? [String: Any]
            #expect(live?["localSeconds"] as? Double == 0 && live?["seekableEndSeconds"] as? Double == 30, "\(live ?? [:])")
            let replaced = origin.url("/ts/v1/index.m3u8")
            for (path, body) in [("rate", #"{"rate": 2}"#), ("replace", #"{"url": "\#(replaced)"}"#), ("seek", #"{"seconds": 20, "local": true}"#)] {
                let response = try await client.execute(uri: "/v1/sessions/\(id)/\(path)", method: .post, headers: tests.auth, body: ByteBuffer(string: body))
                #expect(response.status == .accepted, "\(path)")
            }
            #expect(try await client.execute(uri: "/v1/sessions/\(id)/play", method: .post, headers: tests.auth).status == .accepted)
            try await tests.waitEnded(manager, id)
            let report = try #require(try manager.store.session(id: id)?.report)
            #expect(report.finalStatus == .completed, "\(report.error ?? "")")
            #expect(report.url == replaced && report.mediaPlaylistURL == replaced)
            #expect(report.seeks.first?.toSeconds == 20 && report.framesPresented["video"] == 300, "\(report.seeks) \(report.framesPresented)")
        }
    }
}
