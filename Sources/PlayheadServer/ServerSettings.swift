/// How `playhead serve` runs: where it listens, who may call it, where it keeps its data, its limits.
/// Every default is a named static.
public struct ServerSettings: Sendable, Equatable {
    /// Default address: loopback only.
    public static let defaultBindAddress = "127.0.0.1"
    /// Default port: 7070.
    public static let defaultPort = 7070
    /// Default data directory: `./playhead-data`.
    public static let defaultDataDirectory = "playhead-data"
    /// Default limit of sessions running at once: 100 (a 50-session soak fits twice).
    public static let defaultMaxSessions = 100
    /// Default limit of a request body: 64 KiB (a session spec is a few hundred bytes).
    public static let defaultMaxBodyBytes = 64 * 1024
    /// Default time a connection may wait between requests (or for a request's head) before it is
    /// closed: 60 s.
    public static let defaultIdleTimeoutSeconds = 60.0
    /// Default interval of the comment line an event stream sends while no event comes: 15 s. It keeps
    /// proxies from closing a quiet stream and lets the daemon notice a client that left.
    public static let defaultEventStreamKeepAliveSeconds = 15.0

    /// The address to listen on.
    public var bindAddress = defaultBindAddress
    /// The TCP port (0: the kernel picks one; the chosen port is printed at start).
    public var port = defaultPort
    /// A bearer token every request but `/healthz` must carry; nil: no authentication.
    public var token: String?
    /// The directory of the SQLite store.
    public var dataDirectory = defaultDataDirectory
    /// The most sessions that may run at once (429 past it).
    public var maxSessions = defaultMaxSessions
    /// The largest request body accepted (413 past it).
    public var maxBodyBytes = defaultMaxBodyBytes
    /// Time a connection may sit without a request before it is closed, seconds.
    public var idleTimeoutSeconds = defaultIdleTimeoutSeconds
    /// Interval of an event stream's keep-alive comment while no event comes, seconds.
    public var eventStreamKeepAliveSeconds = defaultEventStreamKeepAliveSeconds
    /// Interval between two batches of store writes, seconds.
    public var flushIntervalSeconds = StoreWriter.defaultFlushIntervalSeconds

    /// Creates the default settings.
    public init() {}
}
