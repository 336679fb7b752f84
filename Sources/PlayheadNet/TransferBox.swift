import CCurl
import CPlayheadShims

/// Per-transfer state owned by the multi thread: the easy handle, the request's header list and error
/// buffer, and what arrives. libcurl's callbacks, which run on the multi thread inside
/// `curl_multi_perform`, reach it through an `Unmanaged` pointer; the worker's table of active
/// transfers keeps it alive meanwhile. Never shared with another thread, hence not `Sendable`.
final class TransferBox {
    /// The request and the way back to the awaiting task.
    let ticket: TransferTicket
    /// The libcurl easy handle (pooled; owned by the multi thread).
    let easy: UnsafeMutableRawPointer
    /// When the transfer was handed to libcurl.
    let startedAt: ContinuousClock.Instant
    /// When to give up if no body byte has arrived.
    let firstByteDeadline: ContinuousClock.Instant?
    /// When to give up on the whole transfer.
    let totalDeadline: ContinuousClock.Instant?
    /// Decoded body bytes so far (those a sink took are not kept here).
    fileprivate(set) var body: [UInt8] = []
    /// Decoded body bytes received so far, kept or handed to the ticket's sink.
    private(set) var receivedBytes = 0
    /// Whether this answer's body goes to the ticket's sink (decided at the first body byte: a 2xx answer).
    private var sinking = false
    /// Whether the sink was told where the body begins (``HTTPBodySink/begin(_:)``).
    private var sinkBegan = false
    /// The checked `Content-Range` of a 206 going to the sink.
    private var sinkRange: (range: RangeCheck.ContentRange, header: String)?
    /// Why a 206 going to the sink did not match its range (the transfer was stopped).
    private var sinkMismatch: RangeMismatch?
    /// Where to stop reading when the server ignores a bounded range (decided at the first body byte).
    private var cutoff: Int??
    /// Whether the transfer was stopped at ``cutoff`` on purpose.
    private var stoppedAtCutoff = false
    /// When the latest body byte arrived (nil before the first).
    private(set) var lastByteAt: ContinuousClock.Instant?
    /// The most body bytes accepted (``HTTPClientConfiguration/maxBodyBytes``).
    private let maxBodyBytes: Int?
    /// Whether the transfer was stopped for passing ``maxBodyBytes``.
    private var stoppedAtLimit = false
    /// Headers of the latest response block (reset at each status line, so redirects leave only the last).
    fileprivate(set) var headers: [HTTPHeader] = []
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init(ticket: TransferTicket, easy: UnsafeMutableRawPointer, configuration: HTTPClientConfiguration) {
        self.ticket = ticket
        self.easy = easy
        let now = ContinuousClock.now
        startedAt = now
        firstByteDeadline = configuration.firstByteTimeout.map { now + $0 }
        totalDeadline = configuration.totalTimeout.map { now + $0 }
        maxBodyBytes = configuration.maxBodyBytes
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// libcurl's explanation of the last failure, or its generic text for `code`.
    func errorMessage(for code: CURLcode) -> String {
        let specific = String(cString: errorBuffer)
        return specific.isEmpty ? String(cString: curl_easy_strerror(code)) : specific
    }

    /// Sets every option of the request on the easy handle. Returns a failure to report, or `nil`.
    func configure(_ configuration: HTTPClientConfiguration) -> HTTPError? {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var code = CURLE_OK
        func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }

        set(ph_easy_setopt_ptr(easy, CURLOPT_URL, ticket.url))
        set(ph_easy_setopt_ptr(easy, CURLOPT_PROTOCOLS_STR, "http,https,file"))
        set(ph_easy_setopt_ptr(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(ph_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(ph_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(ph_easy_setopt_write(easy, CURLOPT_WRITEFUNCTION, { data, size, count, userdata in
            let box = Unmanaged<TransferBox>.fromOpaque(userdata!).takeUnretainedValue()
            let total = size * count
            guard let data, total > 0 else { return total }
            return box.receiveBody(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
        }))
        set(ph_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me))
        set(ph_easy_setopt_write(easy, CURLOPT_HEADERFUNCTION, { data, size, count, userdata in
            let box = Unmanaged<TransferBox>.fromOpaque(userdata!).takeUnretainedValue()
            let total = size * count
            if let data, total > 0 { box.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: total)) }
            return total
        }))
        set(ph_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me))
        set(ph_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, configuration.followRedirects ? 1 : 0))
        set(ph_easy_setopt_long(easy, CURLOPT_MAXREDIRS, configuration.maxRedirects))
        set(ph_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, configuration.connectTimeout.millisecondsRoundedUp)))
        set(ph_easy_setopt_ptr(easy, CURLOPT_USERAGENT, configuration.userAgent))
        if configuration.acceptCompressed { set(ph_easy_setopt_ptr(easy, CURLOPT_ACCEPT_ENCODING, "")) }
        if let range = ticket.range { set(ph_easy_setopt_ptr(easy, CURLOPT_RANGE, range.curlRange)) }
        for (name, value) in ticket.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        if let headerList { set(ph_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList)) }
        return code == CURLE_OK ? nil : HTTPError.transport(
            url: ticket.url, curlCode: Int(code.rawValue), message: "setting options failed: \(errorMessage(for: code))")
    }

    /// Appends body bytes. Returns `false` to stop the transfer: when a server answers a bounded range
    /// request with 200 and the whole resource, reading stops once the range is in hand (the connection is
    /// then closed rather than drained).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if cutoff == nil {
            let status = longInfo(CURLINFO_RESPONSE_CODE)
            let ignoresRange = ticket.sink == nil && !isFileURL && ticket.range?.length != nil && status == 200
            cutoff = .some(ignoresRange ? ticket.range.flatMap { $0.lastByte.map { $0 + 1 } } : nil)
            sinking = ticket.sink != nil && (isFileURL || (200...299).contains(status))
            if sinking, !beginSink(status: status) { return false }
        }
        lastByteAt = .now
        receivedBytes += bytes.count
        if sinking, let sink = ticket.sink { return sink.receive(bytes) }
        if let maxBodyBytes, body.count + bytes.count > maxBodyBytes {
            stoppedAtLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        guard let limit = cutoff ?? nil, body.count >= limit else { return true }
        stoppedAtCutoff = true
        return false
    }

    private var isFileURL: Bool { ticket.url.lowercased().hasPrefix("file:") }

    /// A streamed 206 that is not the range asked for, as libcurl's range error (33).
    private func rangeError(_ mismatch: RangeMismatch) -> HTTPError {
        .transport(url: ticket.url, curlCode: Int(CURLE_RANGE_ERROR.rawValue), message: mismatch.reason)
    }

    /// Tells the sink where the body begins, once: a 206's `Content-Range` is checked against the range
    /// asked for first (a mismatch stops the transfer); libcurl cuts a file:// range itself.
    private func beginSink(status: Int) -> Bool {
        guard !sinkBegan, let sink = ticket.sink else { return true }
        sinkBegan = true
        var offset = 0
        if isFileURL {
            offset = ticket.range?.offset ?? 0
        } else {
            let header = header("Content-Range")
            switch RangeCheck.start(requested: ticket.range, status: status, contentRange: header) {
            case .failure(let mismatch):
                sinkMismatch = mismatch
                return false
            case .success(let range?):
                sinkRange = (range, header ?? "")
                offset = range.first
            case .success(nil):
                break
            }
        }
        return sink.begin(HTTPBodyStart(status: isFileURL ? 200 : status, headers: headers, offset: offset))
    }

    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingSpaces
        if line.hasPrefix("HTTP/") {
            headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingSpaces
            if !name.isEmpty { headers.append(HTTPHeader(name: name, value: line[line.index(after: colon)...].trimmingSpaces)) }
        }
    }

    /// Whether `url` names a scheme the client fetches (http, https, file).
    static func hasSupportedScheme(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file:")
    }

    /// The outcome once libcurl reports the transfer done with `code`.
    func result(code: CURLcode, configuration: HTTPClientConfiguration) -> Result<HTTPResponse, HTTPError> {
        let url = ticket.url
        switch code {
        case CURLE_OK: break
        case CURLE_WRITE_ERROR where stoppedAtCutoff: break
        case CURLE_WRITE_ERROR where sinkMismatch != nil:
            return .failure(rangeError(sinkMismatch!))
        case CURLE_WRITE_ERROR where stoppedAtLimit:
            return .failure(.tooLarge(url: url, limit: maxBodyBytes ?? 0))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timeout(url: url, phase: .connect, after: configuration.connectTimeout.secondsDouble))
        case CURLE_UNSUPPORTED_PROTOCOL where Self.hasSupportedScheme(url):
            // The URL was fine: the answer was not (HTTP/0.9 garbage on a reused connection after a server sent
            // more than its Content-Length, a redirect to a scheme not allowed). libcurl's message says which.
            return .failure(.transport(url: url, curlCode: Int(code.rawValue), message: errorMessage(for: code)))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .failure(.invalidURL(url))
        default:
            return .failure(.transport(url: url, curlCode: Int(code.rawValue), message: errorMessage(for: code)))
        }
        let effectiveURL = stringInfo(CURLINFO_EFFECTIVE_URL) ?? url
        let isFile = effectiveURL.lowercased().hasPrefix("file:")
        let status = isFile ? 200 : longInfo(CURLINFO_RESPONSE_CODE)
        guard (200...299).contains(status) else {
            return .failure(.status(url: url, code: status, bodyPrefix: Array(body.prefix(configuration.errorBodyPrefixBytes))))
        }
        let timings = collectTimings()
        if ticket.sink != nil {
            // The body went to the sink (an empty one is announced now), a 206's range checked at its start.
            if !beginSink(status: status) {
                return .failure(sinkMismatch.map(rangeError)
                    ?? .transport(url: url, curlCode: Int(CURLE_WRITE_ERROR.rawValue), message: "the body's sink refused it"))
            }
            if let (range, header) = sinkRange, let mismatch = RangeCheck.countMismatch(receivedBytes, range, header: header) {
                return .failure(rangeError(mismatch))
            }
            let partial = sinkRange != nil || (isFile && ticket.range != nil)
            return .success(HTTPResponse(
                url: url, effectiveURL: effectiveURL, status: status, headers: headers, body: [], timings: timings,
                requestedRange: ticket.range, rangeIgnoredByServer: ticket.range != nil && !partial,
                resourceLength: partial ? sinkRange?.range.completeLength : receivedBytes))
        }
        // libcurl cuts file:// ranges itself (and fails with CURLE_BAD_DOWNLOAD_RESUME past the end); its
        // pseudo header Content-Length gives the whole file's size.
        let outcome = isFile
            ? .success(RangeCheck.Outcome(
                body: body, rangeIgnoredByServer: false, resourceLength: header("Content-Length").flatMap { Int($0) }))
            : RangeCheck.apply(
                requested: ticket.range, status: status, contentRange: header("Content-Range"), body: body,
                stoppedEarly: stoppedAtCutoff,
                contentLength: header("Content-Encoding") == nil ? header("Content-Length").flatMap { Int($0) } : nil)
        switch outcome {
        case .failure(let mismatch):
            return .failure(.transport(url: url, curlCode: Int(CURLE_RANGE_ERROR.rawValue), message: mismatch.reason))
        case .success(let checked):
            return .success(HTTPResponse(
                url: url, effectiveURL: effectiveURL, status: status, headers: headers, body: checked.body,
                timings: timings, requestedRange: ticket.range, rangeIgnoredByServer: checked.rangeIgnoredByServer,
                resourceLength: checked.resourceLength))
        }
    }

    private func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    private func collectTimings() -> TransferTimings {
        func seconds(_ info: CURLINFO) -> Double { Double(offInfo(info)) / 1_000_000 }
        return TransferTimings(
            dns: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tls: seconds(CURLINFO_APPCONNECT_TIME_T), firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: seconds(CURLINFO_TOTAL_TIME_T), bytesReceived: receivedBytes,
            bytesOnWire: offInfo(CURLINFO_SIZE_DOWNLOAD_T),
            reusedConnection: longInfo(CURLINFO_NUM_CONNECTS) == 0, startedAt: startedAt)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return ph_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func offInfo(_ info: CURLINFO) -> Int {
        var value: curl_off_t = 0
        return ph_easy_getinfo_off(easy, info, &value) == CURLE_OK ? Int(value) : 0
    }

    private func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ph_easy_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
