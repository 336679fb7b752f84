/// Takes a response's body as it arrives, so that a large file need not be held in memory (an offline
/// download's segments go straight to disk through one).
///
/// ``HTTPClient/get(_:range:headers:sink:)`` calls ``begin(_:)`` once, then ``receive(_:)`` once per
/// piece, in order, on the client's transfer thread, and only for a 2xx answer (an error answer's body
/// stays in the error). A sink serves one transfer; the caller reads what it gathered after `get` returns.
public protocol HTTPBodySink: AnyObject, Sendable {
    /// Told where the body that follows begins, before its first piece (or, for an empty body, when the
    /// transfer ends). Returns `false` to abort the transfer, as ``receive(_:)`` does. The default takes it.
    func begin(_ start: HTTPBodyStart) -> Bool

    /// Takes the next piece of the body. Returns `false` to abort the transfer (a write failed); `get`
    /// then throws ``HTTPError/transport(url:curlCode:message:)`` with libcurl's write error (23), and the
    /// sink should keep its own reason for the caller.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
}

extension HTTPBodySink {
    /// Takes any start.
    public func begin(_ start: HTTPBodyStart) -> Bool { true }
}

/// The head of a 2xx answer whose body goes to an ``HTTPBodySink``, and where in the resource the body
/// begins.
public struct HTTPBodyStart: Sendable {
    /// The HTTP status (200 for file:// URLs).
    public var status: Int
    /// The answer's headers, in order (ETag, Last-Modified, Content-Range, Content-Encoding, …).
    public var headers: [HTTPHeader]
    /// The resource's byte the body begins with: the range's offset for a 206 whose `Content-Range` the
    /// client checked against the request (and for a file:// range, which libcurl cuts), else 0 (a 200: the
    /// whole resource, whether or not a range was asked for).
    public var offset: Int

    /// Creates a start.
    public init(status: Int, headers: [HTTPHeader], offset: Int) {
        self.status = status
        self.headers = headers
        self.offset = offset
    }

    /// The value of the first header called `name` (compared case-insensitively), or `nil`.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
