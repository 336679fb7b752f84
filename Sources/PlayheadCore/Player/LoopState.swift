import PlayheadHLS
import PlayheadMedia

/// A transfer the loop is waiting for.
enum PendingTransfer {
    /// A content segment (by media sequence), with its retry count and where it goes on the timeline.
    case segment(mediaSequence: Int, attempt: Int, placement: Placement)
    /// A content segment before a held one, fetched so that decoding starts at a keyframe (see ``Preroll``).
    case prerollSegment(mediaSequence: Int)
    /// A segment of an ad, with its retry count.
    case adSegment(AdLoadCursor, attempt: Int)
    /// A content resolver working on an opportunity; the outcome lands in the box.
    case resolution(PlacementOpportunity, ResolutionBox)
    /// A reload of the media playlist, with its retry count.
    case playlist(attempt: Int)
    /// The media playlist of ladder rung `index`, wanted for a switch.
    case variantPlaylist(index: Int)
    /// A redundant backup of the rung's media playlist, wanted for a failover.
    case failoverPlaylist(url: String)
    /// A segment of the alternate audio rendition, by media sequence.
    case audioSegment(mediaSequence: Int)
    /// A reload of the alternate audio rendition's live playlist.
    case audioPlaylist
    /// The playlist of the audio rendition a selection asked for (option index).
    case audioRenditionPlaylist(index: Int)
    /// The subtitle track's media playlist (first load or live reload).
    case subtitlePlaylist
    /// A WebVTT file of the subtitle track: a segment by media sequence, or the sidecar file (nil).
    case subtitleFile(mediaSequence: Int?)
}

/// The player loop's state. Only the loop task touches it.
struct LoopState {
    var status: PlayerStatus = .created
    var mediaURL = ""
    var tracker: LivePlaylistTracker?
    /// Media sequence of the next segment to load (nil: none left for now).
    var nextSequence: Int?
    var transfers: [Int: PendingTransfer] = [:]
    var nextTransferID = 1
    /// A segment fetch to retry at a session time.
    var segmentRetry: SegmentRetry?
    /// Content segment fetches that failed since the last one that succeeded, across seeks: a live
    /// window that slides past a failing segment (a fell-behind seek) does not start the count again.
    var segmentFailuresInARow = 0

    /// Playback wanted (status playing); the clock may still wait for media.
    var wantsPlay = false
    /// The playhead advances with the clock.
    var clockRunning = false
    var anchorTime = 0.0
    var anchorPosition = 0.0
    /// Where the playhead last jumped to (the start position, or a seek's landing): scheduled commands
    /// before it were jumped over, not reached, and wait until the playhead plays through them.
    var playedFrom = 0.0
    /// The start position asked for (content seconds), until a seek: breaks before it are not played, even
    /// those cued inside the segment it starts in.
    var requestedStart: Double?
    var rate = 1.0
    /// Playback began (first frame presented).
    var started = false
    /// An open rebuffer: when and where it began.
    var stall: (start: Double, position: Double)?
    /// Frames before this content time are decoded but not presented (seek, start position).
    var skipBefore: Double?
    /// The same threshold for the other kind (audio under video): kept until a frame of that kind at or
    /// after it comes, since a container may hand a segment's audio out after its video (fMP4).
    var skipOthersBefore: Double?
    /// Index in the report's seeks of the seek waiting for its first frame.
    var pendingSeek: Int?
    /// A scheduled pause ends at this session time.
    var resumeAt: Double?
    /// Undeclared timestamp jumps found so far, each giving the segments from it on a fresh anchor key.
    var timestampRebases: [TimestampRebase] = []
    /// The end of the last content segment buffered, to spot an undeclared timestamp jump at the next.
    var lastContentEnd: ContentSegmentEnd?
    /// When the report so far was last published, and with which status (it is copied a few times a
    /// second of session time, not at every turn).
    var reportPublished: (at: Double, status: PlayerStatus)?
    /// Every segment up to the end of the item has been loaded.
    var endLoaded = false
    /// A content segment failed for good: loading stopped, what was loaded plays out (the decoder's last
    /// frames included), and the session ends with this error where it would have completed.
    var failureAfterPlayout: PlayerNotification?
    /// Decoders drained after the last packet.
    var drained = false
    var finished = false
    /// Seconds of playback watched (buffer target growth).
    var watchedSeconds = 0.0
    var lastTimeEventSecond = -1
    /// The item's variants by ascending bandwidth (multivariant items only).
    var ladder: VariantLadder?
    /// The rung playing now.
    var ladderIndex: Int?
    /// Media playlists of rungs already loaded (VOD: reused on switches).
    var variantPlaylists: [Int: (playlist: MediaPlaylist, url: String)] = [:]
    /// Ladder rungs whose media playlist failed to load, and the session time until which ABR leaves
    /// them out (``MediaPlayer/variantExclusionSeconds``).
    var excludedVariants: [Int: Double] = [:]
    /// The ads (`breakId#adIndex`) whose media playlist the boundary records already list.
    var adPlaylistsRecorded: Set<String> = []
    /// The multivariant playlist's variables, which its media playlists may `IMPORT` (none before one
    /// is loaded: a media playlist loaded directly cannot import).
    var importedVariables: [String: String] = [:]
    /// The live playlist's reloads that failed in a row, the last failure, and when the next reload may
    /// start (half a target duration after a failure, as after a reload that changed nothing).
    var reloadFailures: (count: Int, last: String, retryAt: Double)?
    /// The media playlists of the rung playing: the one in use and its redundant backups (variants of
    /// the same BANDWIDTH), in playlist order.
    var redundantURLs: [String] = []
    /// Ads whose media failed part-way: they end skipped, not completed.
    var adsCutShort: Set<SpliceSource> = []
    /// The playlists of a rung tried for the switch to it under way (its backups are tried in turn).
    var switchURLsTried: [Int: Set<String>] = [:]
    /// Since when a VOD has waited for media with nothing under way (``MediaPlayer/checkNothingToLoad(now:)``).
    var idleSince: Double?
    /// Which of ``redundantURLs`` is in use, as listed (``mediaURL`` is where it led, redirects followed).
    var redundantURLInUse: String?
    /// Redundant playlists that failed since the rung last worked (a failure cycles through them once).
    var failoverTried: Set<String> = []
    /// Track selections the playhead reached as scheduled commands, applied after the turn (they start transfers).
    var selections: [PlayerCommand] = []
    /// The alternate audio rendition played with video-only segments (nil: none, or the variant's own audio).
    var audio: AudioTrackState?
    /// Decode the content video's CEA-608 captions, one for each channel CC1–CC4 (none until a frame carries some).
    var captions: [CaptionDecoder] = []
    /// The EXT-X-MEDIA TYPE=CLOSED-CAPTIONS renditions of the variant's group, by INSTREAM-ID (`CC1`…).
    var captionRenditions: [String: Rendition] = [:]
    /// The variant played says CLOSED-CAPTIONS=NONE: its video's caption data is not read.
    var captionsDeclaredNone = false
    /// The anchor key of the segment whose frame the caption decoder took last.
    var captionAnchorKey: Int?
    /// Content seconds where playback started or a seek landed: caption cues decoded from the frames before it
    /// (decoded to reach it, not presented) end there at the latest, or are not reported.
    var captionsFrom: Double?
    /// Caption cues reported (channel, start, end, text).
    var captionKeys: Set<String> = []
    /// The media sequence of the first segment the item's media playlist listed when loaded, or when it
    /// first listed one (a live window whose first segment has changed since slides rather than grows).
    var firstListedSequence: Int?
    /// Since when the start of playback waits for the subtitle file of its position (nil: not waiting).
    var subtitleWaitSince: Double?
    /// The subtitle track shown (nil: none).
    var subtitles: SubtitleTrackState?
    /// A failover under way: the backup's URL, the segment to fetch again from it, and why.
    var failover: (url: String, resume: SegmentRetry?, reason: String, failback: Bool)?
    /// When to try the rung's primary playlist again, after a failover to a backup.
    var failbackAt: Double?
    /// Ads and breaks already completed at a stall right after their last frame (their events are not
    /// posted again when the next frame comes).
    var adsEndedEarly: Set<SpliceSource> = []
    var breaksEndedEarly: Set<String> = []
    /// A switch waiting for its rung's playlist.
    var pendingSwitch: Int?
    /// The rung chosen with the first media playlist is the first segment's: its decision is not
    /// made again (a second one let the policy's own start and the caps override the initial bitrate,
    /// after announcing a rung never played).
    var firstSegmentRungChosen = false
    /// The segment the last ABR decision was made for: a boundary is decided once (a switch whose playlist
    /// had to load would otherwise be decided again at the same boundary, announcing rungs never fetched).
    var decidedSequence: Int?
    /// The session's time limit (`run(maxSessionSeconds:)`), which the item's load honours too.
    var sessionLimit: Double?
    /// The rung (variant BANDWIDTH) each recent content segment came from, by URL, newest last: the QoS
    /// profile bitrate follows the segment whose frames are presented, not the one being fetched.
    var segmentProfiles: [(url: String, bitsPerSecond: Int)] = []
    /// The load stopped at ``sessionLimit`` (virtual clock): the session ends stopped, not in error.
    var loadStoppedAtLimit = false
    /// Recent segment transfers, for the bandwidth estimate (most recent last).
    var throughputSamples: [ThroughputSample] = []
    /// Frame counters at the last ABR decision (frame-drop downswitch).
    var framesAtLastDecision: (presented: Int, dropped: Int) = (0, 0)
    /// Why the controller chose what it chose last.
    var lastDecisionReason = "initial"
    /// End of the last segment loaded, content seconds.
    var loadedEnd: Double?
    /// End of the last presented master frame, timeline seconds.
    var presentedEnd: Double?

    // Ads (Splice/): the timeline of breaks, the ads ready to play, and where loading is.
    /// The ad breaks placed so far.
    var timeline = AdTimeline()
    /// After the break being played (a seek over breaks), playback goes to this timeline time.
    var landingAfterBreak: Double?
    /// Further breaks (by index) a seek over breaks plays before landing.
    var breakQueue: [Int] = []
    /// The item's playlists, for the ad checks.
    var contentProfile: HLSStreamProfile?
    /// Loaded ads by break id (a break without loadable ads has none).
    var adAssets: [String: [AdAsset]] = [:]
    /// Breaks already entered, or passed without playing.
    var breaksDone: Set<String> = []
    /// Opportunities already seen (by id).
    var seenOpportunities: Set<String> = []
    /// The next content segment is the first the decoder gets after a fresh start (the session's start, a
    /// seek, a return from a break): it must begin at a keyframe, or earlier segments are fetched first.
    var needsKeyframe = true
    /// Timeline time and source of the last decoded frame of each kind handed to the renderer (cleared
    /// by a seek): a later one of the same source at an earlier time is a frame shown already.
    var lastQueued: [MediaKind: (seconds: Double, source: SpliceSource)] = [:]
    /// The item's content has audio and no video (an audio-only rendition): audio is the master kind.
    var audioOnly = false
    /// Content segments held back while the segments before them are fetched to start decoding at a keyframe.
    var preroll: Preroll?
    /// Finds the subscribed tags not yet reported (nil when none is subscribed).
    var timedMetadataScanner: TimedMetadataScanner?
    /// Ids given to timed metadata so far (each is unique in the session).
    var timedMetadataIDs: Set<String> = []
    /// Timed-ID3 packets already reported (media sequence, PTS, bytes).
    var id3Seen: Set<String> = []
    /// The keys posted as `drmMetadataChanged` (``KeyMetadata/identity``).
    var keysSeen: Set<String> = []
    /// The media type last said by `determinedMediaType` (audio, audioVideo, video).
    var determinedMediaType: String?
    /// A failure waiting for its resume (``ResumePolicy``), nil when none is.
    var pendingResume: PendingResume?
    /// Resumes the policy has made.
    var resumeAttempts = 0
    /// The resume under way (index in the report's `resumes`), until its first frame or its failure.
    var resumeUnderWay: Int?
    /// The seek (index in the report's `seeks`) whose first frame completes that resume.
    var resumeSeek: Int?
    /// The alternate content's playlists, fetched once at load when blackouts are on (nil: none, or failed).
    var alternate: AdPlaylists?
    /// Why the alternate content could not be loaded (blackouts then leave the main content on).
    var alternateFailure: String?
    /// Blackout tags already read (media sequence and value).
    var blackoutTagsSeen: Set<String> = []
    /// Index in the report's blackouts by break id (`blackout:<id>`).
    var blackoutIndex: [String: Int] = [:]
    /// The break id of the blackout whose end tag has not come yet.
    var openBlackout: String?
    /// Blackout ids given so far (an id used again names a new blackout, `id#2`).
    var blackoutIDs: Set<String> = []
    /// Blackout breaks whose alternate content gave no media: they ended there, and their range is not followed.
    var blackoutsAbandoned: Set<String> = []
    /// A seek left the blackout break whose alternate was presenting: whether it ended is known at the next frame.
    var blackoutLeftBySeek: String?
    /// Server-side ad tracking: the avails known and what plays now.
    var ssai = SSAIAdTracker()
    /// The avails of the SSAI tracking document, as last read.
    var ssaiTrackingAvails: [SSAIAvail] = []
    /// The content segments buffered, where their media lies: the SSAI tracker reads frames in playlist time,
    /// and seeks and breaks met again find segments by their media.
    var playlistTimes = PlaylistTimeMap()
    /// Loading inside an ad break (nil: loading content).
    var adCursor: AdLoadCursor?
    /// Timeline seconds = content seconds + contentOffset for the content being loaded.
    var contentOffset = 0.0
    /// Frames of the next content segment before this content time are not presented (after a break).
    var contentClipStart: Double?
    /// After a replacement: content resumes at this content time once its segment is listed.
    var contentResume: Double?
    /// The segment whose packets the decoders saw last (a change of source drains them).
    var decodingSegment: BufferedSegment?
    /// Last presented frame per kind, with its source (splice boundaries).
    var lastPresented: [MediaKind: (source: SpliceSource, stamp: BoundaryFrame)] = [:]
    /// Index in the report's boundaries by break id.
    var boundaryIndex: [String: Int] = [:]
    /// The cue as signalled, by break id, of an inserted break moved to the next frame's start (see
    /// ``MediaPlayer/alignBreakToFrame(cue:in:)``); the boundary record keeps it.
    var signalledCues: [String: Double] = [:]
    /// The content segment an inserted break moved to where content media ends resumes with, by break id: the
    /// one after the last loaded (see ``MediaPlayer/alignBreakToLoadedEnd(_:before:)``), or after the segment it
    /// cut at its media's end (``MediaPlayer/alignBreakToFrame(cue:in:)``). Its resume point is media time, which
    /// the playlist's EXTINF grid puts in another segment once EXTINFs have drifted from the media.
    var resumeSequences: [String: Int] = [:]
    /// The opportunity (server map, cue, pre-roll request) whose answer placed each break, by break id.
    var breakOrigins: [String: String] = [:]
    /// The last whole second and quartile of the playing ad for which adProgress was posted, and how
    /// many of its VAST progress offsets had been reached then.
    var adProgressMark: (second: Int, quartile: Int, offsets: Int) = (-1, 0, 0)

    /// The playhead at session time `now`.
    func position(at now: Double) -> Double {
        clockRunning ? anchorPosition + (now - anchorTime) * rate : anchorPosition
    }

    /// Session time at which the playhead reaches `position` (meaningful while the clock runs).
    func time(atPosition position: Double) -> Double {
        anchorTime + (position - anchorPosition) / rate
    }
}

/// A segment fetch to retry: content (with its placement) or an ad's.
struct SegmentRetry {
    /// Session time of the retry.
    var at: Double
    /// Media sequence of a content segment (ignored for an ad's).
    var mediaSequence: Int
    /// The retry's attempt number.
    var attempt: Int
    /// Where a content segment goes.
    var placement: Placement?
    /// Where an ad segment goes.
    var ad: AdLoadCursor?
}
