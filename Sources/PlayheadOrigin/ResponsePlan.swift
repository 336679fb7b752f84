import Foundation

/// The response the server will send for one request: decided up front from the file system, the request
/// and the fault, then sent by the connection (which also carries out delays, truncation and stalls).
struct ResponsePlan {
    var status: Int
    var headers: [(String, String)]
    /// The entity body (also computed for HEAD, for its `Content-Length`); empty when ``fileRegion`` gives it.
    var body: [UInt8]
    var sendBody: Bool
    var closeAfter: Bool
    /// A large body left in its file, read piece by piece as it is sent, so that a big file served to slow
    /// clients does not sit in memory once per request.
    var fileRegion: FileRegion?

    /// Bytes of a file to send: `count` from `offset`.
    struct FileRegion {
        var path: String
        var offset: Int
        var count: Int
    }

    /// Bodies larger than this are sent from their file (1 MiB).
    static let streamThresholdBytes = 1 << 20
    /// Files a body transformer is given to rewrite are at most this large (playlists; 8 MiB); larger ones
    /// are served as they are.
    static let transformLimitBytes = 8 << 20

    /// The body's length, in memory or in its file.
    var bodyLength: Int { fileRegion?.count ?? body.count }

    /// The status line and headers, ending with the blank line.
    var head: [UInt8] {
        var text = "HTTP/1.1 \(status) \(StatusText.phrase(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(bodyLength)\r\nConnection: \(closeAfter ? "close" : "keep-alive")\r\n\r\n"
        return Array(text.utf8)
    }

    /// A short text answer, e.g. for 404.
    static func text(_ status: Int, _ message: String, sendBody: Bool = true, closeAfter: Bool = false) -> ResponsePlan {
        ResponsePlan(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
                     body: Array("\(status) \(StatusText.phrase(status)): \(message)\n".utf8),
                     sendBody: sendBody, closeAfter: closeAfter)
    }

    /// The 400 for a request that cannot be answered whatever it names (``HTTPRequestHead/badRequestReason``),
    /// or nil.
    static func refusal(for request: HTTPRequestHead) -> ResponsePlan? {
        request.badRequestReason.map { text(400, $0, sendBody: request.method != "HEAD", closeAfter: !request.keepAlive) }
    }

    /// Decides the answer to `request` for files below `root`, with `fault` applied; `transform` may
    /// replace a whole file's body (a request without `Range`), see ``LoopbackHTTPServer/BodyTransformer``.
    static func make(for request: HTTPRequestHead, root: String, fault: LoopbackHTTPServer.Fault?,
                     transform: ((String, [UInt8]) -> [UInt8]?)? = nil) -> ResponsePlan {
        if let refusal = refusal(for: request) { return refusal }
        let isHead = request.method == "HEAD"
        let keepAlive = request.keepAlive
        guard request.method == "GET" || isHead else {
            var plan = text(405, "only GET and HEAD", closeAfter: !keepAlive)
            plan.headers.append(("Allow", "GET, HEAD"))
            return plan
        }
        if case .status(let code) = fault { return text(code, "fault injected for \(request.path)", sendBody: !isHead, closeAfter: !keepAlive) }
        let path = request.path
        let filePath: String
        switch FilePath.resolve(path, root: root) {
        case .bad(let why): return text(400, why, sendBody: !isHead, closeAfter: !keepAlive)
        case .outside: return text(403, "\(path) is outside the served folder", sendBody: !isHead, closeAfter: !keepAlive)
        case .file(let resolved): filePath = resolved
        }
        guard !path.hasSuffix("/"), let file = FileVersion(path: filePath) else {
            return text(404, "no file at \(path)", sendBody: !isHead, closeAfter: !keepAlive)
        }
        let size = file.size
        var headers: [(String, String)] = [("Content-Type", ContentType.forPath(path)), ("Accept-Ranges", "bytes")]
        let rangeHeader = fault == .ignoreRange ? nil : request.headers["range"]
        // The whole file, read once for the transform and kept for the answer when it leaves the file be.
        let wholeFile = transform != nil && rangeHeader == nil && size <= transformLimitBytes ? read(filePath, offset: 0, count: size) : nil
        if let transform, let wholeFile, var body = transform(path, wholeFile) {
            if case .corrupt(let seed) = fault { corrupt(&body, seed: seed) }
            headers += [("Cache-Control", "no-cache"), ("ETag", "\"t\(String(fnv1a(body), radix: 16))\"")]
            return ResponsePlan(status: 200, headers: headers, body: body, sendBody: !isHead, closeAfter: !keepAlive)
        }
        // RFC 9110 §13.1.5: under If-Range, the range only if the validator names this version, else all.
        var rangeAsked = rangeHeader
        if fault != .ignoreIfRange, let ifRange = request.headers["if-range"], !file.matches(ifRange: ifRange, now: Date()) { rangeAsked = nil }
        var body: [UInt8]
        var status = 200
        var validators = file
        var region: FileRegion?
        // A large body that is not to be corrupted stays in its file until it is sent.
        let streams = { (count: Int) in count > streamThresholdBytes && { if case .corrupt = fault { false } else { true } }() }
        switch RangeRequest(header: rangeAsked, size: size) {
        case .unsatisfiable:
            var plan = text(416, "range \(rangeHeader ?? "") is past the end (\(size) bytes)", sendBody: !isHead, closeAfter: !keepAlive)
            plan.headers.append(("Content-Range", "bytes */\(size)"))
            return plan
        case .partial(let first, let last):
            status = 206
            let count = last - first + 1
            if streams(count) {
                region = FileRegion(path: filePath, offset: first, count: count)
                body = []
            } else {
                body = read(filePath, offset: first, count: count)
            }
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)"))
        case .whole:
            if rangeHeader == nil, acceptsGzip(request), case .file(let gzip) = FilePath.resolve(path + ".gz", root: root),
               let gzipVersion = FileVersion(path: gzip) {
                validators = gzipVersion
                body = read(gzip, offset: 0, count: Int.max)
                headers.append(("Content-Encoding", "gzip"))
                headers.append(("Vary", "Accept-Encoding"))
            } else if wholeFile == nil, streams(size) {
                region = FileRegion(path: filePath, offset: 0, count: size)
                body = []
            } else {
                body = wholeFile ?? read(filePath, offset: 0, count: size)
            }
        }
        if case .corrupt(let seed) = fault { corrupt(&body, seed: seed) }
        headers.insert(contentsOf: [("ETag", validators.entityTag), ("Last-Modified", validators.lastModified)], at: 2)
        return ResponsePlan(status: status, headers: headers, body: body, sendBody: !isHead, closeAfter: !keepAlive, fileRegion: region)
    }

    /// Up to `count` bytes of the body from `offset` (of the body): from memory, or read from its file.
    func bodyBytes(from offset: Int, count: Int) -> [UInt8] {
        guard let region = fileRegion else {
            let end = min(body.count, offset + count)
            return offset < end ? Array(body[offset..<end]) : []
        }
        let wanted = max(0, min(count, region.count - offset))
        return wanted > 0 ? Self.read(region.path, offset: region.offset + offset, count: wanted) : []
    }

    private static func acceptsGzip(_ request: HTTPRequestHead) -> Bool {
        (request.headers["accept-encoding"] ?? "").lowercased().split(separator: ",").contains {
            $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "gzip"
        }
    }

    /// Reads up to `count` bytes from `offset`; fewer (possibly none) if the file shrank or is unreadable.
    private static func read(_ path: String, offset: Int, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return [] }
        let data = count == Int.max ? try? handle.readToEnd() : try? handle.read(upToCount: count)
        return data.map { [UInt8]($0) } ?? []
    }

    /// Flips about one byte per KiB (at least one) at positions drawn from a SplitMix64 generator.
    static func corrupt(_ body: inout [UInt8], seed: UInt64) {
        guard !body.isEmpty else { return }
        var generator = SplitMix64(seed: seed)
        for _ in 0..<max(1, body.count / 1024) {
            let position = Int(generator.next() % UInt64(body.count))
            body[position] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
        }
    }

    /// The 64-bit FNV-1a hash of `bytes`: a transformed body's ETag.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
