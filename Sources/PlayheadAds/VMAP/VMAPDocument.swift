import Foundation

/// A parsed VMAP 1.0 playlist: where in the content the ad breaks go and where their ads come from.
public struct VMAPDocument: Sendable, Equatable, Encodable {
    /// The `version` attribute of `<vmap:VMAP>`.
    public var version: String?
    /// `<vmap:AdBreak>` elements in document order.
    public var adBreaks: [VMAPAdBreak]
    /// Break-level problems that did not stop the parse (a break dropped for a bad `timeOffset`…).
    public var warnings: [VASTError]

    /// Creates a VMAP document.
    public init(version: String?, adBreaks: [VMAPAdBreak], warnings: [VASTError] = []) {
        self.version = version
        self.adBreaks = adBreaks
        self.warnings = warnings
    }
}

/// `<vmap:AdBreak>`.
public struct VMAPAdBreak: Sendable, Equatable, Encodable {
    /// `timeOffset`: where the break goes.
    public var timeOffset: VMAPTimeOffset
    /// `breakType`: the comma-separated list split (`linear`, `nonlinear`, `display`).
    public var breakTypes: [String]
    /// `breakId`.
    public var breakId: String?
    /// `repeatAfter` in seconds: play the break again after this much content.
    public var repeatAfterSeconds: Double?
    /// `<vmap:AdSource>`; nil for a break that only carries tracking.
    public var adSource: VMAPAdSource?
    /// `<vmap:TrackingEvents>` (`breakStart`, `breakEnd`, `error`).
    public var trackingEvents: [VASTTrackingEvent]
    /// `<vmap:Extensions>`' children, raw.
    public var extensions: [VASTExtension]
    /// The 1-based source line.
    public var line: Int

    /// Creates an ad break.
    public init(timeOffset: VMAPTimeOffset, breakTypes: [String], breakId: String? = nil, repeatAfterSeconds: Double? = nil,
                adSource: VMAPAdSource? = nil, trackingEvents: [VASTTrackingEvent] = [], extensions: [VASTExtension] = [],
                line: Int = 0) {
        self.timeOffset = timeOffset
        self.breakTypes = breakTypes
        self.breakId = breakId
        self.repeatAfterSeconds = repeatAfterSeconds
        self.adSource = adSource
        self.trackingEvents = trackingEvents
        self.extensions = extensions
        self.line = line
    }
}

/// VMAP's `timeOffset`: `start`, `end`, `HH:MM:SS(.mmm)`, `n%` or `#n`.
public enum VMAPTimeOffset: Sendable, Equatable {
    /// `start`: a pre-roll.
    case start
    /// `end`: a post-roll.
    case end
    /// Seconds of content from the start.
    case seconds(Double)
    /// A percentage of the content's duration.
    case percent(Double)
    /// `#n`: the n-th (1-based) cue point or ad opportunity in the content.
    case position(Int)

    /// Reads a `timeOffset` value; nil when it is none of the five forms.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch value.lowercased() {
        case "start": self = .start
        case "end": self = .end
        default:
            if value.hasPrefix("#") {
                guard let index = Int(value.dropFirst()), index >= 1 else { return nil }
                self = .position(index)
            } else if let offset = VASTOffset(parsing: value) {
                switch offset {
                case .seconds(let seconds): self = .seconds(seconds)
                case .percent(let percent): self = .percent(percent)
                }
            } else {
                return nil
            }
        }
    }

    /// Seconds of content for a piece lasting `contentDurationSeconds`; nil for `#n`, or for
    /// `end` and percentages when the duration is unknown.
    public func seconds(contentDurationSeconds: Double?) -> Double? {
        switch self {
        case .start: return 0
        case .end: return contentDurationSeconds
        case .seconds(let seconds): return seconds
        case .percent(let percent): return contentDurationSeconds.map { $0 * percent / 100 }
        case .position: return nil
        }
    }
}

extension VMAPTimeOffset: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, seconds, percent, position }

    /// Encodes as `{"kind": "start"|"end"|"seconds"|"percent"|"position", <value>}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .start: try container.encode("start", forKey: .kind)
        case .end: try container.encode("end", forKey: .kind)
        case .seconds(let value):
            try container.encode("seconds", forKey: .kind)
            try container.encode(value, forKey: .seconds)
        case .percent(let value):
            try container.encode("percent", forKey: .kind)
            try container.encode(value, forKey: .percent)
        case .position(let value):
            try container.encode("position", forKey: .kind)
            try container.encode(value, forKey: .position)
        }
    }
}

/// `<vmap:AdSource>`: the ads of one break.
public struct VMAPAdSource: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// `allowMultipleAds`: whether the break may play a pod.
    public var allowMultipleAds: Bool?
    /// `followRedirects`: whether VAST wrappers may be followed.
    public var followRedirects: Bool?
    /// Inline VAST, a tag URI, or custom data.
    public var content: VMAPAdSourceContent

    /// Creates an ad source.
    public init(id: String? = nil, allowMultipleAds: Bool? = nil, followRedirects: Bool? = nil, content: VMAPAdSourceContent) {
        self.id = id
        self.allowMultipleAds = allowMultipleAds
        self.followRedirects = followRedirects
        self.content = content
    }
}

/// What an ad source holds.
public enum VMAPAdSourceContent: Sendable, Equatable {
    /// `<vmap:VASTAdData>`: a VAST document inline.
    case vastAdData(VASTDocument)
    /// `<vmap:AdTagURI templateType="…">`: where to fetch the ads.
    case adTagURI(url: String, templateType: String?)
    /// `<vmap:CustomAdData templateType="…">`, raw XML.
    case customAdData(templateType: String?, xml: String)
}

extension VMAPAdSourceContent: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, vast, url, templateType, xml }

    /// Encodes as `{"kind": "vastAdData", "vast": …}`, `{"kind": "adTagURI", "url", "templateType"}`
    /// or `{"kind": "customAdData", "templateType", "xml"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .vastAdData(let document):
            try container.encode("vastAdData", forKey: .kind)
            try container.encode(document, forKey: .vast)
        case .adTagURI(let url, let templateType):
            try container.encode("adTagURI", forKey: .kind)
            try container.encode(url, forKey: .url)
            try container.encodeIfPresent(templateType, forKey: .templateType)
        case .customAdData(let templateType, let xml):
            try container.encode("customAdData", forKey: .kind)
            try container.encodeIfPresent(templateType, forKey: .templateType)
            try container.encode(xml, forKey: .xml)
        }
    }
}
