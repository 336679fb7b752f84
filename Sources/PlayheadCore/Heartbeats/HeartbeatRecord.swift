/// One video heartbeat call (F27): a `track…` method's call, or a periodic heartbeat, with where the
/// session was and how the tracking server answered. The playback report carries these in
/// ``HeartbeatReport/calls``.
public struct HeartbeatRecord: Sendable, Equatable, Codable {
    /// The track method that made the call (`trackVideoLoad`, `trackPlay`, …), or `heartbeat` for a
    /// periodic call.
    public var call: String
    /// The call's `s:event:type` (`load`, `start`, `play`, `pause`, `buffer`, `complete`, …).
    public var type: String
    /// When the call was made, seconds on the session clock (the virtual clock under `--clock virtual`).
    public var sessionSeconds: Double
    /// The playhead the call carries: seconds of content (ads not counted), or seconds into the ad when
    /// ``assetType`` is `ad`.
    public var playheadSeconds: Double
    /// `main` for the content, `ad` inside an ad.
    public var assetType: String
    /// The URL called (nil in quiet mode without a tracking server).
    public var url: String?
    /// Whether the call went over the wire (false in quiet mode).
    public var sent: Bool
    /// The HTTP status; nil when not sent or when no answer came.
    public var httpStatus: Int?
    /// The transport error, when the call failed without an answer.
    public var error: String?

    /// Creates a record.
    public init(call: String, type: String, sessionSeconds: Double, playheadSeconds: Double, assetType: String,
                url: String?, sent: Bool, httpStatus: Int? = nil, error: String? = nil) {
        self.call = call
        self.type = type
        self.sessionSeconds = sessionSeconds
        self.playheadSeconds = playheadSeconds
        self.assetType = assetType
        self.url = url
        self.sent = sent
        self.httpStatus = httpStatus
        self.error = error
    }
}

/// The `heartbeats` section of the playback report: how heartbeat tracking was set up, the startup
/// time it measured and every call it made, in call order.
public struct HeartbeatReport: Sendable, Equatable, Codable {
    /// The tracking server's base URL (nil in quiet mode without one).
    public var trackingServer: String?
    /// The heartbeat interval, seconds of session time.
    public var intervalSeconds: Double
    /// Quiet mode: calls were made and recorded but not sent.
    public var quiet: Bool
    /// Session time from `trackSessionStart` (play asked) to the first `trackPlay` (first frame),
    /// seconds; nil when playback never started.
    public var startupTimeSeconds: Double?
    /// Every call, in the order it was made.
    public var calls: [HeartbeatRecord]

    /// Creates the section.
    public init(trackingServer: String?, intervalSeconds: Double, quiet: Bool, startupTimeSeconds: Double?, calls: [HeartbeatRecord]) {
        self.trackingServer = trackingServer
        self.intervalSeconds = intervalSeconds
        self.quiet = quiet
        self.startupTimeSeconds = startupTimeSeconds
        self.calls = calls
    }
}
