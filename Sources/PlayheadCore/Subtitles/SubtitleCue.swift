/// One subtitle cue on the content timeline.
public struct SubtitleCue: Sendable, Equatable, Codable {
    /// Unique in the session: the cue's WebVTT identifier, else `<track>@<start>`, with `#n` added to a repeat.
    public var id: String
    /// The track's name.
    public var track: String
    /// Content seconds at which the cue shows (its WebVTT time mapped through X-TIMESTAMP-MAP).
    public var startSeconds: Double
    /// Content seconds at which it hides.
    public var endSeconds: Double
    /// Its text without markup, lines joined by a newline.
    public var text: String
    /// Its text as written (WebVTT cue markup kept).
    public var markup: String

    /// Creates a cue.
    public init(id: String, track: String, startSeconds: Double, endSeconds: Double, text: String, markup: String) {
        self.id = id
        self.track = track
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
        self.markup = markup
    }
}

/// A cue as it was shown: when the playhead reached it and when it left.
public struct SubtitleCueRecord: Sendable, Equatable, Codable {
    /// The cue.
    public var cue: SubtitleCue
    /// Timeline position at which it showed (its start, or where a seek or the start landed inside it).
    public var shownAtPosition: Double
    /// Session seconds at which it showed.
    public var shownAtSeconds: Double
    /// Timeline position at which it hid (nil: still shown when the report was made).
    public var hiddenAtPosition: Double?
    /// Session seconds at which it hid.
    public var hiddenAtSeconds: Double?

    /// Creates a record of a cue shown at `position`, session time `seconds`.
    public init(cue: SubtitleCue, shownAtPosition: Double, shownAtSeconds: Double) {
        self.cue = cue
        self.shownAtPosition = shownAtPosition
        self.shownAtSeconds = shownAtSeconds
    }
}

/// The subtitles of a session: the tracks offered, the one shown, its cues and what went wrong.
public struct SubtitleReport: Sendable, Equatable, Codable {
    /// The tracks offered (the variant's SUBTITLES group, then the sidecar files), in order.
    public var options: [SubtitleOption] = []
    /// Index in `options` of the track shown (nil: none).
    public var selected: Int?
    /// How the track was chosen (`--subtitles`).
    public var choice: SubtitleChoice = .automatic
    /// Cues loaded, each once, from every track shown in the session.
    public var cuesLoaded = 0
    /// WebVTT files (segments) of the track loaded.
    public var filesLoaded = 0
    /// Every cue shown, in the order it showed.
    public var shown: [SubtitleCueRecord] = []
    /// Problems with the track: files that failed to load or parse, lines skipped (`<url>: line n: …`),
    /// a file without X-TIMESTAMP-MAP.
    public var issues: [String] = []

    /// Creates an empty report.
    public init() {}
}
