import PlayheadNet

/// What the player sees of the network: a real libcurl client, or the simulated link over a real byte source.
public protocol PlayerNetwork: Sendable {
    /// Fetches `url` (optionally a byte range) and returns the bytes with the transfer's cost in session seconds.
    /// - Parameters:
    ///   - url: An `http`, `https` or `file` URL.
    ///   - range: The bytes wanted, or nil for the whole resource.
    ///   - sessionSeconds: Session time at which the transfer starts (the virtual clock's reading; a real
    ///     network ignores it).
    /// - Throws: ``PlayheadError/network(_:)`` naming the URL.
    func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer
}

/// One completed transfer as the player accounts for it.
public struct NetworkTransfer: Sendable, Equatable {
    /// The URL asked for.
    public var url: String
    /// The URL the body came from, after redirects.
    public var effectiveURL: String
    /// The HTTP status (200 or 206; 200 for file:// URLs).
    public var status: Int
    /// The body, decoded and cut to the range asked for.
    public var body: [UInt8]
    /// Transfer duration in seconds: the measured total for a real network, the link's charge for a
    /// simulated one.
    public var seconds: Double
    /// Seconds from the start to the first byte: measured, or the link's round trip when simulated.
    public var firstByteSeconds: Double
    /// Bytes the transfer moved: as measured on the wire, or, when simulated, the body bytes the link
    /// charged for.
    public var bytesOnWire: Int
    /// What was wrong with bytes that still arrived (a byte range that read short), reported as the
    /// segment's damage; empty when nothing was.
    public var damage: [String] = []

    /// Creates a transfer record (networks fill these in; tests and fakes may too).
    public init(url: String, effectiveURL: String, status: Int, body: [UInt8], seconds: Double,
                firstByteSeconds: Double, bytesOnWire: Int) {
        self.url = url
        self.effectiveURL = effectiveURL
        self.status = status
        self.body = body
        self.seconds = seconds
        self.firstByteSeconds = firstByteSeconds
        self.bytesOnWire = bytesOnWire
    }
}

/// Real: HTTPClient from PlayheadNet (seconds = measured timings.total).
public struct LiveNetwork: PlayerNetwork {
    /// The client transfers go through.
    public let client: HTTPClient

    /// Creates a network over `client`.
    public init(client: HTTPClient) { self.client = client }

    /// Fetches with the client; `sessionSeconds` is ignored (real time passes by itself).
    public func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        let response: HTTPResponse
        do {
            response = try await client.get(url, range: range)
        } catch {
            throw .network(error)
        }
        return NetworkTransfer(url: response.url, effectiveURL: response.effectiveURL, status: response.status,
                               body: response.body, seconds: response.timings.total,
                               firstByteSeconds: response.timings.firstByte, bytesOnWire: response.timings.bytesOnWire)
    }
}

/// Virtual: bytes from a real source (an HTTPClient on 127.0.0.1 or file:// URLs), time from SimulatedLink
/// (firstByteSeconds = RTT).
///
/// The link charges the body's size (after decoding and range cutting), so the cost does not depend on
/// how the local source happened to compress or serve it.
public struct SimulatedNetwork: PlayerNetwork {
    /// Where the bytes come from.
    public let client: HTTPClient
    /// What the bytes cost in time.
    public let link: SimulatedLink

    /// Creates a simulated network: bytes from `client`, time from `link`.
    public init(client: HTTPClient, link: SimulatedLink) {
        self.client = client
        self.link = link
    }

    /// Fetches the bytes with the client and charges ``SimulatedLink/transferSeconds(bytes:startingAt:)``
    /// for them, started at `sessionSeconds`.
    ///
    /// The client's total timeout holds on the link as it would on a real one: a transfer the link
    /// would take longer to carry fails with ``HTTPError/timeout(url:phase:after:)`` (phase total), and
    /// the virtual clock charges the limit for it. (A link that stops carrying data for good used to
    /// keep the session waiting for ever.) The first-byte and stall limits are not modelled.
    public func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        let response: HTTPResponse
        do {
            response = try await client.get(url, range: range)
        } catch {
            throw .network(error)
        }
        let bytes = response.body.count
        let seconds = link.transferSeconds(bytes: bytes, startingAt: sessionSeconds)
        if let limit = client.configuration.totalTimeout?.secondsDouble, !(seconds <= limit) {
            throw .network(.timeout(url: response.url, phase: .total, after: limit))
        }
        return NetworkTransfer(url: response.url, effectiveURL: response.effectiveURL, status: response.status,
                               body: response.body, seconds: seconds, firstByteSeconds: link.roundTripSeconds, bytesOnWire: bytes)
    }
}
