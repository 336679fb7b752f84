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

/// How the player places ads: which detectors and resolvers run, and in which signalling mode.
public struct AdSettings: Sendable {
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
