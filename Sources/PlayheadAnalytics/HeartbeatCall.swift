/// A call decided by a ``HeartbeatSession``: which track method (or `heartbeat`), its `s:event:type`,
/// when and where, and the query parameters it carries.
public struct HeartbeatCall: Sendable, Equatable {
    /// `trackVideoLoad`, `trackPlay`, …, or `heartbeat` for a periodic call.
    public var method: String
    /// The call's `s:event:type`.
    public var type: String
    /// Session time of the call, seconds.
    public var sessionSeconds: Double
    /// Content seconds, or seconds into the ad when ``assetType`` is `ad`.
    public var playheadSeconds: Double
    /// `main` or `ad`.
    public var assetType: String
    /// Every query parameter, in order (``HeartbeatURL/url(base:parameters:)``).
    public var parameters: [HeartbeatParameter]

    /// Creates a call.
    public init(method: String, type: String, sessionSeconds: Double, playheadSeconds: Double, assetType: String,
                parameters: [HeartbeatParameter]) {
        self.method = method
        self.type = type
        self.sessionSeconds = sessionSeconds
        self.playheadSeconds = playheadSeconds
        self.assetType = assetType
        self.parameters = parameters
    }

    /// The value of parameter `name`, if the call carries it.
    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
}

/// What the player tells the tracker besides its events (the guide's `VideoPlayerPluginDelegate`
/// `getVideoInfo`): the item's duration and whether it is live. Queried at each call.
public struct HeartbeatPlayerInfo: Sendable, Equatable {
    /// The content's duration, seconds, when known (VOD).
    public var durationSeconds: Double?
    /// Whether the item is live.
    public var isLive: Bool
    /// The playback rate (1 = normal): the playhead moves on at it between the player's once-a-second
    /// `timeChanged` events.
    public var rate: Double
    /// The player's position on the playback timeline when asked (nil when not known).
    public var positionSeconds: Double?

    /// Creates the info.
    public init(durationSeconds: Double?, isLive: Bool, rate: Double = 1, positionSeconds: Double? = nil) {
        self.durationSeconds = durationSeconds
        self.isLive = isLive
        self.rate = rate > 0 && rate.isFinite ? rate : 1
        self.positionSeconds = positionSeconds
    }
}
