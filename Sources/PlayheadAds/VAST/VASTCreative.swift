/// `<Creative>`: one of linear, companion ads or non-linear ads (a creative holding none of them,
/// e.g. only `<CreativeExtensions>`, has all three empty).
public struct VASTCreative: Sendable, Equatable, Encodable {
    /// The `id` attribute.
    public var id: String?
    /// The `adId` attribute (`AdID` in VAST 2.0).
    public var adId: String?
    /// The `sequence` attribute.
    public var sequence: Int?
    /// The `apiFramework` attribute (VAST 4.0).
    public var apiFramework: String?
    /// `<Linear>`.
    public var linear: VASTLinear?
    /// `<CompanionAds>`' `<Companion>` elements.
    public var companionAds: [VASTCompanionAd]
    /// `<NonLinearAds>`.
    public var nonLinearAds: VASTNonLinearAds?

    /// Creates a creative.
    public init(id: String? = nil, adId: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
                linear: VASTLinear? = nil, companionAds: [VASTCompanionAd] = [], nonLinearAds: VASTNonLinearAds? = nil) {
        self.id = id
        self.adId = adId
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.linear = linear
        self.companionAds = companionAds
        self.nonLinearAds = nonLinearAds
    }
}

/// `<Tracking event="…">` with its URL and, for `progress`, its `offset`.
public struct VASTTrackingEvent: Sendable, Equatable, Encodable {
    /// The event name as written (`start`, `firstQuartile`, `progress`, `creativeView`…).
    public var event: String
    /// The URL template.
    public var url: String
    /// The `offset` attribute (progress events).
    public var offset: VASTOffset?

    /// Creates a tracking event.
    public init(event: String, url: String, offset: VASTOffset? = nil) {
        self.event = event
        self.url = url
        self.offset = offset
    }
}

extension Array where Element == VASTTrackingEvent {
    /// URLs by event name, in document order within each event.
    public var urlsByEvent: [String: [String]] {
        var result: [String: [String]] = [:]
        for event in self { result[event.event, default: []].append(event.url) }
        return result
    }

    /// The URLs registered for `event`, in document order.
    public func urls(for event: String) -> [String] {
        filter { $0.event == event }.map(\.url)
    }
}

/// `<Linear>`: a video (or audio) ad played in the content's place.
public struct VASTLinear: Sendable, Equatable, Encodable {
    /// `<Duration>` in seconds; nil when absent or unreadable (wrappers have none).
    public var durationSeconds: Double?
    /// The `skipoffset` attribute: when the ad becomes skippable.
    public var skipOffset: VASTOffset?
    /// `<MediaFiles>`' `<MediaFile>` elements.
    public var mediaFiles: [VASTMediaFile]
    /// `<TrackingEvents>` in document order.
    public var trackingEvents: [VASTTrackingEvent]
    /// `<VideoClicks>`.
    public var videoClicks: VASTVideoClicks
    /// `<AdParameters>` text.
    public var adParameters: String?
    /// `<Icons>`, kept minimal.
    public var icons: [VASTIcon]

    /// Creates a linear creative.
    public init(durationSeconds: Double? = nil, skipOffset: VASTOffset? = nil, mediaFiles: [VASTMediaFile] = [],
                trackingEvents: [VASTTrackingEvent] = [], videoClicks: VASTVideoClicks = .init(),
                adParameters: String? = nil, icons: [VASTIcon] = []) {
        self.durationSeconds = durationSeconds
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.trackingEvents = trackingEvents
        self.videoClicks = videoClicks
        self.adParameters = adParameters
        self.icons = icons
    }

    /// The skip offset in seconds (a percentage resolved against the duration).
    public var skipOffsetSeconds: Double? { skipOffset?.seconds(durationSeconds: durationSeconds) }
}

/// `<VideoClicks>`.
public struct VASTVideoClicks: Sendable, Equatable, Encodable {
    /// `<ClickThrough>`: the page to open on a click.
    public var clickThrough: VASTClick?
    /// `<ClickTracking>` URLs.
    public var clickTracking: [VASTClick]
    /// `<CustomClick>` URLs.
    public var customClick: [VASTClick]

    /// Creates video clicks.
    public init(clickThrough: VASTClick? = nil, clickTracking: [VASTClick] = [], customClick: [VASTClick] = []) {
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClick = customClick
    }
}

/// `<Icon>`, kept minimal: placement, timing, one resource and its click and view URLs.
public struct VASTIcon: Sendable, Equatable, Encodable {
    /// The `program` attribute (e.g. `AdChoices`).
    public var program: String?
    /// Width in pixels.
    public var width: Int?
    /// Height in pixels.
    public var height: Int?
    /// `xPosition` (`left`, `right` or pixels).
    public var xPosition: String?
    /// `yPosition` (`top`, `bottom` or pixels).
    public var yPosition: String?
    /// `offset`: when to show the icon, from the ad's start.
    public var offset: VASTOffset?
    /// `duration` in seconds.
    public var durationSeconds: Double?
    /// The resources, like companions'.
    public var resources: VASTResources
    /// `<IconClickThrough>`.
    public var clickThrough: String?
    /// `<IconClickTracking>` URLs.
    public var clickTracking: [VASTClick]
    /// `<IconViewTracking>` URLs.
    public var viewTracking: [String]

    /// Creates an icon.
    public init(program: String? = nil, width: Int? = nil, height: Int? = nil, xPosition: String? = nil,
                yPosition: String? = nil, offset: VASTOffset? = nil, durationSeconds: Double? = nil,
                resources: VASTResources = .init(), clickThrough: String? = nil, clickTracking: [VASTClick] = [],
                viewTracking: [String] = []) {
        self.program = program
        self.width = width
        self.height = height
        self.xPosition = xPosition
        self.yPosition = yPosition
        self.offset = offset
        self.durationSeconds = durationSeconds
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.viewTracking = viewTracking
    }
}
