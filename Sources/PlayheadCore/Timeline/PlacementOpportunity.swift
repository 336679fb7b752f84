import PlayheadHLS

/// A point of interest on the timeline found in a playlist (PSDK PTPlacementOpportunity): usually an
/// ad break, possibly a blackout or another custom operation.
public struct PlacementOpportunity: Sendable, Equatable, Codable {
    /// What kind of cue announced it.
    public enum Kind: String, Sendable, Codable {
        /// `#EXT-X-CUE-OUT`, `#EXT-X-CUE`, `#EXT-X-CUEPOINT`, `#EXT-X-AD`, SCTE-35 out: a break starts.
        case breakStart
        /// `#EXT-X-CUE-IN`, SCTE-35 in: content returns.
        case breakEnd
        /// `#EXT-X-CUE-OUT-CONT`: inside a break already announced (live joins mid-break).
        case breakContinue
        /// A cue that is neither (SCTE35-CMD, a custom tag).
        case signal
        /// VOD in the default or server-map signalling mode: one request, before playback, for every
        /// break of the item (PSDK "server map"); the answer may hold pre-, mid- and post-rolls.
        case serverMap
    }

    /// The cue's id (its ID attribute, SCTE-35 event id, DATERANGE ID), or one made from its position.
    public var id: String
    /// Start, end, continuation or signal.
    public var kind: Kind
    /// Content time of the start of the segment the tag precedes (the player refines it to true media
    /// time when it has the frames), seconds.
    public var contentSeconds: Double
    /// Break length when the cue says, seconds.
    public var durationSeconds: Double?
    /// Media sequence number of the segment the tag precedes.
    public var mediaSequence: Int
    /// The tag name with its `#`, e.g. `#EXT-X-CUE-OUT`.
    public var tag: String
    /// The whole tag line as written.
    public var rawText: String
    /// The tag's attributes, as written (keys as written, values unquoted).
    public var attributes: [String: String]
    /// The SCTE-35 payload carried by the cue (base64 or hex), if any.
    public var scte35: String?
    /// The 1-based line of the tag in the playlist (0 when unknown).
    public var line: Int

    /// Creates an opportunity.
    public init(id: String, kind: Kind, contentSeconds: Double, durationSeconds: Double?, mediaSequence: Int,
                tag: String, rawText: String, attributes: [String: String], scte35: String? = nil, line: Int = 0) {
        self.id = id
        self.kind = kind
        self.contentSeconds = contentSeconds
        self.durationSeconds = durationSeconds
        self.mediaSequence = mediaSequence
        self.tag = tag
        self.rawText = rawText
        self.attributes = attributes
        self.scte35 = scte35
        self.line = line
    }
}

/// Finds placement opportunities in a media playlist (PSDK PTOpportunityResolver).
public protocol OpportunityDetector: Sendable {
    /// The opportunities in `segments` (each with its content start) and the playlist's date ranges.
    func detect(segments: [TrackedSegment], dateRanges: [DateRange]) -> [PlacementOpportunity]
}

/// Why a configured ad tag was refused.
public enum AdTagError: Error, Equatable, CustomStringConvertible {
    /// A tag must start with `#`.
    case missingHash(String)
    /// An empty tag name.
    case empty

    /// What is wrong.
    public var description: String {
        switch self {
        case let .missingHash(tag): return "ad tag \"\(tag)\" must start with #"
        case .empty: return "ad tag is empty"
        }
    }
}
