import Foundation

/// A test ad server on 127.0.0.1: serves registered VAST and VMAP documents by path, ad HLS streams
/// from a folder when one is given, records every beacon hit, and misbehaves on demand.
///
/// Routes, in order:
/// - a registered document's path (``register(_:at:contentType:)``): the document, 200;
/// - `GET /beacons`: the beacon log as JSON (see ``BeaconHit``);
/// - any path below `/beacon/` (``beaconPathPrefix``): 200 with an empty body — a tracking pixel;
///   every hit is recorded with its query and wall time, in arrival order (``beacons``);
/// - `GET /heartbeats`: the heartbeat collector's log as JSON (``HeartbeatHit``s);
/// - `/hb` and any path below `/hb/` (``heartbeatPathPrefix``): the heartbeat collector (F38), a video
///   heartbeat tracking server (``heartbeatServerURL``): 200 with an empty body, every call recorded
///   with its query in arrival order (``heartbeats``);
/// - anything else: a file below the ad media folder, or 404 without one.
///
/// Faults (``setFault(_:forPath:times:)``) apply to every route: delay, an HTTP status, or closing the
/// connection without an answer, optionally for the next `times` requests only. A beacon hit that a
/// fault answered is recorded with that status (0 for a closed connection).
public final class AdServer: Sendable {
    /// Paths below this prefix are beacons: `/beacon/`.
    public static let beaconPathPrefix = "/beacon/"
    /// The path of the beacon log as JSON: `/beacons`.
    public static let beaconLogPath = "/beacons"
    /// Paths below this prefix (and `/hb` itself) are heartbeat calls: `/hb/`.
    public static let heartbeatPathPrefix = "/hb/"
    /// The path of the heartbeat collector's log as JSON: `/heartbeats`.
    public static let heartbeatLogPath = "/heartbeats"

    /// A registered document.
    struct Document: Sendable {
        var body: [UInt8]
        var contentType: String
    }

    private let server: LoopbackHTTPServer
    private let documents: Locked<[String: Document]>

    /// Starts the server on an ephemeral port of 127.0.0.1 (or `port`).
    ///
    /// - Parameters:
    ///   - adMediaDirectory: A folder of ad HLS streams served below `/` (`/ad1/master.m3u8` is
    ///     `adMediaDirectory/ad1/master.m3u8`); `nil` serves no files.
    ///   - port: The port; 0 (the default) lets the kernel pick a free one.
    /// - Throws: ``AdServerError/notAFolder(_:)`` when `adMediaDirectory` is not a folder, or the
    ///   socket error when the port cannot be bound.
    public init(adMediaDirectory: String? = nil, port: Int = 0) throws {
        if let adMediaDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: adMediaDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AdServerError.notAFolder(adMediaDirectory)
            }
        }
        let documents = Locked([String: Document]())
        self.documents = documents
        let servesFiles = adMediaDirectory != nil
        server = try LoopbackHTTPServer(
            root: adMediaDirectory ?? "/nonexistent-ad-media", port: port, idleTimeout: .seconds(120),
            responder: { request, core in
                Self.respond(to: request, core: core, documents: documents, servesFiles: servesFiles)
            })
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { server.baseURL }
    /// The port listened on.
    public var port: Int { server.port }

    /// `baseURL` followed by `path` (which should start with `/`).
    public func url(_ path: String) -> String { server.url(path) }

    /// A beacon URL template for `event` of ad `adId`, carrying the ad playhead, cache buster and
    /// timestamp macros: `…/beacon/EVENT?ad=ID&t=[ADPLAYHEAD]&cb=[CACHEBUSTING]&ts=[TIMESTAMP]`.
    public func beaconURL(event: String, adId: String) -> String {
        url(Self.beaconPathPrefix + event + "?ad=" + adId + "&t=[ADPLAYHEAD]&cb=[CACHEBUSTING]&ts=[TIMESTAMP]")
    }

    /// Serves `body` at `path` (replacing what was there).
    ///
    /// - Parameters:
    ///   - body: The document, e.g. a VAST or VMAP text.
    ///   - path: The URL path, starting with `/`.
    ///   - contentType: Its content type; XML by default.
    public func register(_ body: String, at path: String, contentType: String = "application/xml") {
        precondition(path.hasPrefix("/"), "AdServer.register: path \"\(path)\" must start with /")
        documents.withLock { $0[path] = Document(body: Array(body.utf8), contentType: contentType) }
    }

    /// Stops serving the document at `path`.
    public func removeDocument(at path: String) { documents.withLock { _ = $0.removeValue(forKey: path) } }

    /// Delays, fails or drops requests for `path` (`*`: every path without its own fault); `nil`
    /// removes the path's fault. With `times`, only the next `times` requests are affected.
    public func setFault(_ fault: LoopbackHTTPServer.Fault?, forPath path: String, times: Int? = nil) {
        server.setFault(fault, forPath: path, times: times)
    }

    /// Every beacon hit so far, in arrival order.
    public var beacons: [BeaconHit] { Self.beacons(in: server.requestLog) }

    /// The heartbeat collector as a tracking server to give a heartbeat tracker: `http://127.0.0.1:PORT/hb`
    /// (its calls go to `/hb/?s:event:type=…`).
    public var heartbeatServerURL: String { url("/hb") }

    /// Every heartbeat call collected so far, in arrival order.
    public var heartbeats: [HeartbeatHit] { Self.heartbeats(in: server.requestLog) }

    /// Every request answered so far, in order (documents, beacons, media).
    public var requestLog: [LoopbackHTTPServer.RequestRecord] { server.requestLog }

    /// Forgets the request log, and with it the beacon log.
    public func clearLogs() { server.clearRequestLog() }

    /// Returns once at least `count` requests for `path` have arrived, or the server stops.
    public func waitForRequests(path: String, count: Int = 1) async {
        await server.waitForRequests(path: path, count: count)
    }

    /// Stops serving. Idempotent.
    public func stop() { server.stop() }

    /// The beacon hits of a request log, numbered from 1.
    static func beacons(in log: [LoopbackHTTPServer.RequestRecord]) -> [BeaconHit] {
        log.filter { $0.path.hasPrefix(beaconPathPrefix) }.enumerated().map { index, record in
            BeaconHit(sequence: index + 1, path: record.path, query: record.query, wallTime: record.receivedAt,
                      status: record.status)
        }
    }

    /// Whether `path` is a heartbeat call's.
    static func isHeartbeat(_ path: String) -> Bool { path == "/hb" || path.hasPrefix(heartbeatPathPrefix) }

    /// The heartbeat calls of a request log, numbered from 1.
    static func heartbeats(in log: [LoopbackHTTPServer.RequestRecord]) -> [HeartbeatHit] {
        log.filter { isHeartbeat($0.path) }.enumerated().map { index, record in
            HeartbeatHit(sequence: index + 1, path: record.path, query: record.query, wallTime: record.receivedAt,
                         status: record.status)
        }
    }

    /// The responder: documents, the beacon log, beacons, the heartbeat log, heartbeats, then files (or 404 without a folder).
    static func respond(to request: HTTPRequestHead, core: ServerCore, documents: Locked<[String: Document]>,
                        servesFiles: Bool) -> ResponsePlan? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        let sendBody = request.method == "GET"
        let closeAfter = !request.keepAlive
        if let document = documents.withLock({ $0[request.path] }) {
            return ResponsePlan(status: 200, headers: [("Content-Type", document.contentType)], body: document.body,
                                sendBody: sendBody, closeAfter: closeAfter)
        }
        if request.path == beaconLogPath {
            let hits = beacons(in: core.state.withLock { $0.log })
            let body = (try? JSONEncoder.sortedKeys.encode(hits)).map { [UInt8]($0) } ?? Array("[]".utf8)
            return ResponsePlan(status: 200, headers: [("Content-Type", "application/json")], body: body,
                                sendBody: sendBody, closeAfter: closeAfter)
        }
        if request.path.hasPrefix(beaconPathPrefix) || isHeartbeat(request.path) {
            return ResponsePlan(status: 200, headers: [("Content-Type", "text/plain")], body: [],
                                sendBody: sendBody, closeAfter: closeAfter)
        }
        if request.path == heartbeatLogPath {
            let hits = heartbeats(in: core.state.withLock { $0.log })
            let body = (try? JSONEncoder.sortedKeys.encode(hits)).map { [UInt8]($0) } ?? Array("[]".utf8)
            return ResponsePlan(status: 200, headers: [("Content-Type", "application/json")], body: body,
                                sendBody: sendBody, closeAfter: closeAfter)
        }
        return servesFiles ? nil : .text(404, "no document at \(request.path)", sendBody: sendBody, closeAfter: closeAfter)
    }
}

/// One beacon hit recorded by the ``AdServer``. JSON (as `GET /beacons` serves it):
/// `{"path":"/beacon/start","query":"ad=a1&t=00%3A00%3A00.000","sequence":1,"status":200,"wallTime":1732245600.125}`,
/// `wallTime` in seconds since 1970, `query` left out when the hit had none.
public struct BeaconHit: Sendable, Equatable, Codable {
    /// 1 for the first hit, then 2, 3, … in arrival order.
    public var sequence: Int
    /// The decoded path, e.g. `/beacon/firstQuartile`.
    public var path: String
    /// The query as sent (percent-encoded), without `?`.
    public var query: String?
    /// When the request arrived, in real time.
    public var wallTime: Date
    /// The status answered (200, a fault's status, or 0 for a connection closed by a fault).
    public var status: Int

    /// The path's last component: the event name for URLs made by ``AdServer/beaconURL(event:adId:)``.
    public var event: String { String(path.split(separator: "/").last ?? "") }

    /// The decoded value of query parameter `name`, if present.
    public func parameter(_ name: String) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name {
                let raw = parts.count > 1 ? String(parts[1]) : ""
                return raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
            }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case sequence, path, query, wallTime, status }

    /// Creates a hit.
    public init(sequence: Int, path: String, query: String?, wallTime: Date, status: Int) {
        self.sequence = sequence
        self.path = path
        self.query = query
        self.wallTime = wallTime
        self.status = status
    }

    /// Decodes the JSON form described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int.self, forKey: .sequence)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query)
        wallTime = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .wallTime))
        status = try container.decode(Int.self, forKey: .status)
    }

    /// Encodes the JSON form described on the type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encode(wallTime.timeIntervalSince1970, forKey: .wallTime)
        try container.encode(status, forKey: .status)
    }
}

/// One heartbeat call collected by the ``AdServer``'s heartbeat collector: the shape of a beacon hit
/// (`GET /heartbeats` serves them as `GET /beacons` serves beacons); ``BeaconHit/parameter(_:)`` reads
/// `s:event:type` and the other parameters.
public typealias HeartbeatHit = BeaconHit

/// Why an ``AdServer`` could not start.
public enum AdServerError: Error, Equatable, CustomStringConvertible {
    /// The ad media folder does not exist or is not a folder.
    case notAFolder(String)

    /// What is wrong, naming the path.
    public var description: String {
        switch self {
        case let .notAFolder(path): "ad media folder \(path) does not exist or is not a folder"
        }
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, for stable output.
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
