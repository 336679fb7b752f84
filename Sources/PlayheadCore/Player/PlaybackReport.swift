/// One rebuffer: playback stalled for lack of media.
public struct RebufferRecord: Sendable, Codable, Equatable {
    /// Session time the stall began, seconds.
    public var startSeconds: Double
    /// Session time playback resumed (nil if the session ended stalled).
    public var endSeconds: Double?
    /// Playback position at the stall.
    public var positionSeconds: Double
    /// Length of the stall, seconds (up to the end of the session if it never resumed).
    public var durationSeconds: Double
}

/// One status change, with its session time.
public struct StatusRecord: Sendable, Codable, Equatable {
    /// The new status.
    public var status: PlayerStatus
    /// Session time, seconds.
    public var playerTime: Double
}

/// One bitrate switch.
public struct BitrateSwitchRecord: Sendable, Codable, Equatable {
    /// Session time of the decision.
    public var playerTime: Double
    /// Media sequence of the first segment fetched at the new bitrate.
    public var mediaSequence: Int?
    /// Bandwidth before (nil for the first choice).
    public var fromBitsPerSecond: Int?
    /// Bandwidth after.
    public var toBitsPerSecond: Int
    /// Why: initial, policy, locked, min, max, peak, frame-drops.
    public var reason: String
}

/// One seek.
public struct SeekRecord: Sendable, Codable, Equatable {
    /// Position before, seconds.
    public var fromSeconds: Double
    /// Position asked for.
    public var toSeconds: Double
    /// Session time of the request.
    public var requestedAt: Double
    /// Session time the first frame at or after the target was presented (nil if never).
    public var completedAt: Double?
    /// Timeline time of that first frame (nil if never: a seek replaced by another before its first frame
    /// was presented, or one that landed past the last frame).
    public var firstFrameSeconds: Double?
    /// Why the player seeked on its own (`fellBehindLiveWindow`: the live window slid past the next segment);
    /// nil for a seek asked for.
    public var automatic: String?
    /// True when the target was inside the media already fetched (the forward or back buffer): it played
    /// from there, fetching nothing again and leaving the loading under way alone.
    public var fromBuffer: Bool?
}

/// What a session did, written at its end (`playhead play --report`).
public struct PlaybackReport: Sendable, Codable {
    /// The item's URL.
    public var url: String
    /// `real` or `virtual`.
    public var clock: String
    /// decode, demux or keyframes.
    public var mode: String
    /// The media playlist played and its variant's bandwidth, if chosen from a multivariant playlist.
    public var mediaPlaylistURL: String?
    /// BANDWIDTH of the variant played.
    public var variantBandwidth: Int?
    /// Whether the item was live when loaded.
    public var isLive = false
    /// Every status, in order.
    public var statuses: [StatusRecord] = []
    /// Last status.
    public var finalStatus: PlayerStatus = .created
    /// Playback information at the end.
    public var playbackInformation: PlaybackInformation?
    /// QoS samples, one a second of session time.
    public var samples: [PlaybackInformation] = []
    /// Every bitrate switch, the first choice included.
    public var bitrateSwitches: [BitrateSwitchRecord] = []
    /// Every rebuffer.
    public var rebuffers: [RebufferRecord] = []
    /// Sum of the rebuffer durations, seconds.
    public var totalRebufferSeconds = 0.0
    /// Seeks asked for.
    public var seeks: [SeekRecord] = []
    /// Each resume (F25: after a failure, by ``ResumePolicy``, or asked by a `resume` command), in order; nil
    /// when none was.
    public var resumes: [PlaybackResumeRecord]?
    /// Frames presented, by kind: both `video` and `audio` are always there (0 when none was), so a
    /// session that ended before its first frame has the same shape as one that played.
    public var framesPresented: [String: Int] = ["video": 0, "audio": 0]
    /// Video frames dropped for lateness (real clock).
    public var framesDropped = 0
    /// Largest lateness of a presented video frame, seconds (0 on the virtual clock).
    public var maxLatenessSeconds = 0.0
    /// Segments downloaded and their bytes.
    public var segmentsDownloaded = 0
    /// Bytes downloaded (media, keys and init sections).
    public var bytesDownloaded = 0
    /// Sum of EXTINF of the content segments played, seconds (of a segment cut by a cue, only the part
    /// that plays on each side of the break).
    public var manifestSeconds = 0.0
    /// Content seconds of the media those segments really held (true timestamps; likewise only the
    /// part that plays).
    public var mediaSeconds = 0.0
    /// `mediaSeconds − manifestSeconds`: drift between EXTINF and true time.
    public var driftSeconds = 0.0
    /// Playlist reloads (live).
    public var playlistReloads = 0
    /// Distance from the playhead to the live edge, seconds: last sample and largest (live only).
    public var liveEdgeDistanceSeconds: Double?
    /// Largest distance to the live edge seen while playing (live only).
    public var maxLiveEdgeDistanceSeconds: Double?
    /// Every ad break played: the frames on each side of its two boundaries.
    public var adBoundaries: [AdBoundaryRecord] = []
    /// The ad timeline at the end of the session (its `breaks` empty when none was placed; nil only in a
    /// report written before the session began).
    public var adTimeline: AdTimeline?
    /// Every VAST beacon fired (event, ad, media time, wall time, URL, HTTP status, attempts), when a
    /// beacon tracker ran with the session.
    public var beacons: [BeaconRecord] = []
    /// Video heartbeat tracking (F27): its calls and the startup time it measured; nil when no heartbeat
    /// tracker ran with the session.
    public var heartbeats: HeartbeatReport?
    /// The content had audio and no video (an audio-only rendition): audio paced playback.
    public var audioOnly = false
    /// Every subscribed tag identified, in the order its `timedMetadata` event was posted (the PSDK's
    /// `timedMetadataCollection`); empty when no tag is subscribed.
    public var timedMetadata: [TimedMetadata] = []
    /// Every blackout met (with `--blackout-tag`), in the order its start tag was found.
    public var blackouts: [BlackoutRecord] = []
    /// Server-side ad tracking (with `--ssai`): the avails found and every event but `adRemainingTime`.
    public var ssai: SSAIReport?
    /// The audio renditions offered (the variants' AUDIO group), the one played and its problems (nil
    /// when the variants name no AUDIO group).
    public var audio: AudioReport?
    /// The closed captions the content's video carries (CEA-608 CC1; nil when none was found, and in
    /// demux and keyframes modes).
    public var captions: CaptionReport?
    /// The subtitle tracks offered, the one shown and every cue shown with its times (nil when the item
    /// offered none and none was asked for).
    public var subtitles: SubtitleReport?
    /// Every PSDK notification of the session.
    public var notifications: [PlayerNotification] = []
    /// Damage found in segments (what could be decoded was).
    public var damage: [String] = []
    /// What the playlists' parser warned about, each once (`URL:LINE: [code] message`; a live playlist's
    /// reloads repeat them), at most ``maxPlaylistWarnings``; nil when none.
    public var playlistWarnings: [String]?
    /// The encryption methods the content's media playlist names for its segments (`AES-128`, `SAMPLE-AES`, …),
    /// sorted; nil when none is encrypted.
    public var encryption: [String]?
    /// Every key the session's playlists named (EXT-X-SESSION-KEY, the content's EXT-X-KEY), in the order met:
    /// the `drmMetadataChanged` events; nil when none.
    public var keys: [KeyMetadata]?
    /// The most playlist warnings a report keeps: 50.
    public static let maxPlaylistWarnings = 50
    /// EXT-X-MEDIA renditions with their own playlist in a group the played variants name (alternate
    /// audio or video, subtitles), which this session does not fetch; nil when there are none.
    public var renditionsNotPlayed: [String]?
    /// The error that ended the session, if any.
    public var error: String?
    /// Session time at the end, seconds.
    public var sessionSeconds = 0.0
    /// Playback position at the end, seconds.
    public var positionSeconds = 0.0
    /// The machine it ran on.
    public var device: DeviceInformation?

    /// Creates an empty report for `url`.
    public init(url: String, clock: String, mode: String) {
        self.url = url
        self.clock = clock
        self.mode = mode
    }
}
