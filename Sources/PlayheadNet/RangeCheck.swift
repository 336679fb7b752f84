/// Checks a successful response against the byte range asked for. Pure; the client calls it once the
/// body is complete.
enum RangeCheck {
    /// A body that matches the request.
    struct Outcome: Equatable {
        var body: [UInt8]
        var rangeIgnoredByServer: Bool
        var resourceLength: Int?
    }

    /// A parsed `Content-Range: bytes first-last/complete` value (`complete` is `nil` for `*`).
    struct ContentRange: Equatable {
        var first: Int
        var last: Int
        var completeLength: Int?
    }

    /// Returns the body to hand out, or a sentence saying why it does not match `requested`.
    ///
    /// - 200 without a range: the body as is.
    /// - 200 with a range: the server ignored `Range`; the range is cut out of the body, which the client
    ///   may have `stoppedEarly` once it held the range (the resource's size is then `contentLength`).
    /// - 206: `Content-Range` must start at the offset asked for, end at the last byte asked for (or at the
    ///   resource's end when the range runs past it or is open), and agree with the body's size.
    static func apply(
        requested: ByteRangeRequest?, status: Int, contentRange: String?, body: [UInt8], stoppedEarly: Bool = false, contentLength: Int? = nil
    ) -> Result<Outcome, RangeMismatch> {
        guard let requested else {
            if status == 206 { return .failure(RangeMismatch("206 Partial Content without a range request")) }
            return .success(Outcome(body: body, rangeIgnoredByServer: false, resourceLength: body.count))
        }
        if status != 206 { return slice(body, to: requested, resourceLength: stoppedEarly ? contentLength : body.count) }
        guard let header = contentRange, let range = parse(header) else {
            return .failure(RangeMismatch("206 with missing or malformed Content-Range '\(contentRange ?? "")'"))
        }
        return check(range, header: header, body: body, against: requested)
    }

    /// Cuts the range out of a 200 body, which may have been stopped early once the range was in hand.
    private static func slice(_ body: [UInt8], to requested: ByteRangeRequest, resourceLength: Int?) -> Result<Outcome, RangeMismatch> {
        guard requested.offset < body.count else {
            return .failure(RangeMismatch(
                "server ignored Range \(requested) and its \(body.count)-byte body ends before the offset"))
        }
        let end = min(body.count, requested.lastByte.map { $0 + 1 } ?? body.count)
        return .success(Outcome(
            body: Array(body[requested.offset..<end]), rangeIgnoredByServer: true, resourceLength: resourceLength))
    }

    private static func check(
        _ range: ContentRange, header: String, body: [UInt8], against requested: ByteRangeRequest
    ) -> Result<Outcome, RangeMismatch> {
        if let mismatch = boundsMismatch(range, header: header, against: requested) { return .failure(mismatch) }
        if let mismatch = countMismatch(body.count, range, header: header) { return .failure(mismatch) }
        return .success(Outcome(body: body, rangeIgnoredByServer: false, resourceLength: range.completeLength))
    }

    /// For a body streamed to a sink, checked before its first byte: the 206's `Content-Range` (which must
    /// match `requested` as in ``apply(requested:status:contentRange:body:stoppedEarly:contentLength:)``),
    /// or nil for any other status (a 200 is the whole resource).
    static func start(requested: ByteRangeRequest?, status: Int, contentRange: String?) -> Result<ContentRange?, RangeMismatch> {
        guard status == 206 else { return .success(nil) }
        guard let requested else { return .failure(RangeMismatch("206 Partial Content without a range request")) }
        guard let header = contentRange, let range = parse(header) else {
            return .failure(RangeMismatch("206 with missing or malformed Content-Range '\(contentRange ?? "")'"))
        }
        if let mismatch = boundsMismatch(range, header: header, against: requested) { return .failure(mismatch) }
        return .success(range)
    }

    /// Why `range` is not the one `requested` (it must start at the offset and end at the last byte asked
    /// for, or at the resource's end); nil when it is.
    private static func boundsMismatch(_ range: ContentRange, header: String, against requested: ByteRangeRequest) -> RangeMismatch? {
        // An open range runs to the resource's end (when the answer tells it).
        var expectedLast = requested.lastByte ?? range.completeLength.map { $0 - 1 } ?? range.last
        if let complete = range.completeLength { expectedLast = min(expectedLast, complete - 1) }
        guard range.first == requested.offset, range.last == expectedLast else {
            return RangeMismatch("asked for \(requested), got Content-Range '\(header)'")
        }
        return nil
    }

    /// Why a body of `count` bytes does not fill `range`; nil when it does.
    static func countMismatch(_ count: Int, _ range: ContentRange, header: String) -> RangeMismatch? {
        count == range.last - range.first + 1 ? nil
            : RangeMismatch("Content-Range '\(header)' announces \(range.last - range.first + 1) bytes, body has \(count)")
    }

    /// Parses `bytes first-last/complete` or `bytes first-last/*`; `nil` when malformed.
    static func parse(_ value: String) -> ContentRange? {
        let trimmed = value.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 0, last >= first else {
            return nil
        }
        let complete: Int?
        if halves[1] == "*" { complete = nil } else {
            guard let value = Int(halves[1]), value > last else { return nil }
            complete = value
        }
        return ContentRange(first: first, last: last, completeLength: complete)
    }
}

/// Why a response does not match the byte range asked for.
struct RangeMismatch: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension StringProtocol {
    /// The string without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }  // "\r\n" is one Character
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
