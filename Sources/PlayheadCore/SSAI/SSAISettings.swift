/// What server-side ad tracking needs: where the tracking document is, if anywhere. Without one, the
/// avails come from the playlist's cue markers alone (and fire no beacons).
public struct SSAISettings: Sendable, Equatable, Codable {
    /// The client-side tracking document's URL (see ``SSAITrackingDocument``): read at load and, live,
    /// again at every playlist reload.
    public var trackingURL: String?

    /// Creates settings.
    public init(trackingURL: String? = nil) {
        self.trackingURL = trackingURL
    }
}

/// What a session's server-side ad tracking found and did.
public struct SSAIReport: Sendable, Equatable, Codable {
    /// The tracking document's URL, if one was given.
    public var trackingURL: String?
    /// The avails known at the end (the tracking document's, then the markers' that no tracked avail overlaps).
    public var avails: [SSAIAvail] = []
    /// Every SSAI event posted, in order, except `adRemainingTime`.
    public var events: [SSAIEvent] = []
    /// How many `adRemainingTime` events were posted.
    public var remainingTimeEvents = 0
    /// Each failure to read the tracking document (URL and what went wrong).
    public var trackingFailures: [String] = []
    /// Skips and clicks refused, with why.
    public var refusals: [String] = []

    /// Creates an empty report.
    public init(trackingURL: String? = nil) {
        self.trackingURL = trackingURL
    }
}
