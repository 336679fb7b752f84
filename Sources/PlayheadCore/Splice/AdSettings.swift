/// Where ad placement comes from (PSDK `PTAdSignalingMode`).
public enum AdSignalingMode: String, Sendable, Codable, CaseIterable {
    /// VOD: the ads are inserted (the timeline grows); live: the ads replace content.
    case `default`
    /// In-manifest cues: VOD pre-rolls are inserted and mid-rolls replace content (full-event replay);
    /// live: the ads replace content.
    case manifestCues
    /// The ad server's map: the ads are inserted; not supported for live (treated as the default).
    case serverMap
}

import Foundation

extension AdSignalingMode {
    /// The mode in effect for a VOD (`isLive` false) or live stream: the default is the server map for
    /// VOD and the manifest's cues for live.
    public func effective(isLive: Bool) -> AdSignalingMode {
        switch self {
        case .default: isLive ? .manifestCues : .serverMap
        case .manifestCues, .serverMap: self
        }
    }
}

/// How the player places ads: which detectors and resolvers run, and in which signalling mode.
public struct AdSettings: Sendable {
    private static let globalLock = NSLock()
    nonisolated(unsafe) private static var globalTags: [String] = []

    /// Extra ad tags for every item (PSDK `PTSDKConfig setAdTags:`), read by the default detector
    /// alongside the default cues. Each must start with `#`.
    public static var globalExtraAdTags: [String] { globalLock.withLock { globalTags } }

    /// Sets the extra ad tags of every item; refuses a tag without `#` or an empty one.
    public static func setGlobalExtraAdTags(_ tags: [String]) throws(AdTagError) {
        _ = try AdCueDetector(extraTags: tags)
        globalLock.withLock { globalTags = tags }
    }

    /// Extra ad tags of this item, on top of the global ones.
    public private(set) var extraAdTags: [String] = []

    /// Sets this item's extra ad tags; refuses a tag without `#` or an empty one.
    public mutating func setExtraAdTags(_ tags: [String]) throws(AdTagError) {
        _ = try AdCueDetector(extraTags: tags)
        extraAdTags = tags
    }

    /// The detector used when no detector is registered: default cues plus the global and item tags.
    var defaultDetector: AdCueDetector {
        let extra = Self.globalExtraAdTags + extraAdTags
        return extra.isEmpty ? .standard : ((try? AdCueDetector(extraTags: extra)) ?? .standard)
    }

    /// Registered opportunity detectors and content resolvers. With no detector registered the
    /// default `AdCueDetector` runs.
    public var factory: MediaPlayerClientFactory
    /// Where placement comes from.
    public var signalingMode: AdSignalingMode

    /// Creates settings over `factory`.
    public init(factory: MediaPlayerClientFactory, signalingMode: AdSignalingMode = .default) {
        self.factory = factory
        self.signalingMode = signalingMode
    }

    /// Whether a break at content time `seconds` replaces content (true) or is inserted (false).
    func replaces(isLive: Bool, atContentSeconds seconds: Double) -> Bool {
        if isLive { return true }
        return signalingMode == .manifestCues && seconds > 0
    }
}
