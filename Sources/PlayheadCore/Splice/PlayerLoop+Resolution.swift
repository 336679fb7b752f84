import Foundation
import PlayheadHLS
import PlayheadMedia

/// Opportunities to ad breaks: detection on every playlist, resolution (up front for VOD, per cue
/// for live, each within its resolver's timeout), and loading of the ads' playlists.
extension MediaPlayer {
    /// Runs the detectors over the current playlist and sends each new break start or signal (a
    /// custom tag, SCTE35-CMD) to the first resolver that handles it.
    /// VOD resolves before playback starts; live starts a resolution the loop hears back from.
    func detectOpportunities(now: Double) async {
        guard let settings = configuration.ads, let tracker = state.tracker else { return }
        let registered = settings.factory.opportunityDetectors
        let detectors: [any OpportunityDetector] = registered.isEmpty ? [settings.defaultDetector] : registered
        let listed = Array(tracker.segments.suffix(tracker.playlist.segments.count))
        if !tracker.isLive, settings.signalingMode != .manifestCues, !state.seenOpportunities.contains(Self.serverMapID) {
            // VOD: one server-map request before playback; its breaks may be anywhere, pre-roll and post-roll included.
            state.seenOpportunities.insert(Self.serverMapID)
            let request = PlacementOpportunity(id: Self.serverMapID, kind: .serverMap, contentSeconds: 0,
                                               durationSeconds: tracker.segments.last?.endSeconds, mediaSequence: tracker.segments.first?.mediaSequence ?? 0,
                                               tag: "", rawText: "", attributes: [:])
            if let resolver = settings.factory.resolver(for: request) {
                await resolutionFinished(request, await ResolutionRace.run(resolver, request), now: driver.now)
            }
        }
        for detector in detectors {
            for opportunity in detector.detect(segments: listed, dateRanges: tracker.playlist.dateRanges)
            where (opportunity.kind == .breakStart || opportunity.kind == .signal) && !state.seenOpportunities.contains(opportunity.id) {
                state.seenOpportunities.insert(opportunity.id)
                guard let resolver = settings.factory.resolver(for: opportunity) else { continue }
                if tracker.isLive {
                    let box = ResolutionBox(), id = nextTransferID()
                    state.transfers[id] = .resolution(opportunity, box)
                    let virtual = driver.isVirtual
                    await driver.start(id) { _ in
                        let outcome = await ResolutionRace.run(resolver, opportunity)
                        box.outcome = outcome
                        // On the virtual clock an answer costs nothing and a timeout its full length.
                        var cost = 0.0
                        if case .timedOut = outcome, virtual { cost = resolver.timeoutSeconds }
                        return .success(NetworkTransfer(url: "resolver:\(opportunity.id)", effectiveURL: "", status: 200, body: [],
                                                        seconds: cost, firstByteSeconds: 0, bytesOnWire: 0))
                    }
                } else {
                    await resolutionFinished(opportunity, await ResolutionRace.run(resolver, opportunity), now: driver.now)
                }
            }
        }
    }

    /// The id of the server-map request.
    static let serverMapID = "server-map"

    /// Takes in a resolver's answer: breaks join the timeline once their ads' playlists are loaded;
    /// a failure or a timeout is a notification, and content plays on.
    func resolutionFinished(_ opportunity: PlacementOpportunity, _ outcome: ResolutionOutcome, now: Double) async {
        switch outcome {
        case let .failed(notification):
            bus.post(.notification(notification))
        case .timedOut:
            bus.post(.notification(Self.adNotification(.adTimeout, metadata: ["DESCRIPTION": "no answer for opportunity \(opportunity.id) at \(opportunity.contentSeconds) s within the resolver's timeout", "URL": opportunity.rawText], now: now)))
        case let .resolved(breaks):
            for var adBreak in breaks {
                let isLive = state.tracker?.isLive ?? false
                if opportunity.kind != .serverMap, configuration.ads?.replaces(isLive: isLive, atContentSeconds: adBreak.contentSeconds) == true {
                    adBreak.replacedContentSeconds = opportunity.durationSeconds ?? adBreak.durationSeconds
                } else {
                    adBreak.replacedContentSeconds = 0
                }
                // One break per place: a cue the server map already placed (within half a second) adds nothing.
                let placed = state.timeline.breaks.contains { $0.id == adBreak.id || abs($0.contentSeconds - adBreak.contentSeconds) < AdMap.timeToleranceSeconds }
                if placed { continue }
                var assets: [AdAsset] = []
                var ads: [TimelineAd] = []
                for ad in adBreak.ads {
                    if let asset = await loadAdAsset(ad, now: now) {
                        assets.append(asset)
                        ads.append(ad)
                    }
                }
                guard !assets.isEmpty else { continue }
                adBreak.ads = ads
                state.adAssets[adBreak.id] = assets
                state.timeline = state.timeline.withBreak(adBreak)
                bus.post(.timelineChanged(breaks: state.timeline.breaks.count))
            }
        }
    }

    /// Loads an ad's playlist (choosing, from a multivariant one, the rendition nearest the content's
    /// bitrate); nil, with AD_NOT_INSERTED posted, when it cannot be played.
    func loadAdAsset(_ ad: TimelineAd, now: Double) async -> AdAsset? {
        do {
            let first = try await network.fetch(ad.url, range: nil, at: now)
            report.bytesDownloaded += first.body.count
            var media: MediaPlaylist
            var url = first.effectiveURL
            switch try Playlist.parse(data: first.body).playlist {
            case let .media(playlist):
                media = playlist
            case let .multivariant(multivariant):
                guard !multivariant.variants.isEmpty else { throw PlayheadError.unexpectedPlaylist(url: ad.url, detail: "no variants") }
                let target = report.variantBandwidth ?? state.ladder.flatMap { ladder in state.ladderIndex.map { ladder.variants[$0].bandwidth } }
                let variant = Self.adVariant(multivariant.variants, matching: target)
                url = try ResourceURL.resolve(variant.uri, against: first.effectiveURL)
                let second = try await network.fetch(url, range: nil, at: now)
                report.bytesDownloaded += second.body.count
                guard case let .media(playlist) = try Playlist.parse(data: second.body).playlist else {
                    throw PlayheadError.unexpectedPlaylist(url: url, detail: "ad variant is not a media playlist")
                }
                media = playlist
                url = second.effectiveURL
            }
            var options = decoder.options
            options.dump = nil
            return AdAsset(ad: ad, mediaURL: url, tracker: LivePlaylistTracker(first: media, loadedAt: now),
                           decoder: RenditionDecoder(options: options))
        } catch {
            bus.post(.notification(Self.adNotification(.adNotInserted, metadata: ["URL": ad.url, "DESCRIPTION": "ad \(ad.id): \(error)"], now: now)))
            return nil
        }
    }

    /// The ad variant for content playing at `bandwidth`: the highest at or below it, else the
    /// lowest; with no content bitrate known, the first listed.
    static func adVariant(_ variants: [VariantStream], matching bandwidth: Int?) -> VariantStream {
        guard let bandwidth else { return variants[0] }
        let sorted = variants.sorted { $0.bandwidth < $1.bandwidth }
        return sorted.last { $0.bandwidth <= bandwidth } ?? sorted[0]
    }
}
