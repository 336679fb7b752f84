/// The PSDK/Brightcove controls around any policy.
public struct ABRControls: Sendable, Equatable {
    /// No rung below this bitrate is chosen (except for the first fragment); nil means no floor.
    public var minimumBitsPerSecond: Int?
    /// No rung above this bitrate is chosen (except for the first fragment); nil means no ceiling.
    public var maximumBitsPerSecond: Int?
    /// The first fragment's rendition: the rung closest to, at or below, this bitrate (the lowest when
    /// all are above), ignoring minimum and maximum; nil lets the policy choose.
    public var initialBitsPerSecond: Int?
    /// Brightcove's preferred peak bitrate: no rung above it (the lowest when all are); 0 = automatic.
    public var preferredPeakBitsPerSecond: Int = 0
    /// A manual lock: this ladder index (clamped into the ladder) for every segment; nil = adaptive.
    public var lockedIndex: Int?
    /// Share of dropped frames at or above which the next segment goes one rung below the last: 0.15
    /// (dash.js `DroppedFramesRule`, which forbids a level dropping 15% of its frames).
    public static let defaultDropDownswitchRatio = 0.15
    /// The dropped-frame share that triggers a downswitch. Default ``defaultDropDownswitchRatio``.
    public var dropDownswitchRatio: Double = defaultDropDownswitchRatio

    /// Creates controls; every control is off by default.
    public init(minimumBitsPerSecond: Int? = nil, maximumBitsPerSecond: Int? = nil,
                initialBitsPerSecond: Int? = nil, preferredPeakBitsPerSecond: Int = 0,
                lockedIndex: Int? = nil, dropDownswitchRatio: Double = defaultDropDownswitchRatio) {
        self.minimumBitsPerSecond = minimumBitsPerSecond
        self.maximumBitsPerSecond = maximumBitsPerSecond
        self.initialBitsPerSecond = initialBitsPerSecond
        self.preferredPeakBitsPerSecond = preferredPeakBitsPerSecond
        self.lockedIndex = lockedIndex
        self.dropDownswitchRatio = dropDownswitchRatio
    }
}

/// The controller's answer for one segment.
public struct ABRDecision: Sendable, Equatable {
    /// Ladder index chosen.
    public var index: Int
    /// That rung's bitrate in bits per second.
    public var bitsPerSecond: Int
    /// Why: "initial", "policy", "locked", "max", "min", "peak" or "frame-drops" (the last rule that
    /// changed the policy's choice).
    public var reason: String

    /// Creates a decision.
    public init(index: Int, bitsPerSecond: Int, reason: String) {
        self.index = index
        self.bitsPerSecond = bitsPerSecond
        self.reason = reason
    }

    /// 302000 `BITRATE_CHANGE` with `BITRATE` metadata when this decision changes the bitrate from
    /// `previousBitsPerSecond` (always for the first segment, when it is nil); nil otherwise.
    public func bitrateChangeNotification(previousBitsPerSecond: Int?) -> PlayerNotification? {
        previousBitsPerSecond == bitsPerSecond ? nil : .bitrateChange(bitsPerSecond: bitsPerSecond)
    }
}
