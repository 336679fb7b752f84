/// One response header line, as received (names keep their case; compare them case-insensitively).
public struct HTTPHeader: Sendable, Equatable {
    /// The header's name, e.g. `Content-Type`.
    public var name: String
    /// The header's value with surrounding white space removed.
    public var value: String

    /// Creates a header.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A successful (2xx) response, its body fully received and decoded.
public struct HTTPResponse: Sendable {
    /// The URL asked for.
    public var url: String
    /// The URL the body came from, after redirects.
    public var effectiveURL: String
    /// The HTTP status (200 or 206). For file:// URLs, which have no status, 200.
    public var status: Int
    /// The headers of the final response, in order. For file:// URLs, the pseudo headers libcurl makes up
    /// (`Content-Length` of the whole file, `Accept-ranges`, `Last-Modified`).
    public var headers: [HTTPHeader]
    /// The body, decoded (gzip, deflate) and, if the server ignored a range request, cut to the range.
    public var body: [UInt8]
    /// How long the transfer took and how many bytes it moved.
    public var timings: TransferTimings
    /// The byte range asked for, if any.
    public var requestedRange: ByteRangeRequest?
    /// `true` when a range was asked for but the server sent the whole resource with 200; the client then
    /// cut ``body`` to the range itself, and for a bounded range stopped reading (closing the connection)
    /// once it held the range.
    public var rangeIgnoredByServer: Bool
    /// The size of the whole resource when known (from `Content-Range`, or from a full 200 body).
    public var resourceLength: Int?

    /// The value of the first header called `name` (compared case-insensitively), or `nil`.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// Timings and byte counts of one transfer, from libcurl's `CURLINFO_*_TIME_T` microsecond values.
///
/// Every time is in seconds from the start of the transfer and includes the phases before it, so for a
/// completed transfer `total >= firstByte >= connect >= dns >= 0`. On a reused connection `dns`,
/// `connect` and `tls` are about zero.
public struct TransferTimings: Sendable, Equatable {
    /// Name resolution done (`CURLINFO_NAMELOOKUP_TIME_T`), seconds from the start.
    public var dns: Double
    /// TCP connection established (`CURLINFO_CONNECT_TIME_T`), seconds from the start.
    public var connect: Double
    /// TLS handshake done (`CURLINFO_APPCONNECT_TIME_T`), seconds from the start; 0 without TLS.
    public var tls: Double
    /// First response byte received (`CURLINFO_STARTTRANSFER_TIME_T`), seconds from the start.
    public var firstByte: Double
    /// Transfer complete (`CURLINFO_TOTAL_TIME_T`), seconds from the start.
    public var total: Double
    /// Body bytes received after decoding (before a client-side range cut; for a server that ignored a
    /// bounded range, what was read until the range was in hand).
    public var bytesReceived: Int
    /// Body bytes as they came over the wire, before decoding (`CURLINFO_SIZE_DOWNLOAD_T`).
    public var bytesOnWire: Int
    /// Whether the transfer went over a connection kept alive from an earlier one
    /// (`CURLINFO_NUM_CONNECTS` was 0).
    public var reusedConnection: Bool
    /// When the multi thread handed the transfer to libcurl, on the monotonic clock.
    public var startedAt: ContinuousClock.Instant

    /// Creates timings; the client fills these in, tests and simulated networks may too.
    public init(
        dns: Double, connect: Double, tls: Double, firstByte: Double, total: Double,
        bytesReceived: Int, bytesOnWire: Int, reusedConnection: Bool, startedAt: ContinuousClock.Instant
    ) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
        self.bytesReceived = bytesReceived
        self.bytesOnWire = bytesOnWire
        self.reusedConnection = reusedConnection
        self.startedAt = startedAt
    }

    /// Wire throughput from the first byte to the end, in bits per second; `nil` when too short to tell.
    public var throughputBitsPerSecond: Double? {
        let seconds = total - firstByte
        guard seconds > 0, bytesOnWire > 0 else { return nil }
        return Double(bytesOnWire) * 8 / seconds
    }
}
