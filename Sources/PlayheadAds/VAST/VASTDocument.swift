/// A parsed VAST 2.0–4.x response: its ads and, for no-ad answers, the root error URLs.
public struct VASTDocument: Sendable, Equatable, Encodable {
    /// The `version` attribute of `<VAST>` (`"2.0"`, `"3.0"`, `"4.2"`…); nil when absent.
    public var version: String?
    /// The ads in document order; pod members keep their `sequence`.
    public var ads: [VASTAd]
    /// `<Error>` URLs directly under `<VAST>`: what to call when the response holds no ad.
    public var errorURLs: [String]
    /// Ad-level problems that did not stop the parse (ads dropped or incomplete), in document order.
    public var warnings: [VASTError]

    /// Creates a document.
    public init(version: String?, ads: [VASTAd], errorURLs: [String] = [], warnings: [VASTError] = []) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.warnings = warnings
    }
}

/// One `<Ad>`: an inline ad or a wrapper pointing at another VAST response.
public struct VASTAd: Sendable, Equatable {
    /// The `id` attribute.
    public var id: String?
    /// The position in an ad pod (`sequence` attribute, 1-based); nil for a standalone ad.
    public var sequence: Int?
    /// The `adType` attribute (VAST 4.1: `video`, `audio`, `hybrid`).
    public var adType: String?
    /// The `conditionalAd` attribute (VAST 4.0).
    public var conditionalAd: Bool?
    /// Inline or wrapper content.
    public var kind: VASTAdKind
    /// The 1-based source line of `<Ad>`.
    public var line: Int

    /// Creates an ad.
    public init(id: String?, sequence: Int? = nil, adType: String? = nil, conditionalAd: Bool? = nil,
                kind: VASTAdKind, line: Int = 0) {
        self.id = id
        self.sequence = sequence
        self.adType = adType
        self.conditionalAd = conditionalAd
        self.kind = kind
        self.line = line
    }

    /// The inline content, when this is an inline ad.
    public var inline: InlineAd? {
        if case .inline(let ad) = kind { return ad }
        return nil
    }

    /// The wrapper content, when this is a wrapper.
    public var wrapper: WrapperAd? {
        if case .wrapper(let ad) = kind { return ad }
        return nil
    }
}

extension VASTAd: Encodable {
    private enum CodingKeys: String, CodingKey { case id, sequence, adType, conditionalAd, type, inline, wrapper, line }

    /// Encodes the shared attributes, `type` (`"inline"` or `"wrapper"`) and one of `inline`/`wrapper`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(sequence, forKey: .sequence)
        try container.encodeIfPresent(adType, forKey: .adType)
        try container.encodeIfPresent(conditionalAd, forKey: .conditionalAd)
        try container.encode(line, forKey: .line)
        switch kind {
        case .inline(let ad):
            try container.encode("inline", forKey: .type)
            try container.encode(ad, forKey: .inline)
        case .wrapper(let ad):
            try container.encode("wrapper", forKey: .type)
            try container.encode(ad, forKey: .wrapper)
        }
    }
}

/// What an `<Ad>` holds.
public enum VASTAdKind: Sendable, Equatable {
    /// `<InLine>`: the ad itself.
    case inline(InlineAd)
    /// `<Wrapper>`: a redirect to another VAST response, with tracking to merge down.
    case wrapper(WrapperAd)
}

/// `<AdSystem>`: the server that returned the ad.
public struct VASTAdSystem: Sendable, Equatable, Encodable {
    /// The element text.
    public var name: String
    /// The `version` attribute.
    public var version: String?

    /// Creates an ad system.
    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}

/// An `<Impression>` URL and its optional `id`.
public struct VASTImpression: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// The URL template (macros not expanded).
    public var url: String

    /// Creates an impression.
    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}

/// A click URL (`<ClickThrough>`, `<ClickTracking>`, `<CustomClick>`, `<CompanionClickTracking>`…).
public struct VASTClick: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// The URL template (macros not expanded).
    public var url: String

    /// Creates a click URL.
    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}

/// An `<Extension>` kept as raw XML text, for callers that understand its `type`.
public struct VASTExtension: Sendable, Equatable, Encodable {
    /// The `type` attribute.
    public var type: String?
    /// The element re-serialised as XML (attributes sorted, CDATA turned into escaped text).
    public var xml: String

    /// Creates an extension.
    public init(type: String?, xml: String) {
        self.type = type
        self.xml = xml
    }
}
