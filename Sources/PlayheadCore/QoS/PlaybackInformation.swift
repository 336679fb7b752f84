/// Quality-of-service figures of a session at one moment (PSDK `PTPlaybackInformation`, plus
/// what the Brightcove SDK reports). Readable at any time from a ``QoSAccumulator`` and sampled
/// once a second of player time.
///
/// Bitrates are in bits per second, times and lengths in seconds, sizes in bytes. Figures that
/// have no value yet (no transfer, no first frame) are `nil`, never a sentinel.
public struct PlaybackInformation: Sendable, Codable, Equatable {
    /// Throughput measured over the last transfers (see ``QoSAccumulator/defaultTransferWindow``),
    /// in bits per second; `nil` before any transfer with a duration.
    public var observedBitrate: Double?
    /// The declared bitrate (variant BANDWIDTH) of the rendition whose frames are on screen; before the
    /// first frame, the one chosen to start with. (The `bitrateChanged` event and BITRATE_CHANGE come when a
    /// rendition is chosen, at the segment boundary it is fetched for, so they lead this by the buffer.)
    public var profileBitrate: Int?
    /// Frames presented per second over the last second of player time: the frames' own rate when they
    /// fill that second evenly (23.976 for 24000/1001 fps), else the count of frames in it.
    public var frameRate: Double
    /// Frames dropped since the session began.
    public var droppedFrameCount: Int
    /// Frames presented since the session began.
    public var presentedFrameCount: Int
    /// The first media segment's time from request to first byte, in seconds (the PSDK's "time it took to
    /// get the first byte from the first video fragment"); `nil` before that segment arrived. It does not
    /// change afterwards.
    public var timeToFirstByteSeconds: Double?
    /// Mean time from request to first byte over the last transfers (playlists and keys too), in seconds;
    /// `nil` before any transfer that reported it.
    public var recentTimeToFirstByteSeconds: Double?
    /// Player time from the start of loading to the first presented frame, in seconds.
    public var timeToFirstFrameSeconds: Double?
    /// How many times playback waited for data (including the one under way, if any).
    public var bufferingCount: Int
    /// Total time spent waiting for data, in seconds (including the wait under way, up to now).
    public var totalBufferingSeconds: Double
    /// Media buffered ahead of the playhead, in seconds.
    public var bufferLengthSeconds: Double
    /// Video buffered ahead of the playhead, in seconds of demuxed video (nil when none is buffered or the item
    /// has none).
    public var videoBufferSeconds: Double?
    /// Audio buffered ahead of the playhead, in seconds of demuxed audio (the alternate rendition's joined to the
    /// video included; nil when none is buffered).
    public var audioBufferSeconds: Double?
    /// Bytes transferred since the session began.
    public var bytesDownloaded: Int
    /// Segments transferred since the session began.
    public var segmentsDownloaded: Int
    /// Errors since the session began.
    public var errorCount: Int
    /// When these figures were taken, in seconds on the session clock.
    public var playerTime: Double

    /// Makes a value; usually ``QoSAccumulator/information(at:)`` does.
    ///
    /// - Parameters: One per property, each described there; all but `playerTime` default to
    ///   "nothing yet" (zero or `nil`).
    public init(
        observedBitrate: Double? = nil, profileBitrate: Int? = nil, frameRate: Double = 0,
        droppedFrameCount: Int = 0, presentedFrameCount: Int = 0, timeToFirstByteSeconds: Double? = nil,
        timeToFirstFrameSeconds: Double? = nil, bufferingCount: Int = 0, totalBufferingSeconds: Double = 0,
        bufferLengthSeconds: Double = 0, bytesDownloaded: Int = 0, segmentsDownloaded: Int = 0,
        errorCount: Int = 0, recentTimeToFirstByteSeconds: Double? = nil, playerTime: Double,
        videoBufferSeconds: Double? = nil, audioBufferSeconds: Double? = nil
    ) {
        self.videoBufferSeconds = videoBufferSeconds
        self.audioBufferSeconds = audioBufferSeconds
        self.recentTimeToFirstByteSeconds = recentTimeToFirstByteSeconds
        self.observedBitrate = observedBitrate
        self.profileBitrate = profileBitrate
        self.frameRate = frameRate
        self.droppedFrameCount = droppedFrameCount
        self.presentedFrameCount = presentedFrameCount
        self.timeToFirstByteSeconds = timeToFirstByteSeconds
        self.timeToFirstFrameSeconds = timeToFirstFrameSeconds
        self.bufferingCount = bufferingCount
        self.totalBufferingSeconds = totalBufferingSeconds
        self.bufferLengthSeconds = bufferLengthSeconds
        self.bytesDownloaded = bytesDownloaded
        self.segmentsDownloaded = segmentsDownloaded
        self.errorCount = errorCount
        self.playerTime = playerTime
    }
}
