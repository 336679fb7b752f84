import PlayheadMedia

/// The forward-buffer target: starts small and grows with watch time up to a cap, as the Brightcove
/// buffer optimiser does, so a viewer who leaves early has not cost minutes of video.
public struct BufferPolicy: Sendable, Equatable, Codable {
    /// Default smallest forward target: 2 s.
    public static let defaultMinimumSeconds = 2.0
    /// Default largest forward target: 30 s.
    public static let defaultMaximumSeconds = 30.0
    /// Default growth: the target grows by 0.5 s per second watched (the cap is reached after 56 s).
    public static let defaultGrowthPerWatchedSecond = 0.5
    /// Default back buffer kept behind the playhead: 30 s.
    public static let defaultBackBufferSeconds = 30.0
    /// Default buffer needed before the first frame: 1 s (ExoPlayer's start threshold).
    public static let defaultStartSeconds = 1.0
    /// Default buffer needed to resume after a rebuffer: 2 s (ExoPlayer's).
    public static let defaultResumeSeconds = 2.0

    /// Smallest forward target, seconds (≥ 1, as Brightcove requires).
    public var minimumSeconds = defaultMinimumSeconds
    /// Largest forward target, seconds.
    public var maximumSeconds = defaultMaximumSeconds
    /// Target growth per second of playback.
    public var growthPerWatchedSecond = defaultGrowthPerWatchedSecond
    /// Media kept behind the playhead, seconds.
    public var backBufferSeconds = defaultBackBufferSeconds
    /// Buffer needed before playback starts, seconds.
    public var startSeconds = defaultStartSeconds
    /// Buffer needed to resume after a rebuffer, seconds.
    public var resumeSeconds = defaultResumeSeconds

    /// Creates the default policy.
    public init() {}

    /// The forward target after `watchedSeconds` of playback.
    public func targetSeconds(watchedSeconds: Double) -> Double {
        min(maximumSeconds, max(minimumSeconds, minimumSeconds + watchedSeconds * growthPerWatchedSecond))
    }
}

/// Everything a playback session is told before it starts. Defaults are named statics.
public struct PlayerConfiguration: Sendable {
    /// Default lateness past which a frame is dropped on the real clock: 50 ms.
    public static let defaultDropLatenessSeconds = 0.05
    /// Default retries of a failed segment or playlist fetch: 3 (delays 1, 2, 4 s).
    public static let defaultFetchRetries = 3

    /// decode, demux or keyframes.
    public var mode: DecodeMode = .decode
    /// Which variant of a multivariant playlist plays when `abr` is nil.
    public var variant: VariantChoice = .first
    /// Adaptive bitrate over the variants of a multivariant playlist; nil plays `variant` throughout.
    public var abr: ABRSettings? = ABRSettings()
    /// Start playing as soon as the player is ready.
    public var autoplay = true
    /// Commands come from outside while the session runs (the daemon's API). On the virtual clock a
    /// session then waits for the next command with its clock stopped when nothing but a command can
    /// move it on: paused without a scheduled resume, or ready without autoplay. (Without it such a
    /// session ends in error, since nothing could ever resume it, and a paused one would run its clock
    /// away tick by tick.)
    public var externallyControlled = false
    /// Playback rate; ≤ 0 means 1.0 (PSDK).
    public var rate = 1.0
    /// The playback rates the front ends accept (beyond them a session would take days or skip every frame).
    public static let rateRange = 0.01...100.0
    /// Where to start, seconds of content (nil: 0 for VOD, the live start point for live).
    public var startSeconds: Double?
    /// Forward and back buffer sizes and thresholds.
    public var buffer = BufferPolicy()
    /// Frames later than this on the real clock are dropped, not presented.
    public var dropLatenessSeconds = defaultDropLatenessSeconds
    /// Retries of a failed fetch before it is an error.
    public var fetchRetries = defaultFetchRetries
    /// After a failover to a redundant backup, the rung's primary playlist is tried again this many
    /// session seconds later (failback; again as long as it fails).
    public var failbackSeconds = 30.0
    /// Hash every presented frame (framemd5).
    public var hashFrames = false
    /// Post a `framePresented` event for every frame (large logs; off by default).
    public var perFrameEvents = false
    /// Decoder threads per stream (0: FFmpeg chooses).
    public var decoderThreads = 1
    /// Ad placement: detectors, resolvers and signalling mode (nil: no ads).
    public var ads: AdSettings?
    /// Playlist tags to report as timed metadata, each named with its `#` (the PSDK's subscribed tags):
    /// a `timedMetadata` event the first time each is seen, on the first load and on every reload.
    /// Names without `#` are refused by ``TimedMetadataScanner/init(tags:)`` (the player skips them).
    public var subscribedTags: [String] = []
    /// Blackouts: the tag that signals them and the alternate content played meanwhile (nil: none).
    public var blackout: BlackoutSettings?
    /// Server-side ad tracking (F18): the stream's own ads are found and tracked, not replaced (nil: off).
    public var ssai: SSAISettings?
    /// Which audio rendition plays when the variants name an AUDIO group (default: DEFAULT=YES, else the first).
    public var audio: AudioChoice = .automatic
    /// Which subtitle track shows (default: the DEFAULT=YES one, else a FORCED=YES one, else none).
    public var subtitles: SubtitleChoice = .automatic
    /// WebVTT files offered as subtitle tracks beside the item's own (sidecar subtitles), after them.
    public var sidecarSubtitles: [SidecarSubtitle] = []

    /// Resume after a failure (F25): nil, a failure ends the session.
    public var resumeAfterFailure: ResumePolicy?
    /// Custom key delivery (F26): asked for each key before its URI is fetched (``KeyProvider``); nil: keys
    /// are fetched.
    public var keyProvider: (any KeyProvider)?

    /// Creates the default configuration.
    public init() {}

    /// The rate actually used (≤ 0 means 1.0).
    public var effectiveRate: Double { rate > 0 ? rate : 1.0 }
}
