import PlayheadHLS

/// A transfer the loop is waiting for.
enum PendingTransfer {
    /// A media segment (by media sequence), with its retry count.
    case segment(mediaSequence: Int, attempt: Int)
    /// A reload of the media playlist, with its retry count.
    case playlist(attempt: Int)
    /// The media playlist of ladder rung `index`, wanted for a switch.
    case variantPlaylist(index: Int)
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
    /// A segment fetch to retry at this session time.
    var segmentRetry: (at: Double, mediaSequence: Int, attempt: Int)?

    /// Playback wanted (status playing); the clock may still wait for media.
    var wantsPlay = false
    /// The playhead advances with the clock.
    var clockRunning = false
    var anchorTime = 0.0
    var anchorPosition = 0.0
    var rate = 1.0
    /// Playback began (first frame presented).
    var started = false
    /// An open rebuffer: when and where it began.
    var stall: (start: Double, position: Double)?
    /// Frames before this content time are decoded but not presented (seek, start position).
    var skipBefore: Double?
    /// Index in the report's seeks of the seek waiting for its first frame.
    var pendingSeek: Int?
    /// A scheduled pause ends at this session time.
    var resumeAt: Double?
    /// Every segment up to the end of the item has been loaded.
    var endLoaded = false
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
    /// A switch waiting for its rung's playlist.
    var pendingSwitch: Int?
    /// Recent segment transfers, for the bandwidth estimate (most recent last).
    var throughputSamples: [ThroughputSample] = []
    /// Frame counters at the last ABR decision (frame-drop downswitch).
    var framesAtLastDecision: (presented: Int, dropped: Int) = (0, 0)
    /// Why the controller chose what it chose last.
    var lastDecisionReason = "initial"
    /// End of the last segment loaded, content seconds.
    var loadedEnd: Double?
    /// End of the last presented master frame, content seconds.
    var presentedEnd: Double?

    /// The playhead at session time `now`.
    func position(at now: Double) -> Double {
        clockRunning ? anchorPosition + (now - anchorTime) * rate : anchorPosition
    }

    /// Session time at which the playhead reaches `position` (meaningful while the clock runs).
    func time(atPosition position: Double) -> Double {
        anchorTime + (position - anchorPosition) / rate
    }
}
