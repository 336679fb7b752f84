import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet

/// The default ad resolver (PSDK's Ad Decisioning resolver): turns the item's ``AdMetadata`` into ad
/// requests over the project's libcurl client and answers with ``AdBreak``s.
///
/// - **VOD** (server map, the default): ``resolveServerMap(contentDurationSeconds:delegate:)`` makes
///   one VMAP request before playback and returns every break — pre-, mid- and post-rolls — with
///   VAST inline or by URI, wrappers followed (depth 5, loops caught), the HLS media file chosen;
///   MP4-only ads are left out with an AD_NOT_INSERTED warning.
/// - **Live** (manifest cues, the default; also VOD full-event replay): one VAST request per cue for
///   the cue's duration (``process(_:delegate:)``): a pod, or the stand-alone ads, filling the
///   duration (ads that do not fit are left out with a warning; the break replaces as much content
///   as its ads last), plus ``resolvePreroll(atContentSeconds:delegate:)`` at the start unless
///   ``AdMetadata/enableLivePreroll`` is off. Cues before the join point
///   (``setLiveJoinPoint(contentSeconds:)``) are handled only with ``AdMetadata/enableDVRAds``.
/// - **Failures** never stop content: a break's request that does not answer within
///   ``timeoutSeconds`` gives AD_TIMEOUT (170008), an empty answer AD_EMPTY_RESPONSE (170007), a
///   refused or failed connection or an HTTP error AD_UNREACHABLE (104006), an unreadable or
///   unplayable answer AD_INSERTION_FAIL (104005); the first three nested as the guide's tables say,
///   delivered through ``ContentResolverDelegate/resolver(_:didFail:with:)``.
public final class DefaultAdResolver: ServerMapResolver, Sendable {
    /// Default of ``timeoutSeconds``: 5 s for a break's whole resolution (request and wrappers).
    public static let defaultTimeoutSeconds = 5.0
    /// Slack when filling a cue: ads may overrun its duration by this much, seconds.
    public static let fillToleranceSeconds = 0.5

    /// The item's ad metadata.
    public let metadata: AdMetadata
    /// Whether the content is live (cues replace content) or VOD.
    public var isLive: Bool { state.withLock { $0.isLive } }
    /// The request URLs made from ``metadata``.
    public let urls: AdRequestURLs
    /// How long one break's resolution may take, seconds. The resolver answers AD_TIMEOUT itself when
    /// it runs out, so a player's own guard on this resolver (``ContentResolver/timeoutSeconds``)
    /// never needs to fire first; give it some slack.
    public let timeoutSeconds: Double
    /// The signalling mode in effect.
    public var signalingMode: AdSignalingMode { metadata.signalingMode.effective(isLive: isLive) }

    let loader: VASTAdLoader
    private let state = Locked(State())

    private struct State {
        var tasks: [UUID: Task<Void, Never>] = [:]
        var joinPoint: Double?
        var isLive = false
    }

    /// Creates the resolver.
    ///
    /// - Parameters:
    ///   - metadata: The item's ad metadata; validated here.
    ///   - isLive: Whether the content is live.
    ///   - timeoutSeconds: How long one break's resolution may take.
    ///   - client: The HTTP client; by default one with connect, first-byte and total timeouts of
    ///     `timeoutSeconds`.
    /// - Throws: ``AdMetadataError`` for missing or bad metadata, or a server map asked for live content.
    public init(metadata: AdMetadata, isLive: Bool, timeoutSeconds: Double = defaultTimeoutSeconds,
                client: HTTPClient? = nil) throws(AdMetadataError) {
        try metadata.validate()
        if isLive, metadata.signalingMode == .serverMap { throw .unsupportedMode(.serverMap, isLive: true) }
        guard timeoutSeconds > 0, timeoutSeconds.isFinite else {
            throw .invalid(field: "timeoutSeconds", value: String(timeoutSeconds), reason: "must be a positive number of seconds")
        }
        self.metadata = metadata
        state.withLock { $0.isLive = isLive }
        self.timeoutSeconds = timeoutSeconds
        urls = AdRequestURLs(metadata: metadata)
        let limit = Duration.milliseconds(Int((timeoutSeconds * 1000).rounded(.up)))
        loader = VASTAdLoader(
            client: client ?? HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: limit, firstByteTimeout: limit, totalTimeout: limit)),
            timeoutSeconds: timeoutSeconds)
    }

    // MARK: Cues (live, manifest-cue VOD)

    /// The player tells what it loaded: live or VOD, and where a live stream was joined.
    public func prepare(isLive: Bool, joinPointSeconds: Double?) {
        state.withLock { state in
            state.isLive = isLive
            if isLive, let joinPointSeconds { state.joinPoint = joinPointSeconds }
        }
    }

    /// Records the content time of the live point at join: cues before it are handled only with
    /// ``AdMetadata/enableDVRAds``.
    public func setLiveJoinPoint(contentSeconds: Double) { state.withLock { $0.joinPoint = contentSeconds } }

    /// Break starts, in manifest-cue mode; before the join point only with DVR ads enabled.
    public func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool {
        guard opportunity.kind == .breakStart, signalingMode == .manifestCues else { return false }
        if !metadata.enableDVRAds, let join = state.withLock({ $0.joinPoint }), opportunity.contentSeconds < join { return false }
        return true
    }

    /// Starts resolving the cue's break in a task; answers `delegate` once (unless cancelled).
    public func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {
        track { [self] in
            let outcome = await resolveCue(opportunity)
            guard !Task.isCancelled else { return }
            deliver(outcome, for: opportunity, to: delegate)
        }
    }

    /// Resolves the cue's break: one request for the cue's duration.
    ///
    /// - Returns: The break (or none) and the notifications raised: warnings, or the failure.
    public func resolveCue(_ opportunity: PlacementOpportunity) async -> CueResolution {
        let url = urls.cue(opportunity)
        let fill = opportunity.durationSeconds.flatMap { $0 > 0 ? $0 : nil }
        return await resolveBreak(url: url, id: opportunity.id, contentSeconds: opportunity.contentSeconds, fillSeconds: fill,
                                  replacesContent: true)
    }

    /// The pre-roll request of a live stream (or a VOD in manifest-cue mode) at content time
    /// `contentSeconds`: `nil` when ``AdMetadata/enableLivePreroll`` is off or the mode is not
    /// manifest cues. The break is inserted (it replaces no content); `delegate` hears of it with
    /// the opportunity ``PlacementOpportunity/preroll(contentSeconds:)``.
    public func resolvePreroll(atContentSeconds contentSeconds: Double = 0,
                               delegate: (any ContentResolverDelegate)? = nil) async -> CueResolution? {
        guard metadata.enableLivePreroll, signalingMode == .manifestCues else { return nil }
        let opportunity = PlacementOpportunity.preroll(contentSeconds: contentSeconds)
        let outcome = await resolveBreak(url: urls.preroll(contentSeconds: contentSeconds), id: opportunity.id,
                                         contentSeconds: contentSeconds, fillSeconds: nil, replacesContent: false)
        if let delegate { deliver(outcome, for: opportunity, to: delegate) }
        return outcome
    }

    /// Abandons every resolution under way (its transfers are aborted); their delegates are not called.
    public func cancel() {
        state.withLock { $0.tasks.values.forEach { $0.cancel() } }
    }

    /// Returns once every resolution started by ``process(_:delegate:)`` so far has answered or,
    /// cancelled, ended (for a player's teardown, and tests).
    public func waitUntilIdle() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
            state.withLock { state in
                if let id = state.tasks.first(where: { $0.value == task })?.key { state.tasks.removeValue(forKey: id) }
            }
        }
    }

    // MARK: Shared

    /// Fetches one break's VAST under the deadline and shapes the break.
    func resolveBreak(url: String, id: String, contentSeconds: Double, fillSeconds: Double?, replacesContent: Bool,
                      followRedirects: Bool = true) async -> CueResolution {
        let loader = self.loader
        let result = await withDeadline(seconds: timeoutSeconds) { () async -> Result<BreakAds, AdFailure> in
            do throws(AdFailure) {
                return .success(try await loader.load(url: url, breakId: id, followRedirects: followRedirects))
            } catch { return .failure(error) }
        }
        switch result {
        case nil:
            return CueResolution(adBreak: nil, notifications: [.adTimeout(url: url, afterSeconds: timeoutSeconds, breakId: id)], failed: true)
        case let .failure(failure)?:
            return CueResolution(adBreak: nil, notifications: failure.notifications, failed: true)
        case let .success(found)?:
            var (ads, warnings) = (found.ads, found.warnings)
            if let fillSeconds { (ads, warnings) = Self.fill(ads, seconds: fillSeconds, breakId: id, warnings: warnings) }
            let total = ads.reduce(0) { $0 + $1.durationSeconds }
            let replaced = replacesContent ? min(fillSeconds ?? total, total) : 0
            let adBreak = ads.isEmpty ? nil : AdBreak(id: id, contentSeconds: contentSeconds, ads: ads, replacedContentSeconds: replaced)
            return CueResolution(adBreak: adBreak, notifications: warnings, failed: false)
        }
    }

    /// The ads that fit in `seconds` (plus ``fillToleranceSeconds``), in order; the others left out with a warning.
    static func fill(_ ads: [TimelineAd], seconds: Double, breakId: String,
                     warnings: [PlayerNotification]) -> ([TimelineAd], [PlayerNotification]) {
        var kept: [TimelineAd] = [], notes = warnings, total = 0.0
        for ad in ads {
            if total + ad.durationSeconds <= seconds + fillToleranceSeconds {
                kept.append(ad)
                total += ad.durationSeconds
            } else {
                notes.append(.adNotInserted(
                    description: "ad \(ad.id) (\(AdRequestURLs.seconds(ad.durationSeconds)) s) does not fit the \(AdRequestURLs.seconds(seconds)) s break",
                    breakId: breakId, adId: ad.id, url: ad.url, vastErrorCode: 202, errorURLs: ad.errorURLs))
            }
        }
        return (kept, notes)
    }

    /// Sends warnings, then the break (or failure), to `delegate`.
    func deliver(_ outcome: CueResolution, for opportunity: PlacementOpportunity, to delegate: any ContentResolverDelegate) {
        if outcome.failed, let failure = outcome.notifications.last {
            for warning in outcome.notifications.dropLast() { delegate.resolver(self, didWarn: opportunity, with: warning) }
            delegate.resolver(self, didFail: opportunity, with: failure)
        } else {
            for warning in outcome.notifications { delegate.resolver(self, didWarn: opportunity, with: warning) }
            delegate.resolver(self, didResolve: opportunity, into: outcome.adBreak.map { [$0] } ?? [])
        }
    }

    /// Runs `work` in a task that ``cancel()`` can reach.
    func track(_ work: @escaping @Sendable () async -> Void) {
        let id = UUID()
        let task = Task { [state] in
            await work()
            state.withLock { _ = $0.tasks.removeValue(forKey: id) }
        }
        state.withLock { $0.tasks[id] = task }
    }
}

/// What one break's resolution produced.
public struct CueResolution: Sendable, Equatable {
    /// The break; `nil` when nothing is to be inserted.
    public var adBreak: AdBreak?
    /// Warnings (AD_NOT_INSERTED) in order and, when ``failed``, the failure last.
    public var notifications: [PlayerNotification]
    /// Whether resolution failed (the last notification says why).
    public var failed: Bool

    /// Creates a resolution.
    public init(adBreak: AdBreak?, notifications: [PlayerNotification], failed: Bool) {
        self.adBreak = adBreak
        self.notifications = notifications
        self.failed = failed
    }

    /// The failure's notification, when resolution failed.
    public var failure: PlayerNotification? { failed ? notifications.last : nil }
}

extension PlacementOpportunity {
    /// The opportunity a pre-roll request answers (id `preroll`, at `contentSeconds`).
    public static func preroll(contentSeconds: Double) -> PlacementOpportunity {
        PlacementOpportunity(id: "preroll", kind: .breakStart, contentSeconds: contentSeconds, durationSeconds: nil,
                             mediaSequence: 0, tag: "PREROLL", rawText: "", attributes: [:])
    }
}

extension DefaultAdResolver: LivePrerollResolver {
    /// The live pre-roll request through ``resolvePreroll(atContentSeconds:delegate:)``; with
    /// pre-rolls off, an answer with no break.
    public func processPreroll(atContentSeconds contentSeconds: Double, delegate: any ContentResolverDelegate) {
        Task {
            if await resolvePreroll(atContentSeconds: contentSeconds, delegate: delegate) == nil {
                delegate.resolver(self, didResolve: .preroll(contentSeconds: contentSeconds), into: [])
            }
        }
    }
}
