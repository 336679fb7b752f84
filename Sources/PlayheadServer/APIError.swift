import Foundation

/// An error the API answers with: an HTTP status and a JSON body
/// `{"error": {"status": 400, "code": "unknownField", "field": "abr.foo", "message": "…"}}`.
public struct APIError: Error, Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// A stable machine-readable code (`malformedJSON`, `unknownField`, `invalidField`,
    /// `missingField`, `notFound`, `unauthorized`, `bodyTooLarge`, `malformedBody`, `tooManySessions`, `conflict`, `shuttingDown`, `methodNotAllowed`,
    /// `thumbnailUnavailable`, `upstreamFailed`).
    public var code: String
    /// The field at fault, as a dotted path (`url`, `abr.variant`), when one is.
    public var field: String?
    /// A sentence for people.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - code: The machine-readable code.
    ///   - field: The field at fault, if any.
    ///   - message: The human message.
    public init(status: Int, code: String, field: String? = nil, message: String) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
    }

    /// 400 for a body that is not JSON.
    public static func malformedJSON(_ detail: String) -> APIError {
        APIError(status: 400, code: "malformedJSON", message: "the body is not valid JSON: \(detail)")
    }

    /// 400 for a field the spec does not have.
    public static func unknownField(_ field: String) -> APIError {
        APIError(status: 400, code: "unknownField", field: field, message: "unknown field \"\(field)\"")
    }

    /// 400 for a required field that is absent.
    public static func missingField(_ field: String) -> APIError {
        APIError(status: 400, code: "missingField", field: field, message: "missing required field \"\(field)\"")
    }

    /// 400 for a field whose value is wrong.
    public static func invalidField(_ field: String, _ why: String) -> APIError {
        APIError(status: 400, code: "invalidField", field: field, message: "field \"\(field)\": \(why)")
    }

    /// 404 for a session id that names no session.
    public static func sessionNotFound(_ id: String) -> APIError {
        APIError(status: 404, code: "notFound", message: "no session \"\(id)\"")
    }

    /// 401 for a missing or wrong bearer token.
    public static let unauthorized = APIError(status: 401, code: "unauthorized",
                                              message: "a valid bearer token is required (Authorization: Bearer TOKEN)")

    /// 413 for a body over the limit.
    public static func bodyTooLarge(limitBytes: Int) -> APIError {
        APIError(status: 413, code: "bodyTooLarge", message: "the body is larger than the limit of \(limitBytes) bytes")
    }

    /// 429 when the running sessions are at the limit.
    public static func tooManySessions(limit: Int) -> APIError {
        APIError(status: 429, code: "tooManySessions",
                 message: "too many sessions: at most \(limit) may run at once; stop or delete one first")
    }

    /// 503 for a session asked for while the daemon shuts down.
    public static let shuttingDown = APIError(status: 503, code: "shuttingDown",
                                              message: "the daemon is shutting down; it starts no more sessions")

    /// 409 for a command to a session that has ended.
    public static func sessionEnded(_ id: String) -> APIError {
        APIError(status: 409, code: "conflict", message: "session \"\(id)\" has ended; it takes no more commands")
    }

    /// The JSON body.
    public var jsonBody: String {
        var object: [String: Any] = ["status": status, "code": code, "message": message]
        if let field { object["field"] = field }
        let data = (try? JSONSerialization.data(withJSONObject: ["error": object], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
