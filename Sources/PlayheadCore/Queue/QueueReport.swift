/// What a ``PlaybackQueue`` did: one record per entry (with its session's ``PlaybackReport``) and the gap
/// between each two items that played. Times are on the queue's clock: seconds since the queue started,
/// each item's session beginning where the one before ended (virtual clock), or wall time (real clock).
public struct QueueReport: Sendable, Codable {
    /// One entry's turn.
    public struct Item: Sendable, Codable {
        /// Its index in the queue (bumpers and inserted entries included).
        public var index: Int
        /// The entry.
        public var item: QueueItem
        /// Queue time its session began.
        public var startSeconds: Double
        /// Queue time its session ended.
        public var endSeconds: Double
        /// Queue time its first frame was presented; nil when none was.
        public var firstFrameSeconds: Double?
        /// `completed`, `stopped`, `error`, `failed` for an entry that never began (unresolved), or
        /// `notPlayed` for an entry a stop of the queue left (at the queue's end time, without a session).
        public var status: String
        /// Why it failed, if it did.
        public var error: String?
        /// The playlists preloaded for it (taken from the cache by its session), and what their
        /// transfers cost; nil when nothing was preloaded.
        public var preload: PreloadOutcome?
        /// The preloaded URLs the session used.
        public var preloadedURLsUsed: [String]
        /// The session's report (nil for an entry that never began).
        public var report: PlaybackReport?

        /// An entry a stop left unplayed: `notPlayed` at queue time `seconds`, without a session.
        public static func notPlayed(index: Int, item: QueueItem, at seconds: Double) -> Item {
            Item(index: index, item: item, startSeconds: seconds, endSeconds: seconds, firstFrameSeconds: nil, status: "notPlayed",
                 error: nil, preload: nil, preloadedURLsUsed: [], report: nil)
        }
    }

    /// The time between two items that played, on the queue clock.
    public struct Gap: Sendable, Codable, Equatable {
        /// The item before (whose session ended at `fromEndSeconds`).
        public var fromIndex: Int
        /// The item after (whose first frame came at `toFirstFrameSeconds`).
        public var toIndex: Int
        /// Queue time the earlier item ended: the end of its last frame when it completed.
        public var fromEndSeconds: Double
        /// Queue time the later item presented its first frame.
        public var toFirstFrameSeconds: Double
        /// `toFirstFrameSeconds − fromEndSeconds`: how long nothing new was shown between them.
        public var seconds: Double
        /// Whether the later item's playlists were preloaded and used.
        public var preloaded: Bool
    }

    /// `virtual` or `real`.
    public var clock: String
    /// Whether preloading was on.
    public var preload: Bool
    /// Every entry's turn, in play order (after a stop, the entries left, as `notPlayed`).
    public var items: [Item] = []
    /// The gaps between consecutive items that presented frames (failed items in between are skipped over).
    public var gaps: [Gap] = []
    /// Indexes of the entries that failed (unresolved, or whose session ended in error).
    public var failed: [Int] = []
    /// Whether the queue was stopped before its end (stop, or a signal).
    public var stopped = false
    /// Queue time at the end.
    public var totalSeconds = 0.0

    /// Creates an empty report.
    public init(clock: String, preload: Bool) {
        self.clock = clock
        self.preload = preload
    }
}
