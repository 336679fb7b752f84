import PlayheadHLS

/// The subtitle track a session shows: its playlist, what is loaded, its cues, and which of them show.
/// Only the loop task touches it.
struct SubtitleTrackState {
    /// The track.
    var option: SubtitleOption
    /// Its media playlist, once loaded (nil for a sidecar file, and before the first load).
    var tracker: LivePlaylistTracker?
    /// Content seconds minus the subtitle playlist's seconds (live: the playlists' times start apart).
    var playlistOffset = 0.0
    /// Subtitle segments loaded (or given up), by media sequence.
    var loaded: Set<Int> = []
    /// The sidecar file was loaded (or given up).
    var sidecarLoaded = false
    /// Failures in a row of the file being fetched, and when to try it again.
    var retry: (mediaSequence: Int?, attempt: Int, at: Double)?
    /// The playlist could not be loaded at all: the session goes on without subtitles.
    var givenUp = false
    /// The playlist's reloads that failed in a row.
    var reloadFailures = 0
    /// When the playlist may be reloaded after a failure.
    var reloadRetryAt: Double?
    /// Cues known, each once, in content order.
    var cues: [SubtitleCue] = []
    /// Keys (start, end, markup) of the cues known: a cue repeated in the next segment (one that spans
    /// the cut) is the same cue.
    var cueKeys: Set<String> = []
    /// Ids given so far.
    var cueIDs: Set<String> = []
    /// Files parsed whose times wait for the content's timestamps of their discontinuity sequence.
    var waiting: [PendingSubtitleFile] = []
    /// Cues showing now by id, with the index of their record in the report's `shown`.
    var showing: [String: (index: Int, cue: SubtitleCue)] = [:]
    /// The longest cue known, seconds (how far back from the playhead a cue may start and still show).
    var longestCueSeconds = 0.0

    /// The index of the first cue (sorted by start) whose start is after `seconds` (or at it, with `orAt`);
    /// the count when none is.
    func firstCue(startingAfter seconds: Double, orAt: Bool = false) -> Int {
        var low = 0, high = cues.count
        while low < high {
            let middle = (low + high) / 2
            let start = cues[middle].startSeconds
            if start < seconds || (!orAt && start == seconds) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Creates the state of a track not yet loaded.
    init(option: SubtitleOption) {
        self.option = option
    }
}

/// A parsed WebVTT file of a subtitle playlist whose cue times cannot be placed yet.
struct PendingSubtitleFile {
    /// The file.
    var document: WebVTTDocument
    /// The discontinuity sequence of its segment.
    var discontinuitySequence: Int
    /// Where it came from.
    var url: String
}
