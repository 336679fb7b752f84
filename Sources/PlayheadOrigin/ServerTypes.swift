import Foundation

extension LoopbackHTTPServer {
    /// A misbehaviour the server puts on for one path (see ``LoopbackHTTPServer/setFault(_:forPath:)``).
    public enum Fault: Sendable, Equatable {
        /// Answer with this status and a short text body instead of the file.
        case status(Int)
        /// Wait this many seconds before sending anything (ends early if the client hangs up or the server
        /// stops).
        case delay(seconds: Double)
        /// Announce the full `Content-Length`, send only this many body bytes, then close the connection.
        case truncate(afterBytes: Int)
        /// Flip some body bytes (about one per KiB, at least one), chosen by a generator seeded with `seed`;
        /// the length stays the same. The same seed gives the same damage.
        case corrupt(seed: UInt64)
        /// Send the headers and this many body bytes, then send nothing more until the client hangs up
        /// or the server stops.
        case stallAfter(bytes: Int)
        /// Ignore `Range` headers and answer 200 with the whole file, like a server without range support.
        case ignoreRange
        /// Honour `Range` but ignore `If-Range`: a 206 of the current file even when the validator names an
        /// older one (a cache or server that gets RFC 9110 §13.1.5 wrong).
        case ignoreIfRange
        /// Close the connection without answering (the client sees an empty reply).
        case closeConnection
        /// Answer `302 Found` with this `Location` (any text: another path, another host, another scheme).
        case redirect(String)
    }

    /// One request as the server saw it, logged when the response is chosen (before any delay).
    public struct RequestRecord: Sendable, Equatable {
        /// `GET`, `HEAD`, ...
        public var method: String
        /// The decoded path, without query.
        public var path: String
        /// The query as sent (still percent-encoded, without the `?`), if the target had one.
        public var query: String?
        /// When the server read the request, in real time.
        public var receivedAt: Date
        /// The `Range` header, if any.
        public var rangeHeader: String?
        /// The `Accept-Encoding` header, if any.
        public var acceptEncoding: String?
        /// The status answered; 0 when the connection was closed without an answer
        /// (``Fault/closeConnection``).
        public var status: Int
        /// Which TCP connection carried the request: connections are numbered from 1 in accept order,
        /// so two requests with the same id went over one kept-alive connection.
        public var connectionID: Int
        /// The fault applied, if any.
        public var fault: Fault?
        /// The name of the ``FaultRule`` that applied it; nil for a path's own fault or none.
        public var faultRule: String?
    }
}

extension LoopbackHTTPServer.Fault: CustomStringConvertible {
    /// Whether the fault has anything to do with a request carrying `headers` (lower-case names): one that
    /// ignores Range or If-Range only with that header.
    func concerns(_ headers: [String: String]) -> Bool {
        switch self {
        case .ignoreRange: headers["range"] != nil
        case .ignoreIfRange: headers["if-range"] != nil
        default: true
        }
    }

    /// The fault as `playhead origin --fault` writes it: `status:503`, `delay:2.0`, `truncate:1000`,
    /// `corrupt:7`, `stall:1000`, `ignore-range`, `ignore-if-range`, `close`, `redirect:/x`.
    public var description: String {
        switch self {
        case .status(let code): "status:\(code)"
        case .delay(let seconds): "delay:\(seconds)"
        case .truncate(let bytes): "truncate:\(bytes)"
        case .corrupt(let seed): "corrupt:\(seed)"
        case .stallAfter(let bytes): "stall:\(bytes)"
        case .ignoreRange: "ignore-range"
        case .ignoreIfRange: "ignore-if-range"
        case .closeConnection: "close"
        case .redirect(let location): "redirect:\(location)"
        }
    }
}

/// Content types by file extension, for the media an HLS origin serves.
enum ContentType {
    /// The table; anything else is `application/octet-stream`.
    static let byExtension: [String: String] = [
        "m3u8": "application/vnd.apple.mpegurl", "m3u": "audio/mpegurl", "ts": "video/mp2t", "mp4": "video/mp4",
        "m4s": "video/iso.segment", "m4a": "audio/mp4", "m4v": "video/mp4", "aac": "audio/aac", "mp3": "audio/mpeg",
        "key": "application/octet-stream", "vtt": "text/vtt", "webvtt": "text/vtt", "json": "application/json",
        "xml": "application/xml", "html": "text/html; charset=utf-8", "txt": "text/plain; charset=utf-8",
    ]

    /// The content type for `path`.
    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}

/// Reason phrases for the statuses the server uses.
enum StatusText {
    /// `Not Found` for 404 and so on; `Status` for codes not in the table.
    static func phrase(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 206: "Partial Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
