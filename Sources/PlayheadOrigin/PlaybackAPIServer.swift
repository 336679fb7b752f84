import Foundation

/// A mock Brightcove-style Playback API on 127.0.0.1 (F29's tests and demos), beside a folder of HLS
/// streams it serves as files.
///
/// Routes:
/// - `GET /playback/v1/accounts/ACCOUNT/videos/ID` and `…/videos/ref:REF`: a registered video document;
/// - `GET /playback/v1/accounts/ACCOUNT/playlists/ID` and `…/playlists/ref:REF`, with `limit` and
///   `offset`: a registered playlist with its videos' documents, the page asked for, and `count` (all of
///   its videos);
/// - anything else: a file below the media folder (Range, keep-alive, as ``LoopbackHTTPServer``), or 404.
///
/// Checks, as the service makes them, each answered with a Brightcove error array
/// (`[{"error_code": "…", "message": "…"}]`): the `Accept` header's `pk=` must be the policy key
/// (403 `INVALID_POLICY_KEY`), the account must be the server's (403 `ACCOUNT_MISMATCH`), and, when the
/// server has an auth token, `Authorization: Bearer TOKEN` must carry it (403 `ACCESS_DENIED`, subcode
/// `TOKEN_REQUIRED` or `INVALID_TOKEN`); an unknown video is 404 `VIDEO_NOT_FOUND`, an unknown playlist
/// 404 `RESOURCE_NOT_FOUND`, a bad `limit` or `offset` 400 `INVALID_PARAMETER`. Every API request is
/// logged with the headers that matter (``requests``).
public final class PlaybackAPIServer: Sendable {
    /// The API's path prefix: `/playback/v1/accounts/`.
    public static let apiPrefix = "/playback/v1/accounts/"

    /// One API request as the server saw it.
    public struct Request: Sendable, Equatable {
        /// The decoded path.
        public var path: String
        /// The query as sent, without `?`.
        public var query: String?
        /// The `Accept` header.
        public var accept: String?
        /// The `Authorization` header.
        public var authorization: String?
        /// The status answered.
        public var status: Int
        /// The error code answered, if any.
        public var errorCode: String?
    }

    struct Playlist: Sendable {
        var id: String
        var referenceId: String?
        var name: String
        var videoIds: [String]
    }

    struct Catalogue: Sendable {
        var videos: [String: [UInt8]] = [:]
        var videoReferences: [String: String] = [:]
        var playlists: [String: Playlist] = [:]
        var playlistReferences: [String: String] = [:]
        var log: [Request] = []
        var defaultLimit: Int?
    }

    /// How many videos a playlist page holds when the request names no `limit` (the real service's default
    /// is 20); nil (the default here) answers them all.
    public var defaultLimit: Int? {
        get { catalogue.withLock { $0.defaultLimit } }
        set { catalogue.withLock { $0.defaultLimit = newValue } }
    }

    /// The account served.
    public let accountId: String
    /// The policy key required.
    public let policyKey: String
    /// The auth token required, if any.
    public let authToken: String?
    private let server: LoopbackHTTPServer
    private let catalogue: Locked<Catalogue>

    /// Starts the server on an ephemeral port of 127.0.0.1 (or `port`).
    /// - Parameters:
    ///   - accountId: The account whose videos it serves.
    ///   - policyKey: The policy key requests must carry.
    ///   - authToken: A token requests must carry as `Authorization: Bearer …`; nil requires none.
    ///   - mediaDirectory: A folder of HLS streams served below `/`; nil serves no files.
    ///   - port: The port; 0 lets the kernel choose.
    public init(accountId: String, policyKey: String, authToken: String? = nil, mediaDirectory: String? = nil, port: Int = 0) throws {
        if let mediaDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: mediaDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AdServerError.notAFolder(mediaDirectory)
            }
        }
        self.accountId = accountId
        self.policyKey = policyKey
        self.authToken = authToken
        let catalogue = Locked(Catalogue())
        self.catalogue = catalogue
        let servesFiles = mediaDirectory != nil
        server = try LoopbackHTTPServer(
            root: mediaDirectory ?? "/nonexistent-playback-media", port: port, idleTimeout: .seconds(120),
            responder: { request, _ in
                Self.respond(to: request, catalogue: catalogue, accountId: accountId, policyKey: policyKey, authToken: authToken,
                             servesFiles: servesFiles)
            })
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, without a trailing slash: the service's base URL and the media's.
    public var baseURL: String { server.baseURL }
    /// The port listened on.
    public var port: Int { server.port }
    /// `baseURL` followed by `path`.
    public func url(_ path: String) -> String { server.url(path) }

    /// Stops serving. Idempotent.
    public func stop() { server.stop() }

    /// The HTTP server underneath, for what it offers beyond the API: fault rules, a body transformer,
    /// bandwidth shaping, its request log.
    public var httpServer: LoopbackHTTPServer { server }

    /// Serves a video document (Playback API JSON), found by its `id` and `reference_id`.
    /// - Throws: ``PlaybackAPIServerError/badDocument(_:)`` when it is not a JSON object with an `id`.
    public func registerVideo(json: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw PlaybackAPIServerError.badDocument("a video document must be a JSON object")
        }
        guard let id = (object["id"] as? String) ?? (object["id"] as? NSNumber)?.stringValue, !id.isEmpty else {
            throw PlaybackAPIServerError.badDocument("a video document needs an id")
        }
        let reference = object["reference_id"] as? String
        catalogue.withLock {
            $0.videos[id] = Array(json.utf8)
            if let reference { $0.videoReferences[reference] = id }
        }
    }

    /// Serves `body` as video `id`'s document whatever it holds (a malformed answer, for tests).
    public func registerRawVideo(id: String, body: String) {
        catalogue.withLock { $0.videos[id] = Array(body.utf8) }
    }

    /// Serves a playlist of registered videos (an id not registered is left out of its answer, as the
    /// service leaves out videos that cannot be played).
    public func registerPlaylist(id: String, referenceId: String? = nil, name: String, videoIds: [String]) {
        catalogue.withLock {
            $0.playlists[id] = Playlist(id: id, referenceId: referenceId, name: name, videoIds: videoIds)
            if let referenceId { $0.playlistReferences[referenceId] = id }
        }
    }

    /// Every API request so far, in order.
    public var requests: [Request] { catalogue.withLock { $0.log } }

    /// Puts a fault on `path` (see ``LoopbackHTTPServer/setFault(_:forPath:times:)``), e.g. `.status(500)`.
    public func setFault(_ fault: LoopbackHTTPServer.Fault?, forPath path: String, times: Int? = nil) {
        server.setFault(fault, forPath: path, times: times)
    }

    /// The path of a video (`ID` or `ref:REF`) on this server.
    public func videoPath(_ idOrReference: String) -> String { Self.apiPrefix + accountId + "/videos/" + idOrReference }

    /// A representative video document as the Playback API writes it: HLS sources (the HTTPS one first
    /// when `hlsURL` is https), an MP4 and a DASH source, posters, a text track and cue points, custom
    /// fields and tags. `duration` is written in milliseconds, as the API does.
    public static func videoDocument(id: String, referenceId: String? = nil, name: String, durationSeconds: Double, hlsURL: String?,
                                     mp4URL: String? = nil, dashURL: String? = nil, textTrackURL: String? = nil,
                                     customFields: [String: String] = [:], tags: [String] = [], accountId: String = "1") -> String {
        var sources: [String] = []
        if let hlsURL {
            sources.append(#"{"type": "application/x-mpegURL", "src": \#(quoted(hlsURL)), "container": "M2TS", "codecs": "avc1,mp4a", "ext_x_version": "4"}"#)
        }
        if let mp4URL {
            sources.append(#"{"type": "video/mp4", "src": \#(quoted(mp4URL)), "container": "MP4", "codec": "H264", "width": 640, "height": 360, "avg_bitrate": 800000}"#)
        }
        if let dashURL {
            sources.append(#"{"type": "application/dash+xml", "src": \#(quoted(dashURL)), "container": "MP4", "key_systems": {"com.widevine.alpha": {"license_url": "https://license.example/widevine"}}}"#)
        }
        let tracks = textTrackURL.map { #"[{"id": "tt-\#(id)", "src": \#(quoted($0)), "srclang": "en", "label": "English", "kind": "captions", "mime_type": "text/vtt", "default": true, "sources": [{"src": \#(quoted($0))}]}]"# } ?? "[]"
        let fields = "{" + customFields.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }.joined(separator: ", ") + "}"
        return """
        {"id": \(quoted(id)), "account_id": \(quoted(accountId)), "reference_id": \(referenceId.map(quoted) ?? "null"), "name": \(quoted(name)),
         "description": "Test video \(id)", "long_description": null, "duration": \(Int((durationSeconds * 1000).rounded())),
         "poster": "https://cf-images.example/\(id)/poster.jpg", "thumbnail": "https://cf-images.example/\(id)/thumb.jpg",
         "poster_sources": [{"src": "http://cf-images.example/\(id)/poster.jpg"}, {"src": "https://cf-images.example/\(id)/poster.jpg"}],
         "thumbnail_sources": [{"src": "https://cf-images.example/\(id)/thumb.jpg"}],
         "sources": [\(sources.joined(separator: ", "))],
         "text_tracks": \(tracks),
         "cue_points": [{"id": "cue-\(id)-1", "name": "midroll", "type": "AD", "time": \(durationSeconds / 2), "metadata": null, "force_stop": false}],
         "custom_fields": \(fields), "tags": [\(tags.map(quoted).joined(separator: ", "))],
         "economics": "AD_SUPPORTED", "offline_enabled": false, "created_at": "2024-01-01T00:00:00.000Z"}
        """
    }

    /// Registers the demo catalogue over the generated test streams this server serves (`playhead origin
    /// --playback-api`): video `1001` (ref `demo-ts`: `ts/master.m3u8`), `1002` (ref `demo-fmp4`:
    /// `fmp4/master.m3u8`), `1003` (ref `demo-bumper`: the 10 s `ad/master.m3u8`, a bumper), `1004` (ref
    /// `demo-mp4-only`: MP4 and DASH sources only, which Playhead cannot play), and playlist `2001` (ref
    /// `demo-playlist`) of 1001, 1002 and 1004. Each video's HLS source is on this server, beside an MP4
    /// and a DASH one that are not.
    public func registerDemoCatalogue() {
        let base = baseURL
        let videos: [(String, String, String, Double, String?)] = [
            ("1001", "demo-ts", "Demo TS ladder", 30, "/ts/master.m3u8"),
            ("1002", "demo-fmp4", "Demo fMP4 ladder", 30, "/fmp4/master.m3u8"),
            ("1003", "demo-bumper", "Demo bumper", 10, "/ad/master.m3u8"),
            ("1004", "demo-mp4-only", "MP4 only", 30, nil),
        ]
        for (id, reference, name, duration, path) in videos {
            let document = Self.videoDocument(id: id, referenceId: reference, name: name, durationSeconds: duration, hlsURL: path.map { base + $0 },
                                              mp4URL: base + "/mp4/\(id).mp4", dashURL: base + "/dash/\(id).mpd",
                                              textTrackURL: path == nil ? nil : base + "/subs/sidecar.vtt", tags: ["demo"], accountId: accountId)
            try? registerVideo(json: document)
        }
        registerPlaylist(id: "2001", referenceId: "demo-playlist", name: "Demo playlist", videoIds: ["1001", "1002", "1004"])
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast()).replacingOccurrences(of: "\\/", with: "/")
    }

    // MARK: Answers

    static func respond(to request: HTTPRequestHead, catalogue: Locked<Catalogue>, accountId: String, policyKey: String,
                        authToken: String?, servesFiles: Bool) -> ResponsePlan? {
        let path = request.path
        guard path.hasPrefix(apiPrefix) else {
            return servesFiles ? nil : .text(404, "no file at \(path)", sendBody: request.method != "HEAD", closeAfter: !request.keepAlive)
        }
        let (status, body, code) = answer(request, catalogue: catalogue, accountId: accountId, policyKey: policyKey, authToken: authToken)
        catalogue.withLock {
            $0.log.append(Request(path: path, query: request.query, accept: request.headers["accept"],
                                  authorization: request.headers["authorization"], status: status, errorCode: code))
        }
        return ResponsePlan(status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: Array(body.utf8),
                            sendBody: request.method != "HEAD", closeAfter: !request.keepAlive)
    }

    /// Status, body and error code (nil for 200) of an API request.
    private static func answer(_ request: HTTPRequestHead, catalogue: Locked<Catalogue>, accountId: String, policyKey: String,
                               authToken: String?) -> (Int, String, String?) {
        func error(_ status: Int, _ code: String, _ message: String, subcode: String? = nil) -> (Int, String, String?) {
            let sub = subcode.map { #", "error_subcode": \#(quoted($0))"# } ?? ""
            return (status, #"[{"error_code": \#(quoted(code))\#(sub), "message": \#(quoted(message))}]"#, code)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return error(405, "METHOD_NOT_ALLOWED", "only GET") }
        let accept = request.headers["accept"] ?? ""
        let key = accept.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.lowercased().hasPrefix("pk=") }.map { String($0.dropFirst(3)) }
        guard let key, key == policyKey else {
            return error(403, "INVALID_POLICY_KEY", key == nil ? "Request policy key is missing" : "Request policy key is invalid")
        }
        let parts = request.path.dropFirst(apiPrefix.count).split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, ["videos", "playlists"].contains(parts[1]), !parts[2].isEmpty else {
            return error(404, "RESOURCE_NOT_FOUND", "no such resource: \(request.path)")
        }
        guard parts[0] == accountId else { return error(403, "ACCOUNT_MISMATCH", "the policy key is not for account \(parts[0])") }
        if let authToken {
            let authorization = request.headers["authorization"] ?? ""
            guard authorization.lowercased().hasPrefix("bearer ") else {
                return error(403, "ACCESS_DENIED", "a playback authorization token is required", subcode: "TOKEN_REQUIRED")
            }
            guard authorization.dropFirst(7).trimmingCharacters(in: .whitespaces) == authToken else {
                return error(403, "ACCESS_DENIED", "the playback authorization token is invalid", subcode: "INVALID_TOKEN")
            }
        }
        let name = parts[2]
        return catalogue.withLock { state -> (Int, String, String?) in
            if parts[1] == "videos" {
                let id = name.hasPrefix("ref:") ? state.videoReferences[String(name.dropFirst(4))] : name
                guard let id, let body = state.videos[id] else { return error(404, "VIDEO_NOT_FOUND", "The designated resource was not found.") }
                return (200, String(decoding: body, as: UTF8.self), nil)
            }
            let id = name.hasPrefix("ref:") ? state.playlistReferences[String(name.dropFirst(4))] : name
            guard let id, let playlist = state.playlists[id] else { return error(404, "RESOURCE_NOT_FOUND", "The designated resource was not found.") }
            var limit: Int?, offset = 0
            for pair in (request.query ?? "").split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard kv.count == 2, ["limit", "offset"].contains(kv[0]) else { continue }
                guard let value = Int(kv[1]), value >= (kv[0] == "limit" ? 1 : 0) else {
                    return error(400, "INVALID_PARAMETER", "\(kv[0]) must be \(kv[0] == "limit" ? "a positive" : "a non-negative") integer, got \(kv[1])")
                }
                if kv[0] == "limit" { limit = value } else { offset = value }
            }
            let available = playlist.videoIds.compactMap { state.videos[$0] }
            let page = available.dropFirst(offset).prefix(limit ?? state.defaultLimit ?? Int.max)
            let videos = page.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",\n")
            let body = """
            {"id": \(quoted(playlist.id)), "account_id": \(quoted(accountId)), "reference_id": \(playlist.referenceId.map(quoted) ?? "null"),
             "name": \(quoted(playlist.name)), "description": null, "type": "EXPLICIT", "count": \(available.count),
             "videos": [\(videos)]}
            """
            return (200, body, nil)
        }
    }
}

/// Why a document could not be registered with a ``PlaybackAPIServer``.
public enum PlaybackAPIServerError: Error, Equatable, CustomStringConvertible {
    /// The document is not a video document.
    case badDocument(String)

    /// What is wrong.
    public var description: String {
        switch self {
        case let .badDocument(message): message
        }
    }
}
