import Foundation
import PlayheadNet

/// A client for a Brightcove-style Playback API (F29; the PSDK's `BCOVPlaybackService`): videos and
/// playlists by id or reference id, over HTTP GET.
///
/// Requests go to `BASE/playback/v1/accounts/ACCOUNT/videos/ID` (`…/videos/ref:REF`) and
/// `…/playlists/ID` (`…/playlists/ref:REF`, with `limit` and `offset` query parameters for paging), with
/// `Accept: application/json;pk=POLICY_KEY` and, when an auth token is given (the Playback Authorization
/// Service), `Authorization: Bearer TOKEN`. Error answers become ``CatalogueError``s naming the URL and the
/// service's error code.
public struct PlaybackService: Sendable {
    /// Brightcove's own service: `https://edge.api.brightcove.com`.
    public static let defaultBaseURL = "https://edge.api.brightcove.com"

    /// The service's base URL, without a trailing slash.
    public let baseURL: String
    /// The account id.
    public let accountId: String
    /// The policy key (sent in the Accept header).
    public let policyKey: String
    /// The playback authorization token (a JWT), if any.
    public let authToken: String?
    /// The client the requests go through.
    public let client: HTTPClient
    /// Further attempts at a request the service may answer next time (429, 5xx, 408, no answer); an
    /// error it means (404 `VIDEO_NOT_FOUND`, 403, a malformed answer) is not retried.
    public let retries: Int
    /// The wait before the first retry; it doubles at each further one.
    public let retryDelay: Duration

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: The service (default ``defaultBaseURL``); http, https or file.
    ///   - accountId: The account id.
    ///   - policyKey: The policy key.
    ///   - authToken: A playback authorization token, sent as a bearer token.
    ///   - client: The HTTP client.
    ///   - retries: Further attempts after a failure that may pass (default 2).
    ///   - retryDelay: The first retry's wait (default 0.5 s), doubling.
    public init(baseURL: String = defaultBaseURL, accountId: String, policyKey: String, authToken: String? = nil, client: HTTPClient,
                retries: Int = 2, retryDelay: Duration = .milliseconds(500)) {
        self.retries = max(0, retries)
        self.retryDelay = retryDelay
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.accountId = accountId
        self.policyKey = policyKey
        self.authToken = authToken.flatMap { $0.isEmpty ? nil : $0 }
        self.client = client
    }

    /// The request headers: Accept with the policy key, and Authorization when a token is set.
    public var headers: [String: String] {
        var headers = ["Accept": "application/json;pk=\(policyKey)"]
        if let authToken { headers["Authorization"] = "Bearer \(authToken)" }
        return headers
    }

    /// The URL of a video.
    public func videoURL(_ reference: CatalogueReference) -> String {
        accountURL + "/videos/" + Self.escaped(reference.pathSegment)
    }

    /// The URL of a playlist page (`limit`, `offset` as query parameters when given).
    public func playlistURL(_ reference: CatalogueReference, limit: Int? = nil, offset: Int? = nil) -> String {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let offset { query.append("offset=\(offset)") }
        return accountURL + "/playlists/" + Self.escaped(reference.pathSegment) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    private var accountURL: String { baseURL + "/playback/v1/accounts/" + Self.escaped(accountId) }

    /// Finds a video by id or reference id.
    public func findVideo(_ reference: CatalogueReference) async throws(CatalogueError) -> CatalogueVideo {
        try validate(reference)
        let url = videoURL(reference)
        return try CatalogueJSON.video(from: try await get(url), url: url)
    }

    /// Finds a playlist (or one page of it: at most `limit` videos from index `offset`).
    public func findPlaylist(_ reference: CatalogueReference, limit: Int? = nil, offset: Int? = nil) async throws(CatalogueError) -> CataloguePlaylist {
        try validate(reference)
        if let limit, limit < 1 { throw .invalidRequest("limit must be 1 or more, got \(limit)") }
        if let offset, offset < 0 { throw .invalidRequest("offset must be 0 or more, got \(offset)") }
        let url = playlistURL(reference, limit: limit, offset: offset)
        return try CatalogueJSON.playlist(from: try await get(url), url: url, limit: limit, offset: offset)
    }

    /// Every video of a playlist: the first page, then (when its `count` says there are more) the next pages,
    /// `pageSize` videos at a time, until `count` is reached or a page comes back empty.
    public func findWholePlaylist(_ reference: CatalogueReference, pageSize: Int = 100) async throws(CatalogueError) -> CataloguePlaylist {
        var playlist = try await findPlaylist(reference)
        while let count = playlist.count, playlist.entryCount < count {
            let page = try await findPlaylist(reference, limit: pageSize, offset: playlist.entryCount)
            guard page.entryCount > 0 else { break }
            playlist.videos += page.videos
            playlist.skipped += page.skipped
        }
        return playlist
    }

    /// The bumper to play before `video` (the PSDK's bumper support): the one its custom field `bumper_id`
    /// names, which takes precedence, else `configured` (the service's bumper id or reference id); nil
    /// when neither is set.
    public func findBumper(for video: CatalogueVideo, configured: CatalogueReference? = nil) async throws(CatalogueError) -> CatalogueVideo? {
        guard let reference = video.bumperId.map(CatalogueReference.id) ?? configured else { return nil }
        return try await findVideo(reference)
    }

    private func validate(_ reference: CatalogueReference) throws(CatalogueError) {
        if reference.pathSegment.isEmpty || reference.pathSegment == "ref:" { throw .invalidRequest("an empty id names nothing") }
        if accountId.isEmpty { throw .invalidRequest("an account id is required") }
        // A path segment of dots would be taken as one by URL normalisation (`..` asks for the parent).
        for (what, value) in [("id", reference.pathSegment), ("account id", accountId)] where !value.isEmpty && value.allSatisfy({ $0 == "." }) {
            throw .invalidRequest("\"\(value)\" is not an \(what)")
        }
        let lower = baseURL.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file:") else {
            throw .invalidRequest("the service URL must be http, https or file, got \"\(baseURL)\"")
        }
    }

    /// GETs `url` and maps failures: an error status with a Brightcove error array becomes ``CatalogueError/api(url:status:code:subcode:message:)``.
    private func get(_ url: String) async throws(CatalogueError) -> [UInt8] {
        var delay = retryDelay
        var attempt = 0
        while true {
            attempt += 1
            do {
                let response = try await client.get(url, headers: headers)
                // Some gateways answer an error with 200 and the error array: an error all the same.
                if let entry = CatalogueJSON.errorEntry(from: response.body) {
                    throw CatalogueError.api(url: url, status: response.status, code: entry.code, subcode: entry.subcode, message: entry.message)
                }
                return response.body
            } catch let error as CatalogueError {
                throw error
            } catch let error as HTTPError {
                guard error.isRetryable, attempt <= retries, !Task.isCancelled else { throw Self.mapped(error, url: url) }
                do { try await Task.sleep(for: delay) } catch { throw Self.mapped(HTTPError.cancelled(url: url), url: url) }
                delay *= 2
            } catch {
                throw .transport(url: url, message: "\(error)")
            }
        }
    }

    /// A failed request as the service's error.
    private static func mapped(_ error: HTTPError, url: String) -> CatalogueError {
        switch error {
        case let .status(_, code, body):
            if let entry = CatalogueJSON.errorEntry(from: body) {
                return .api(url: url, status: code, code: entry.code, subcode: entry.subcode, message: entry.message)
            }
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .http(url: url, status: code, body: String(text.prefix(200)))
        default:
            return .transport(url: url, message: "\(error)")
        }
    }

    /// `segment` with everything but unreserved characters and `:` percent-encoded (a reference id may hold
    /// spaces or slashes).
    static func escaped(_ segment: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
