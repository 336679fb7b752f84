import Foundation
import Hummingbird
import NIOCore

/// Small helpers for building the API's responses.
enum HTTPReply {
    /// A JSON response from text.
    static func json(_ text: String, status: Int = 200) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON response from an encodable value (keys sorted).
    static func json(_ value: some Encodable, status: Int = 200) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return json(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
    }

    /// A text response with a content type.
    static func text(_ text: String, contentType: String, status: Int = 200) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The error's JSON response (401 also says how to authenticate).
    static func error(_ error: APIError) -> Response {
        var response = json(error.jsonBody, status: error.status)
        if error.status == 401 { response.headers[.wwwAuthenticate] = "Bearer realm=\"playhead\"" }
        return response
    }

    /// Runs `body`, turning an ``APIError`` into its response and any other error into a 500 with JSON.
    static func guarded(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let error as APIError {
            return self.error(error)
        } catch {
            return self.error(APIError(status: 500, code: "internal", message: "\(error)"))
        }
    }

    /// Reads the whole body, at most `limit` bytes.
    /// - Throws: ``APIError/bodyTooLarge(limitBytes:)`` past the limit; 400 `malformedBody` when it cannot be read.
    static func body(of request: Request, limit: Int) async throws -> Data {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.bodyTooLarge(limitBytes: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limitBytes: limit)
        } catch {
            throw APIError(status: 400, code: "malformedBody", message: "the body could not be read: \(error)")
        }
    }
}

/// Requires `Authorization: Bearer TOKEN` on every request but `GET /healthz` when a token is set.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token; nil lets every request through.
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, request.uri.path != "/healthz" else { return try await next(request, context) }
        // The scheme is case-insensitive and followed by one or more spaces (RFC 9110 §11.1, §11.4); the
        // token is not case-insensitive.
        let given = request.headers[.authorization] ?? ""
        let scheme = given.prefix(7).lowercased()
        let credentials = given.dropFirst(6).drop { $0 == " " }
        guard scheme == "bearer ", Self.equalInConstantTime(String(credentials), token) else {
            return HTTPReply.error(.unauthorized)
        }
        return try await next(request, context)
    }

    /// Compares without stopping at the first difference (no timing hint about the token).
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
