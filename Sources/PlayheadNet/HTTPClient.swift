import Foundation

/// An HTTP(S) and file:// client on libcurl with an async API.
///
/// All transfers run on one dedicated thread that drives a libcurl multi handle; `get` hands a request
/// over through a lock-protected queue and suspends until the thread completes it. Connections are kept
/// alive in the multi handle's connection cache and reused for later requests to the same host; easy
/// handles are pooled. Cancelling the awaiting task aborts the transfer.
///
/// ```swift
/// let client = HTTPClient()
/// let segment = try await client.get("http://origin/a.ts", range: ByteRangeRequest(offset: 0, length: 188))
/// ```
public final class HTTPClient: Sendable {
    /// The settings this client was made with.
    public let configuration: HTTPClientConfiguration
    private let loop: CurlMultiLoop

    /// Starts the client's multi thread.
    /// - Parameter configuration: timeouts, connection limits and encodings; see
    ///   ``HTTPClientConfiguration`` for the defaults.
    public init(configuration: HTTPClientConfiguration = .init()) {
        self.configuration = configuration
        loop = CurlMultiLoop(configuration: configuration)
    }

    deinit { loop.shutdown() }

    /// The libcurl version string this build links against, e.g. `libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13`.
    public static var curlVersion: String { PlayheadNetInfo.curlVersion }

    /// Fetches `url` and returns the whole body.
    ///
    /// - Parameters:
    ///   - url: an `http`, `https` or `file` URL.
    ///   - range: bytes to fetch; a server that ignores `Range` and answers 200 is handled by cutting the
    ///     range out of its body, reading no further than the range's end
    ///     (``HTTPResponse/rangeIgnoredByServer`` tells); a 206 whose
    ///     `Content-Range` does not match the request fails with `CURLE_RANGE_ERROR` (33).
    ///   - headers: extra request headers (names and values must not contain line breaks).
    /// - Returns: the 2xx response, its body decoded.
    /// - Throws: ``HTTPError``: `.status` for non-2xx answers, `.timeout`, `.transport`, `.cancelled`
    ///   when the task is cancelled or the client shut down, `.invalidURL`.
    public func get(
        _ url: String, range: ByteRangeRequest? = nil, headers: [String: String] = [:]
    ) async throws(HTTPError) -> HTTPResponse {
        try await transfer(TransferTicket(url: url, range: range, headers: headers, sink: nil))
    }

    /// Fetches `url` (whole, or `range` of it) and hands its body to `sink` as it arrives instead of keeping
    /// it: the response's `body` is empty and `timings.bytesReceived` counts what the sink took. No
    /// ``HTTPClientConfiguration/maxBodyBytes`` limit applies (the sink decides where the bytes go).
    ///
    /// - Parameters:
    ///   - url: an `http`, `https` or `file` URL.
    ///   - range: bytes to fetch (a download's resume asks for `bytes=N-`). A 206's `Content-Range` is
    ///     checked as for ``get(_:range:headers:)`` before the first byte reaches the sink; a server that
    ///     ignores `Range` (or an `If-Range` that did not match) answers 200, and then the sink gets the
    ///     whole body, uncut: ``HTTPBodyStart/offset`` tells which it is.
    ///   - headers: extra request headers (`If-Range`, …).
    ///   - sink: takes the body of a 2xx answer, piece by piece, after ``HTTPBodySink/begin(_:)``.
    /// - Returns: the 2xx response, without its body.
    /// - Throws: as ``get(_:range:headers:)``; a sink that refused a piece gives `.transport` with code 23.
    public func get(
        _ url: String, range: ByteRangeRequest? = nil, headers: [String: String] = [:], sink: any HTTPBodySink
    ) async throws(HTTPError) -> HTTPResponse {
        try await transfer(TransferTicket(url: url, range: range, headers: headers, sink: sink))
    }

    private func transfer(_ ticket: TransferTicket) async throws(HTTPError) -> HTTPResponse {
        let url = ticket.url
        if let problem = Self.validate(url: url, range: ticket.range, headers: ticket.headers) { throw problem }
        let loop = self.loop
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard ticket.install(continuation) else { return }
                if !loop.submit(ticket) { ticket.complete(.failure(.cancelled(url: url))) }
            }
        } onCancel: {
            loop.cancel(ticket)
        }
        return try result.get()
    }

    /// Stops the multi thread; requests under way fail with ``HTTPError/cancelled(url:)`` and later ones
    /// fail at once the same way. Blocks briefly until libcurl's handles are freed. Also run on deinit.
    public func shutdown() { loop.shutdown() }

    private static func validate(url: String, range: ByteRangeRequest?, headers: [String: String]) -> HTTPError? {
        if url.isEmpty || url.contains(where: { $0.isNewline || $0 == "\0" }) { return .invalidURL(url) }
        // libcurl reads a folder as an empty or listing body; say what it is instead.
        if url.lowercased().hasPrefix("file:"), let path = URL(string: url)?.path, !path.isEmpty {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                return .transport(url: url, curlCode: Int(CURLE_FILE_COULDNT_READ_FILE_CODE), message: "\(path) is a folder, not a file")
            }
        }
        if let range, !range.isValid {
            return .transport(url: url, curlCode: Int(CURLE_BAD_FUNCTION_ARGUMENT_CODE),
                              message: "invalid byte range offset \(range.offset) length \(range.length.map(String.init) ?? "nil")")
        }
        for (name, value) in headers where (name + value).contains(where: { $0.isNewline || $0 == "\0" }) || name.isEmpty {
            return .transport(url: url, curlCode: Int(CURLE_BAD_FUNCTION_ARGUMENT_CODE),
                              message: "request header '\(name)' is empty or contains a line break")
        }
        return nil
    }
}

/// `CURLE_FILE_COULDNT_READ_FILE` (37), for a file URL that names a folder.
private let CURLE_FILE_COULDNT_READ_FILE_CODE = 37

/// `CURLE_BAD_FUNCTION_ARGUMENT` (43), used for requests rejected before they reach libcurl.
private let CURLE_BAD_FUNCTION_ARGUMENT_CODE = 43
