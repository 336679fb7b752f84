/// A companion banner shown beside a linear ad (PSDK `PTAdAsset` of `PTAd.companionAssets`).
///
/// The guide's advice holds: show a companion only in a slot of exactly its width and height, as
/// soon as the ad starts, and keep it until another replaces it.
public struct AdCompanion: Sendable, Equatable, Codable {
    /// What a resource's ``Resource/data`` is (PSDK `resourceType`).
    public enum ResourceType: String, Sendable, Equatable, Codable {
        /// A direct URL to an image (VAST `<StaticResource>`).
        case staticResource = "static"
        /// A URL to load in an iframe (VAST `<IFrameResource>`).
        case iframe
        /// An HTML snippet (VAST `<HTMLResource>`).
        case html
    }

    /// One way to render the companion.
    public struct Resource: Sendable, Equatable, Codable {
        /// What ``data`` holds.
        public var type: ResourceType
        /// A URL (static, iframe) or HTML text.
        public var data: String
        /// The MIME type of a static resource (`image/png`…), when the ad says.
        public var creativeType: String?

        /// Creates a resource.
        public init(type: ResourceType, data: String, creativeType: String? = nil) {
            self.type = type
            self.data = data
            self.creativeType = creativeType
        }
    }

    /// The companion's id, if any.
    public var id: String?
    /// Slot width in pixels.
    public var width: Int?
    /// Slot height in pixels.
    public var height: Int?
    /// The ad slot id (VAST 3.0+ `adSlotId`), if any.
    public var adSlotId: String?
    /// The resources in preference order: static, then iframe, then HTML, each in document order.
    public var resources: [Resource]
    /// Where a click on the banner leads.
    public var clickThrough: String?
    /// URL templates to call on a click on the banner.
    public var clickTracking: [String]
    /// URL templates to call when the banner is shown (`creativeView`).
    public var creativeViewTracking: [String]

    /// Creates a companion.
    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, adSlotId: String? = nil,
                resources: [Resource] = [], clickThrough: String? = nil, clickTracking: [String] = [],
                creativeViewTracking: [String] = []) {
        self.id = id
        self.width = width
        self.height = height
        self.adSlotId = adSlotId
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.creativeViewTracking = creativeViewTracking
    }

    /// The preferred resource (the first), if any.
    public var primaryResource: Resource? { resources.first }
}
