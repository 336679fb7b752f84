/// One presented frame at a splice boundary, as `check-ads` reports it.
public struct BoundaryFrame: Sendable, Codable, Equatable {
    /// Time on the frame's own source (content seconds, or seconds into the ad).
    public var sourceSeconds: Double
    /// Playback (virtual) timeline time at which it was presented.
    public var timelineSeconds: Double
    /// Its presentation timestamp in its own media, seconds.
    public var ptsSeconds: Double?
    /// Its duration, seconds.
    public var durationSeconds: Double
    /// framemd5 hash (when the session hashes frames).
    public var md5: String?
    /// Whether it was a keyframe (nil in demux mode without the information).
    public var isKeyframe: Bool?
    /// Picture type (`I`, `P`, `B`; audio `?`).
    public var pictureType: String?
    /// The URL of the segment it came from (which rendition played it).
    public var segmentURL: String?

    /// Creates a stamp.
    public init(sourceSeconds: Double, timelineSeconds: Double, ptsSeconds: Double?, durationSeconds: Double,
                md5: String?, isKeyframe: Bool?, pictureType: String?, segmentURL: String? = nil) {
        self.segmentURL = segmentURL
        self.sourceSeconds = sourceSeconds
        self.timelineSeconds = timelineSeconds
        self.ptsSeconds = ptsSeconds
        self.durationSeconds = durationSeconds
        self.md5 = md5
        self.isKeyframe = isKeyframe
        self.pictureType = pictureType
    }

    /// Where the frame ends on the timeline.
    public var timelineEnd: Double { timelineSeconds + durationSeconds }
}

/// What happened at one ad break's two boundaries: the frames on each side, video and audio.
public struct AdBoundaryRecord: Sendable, Codable, Equatable {
    /// The break's id.
    public var breakId: String
    /// Content time of the cue, seconds.
    public var cueContentSeconds: Double
    /// Content seconds the break replaced (live replacement); 0 for insertion.
    public var replacedContentSeconds: Double
    /// Where content was meant to resume: the cue (insertion) or cue + duration (replacement).
    public var resumeContentSeconds: Double
    /// The media playlists of the ads played, in order.
    public var adMediaURLs: [String] = []
    /// Last content video frame before the break.
    public var lastContentBefore: BoundaryFrame?
    /// First ad video frame.
    public var firstAd: BoundaryFrame?
    /// Last ad video frame.
    public var lastAd: BoundaryFrame?
    /// First content video frame after the break.
    public var firstContentAfter: BoundaryFrame?
    /// Last content audio frame before the break.
    public var lastContentAudioBefore: BoundaryFrame?
    /// First ad audio frame.
    public var firstAdAudio: BoundaryFrame?
    /// Last ad audio frame.
    public var lastAdAudio: BoundaryFrame?
    /// First content audio frame after the break.
    public var firstContentAudioAfter: BoundaryFrame?

    /// Creates a record for a break.
    public init(breakId: String, cueContentSeconds: Double, replacedContentSeconds: Double, resumeContentSeconds: Double) {
        self.breakId = breakId
        self.cueContentSeconds = cueContentSeconds
        self.replacedContentSeconds = replacedContentSeconds
        self.resumeContentSeconds = resumeContentSeconds
    }

    /// No frame of the break or of the content around it was presented: its loading began, then a seek
    /// or the session's end left it (a report lists the breaks played).
    var presentedNothing: Bool {
        [lastContentBefore, firstAd, lastAd, firstContentAfter,
         lastContentAudioBefore, firstAdAudio, lastAdAudio, firstContentAudioAfter].allSatisfy { $0 == nil }
    }
}
