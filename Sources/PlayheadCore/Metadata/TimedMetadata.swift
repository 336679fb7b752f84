import PlayheadHLS

/// Timed metadata found in the stream (the PSDK's `PTTimedMetadata`): a subscribed playlist tag or,
/// later, an ID3 frame of the media. Posted once, as a `timedMetadata` event, when first identified,
/// and kept in the report's `timedMetadata` list (the PSDK's `timedMetadataCollection`).
public struct TimedMetadata: Sendable, Equatable, Codable {
    /// `id`, or, when `used` holds it already, `id#2`, `id#3`, …: ids stay unique across a session (the
    /// same tag in each variant's playlist, an ID attribute repeated). Adds the id returned to `used`.
    public static func unique(_ id: String, in used: inout Set<String>) -> String {
        var candidate = id, n = 1
        while used.contains(candidate) { n += 1; candidate = "\(id)#\(n)" }
        used.insert(candidate)
        return candidate
    }

    /// Where the metadata came from (the PSDK's `PTTimedMetadataType`).
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A tag of the playlist.
        case tag = "TAG"
        /// An ID3 tag inside the media stream.
        case id3 = "ID3"
    }

    /// Its identifier, unique in the session: the tag's `ID` attribute when it has one; otherwise one made
    /// from where it is (`<name>@<media sequence>`); `#<n>` after either when that id was given before.
    /// The same on every run, where the PSDK picks a random one.
    public var id: String
    /// The tag's name with its `#` (for example `#EXT-X-ASSET`); nil for ID3.
    public var name: String?
    /// Content seconds where it sits (the start of the segment the tag precedes; the end of the last
    /// segment for a tag after it), on the same scale as the ad timeline's content times.
    public var timeSeconds: Double
    /// TAG or ID3.
    public var type: Kind
    /// The tag's attributes as key-value pairs (quotes removed; a bare leading value under the key
    /// `""`), empty when the value is not an attribute list.
    public var metadata: [String: String]
    /// The tag's raw value: everything after the first `:` (empty when the tag has none).
    public var content: String
    /// The media sequence number of the segment it precedes (nil after the last segment).
    public var mediaSequence: Int?

    /// Creates timed metadata.
    public init(id: String, name: String?, timeSeconds: Double, type: Kind, metadata: [String: String], content: String,
                mediaSequence: Int?) {
        self.id = id
        self.name = name
        self.timeSeconds = timeSeconds
        self.type = type
        self.metadata = metadata
        self.content = content
        self.mediaSequence = mediaSequence
    }
}

/// Why a subscribed tag list was refused.
public enum SubscribedTagError: Error, Equatable, CustomStringConvertible {
    /// A name without its leading `#` (the PSDK requires it: `#EXT-X-ASSET`, not `EXT-X-ASSET`).
    case missingHash(String)
    /// An empty name, or `#` alone.
    case empty
    /// A name with a character no tag name has (`:`, `,`, white space): it could never match.
    case malformed(String)
    /// A tag the HLS specification defines (other than EXT-X-DATERANGE): the player reads those itself.
    case specTag(String)

    /// One sentence naming the tag.
    public var description: String {
        switch self {
        case let .missingHash(tag): "a subscribed tag starts with '#' (for example #EXT-X-ASSET); \"\(tag)\" does not"
        case .empty: "a subscribed tag names a tag: empty or '#' alone is not one"
        case let .malformed(tag): "a subscribed tag is a name alone, without ':', ',' or spaces (for example #EXT-X-ASSET); \"\(tag)\" is not"
        case let .specTag(tag): "\(tag) is a tag of the HLS specification, which the player reads itself; subscribe to custom tags (and #EXT-X-DATERANGE)"
        }
    }
}

/// Finds subscribed tags in the segments a playlist lists, once each.
///
/// A tag is the same tag on every reload (and in every variant's playlist) when it precedes the same
/// media sequence number with the same name and value; it is reported the first time only.
public struct TimedMetadataScanner: Sendable {
    /// The subscribed tag names, each with its `#`.
    public let subscribed: Set<String>
    private var seen: Set<String> = []

    /// A scanner for `tags`; each must be a tag name with its `#`, not one of the HLS specification's
    /// own tags (EXT-X-DATERANGE excepted).
    public init(tags: [String]) throws(SubscribedTagError) {
        for tag in tags { try Self.validate(tag) }
        subscribed = Set(tags)
    }

    /// Checks one subscribed name (the CLI and the daemon say which one is wrong).
    public static func validate(_ tag: String) throws(SubscribedTagError) {
        if tag.isEmpty || tag == "#" { throw .empty }
        if !tag.hasPrefix("#") { throw .missingHash(tag) }
        if tag.contains(where: { $0 == ":" || $0 == "," || $0.isWhitespace }) { throw .malformed(tag) }
        if specTags.contains(tag) { throw .specTag(tag) }
    }

    /// The tags RFC 8216bis defines, which are not custom tags (EXT-X-DATERANGE is not here: it may be subscribed).
    static let specTags: Set<String> = [
        "#EXTM3U", "#EXTINF", "#EXT-X-VERSION", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE",
        "#EXT-X-ENDLIST", "#EXT-X-PLAYLIST-TYPE", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-PART-INF", "#EXT-X-SERVER-CONTROL",
        "#EXT-X-BYTERANGE", "#EXT-X-DISCONTINUITY", "#EXT-X-KEY", "#EXT-X-MAP", "#EXT-X-PROGRAM-DATE-TIME", "#EXT-X-GAP",
        "#EXT-X-BITRATE", "#EXT-X-PART", "#EXT-X-SKIP", "#EXT-X-PRELOAD-HINT", "#EXT-X-RENDITION-REPORT", "#EXT-X-MEDIA",
        "#EXT-X-STREAM-INF", "#EXT-X-I-FRAME-STREAM-INF", "#EXT-X-SESSION-DATA", "#EXT-X-SESSION-KEY", "#EXT-X-CONTENT-STEERING",
        "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START", "#EXT-X-DEFINE", "#EXT-X-ALLOW-CACHE",
    ]

    /// The subscribed tags in `segments` (in order) not reported before; then, when `endSeconds` is
    /// given (the playlist has ended), those in `trailing` (after the last segment), placed there; then,
    /// when `#EXT-X-DATERANGE` is subscribed, the date ranges not reported before (one per ID), placed
    /// by START-DATE against the segments' program date-times, else at the segment the tag precedes.
    public mutating func scan(_ segments: [TrackedSegment], trailing: [UnknownTag] = [], endSeconds: Double? = nil,
                              dateRanges: [DateRange] = []) -> [TimedMetadata] {
        guard !subscribed.isEmpty else { return [] }
        var found: [TimedMetadata] = []
        for tracked in segments {
            found += scan(tracked.segment.tags, at: tracked.startSeconds, mediaSequence: tracked.mediaSequence)
        }
        if let endSeconds { found += scan(trailing, at: endSeconds, mediaSequence: nil) }
        if subscribed.contains(Self.dateRangeTag) {
            for range in dateRanges where seen.insert("\(Self.dateRangeTag)\n\(range.id)").inserted {
                let place = AdCueDetector.position(of: range, in: segments)
                    ?? (range.segmentIndex == segments.count ? endSeconds.map { ($0, -1) } : nil)
                guard let place else { seen.remove("\(Self.dateRangeTag)\n\(range.id)"); continue }
                let text = range.attributeListText
                found.append(TimedMetadata(id: range.id, name: Self.dateRangeTag, timeSeconds: place.0, type: .tag,
                                           metadata: CueAttributes.parse(text), content: text,
                                           mediaSequence: place.1 >= 0 ? place.1 : nil))
            }
        }
        return found
    }

    /// EXT-X-DATERANGE, a tag of the HLS spec whose ranges can be subscribed to as well.
    static let dateRangeTag = "#EXT-X-DATERANGE"

    private mutating func scan(_ tags: [UnknownTag], at seconds: Double, mediaSequence: Int?) -> [TimedMetadata] {
        var found: [TimedMetadata] = []
        var occurrences: [String: Int] = [:]
        let place = mediaSequence.map(String.init) ?? "end"
        for tag in tags where subscribed.contains("#" + tag.name) {
            let name = "#" + tag.name
            let value = tag.value ?? ""
            let occurrence = occurrences[name + "\n" + value, default: 0]
            occurrences[name + "\n" + value] = occurrence + 1
            guard seen.insert("\(place)\n\(name)\n\(value)\n\(occurrence)").inserted else { continue }
            let attributes = CueAttributes.parse(value)
            // (A further tag with the same id gets `#2`, … from the player: ids are unique in a session.)
            let id = attributes["ID"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(name)@\(place)"
            found.append(TimedMetadata(id: id, name: name, timeSeconds: seconds, type: .tag, metadata: attributes, content: value,
                                       mediaSequence: mediaSequence))
        }
        return found
    }
}
