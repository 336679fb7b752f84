/// `<InLine>`: an ad with its creatives.
public struct InlineAd: Sendable, Equatable, Encodable {
    /// `<AdSystem>`; required by the spec, nil when absent (a warning is recorded).
    public var adSystem: VASTAdSystem?
    /// `<AdTitle>`; required by the spec, nil when absent (a warning is recorded).
    public var adTitle: String?
    /// `<Description>`.
    public var description: String?
    /// `<Advertiser>`.
    public var advertiser: String?
    /// `<AdServingId>` (VAST 4.1).
    public var adServingId: String?
    /// `<Impression>` URLs in document order.
    public var impressions: [VASTImpression]
    /// `<Error>` URLs of the ad.
    public var errorURLs: [String]
    /// `<Creatives>` in document order.
    public var creatives: [VASTCreative]
    /// `<Extensions>`, raw.
    public var extensions: [VASTExtension]

    /// Creates an inline ad.
    public init(adSystem: VASTAdSystem? = nil, adTitle: String? = nil, description: String? = nil,
                advertiser: String? = nil, adServingId: String? = nil, impressions: [VASTImpression] = [],
                errorURLs: [String] = [], creatives: [VASTCreative] = [], extensions: [VASTExtension] = []) {
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.description = description
        self.advertiser = advertiser
        self.adServingId = adServingId
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.extensions = extensions
    }

    /// The linear creatives' `<Linear>` elements, in order.
    public var linears: [VASTLinear] { creatives.compactMap(\.linear) }
}

/// `<Wrapper>`: a redirect to another VAST response plus tracking that must be merged into the
/// final inline ad (see ``VASTResolver``).
public struct WrapperAd: Sendable, Equatable, Encodable {
    /// `<AdSystem>`.
    public var adSystem: VASTAdSystem?
    /// `<VASTAdTagURI>`: where the next VAST response is.
    public var vastAdTagURI: String
    /// `followAdditionalWrappers` (VAST 3.0+); defaults to true.
    public var followAdditionalWrappers: Bool
    /// `allowMultipleAds` (VAST 3.0+); defaults to false.
    public var allowMultipleAds: Bool
    /// `fallbackOnNoAd` (VAST 3.0+); nil when absent.
    public var fallbackOnNoAd: Bool?
    /// `<Impression>` URLs.
    public var impressions: [VASTImpression]
    /// `<Error>` URLs.
    public var errorURLs: [String]
    /// `<Creatives>` (tracking and clicks only, as wrappers carry no media).
    public var creatives: [VASTCreative]
    /// `<Extensions>`, raw.
    public var extensions: [VASTExtension]

    /// Creates a wrapper.
    public init(adSystem: VASTAdSystem? = nil, vastAdTagURI: String, followAdditionalWrappers: Bool = true,
                allowMultipleAds: Bool = false, fallbackOnNoAd: Bool? = nil, impressions: [VASTImpression] = [],
                errorURLs: [String] = [], creatives: [VASTCreative] = [], extensions: [VASTExtension] = []) {
        self.adSystem = adSystem
        self.vastAdTagURI = vastAdTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.extensions = extensions
    }
}
