/// Something asked of the player from outside its loop (CLI, daemon, tests).
public enum PlayerCommand: Sendable, Equatable {
    /// Start or resume playback.
    case play
    /// Pause playback.
    case pause
    /// Seek to a position on the playback timeline, seconds.
    case seek(toSeconds: Double)
    /// Stop the session (status stopped).
    case stop
    /// Change the playback rate (≤ 0 means 1.0).
    case setRate(Double)
    /// Replace the current item with another URL (status goes back to initializing).
    case replaceItem(url: String)
    /// Seeks to where local (content) time `seconds` plays (PSDK seekToLocalTime).
    case seekToLocal(seconds: Double)
    /// The viewer clicked the playing ad (PSDK notifyClick).
    case clickAd
    /// The viewer skips the server-side ad playing (VOD, at least 5 s into it: the Nowtilus demo's skip
    /// button); refused (an `adSkipRefused` event) otherwise.
    case skipAd
    /// Play another audio rendition of the AUDIO group (media is loaded again from the playhead).
    case selectAudio(AudioChoice)
    /// Show another subtitle track, or none.
    case selectSubtitles(SubtitleChoice)
    /// Re-initialise playback at a position (nil: where the playhead is, or where a failure waiting for its
    /// resume left it), playing by itself when `autoplay` (Brightcove's `resumeVideoAtTime:withAutoPlay:`).
    case resume(atSeconds: Double?, autoplay: Bool)
}

/// A command to run when the playhead reaches a position (scripted runs: `--seek AT:TO`, `--pause AT:FOR`).
public struct ScheduledCommand: Sendable, Equatable {
    /// Playback position, seconds, at which the command runs.
    public var atPositionSeconds: Double
    /// What to do.
    public var action: Action

    /// What a scheduled command does.
    public enum Action: Sendable, Equatable {
        /// Seek to this position.
        case seek(toSeconds: Double)
        /// Pause for this many seconds of session time, then play.
        case pause(forSeconds: Double)
        /// Stop.
        case stop
        /// Seek to where local (content) time `seconds` plays.
        case seekToLocal(seconds: Double)
        /// Play another audio rendition.
        case selectAudio(AudioChoice)
        /// Show another subtitle track, or none.
        case selectSubtitles(SubtitleChoice)
        /// Click the ad playing (``PlayerCommand/clickAd``).
        case clickAd
        /// Skip the server-side ad playing (``PlayerCommand/skipAd``).
        case skipAd
        /// Re-initialise playback at a position (``PlayerCommand/resume(atSeconds:autoplay:)``).
        case resume(atSeconds: Double?, autoplay: Bool)
    }

    /// Creates a scheduled command.
    public init(atPositionSeconds: Double, action: Action) {
        self.atPositionSeconds = atPositionSeconds
        self.action = action
    }
}
