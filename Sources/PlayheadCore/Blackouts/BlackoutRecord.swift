/// One blackout of the session, as the report keeps it.
///
/// Its frames on each side (the last main frame, the first alternate frame, the last alternate frame and
/// the first main frame after) are in the report's `adBoundaries`, under the break id `blackout:<id>`,
/// so `check-ads` compares them with FFmpeg's decode as it does an ad break's.
public struct BlackoutRecord: Sendable, Equatable, Codable {
    /// The blackout's id: the tag's `ID` attribute, the SCTE-35 segmentation event (`scte35-<id>`), or the
    /// tag and the media sequence of its segment (`#EXT-X-BLACKOUT@12`).
    public var id: String
    /// Content seconds of the start tag (the start of the segment it precedes).
    public var startSeconds: Double
    /// Content seconds where the alternate content took over: the start tag's, or later when the session
    /// joined, or sought, inside the blackout.
    public var replacedFromSeconds: Double
    /// Content seconds of the end tag; nil while the blackout is still open (the session ended inside it).
    public var endSeconds: Double?
    /// Media sequence of the segment the start tag precedes.
    public var startMediaSequence: Int
    /// Media sequence of the segment the end tag precedes (nil: open, or ended with the playlist).
    public var endMediaSequence: Int?
    /// The alternate content's playlist.
    public var alternateURL: String
    /// How many times the alternate content was started (it plays again from its start while the
    /// blackout lasts).
    public var alternateLoops: Int
    /// Whether both tags were already in the playlist when it was first loaded (a blackout in the DVR
    /// window): its range was non-seekable from the start.
    public var knownAtLoad: Bool
    /// Session seconds at which the first alternate frame was presented (nil: never shown).
    public var startedAtSessionSeconds: Double?
    /// Session seconds at which the first main frame after it was presented (nil: not back yet).
    public var endedAtSessionSeconds: Double?
    /// Reloads of the main playlist while the blackout was open (the playlist watched in the background).
    public var backgroundReloads: Int
    /// Those reloads that failed (each a `backgroundManifestError` event).
    public var backgroundErrors: Int

    /// A blackout that starts at `startSeconds`.
    public init(id: String, startSeconds: Double, startMediaSequence: Int, alternateURL: String, knownAtLoad: Bool = false) {
        self.id = id
        self.startSeconds = startSeconds
        self.replacedFromSeconds = startSeconds
        self.startMediaSequence = startMediaSequence
        self.alternateURL = alternateURL
        self.alternateLoops = 0
        self.knownAtLoad = knownAtLoad
        self.backgroundReloads = 0
        self.backgroundErrors = 0
    }

    /// Whether content time `seconds` lies in the blackout's range `[start, end)` (an open one has no end).
    public func contains(_ seconds: Double) -> Bool {
        seconds >= startSeconds - 1e-3 && endSeconds.map { seconds < $0 - 1e-3 } ?? true
    }
}
