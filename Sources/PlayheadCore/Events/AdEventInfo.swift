/// Which ad an ad event is about, and where playback is inside it.
///
/// `offsetSeconds` is the true media time of the presented ad frame minus the ad's first frame
/// (0 at `adStarted`, the ad's duration at `adCompleted` when it played to its end); `pts` is the
/// presented frame's own presentation time in the ad's media, seconds.
public struct AdEventInfo: Sendable, Equatable, Codable {
    /// The break's id (cue id, VMAP break id).
    public var breakId: String
    /// The break's index on the timeline.
    public var breakIndex: Int
    /// The ad's id.
    public var adId: String
    /// The ad's index in its break.
    public var adIndex: Int
    /// The ad's HLS playlist URL.
    public var url: String
    /// The ad's duration, seconds.
    public var durationSeconds: Double
    /// Seconds into the ad of the presented frame.
    public var offsetSeconds: Double
    /// Presentation time of the presented ad frame in the ad's own media, seconds.
    public var pts: Double

    /// Creates the info.
    public init(breakId: String, breakIndex: Int, adId: String, adIndex: Int, url: String,
                durationSeconds: Double, offsetSeconds: Double, pts: Double) {
        self.breakId = breakId
        self.breakIndex = breakIndex
        self.adId = adId
        self.adIndex = adIndex
        self.url = url
        self.durationSeconds = durationSeconds
        self.offsetSeconds = offsetSeconds
        self.pts = pts
    }
}
