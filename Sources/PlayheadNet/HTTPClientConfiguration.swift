/// Settings of an ``HTTPClient``, as plain data. Every default is a named static with its unit.
///
/// Timeouts and what they measure:
/// - ``connectTimeout``: DNS, TCP connect and TLS handshake of a new connection (libcurl's
///   `CURLOPT_CONNECTTIMEOUT_MS`). Reports ``TimeoutPhase/connect``.
/// - ``firstByteTimeout``: from the start of the transfer until the first *body* byte arrives; enforced by
///   the client's multi thread, which wakes at the deadline (not by libcurl's low-speed options, whose
///   granularity is one second). A response whose body is empty completes without tripping it.
///   Reports ``TimeoutPhase/firstByte``.
/// - ``totalTimeout``: from the start of the transfer until the last byte; enforced the same way.
///   Reports ``TimeoutPhase/total``.
/// - ``stallTimeout``: once the body has started, the longest wait for the next byte; enforced the same
///   way. Reports ``TimeoutPhase/stall``.
///
/// ``maxBodyBytes`` bounds what one response may bring (an endless chunked body would otherwise grow
/// until memory runs out); past it the transfer stops with ``HTTPError/tooLarge(url:limit:)``.
///
/// A transfer starts when the multi thread hands it to libcurl, so time spent waiting for a free connection
/// (see ``maxConnectionsPerHost``) counts against the first-byte and total timeouts.
public struct HTTPClientConfiguration: Sendable, Equatable {
    /// Default of ``connectTimeout``: 10 s.
    public static let defaultConnectTimeout: Duration = .seconds(10)
    /// Default of ``firstByteTimeout``: 10 s (hls.js and the player's segment loader use the same figure).
    public static let defaultFirstByteTimeout: Duration = .seconds(10)
    /// Default of ``totalTimeout``: 60 s.
    public static let defaultTotalTimeout: Duration = .seconds(60)
    /// Default of ``stallTimeout``: 10 s without a byte once the body has started.
    public static let defaultStallTimeout: Duration = .seconds(10)
    /// Default of ``maxBodyBytes``: 1 GiB.
    public static let defaultMaxBodyBytes = 1 << 30
    /// Default of ``maxConnectionsPerHost``: 6 parallel connections to one host, like browsers.
    public static let defaultMaxConnectionsPerHost = 6
    /// Default of ``maxPooledHandles``: 16 idle easy handles kept for reuse.
    public static let defaultMaxPooledHandles = 16
    /// Default of ``maxRedirects``: 5.
    public static let defaultMaxRedirects = 5
    /// Default of ``errorBodyPrefixBytes``: 512 bytes of an error response's body kept in the error.
    public static let defaultErrorBodyPrefixBytes = 512
    /// Default of ``userAgent``.
    public static let defaultUserAgent = "Playhead/0.1"

    /// Limit on establishing a new connection (DNS, TCP, TLS). Default ``defaultConnectTimeout``.
    public var connectTimeout: Duration
    /// Limit on the wait for the first body byte, measured from the transfer's start; `nil` for none.
    /// Default ``defaultFirstByteTimeout``.
    public var firstByteTimeout: Duration?
    /// Limit on the whole transfer; `nil` for none. Default ``defaultTotalTimeout``.
    public var totalTimeout: Duration?
    /// Limit on the silence between body bytes once the body has started; `nil` for none. Default
    /// ``defaultStallTimeout``.
    public var stallTimeout: Duration?
    /// Most body bytes one response may bring; `nil` for no limit. Default ``defaultMaxBodyBytes``.
    public var maxBodyBytes: Int?
    /// Parallel connections to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`); further transfers queue in
    /// libcurl. 0 means unlimited. Default ``defaultMaxConnectionsPerHost``.
    public var maxConnectionsPerHost: Int
    /// Idle easy handles kept for the next requests. Default ``defaultMaxPooledHandles``.
    public var maxPooledHandles: Int
    /// Whether 3xx responses are followed (to http and https only). Default `true`.
    public var followRedirects: Bool
    /// Most redirects followed for one request. Default ``defaultMaxRedirects``.
    public var maxRedirects: Int
    /// Whether to advertise every encoding libcurl can decode (gzip, deflate, and whatever else this
    /// libcurl was built with) and decode the body transparently. Default `true`.
    public var acceptCompressed: Bool
    /// The `User-Agent` header; a `User-Agent` passed per request wins. Default ``defaultUserAgent``.
    public var userAgent: String
    /// How many bytes of an error response's body ``HTTPError/status(url:code:bodyPrefix:)`` keeps.
    /// Default ``defaultErrorBodyPrefixBytes``.
    public var errorBodyPrefixBytes: Int

    /// Creates a configuration; every parameter defaults to the documented static.
    public init(
        connectTimeout: Duration = defaultConnectTimeout,
        firstByteTimeout: Duration? = defaultFirstByteTimeout,
        totalTimeout: Duration? = defaultTotalTimeout,
        stallTimeout: Duration? = defaultStallTimeout,
        maxBodyBytes: Int? = defaultMaxBodyBytes,
        maxConnectionsPerHost: Int = defaultMaxConnectionsPerHost,
        maxPooledHandles: Int = defaultMaxPooledHandles,
        followRedirects: Bool = true,
        maxRedirects: Int = defaultMaxRedirects,
        acceptCompressed: Bool = true,
        userAgent: String = defaultUserAgent,
        errorBodyPrefixBytes: Int = defaultErrorBodyPrefixBytes
    ) {
        self.connectTimeout = connectTimeout
        self.firstByteTimeout = firstByteTimeout
        self.totalTimeout = totalTimeout
        self.stallTimeout = stallTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxPooledHandles = maxPooledHandles
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.acceptCompressed = acceptCompressed
        self.userAgent = userAgent
        self.errorBodyPrefixBytes = errorBodyPrefixBytes
    }
}

extension HTTPClientConfiguration {
    /// Connections per viewer when one client serves several players (a daemon, a soak): 2, one for
    /// segments and one for playlist reloads, as a browser tab mostly uses.
    public static let connectionsPerViewer = 2

    /// A configuration for one client shared by `viewers` players, each standing for a viewer: enough
    /// connections per host (and pooled handles) that no player waits behind the others'
    /// transfers — ``connectionsPerViewer`` each, never fewer than the defaults.
    public static func shared(byViewers viewers: Int) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            maxConnectionsPerHost: max(defaultMaxConnectionsPerHost, connectionsPerViewer * viewers),
            maxPooledHandles: max(defaultMaxPooledHandles, connectionsPerViewer * viewers))
    }
}
