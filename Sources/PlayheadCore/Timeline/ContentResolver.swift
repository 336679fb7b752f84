import Foundation

/// Hears back from a content resolver (PSDK PTContentResolverDelegate).
public protocol ContentResolverDelegate: AnyObject, Sendable {
    /// The opportunity was resolved into these breaks (empty: nothing to insert).
    func resolver(_ resolver: any ContentResolver, didResolve opportunity: PlacementOpportunity, into breaks: [AdBreak])
    /// Resolution failed; content plays on. The notification says why (AD_TIMEOUT, AD_UNREACHABLE…).
    func resolver(_ resolver: any ContentResolver, didFail opportunity: PlacementOpportunity, with notification: PlayerNotification)
    /// Resolution goes on, but something was left out (an MP4-only ad skipped: AD_NOT_INSERTED); sent
    /// before the answer it concerns. The default does nothing; a player posts it on its bus.
    func resolver(_ resolver: any ContentResolver, didWarn opportunity: PlacementOpportunity, with notification: PlayerNotification)
}

extension ContentResolverDelegate {
    /// Ignores warnings.
    public func resolver(_ resolver: any ContentResolver, didWarn opportunity: PlacementOpportunity, with notification: PlayerNotification) {}
}

/// Turns placement opportunities into ad breaks (PSDK PTContentResolver).
public protocol ContentResolver: AnyObject, Sendable {
    /// Whether this resolver handles `opportunity`.
    func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool
    /// Starts resolving; answers through `delegate`, once.
    func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate)
    /// How long the player waits for an answer before giving up with AD_TIMEOUT.
    var timeoutSeconds: Double { get }
    /// Abandons any work under way (a timeout or the player stopping).
    func cancel()
    /// Called once the item is loaded, before any opportunity: whether it is live, and for live the
    /// content time playback joins at (cues before it are DVR cues).
    func prepare(isLive: Bool, joinPointSeconds: Double?)
}

extension ContentResolver {
    /// Default resolution timeout: 5 s.
    public var timeoutSeconds: Double { 5 }
    /// By default there is nothing to cancel.
    public func cancel() {}
    /// By default nothing to prepare.
    public func prepare(isLive: Bool, joinPointSeconds: Double?) {}
}

/// Registry of opportunity detectors, content resolvers and the ad policy selector for a player
/// (PSDK PTMediaPlayerClientFactory). As in the PSDK, a selector registered for a session should be
/// cleared (``clearAdPolicySelector()``) when that player goes away.
public final class MediaPlayerClientFactory: @unchecked Sendable {
    private let lock = NSLock()
    private var detectors: [any OpportunityDetector] = []
    private var resolvers: [any ContentResolver] = []
    private var policySelector: (any AdPolicySelector)?

    /// An empty factory.
    public init() {}

    /// Adds an opportunity detector.
    public func register(detector: any OpportunityDetector) { lock.withLock { detectors.append(detector) } }
    /// Adds a content resolver; the first registered that handles an opportunity gets it.
    public func register(resolver: any ContentResolver) { lock.withLock { resolvers.append(resolver) } }
    /// Removes every detector.
    public func clearDetectors() { lock.withLock { detectors = [] } }
    /// Removes every resolver.
    public func clearResolvers() { lock.withLock { resolvers = [] } }
    /// Registers the ad policy selector, replacing any registered before.
    public func register(adPolicySelector: any AdPolicySelector) { lock.withLock { policySelector = adPolicySelector } }
    /// Removes the registered ad policy selector; ``adPolicySelector`` is the default again.
    public func clearAdPolicySelector() { lock.withLock { policySelector = nil } }
    /// The registered ad policy selector, or a ``DefaultAdPolicySelector`` when none is.
    public var adPolicySelector: any AdPolicySelector { lock.withLock { policySelector } ?? DefaultAdPolicySelector() }
    /// Whether a selector was registered (``adPolicySelector`` is not the default).
    public var hasCustomAdPolicySelector: Bool { lock.withLock { policySelector != nil } }

    /// The registered detectors.
    public var opportunityDetectors: [any OpportunityDetector] { lock.withLock { detectors } }
    /// The first registered resolver that can answer a VOD's whole ad timeline up front (VMAP).
    public var serverMapResolver: (any ServerMapResolver)? {
        lock.withLock { resolvers.lazy.compactMap { $0 as? any ServerMapResolver }.first }
    }
    /// Every registered resolver, in order.
    public var contentResolvers: [any ContentResolver] { lock.withLock { resolvers } }
    /// The first registered resolver that answers a live stream's pre-roll request.
    public var livePrerollResolver: (any LivePrerollResolver)? {
        lock.withLock { resolvers.lazy.compactMap { $0 as? any LivePrerollResolver }.first }
    }
    /// The first resolver that handles `opportunity`.
    public func resolver(for opportunity: PlacementOpportunity) -> (any ContentResolver)? {
        lock.withLock { resolvers.first { $0.shouldHandle(opportunity) } }
    }
}
