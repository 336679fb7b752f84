/// Takes a response's body as it arrives, so that a large file need not be held in memory (an offline
/// download's segments go straight to disk through one).
///
/// ``HTTPClient/get(_:headers:sink:)`` calls ``receive(_:)`` on the client's transfer thread, once per
/// piece, in order, and only for a 2xx answer's body (an error answer's body stays in the error). A sink
/// serves one transfer; the caller reads what it gathered after `get` returns.
public protocol HTTPBodySink: AnyObject, Sendable {
    /// Takes the next piece of the body. Returns `false` to abort the transfer (a write failed); `get`
    /// then throws ``HTTPError/transport(url:curlCode:message:)`` with libcurl's write error (23), and the
    /// sink should keep its own reason for the caller.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
}
