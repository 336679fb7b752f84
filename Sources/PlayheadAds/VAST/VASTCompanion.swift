/// `<StaticResource>`: a file to show, with its MIME type.
public struct VASTStaticResource: Sendable, Equatable, Encodable {
    /// `creativeType`: the resource's MIME type.
    public var creativeType: String?
    /// The resource's URL.
    public var url: String

    /// Creates a static resource.
    public init(creativeType: String? = nil, url: String) {
        self.creativeType = creativeType
        self.url = url
    }
}

/// The resources a companion, non-linear or icon may carry (the player picks one it can render).
public struct VASTResources: Sendable, Equatable, Encodable {
    /// `<StaticResource>` elements.
    public var staticResources: [VASTStaticResource]
    /// `<IFrameResource>` URLs.
    public var iframeResources: [String]
    /// `<HTMLResource>` contents (HTML text, not URLs).
    public var htmlResources: [String]

    /// Creates a resource set.
    public init(staticResources: [VASTStaticResource] = [], iframeResources: [String] = [], htmlResources: [String] = []) {
        self.staticResources = staticResources
        self.iframeResources = iframeResources
        self.htmlResources = htmlResources
    }

    /// Whether no resource is present.
    public var isEmpty: Bool { staticResources.isEmpty && iframeResources.isEmpty && htmlResources.isEmpty }
}

/// `<Companion>`: a display ad shown beside the video.
public struct VASTCompanionAd: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// `width` of the slot in pixels.
    public var width: Int?
    /// `height` of the slot in pixels.
    public var height: Int?
    /// `assetWidth` in pixels.
    public var assetWidth: Int?
    /// `assetHeight` in pixels.
    public var assetHeight: Int?
    /// `adSlotId` (VAST 3.0+).
    public var adSlotId: String?
    /// `apiFramework`.
    public var apiFramework: String?
    /// The resources.
    public var resources: VASTResources
    /// `<CompanionClickThrough>`.
    public var clickThrough: String?
    /// `<CompanionClickTracking>` URLs.
    public var clickTracking: [VASTClick]
    /// `<TrackingEvents>` (`creativeView` in practice).
    public var trackingEvents: [VASTTrackingEvent]
    /// `<AltText>`.
    public var altText: String?
    /// `<AdParameters>` text.
    public var adParameters: String?

    /// Creates a companion.
    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, assetWidth: Int? = nil,
                assetHeight: Int? = nil, adSlotId: String? = nil, apiFramework: String? = nil,
                resources: VASTResources = .init(), clickThrough: String? = nil, clickTracking: [VASTClick] = [],
                trackingEvents: [VASTTrackingEvent] = [], altText: String? = nil, adParameters: String? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.assetWidth = assetWidth
        self.assetHeight = assetHeight
        self.adSlotId = adSlotId
        self.apiFramework = apiFramework
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.trackingEvents = trackingEvents
        self.altText = altText
        self.adParameters = adParameters
    }
}

/// `<NonLinearAds>`, kept minimal: the shared tracking events and each `<NonLinear>`.
public struct VASTNonLinearAds: Sendable, Equatable, Encodable {
    /// `<TrackingEvents>` of the group.
    public var trackingEvents: [VASTTrackingEvent]
    /// `<NonLinear>` elements.
    public var nonLinears: [VASTNonLinear]

    /// Creates a non-linear group.
    public init(trackingEvents: [VASTTrackingEvent] = [], nonLinears: [VASTNonLinear] = []) {
        self.trackingEvents = trackingEvents
        self.nonLinears = nonLinears
    }
}

/// `<NonLinear>`: an overlay shown over the content.
public struct VASTNonLinear: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `minSuggestedDuration` in seconds.
    public var minSuggestedDurationSeconds: Double?
    /// The resources.
    public var resources: VASTResources
    /// `<NonLinearClickThrough>`.
    public var clickThrough: String?
    /// `<NonLinearClickTracking>` URLs.
    public var clickTracking: [VASTClick]

    /// Creates a non-linear ad.
    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, minSuggestedDurationSeconds: Double? = nil,
                resources: VASTResources = .init(), clickThrough: String? = nil, clickTracking: [VASTClick] = []) {
        self.id = id
        self.width = width
        self.height = height
        self.minSuggestedDurationSeconds = minSuggestedDurationSeconds
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
    }
}
