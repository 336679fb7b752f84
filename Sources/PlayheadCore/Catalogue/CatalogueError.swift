import Foundation

/// Why a playback-service request, its answer, or a video's source selection failed. Every case names
/// what it is about (URL, JSON path, video id), as its description says.
public enum CatalogueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service answered with an error status and a Brightcove error array
    /// (`[{"error_code": "VIDEO_NOT_FOUND", "message": "…"}]`): the first entry's code, subcode and message.
    case api(url: String, status: Int, code: String, subcode: String?, message: String?)
    /// The service answered with an error status and a body that is not an error array.
    case http(url: String, status: Int, body: String)
    /// The request did not get an answer (connection refused, timeout, bad URL…).
    case transport(url: String, message: String)
    /// The answer (2xx) is not JSON, or not the shape expected: `path` is the JSON path of what is wrong
    /// (`$` the whole document, `$.sources[1].src`, …).
    case malformed(url: String, path: String, problem: String)
    /// No source of the video can be played by an HLS player under the policy: `offered` lists what the
    /// video has (type and URL of each source).
    case noPlayableSource(videoId: String, reason: String, offered: [String])
    /// A bad argument: an empty id, a negative limit or offset, a base URL that is not http(s) or file.
    case invalidRequest(String)

    /// One line naming the URL (or video) and what went wrong.
    public var description: String {
        switch self {
        case let .api(url, status, code, subcode, message):
            return "\(code)\(subcode.map { " (\($0))" } ?? "") from \(url), HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        case let .http(url, status, body):
            return "HTTP \(status) from \(url)" + (body.isEmpty ? "" : ": \(body)")
        case let .transport(url, message):
            return "no answer from \(url): \(message)"
        case let .malformed(url, path, problem):
            return "\(url): \(path): \(problem)"
        case let .noPlayableSource(videoId, reason, offered):
            return "video \(videoId): \(reason)" + (offered.isEmpty ? " (it lists no sources)" : "; it offers: " + offered.joined(separator: ", "))
        case let .invalidRequest(message):
            return message
        }
    }

    /// The Brightcove error code (`VIDEO_NOT_FOUND`, `INVALID_POLICY_KEY`, …) of an ``api(url:status:code:subcode:message:)`` error.
    public var errorCode: String? {
        if case let .api(_, _, code, _, _) = self { return code }
        return nil
    }

    /// The HTTP status of an ``api(url:status:code:subcode:message:)`` or ``http(url:status:body:)`` error.
    public var httpStatus: Int? {
        switch self {
        case let .api(_, status, _, _, _), let .http(_, status, _): status
        default: nil
        }
    }
}
