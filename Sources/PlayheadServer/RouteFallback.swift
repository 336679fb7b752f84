import Foundation
import Hummingbird

/// What the API answers outside its routes: a path the API has under other methods gets 405 with
/// `Allow`; any other path a JSON 404 naming it. (Router middleware runs after routing, on the
/// not-found responder too.)
struct RouteFallbackMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Every route: its method and path template (`:id` matches one segment).
    let routes: [(method: HTTPRequest.Method, template: String)]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let methods = allowed(path)
            guard !methods.isEmpty else {
                return HTTPReply.error(APIError(status: 404, code: "notFound", message: "no route \(path)"))
            }
            let allow = (methods + (methods.contains(.get) ? [.head] : [])).map(\.rawValue).joined(separator: ", ")
            var response = HTTPReply.error(APIError(status: 405, code: "methodNotAllowed",
                                                    message: "\(request.method.rawValue) is not allowed on \(path); allowed: \(allow)"))
            response.headers[.allow] = allow
            return response
        }
    }

    /// The methods the API has for `path`.
    func allowed(_ path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return routes.filter { route in
            let template = route.template.split(separator: "/", omittingEmptySubsequences: false)
            return template.count == segments.count
                && zip(template, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }.map(\.method)
    }
}

/// Answers HEAD as GET without the body (RFC 9110 §9.3.2), before the router sees the request.
public struct HeadAsGetResponder<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner

    /// Wraps `inner`.
    public init(_ inner: Inner) { self.inner = inner }

    /// The inner answer; for HEAD, that of the GET, without its body.
    public func respond(to request: Request, context: Inner.Context) async throws -> Response {
        guard request.method == .head else { return try await inner.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        return try await inner.respond(to: Request(head: head, body: request.body), context: context).createHeadResponse()
    }
}
