/// A WebVTT region (a `REGION` block): a rectangle of the viewport that cues can be placed in and
/// scrolled up through. Values are those of the spec; unset settings keep its defaults.
public struct WebVTTRegion: Sendable, Equatable, Codable {
    /// The region identifier cues name in their `region` setting (`""` when the block has no `id`).
    public var id: String
    /// The width, in percent of the viewport width (default 100).
    public var width: Double
    /// The height, in lines (default 3).
    public var lines: Int
    /// The horizontal anchor point within the region, in percent of its width (default 0).
    public var regionAnchorX: Double
    /// The vertical anchor point within the region, in percent of its height (default 100).
    public var regionAnchorY: Double
    /// Where the region's anchor sits horizontally, in percent of the viewport width (default 0).
    public var viewportAnchorX: Double
    /// Where the region's anchor sits vertically, in percent of the viewport height (default 100).
    public var viewportAnchorY: Double
    /// How lines move when a new cue enters the region.
    public var scroll: WebVTTScroll

    /// A region with the spec's defaults unless given.
    public init(
        id: String = "", width: Double = 100, lines: Int = 3,
        regionAnchorX: Double = 0, regionAnchorY: Double = 100,
        viewportAnchorX: Double = 0, viewportAnchorY: Double = 100,
        scroll: WebVTTScroll = .none
    ) {
        self.id = id
        self.width = width
        self.lines = lines
        self.regionAnchorX = regionAnchorX
        self.regionAnchorY = regionAnchorY
        self.viewportAnchorX = viewportAnchorX
        self.viewportAnchorY = viewportAnchorY
        self.scroll = scroll
    }
}

/// The scroll value of a WebVTT region.
public enum WebVTTScroll: String, Sendable, Equatable, Codable {
    /// Cues appear in place (the default).
    case none = ""
    /// Lines already shown move up to make room for a new cue (`scroll:up`).
    case up
}
