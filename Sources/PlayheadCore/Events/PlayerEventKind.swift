/// What happened, with its typed payload. Times are in seconds, bitrates in bits per second.
public enum PlayerEventKind: Sendable, Equatable {
    /// The player's status changed (PSDK `PTMediaPlayerStatusNotification`).
    case statusChanged(from: PlayerStatus, to: PlayerStatus)
    /// The current playback time, in seconds of virtual time; posted at most once per second of
    /// media (PSDK `PTMediaPlayerTimeChangeNotification`).
    case timeChanged(seconds: Double)
    /// Playback started (PSDK `PTMediaPlayerPlayStartedNotification`).
    case playStarted
    /// Playback reached the end of the media (PSDK `PTMediaPlayerPlayCompletedNotification`).
    case playCompleted
    /// A new item was set (PSDK `PTMediaPlayerItemChangedNotification`).
    case itemChanged(url: String)
    /// A seek began, from and to seconds of virtual time.
    case seekStarted(from: Double, to: Double)
    /// A seek completed at this many seconds of virtual time.
    case seekCompleted(at: Double)
    /// Playback waits for data.
    case bufferingStarted
    /// Playback no longer waits; it waited this long.
    case bufferingCompleted(durationSeconds: Double)
    /// The forward buffer ran empty.
    case bufferEmpty
    /// Enough is buffered to play on without stalling.
    case likelyToKeepUp
    /// Playback stalled (a rebuffer after playback had started).
    case stalled
    /// Playback resumed after a stall that lasted this long.
    case recovered(durationSeconds: Double)
    /// The variant changed; `from` is `nil` for the first choice. `reason` says why
    /// (for example `initial`, `abr-up`, `abr-down`, `manual`).
    case bitrateChanged(fromBitsPerSecond: Int?, toBitsPerSecond: Int, reason: String)
    /// A segment arrived: its URL, media sequence number, size, download time and throughput.
    case segmentLoaded(url: String, mediaSequence: Int, bytes: Int, seconds: Double, throughputBitsPerSecond: Double)
    /// A playlist arrived with this many segments; `changed` is false when a reload brought
    /// nothing new.
    case playlistLoaded(url: String, segments: Int, changed: Bool)
    /// A frame was presented this late; only when the session asks for per-frame events.
    case framePresented(pts: Double, latenessSeconds: Double)
    /// Frames were dropped; `pts` and `latenessSeconds` are those of the last one.
    case framesDropped(count: Int, pts: Double, latenessSeconds: Double)
    /// A PSDK notification (PSDK `PTMediaPlayerNewNotificationEntryAddedNotification`); it is
    /// also added to the bus's ``NotificationHistory``.
    case notification(PlayerNotification)
    /// An error notification that stops playback; also added to the history.
    case error(PlayerNotification)
    /// The ad timeline changed: it now holds this many breaks (PSDK `PTTimelineChangedNotification`).
    case timelineChanged(breaks: Int)
    /// An ad break began: its first ad frame was presented (PSDK `PTAdBreakStartedNotification`).
    case adBreakStarted(breakId: String, breakIndex: Int, ads: Int)
    /// An ad break ended: the first frame after it was presented, or the break was left.
    case adBreakCompleted(breakId: String, breakIndex: Int)
    /// The first frame of an ad was presented (PSDK `PTAdStartedNotification`).
    case adStarted(AdEventInfo)
    /// Playback inside an ad: posted once per second of ad and at the first frame at or past each
    /// quartile (PSDK `PTAdProgressNotification`).
    case adProgress(AdEventInfo)
    /// An ad played to its end (PSDK `PTAdCompletedNotification`).
    case adCompleted(AdEventInfo)
    /// An ad was left before its end (skip, seek out of it, stop).
    case adSkipped(AdEventInfo)
    /// The viewer clicked the playing ad (PSDK `PTAdClickNotification`); `clickThrough` is where it leads.
    case adClicked(AdEventInfo, clickThrough: String?)
    /// Playback paused inside an ad, at the end of its last presented frame (the VAST `pause` beacon's
    /// playhead); posted after the `statusChanged` to paused.
    case adPaused(AdEventInfo)
    /// Playback resumed inside an ad, where it paused (the VAST `resume` beacon's playhead).
    case adResumed(AdEventInfo)
    /// A subscribed tag (or ID3 frame) was identified for the first time (PSDK
    /// `PTTimedMetadataChangedNotification`).
    case timedMetadata(TimedMetadata)
    /// The playhead reached a subtitle cue's start (or landed inside it): the cue shows.
    case subtitleCueStarted(SubtitleCue)
    /// The playhead left a subtitle cue (its end, a seek, an ad break): the cue hides.
    case subtitleCueEnded(SubtitleCue)
    /// An application-defined event.
    case custom(name: String, payload: [String: String])

    /// The name of the case, the `"event"` value of the JSON line.
    public var name: String {
        switch self {
        case .statusChanged: "statusChanged"
        case .timeChanged: "timeChanged"
        case .playStarted: "playStarted"
        case .playCompleted: "playCompleted"
        case .itemChanged: "itemChanged"
        case .seekStarted: "seekStarted"
        case .seekCompleted: "seekCompleted"
        case .bufferingStarted: "bufferingStarted"
        case .bufferingCompleted: "bufferingCompleted"
        case .bufferEmpty: "bufferEmpty"
        case .likelyToKeepUp: "likelyToKeepUp"
        case .stalled: "stalled"
        case .recovered: "recovered"
        case .bitrateChanged: "bitrateChanged"
        case .segmentLoaded: "segmentLoaded"
        case .playlistLoaded: "playlistLoaded"
        case .framePresented: "framePresented"
        case .framesDropped: "framesDropped"
        case .notification: "notification"
        case .error: "error"
        case .timelineChanged: "timelineChanged"
        case .adBreakStarted: "adBreakStarted"
        case .adBreakCompleted: "adBreakCompleted"
        case .adStarted: "adStarted"
        case .adProgress: "adProgress"
        case .adCompleted: "adCompleted"
        case .adSkipped: "adSkipped"
        case .adClicked: "adClicked"
        case .adPaused: "adPaused"
        case .adResumed: "adResumed"
        case .timedMetadata: "timedMetadata"
        case .subtitleCueStarted: "subtitleCueStarted"
        case .subtitleCueEnded: "subtitleCueEnded"
        case .custom: "custom"
        }
    }

    /// The notification carried by `.notification` and `.error`, else `nil`.
    public var notification: PlayerNotification? {
        switch self {
        case let .notification(notification), let .error(notification): notification
        default: nil
        }
    }
}
