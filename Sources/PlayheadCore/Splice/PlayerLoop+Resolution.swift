import Foundation
import PlayheadHLS
import PlayheadMedia

/// Opportunities to ad breaks: detection on every playlist, resolution (up front for VOD, per cue
/// for live, each within its resolver's timeout), and loading of the ads' playlists.
extension MediaPlayer {
    /// Runs the detectors over the current playlist and sends each new break start or signal (a
    /// custom tag, SCTE35-CMD) to the first resolver that handles it. VOD resolves before playback
    /// starts (the server map first, in the default and server-map modes); live starts a resolution
    /// the loop hears back from, and asks once for a pre-roll at the join point.
    func detectOpportunities(now: Double) async {
        guard let settings = configuration.ads, let tracker = state.tracker else { return }
        let mode = settings.signalingMode.effective(isLive: tracker.isLive)
        if !state.seenOpportunities.contains(Self.serverMapID) {
            state.seenOpportunities.insert(Self.serverMapID)
            let join = tracker.isLive ? (configuration.startSeconds ?? tracker.startPosition().seconds) : nil
            if tracker.isLive, settings.signalingMode == .serverMap {
                // The PSDK's table: a server map is for VOD; live places breaks at the cues. Said, not silent.
                bus.post(.custom(name: "adSignalingModeUnsupported", payload: [
                    "mode": "serverMap", "reason": "a server map is for VOD; this live stream places breaks at its cues (manifestCues)",
                ]))
            }
            for resolver in settings.factory.contentResolvers { resolver.prepare(isLive: tracker.isLive, joinPointSeconds: join) }
            if !tracker.isLive, mode == .serverMap, let resolver = settings.factory.serverMapResolver {
                let resolution = await resolver.resolveServerMap(contentDurationSeconds: tracker.segments.last?.endSeconds, delegate: nil)
                for notification in resolution.notifications { bus.post(.notification(notification)) }
                let request = PlacementOpportunity(id: Self.serverMapID, kind: .serverMap, contentSeconds: 0, durationSeconds: nil,
                                                   mediaSequence: 0, tag: "VMAP", rawText: "", attributes: [:])
                await resolutionFinished(request, (.resolved(resolution.breaks), []), now: driver.now)
            } else if tracker.isLive, let resolver = settings.factory.livePrerollResolver {
                // The join point: where playback of this live stream starts.
                let join = configuration.startSeconds ?? tracker.startPosition().seconds
                let request = PlacementOpportunity(id: Self.prerollID, kind: .breakStart, contentSeconds: join, durationSeconds: nil,
                                                   mediaSequence: 0, tag: "PREROLL", rawText: "", attributes: [:])
                let race = ResolutionRace()
                let outcome = await race.run(timeout: resolver.timeoutSeconds, cancel: { resolver.cancel() }) { race in
                    resolver.processPreroll(atContentSeconds: join, delegate: race)
                }
                chargeInlineTimeout(outcome, resolver)
                await resolutionFinished(request, (outcome, race.warnings), now: driver.now)
            }
        }
        let registered = settings.factory.opportunityDetectors
        let detectors: [any OpportunityDetector] = registered.isEmpty ? [settings.defaultDetector] : registered
        let listed = Array(tracker.segments.suffix(tracker.playlist.segments.count))
        for detector in detectors {
            for opportunity in detector.detect(segments: listed, dateRanges: tracker.playlist.dateRanges)
            where (opportunity.kind == .breakStart || opportunity.kind == .signal) && !state.seenOpportunities.contains(opportunity.id) {
                state.seenOpportunities.insert(opportunity.id)
                guard let resolver = settings.factory.resolver(for: opportunity) else { continue }
                if tracker.isLive {
                    let box = ResolutionBox(), id = nextTransferID()
                    state.transfers[id] = .resolution(opportunity, box)
                    let virtual = driver.isVirtual
                    let network = self.network, contentBitrate = report.variantBandwidth
                    await driver.start(id) { startedAt in
                        let result = await ResolutionRace.run(resolver, opportunity)
                        // The ads' playlists are fetched here, off the loop: on the real clock a slow ad
                        // server would otherwise hold up the loop turn that takes the answer in.
                        // On the virtual clock an answer costs nothing, a timeout its full length, and the
                        // ads' playlists what the network says their fetches took, one after the other.
                        var cost = 0.0
                        if case .timedOut = result.0, virtual { cost = resolver.timeoutSeconds }
                        if case let .resolved(breaks) = result.0 {
                            // In the order the answer lists them (a Set's order changes from run to run).
                            var seen = Set<String>()
                            for url in breaks.flatMap({ $0.ads.map(\.url) }) where seen.insert(url).inserted {
                                let fetched = await Self.fetchedAdPlaylists(url, network: network, contentBitsPerSecond: contentBitrate,
                                                                            at: startedAt + cost)
                                if virtual { cost += fetched.fetchSeconds }
                                box.setPlaylists(fetched, for: url)
                            }
                        }
                        box.result = result
                        return .success(NetworkTransfer(url: "resolver:\(opportunity.id)", effectiveURL: "", status: 200, body: [],
                                                        seconds: cost, firstByteSeconds: 0, bytesOnWire: 0))
                    }
                } else {
                    let result = await ResolutionRace.run(resolver, opportunity)
                    chargeInlineTimeout(result.0, resolver)
                    await resolutionFinished(opportunity, result, now: driver.now)
                }
            }
        }
    }

    /// A resolution awaited in line (a VOD's cues, a live pre-roll) that timed out cost the virtual
    /// clock its full timeout, as a live break's does; an answer costs nothing.
    private func chargeInlineTimeout(_ outcome: ResolutionOutcome, _ resolver: any ContentResolver) {
        if case .timedOut = outcome { driver.advance(by: resolver.timeoutSeconds) }
    }

    /// The id of the server-map request.
    static let serverMapID = "server-map"
    /// The id of the live pre-roll request.
    static let prerollID = "preroll"

    /// Takes in a resolver's answer: breaks join the timeline once their ads' playlists are loaded (or
    /// taken from `prefetched`, by ad URL) and pass the ad checks; a failure or a timeout is a
    /// notification, and content plays on.
    func resolutionFinished(_ opportunity: PlacementOpportunity, _ result: (ResolutionOutcome, [PlayerNotification]),
                            prefetched: [String: Result<AdPlaylists, any Error>] = [:], now: Double) async {
        for warning in result.1 { bus.post(.notification(warning)) }
        switch result.0 {
        case let .failed(notification):
            bus.post(.notification(notification))
        case .timedOut:
            bus.post(.notification(Self.adNotification(.adTimeout, metadata: ["DESCRIPTION": "no answer for opportunity \(opportunity.id) at \(opportunity.contentSeconds) s within the resolver's timeout", "URL": opportunity.rawText], now: now)))
        case let .resolved(breaks):
            for var adBreak in breaks {
                let isLive = state.tracker?.isLive ?? false
                // A VOD break placed after the content's end (an ad schedule made for a longer edit) is the
                // post-roll: waited for, it had the clock run on from the end with nothing presented.
                if !isLive, let end = state.tracker?.segments.last?.endSeconds, adBreak.contentSeconds > end {
                    bus.post(.custom(name: "adBreakMoved", payload: [
                        "breakId": adBreak.id, "fromSeconds": String(format: "%g", adBreak.contentSeconds), "toSeconds": String(format: "%g", end),
                        "reason": String(format: "the break at %g s is after the content's end (%g s): it plays as the post-roll", adBreak.contentSeconds, end),
                    ]))
                    adBreak.contentSeconds = end
                }
                let inserted = opportunity.kind == .serverMap || opportunity.id == Self.prerollID
                if !inserted, configuration.ads?.replaces(isLive: isLive, atContentSeconds: adBreak.contentSeconds) == true {
                    adBreak.replacedContentSeconds = opportunity.durationSeconds ?? adBreak.durationSeconds
                } else {
                    adBreak.replacedContentSeconds = 0
                }
                // One break per place: a cue the server map already placed (within half a second) adds nothing.
                // Two breaks of one answer at one place (a break moved to the post-roll where there is one, or
                // two map entries at one time) make one break with the ads of both, in order: the second was lost.
                let same = state.timeline.breaks.first { $0.id != adBreak.id && abs($0.contentSeconds - adBreak.contentSeconds) < AdMap.timeToleranceSeconds }
                if let same, state.breakOrigins[same.id] == opportunity.id, !state.breaksDone.contains(same.id) {
                    await mergeAds(of: adBreak, into: same, prefetched: prefetched)
                    continue
                }
                let placed = same != nil || state.timeline.breaks.contains { $0.id == adBreak.id }
                if placed { continue }
                state.breakOrigins[adBreak.id] = opportunity.id
                let (assets, ads) = await loadAdAssets(adBreak.ads, breakId: adBreak.id, prefetched: prefetched)
                guard !assets.isEmpty else {
                    breakLeftWithoutAds(adBreak)
                    continue
                }
                adBreak.ads = ads
                state.adAssets[adBreak.id] = assets
                state.timeline = state.timeline.withBreak(adBreak)
                postTimelineChanged()
            }
        }
    }

    /// VMAP 1004 (a general error in the ad response: no ad left to play), as the resolver gives it for a break
    /// none of whose ads it could take.
    static let vmapNoAdLeftErrorCode = 1004

    /// A break none of whose ads could be loaded never reaches the timeline: its VMAP `error` URLs fire with
    /// 1004, as for a break the resolver could take no ad of (a break whose only ad playlist was a 404 fired the
    /// ad's error URL alone, while one with an MP4-only ad fired the break's too).
    private func breakLeftWithoutAds(_ adBreak: AdBreak) {
        guard let errorURLs = adBreak.trackingEvents["error"], !errorURLs.isEmpty else { return }
        bus.post(.notification(.adNotInserted(
            description: "VMAP break \(adBreak.id) failed (VMAP error \(Self.vmapNoAdLeftErrorCode)): none of its \(adBreak.ads.count) ads could be played",
            breakId: adBreak.id, vastErrorCode: Self.vmapNoAdLeftErrorCode, errorURLs: errorURLs)))
    }

    /// Adds the ads of `adBreak` at the end of `existing` (a break of the same answer at the same place),
    /// said in an `adBreakMerged` event.
    private func mergeAds(of adBreak: AdBreak, into existing: AdBreak, prefetched: [String: Result<AdPlaylists, any Error>]) async {
        let (assets, added) = await loadAdAssets(adBreak.ads, breakId: existing.id, prefetched: prefetched)
        guard !added.isEmpty else { return }
        state.adAssets[existing.id, default: []] += assets
        state.timeline = state.timeline.addingAds(added, toBreak: existing.id)
        bus.post(.custom(name: "adBreakMerged", payload: [
            "breakId": adBreak.id, "into": existing.id, "ads": String(added.count),
            "reason": String(format: "a break of the same answer is already at %g s: its ads play after that break's", existing.contentSeconds),
        ]))
        postTimelineChanged()
    }

    /// The ads of a break that can be played, each with its asset (the others said, as ``loadAdAsset``
    /// does) and its duration taken from its media when the declared one is off.
    private func loadAdAssets(_ ads: [TimelineAd], breakId: String, prefetched: [String: Result<AdPlaylists, any Error>]) async
        -> (assets: [AdAsset], ads: [TimelineAd]) {
        var assets: [AdAsset] = [], kept: [TimelineAd] = []
        for var ad in ads {
            guard let asset = await loadAdAsset(ad, breakId: breakId, prefetched: prefetched[ad.url]) else { continue }
            takeMediaDuration(of: asset, into: &ad, breakId: breakId)
            assets.append(asset)
            kept.append(ad)
        }
        return (assets, kept)
    }

    /// An ad takes its media playlist's duration in place of its declared one (VAST `<Duration>`, an ad map's
    /// `duration`): its quartiles and progress are fractions of what plays (a 10 s creative declared 5 s had its
    /// midpoint at 2.5 s, a quarter of the way in), and of the same duration in every break. Within half a second
    /// the declared one was kept until the ad's last segment was in, so one play mixed both (declared 10.4 s for
    /// 10 s: first quartile at 2.6 s, midpoint at 5 s), and a post-roll, loaded before it began, had other times.
    /// More than half a second off is said in an `adDurationMismatch` event.
    private func takeMediaDuration(of asset: AdAsset, into ad: inout TimelineAd, breakId: String) {
        guard let first = asset.tracker.segments.first, let last = asset.tracker.segments.last else { return }
        let media = last.endSeconds - first.startSeconds
        guard media > 0 else { return }
        defer { ad.durationSeconds = media }
        guard abs(media - ad.durationSeconds) > 0.5 else { return }
        bus.post(.custom(name: "adDurationMismatch", payload: [
            "breakId": breakId, "adId": ad.id, "url": asset.mediaURL,
            "declaredSeconds": String(format: "%g", ad.durationSeconds), "mediaSeconds": String(format: "%g", media),
        ]))
    }

    /// Loads an ad's playlists (or takes those `prefetched` off the loop): from a multivariant one, the
    /// rendition matching the content's bitrate; then the PSDK's advertising requirements (HLS version,
    /// target duration, audio-only stream, matching bitrate). Nil, with the notifications posted (nested
    /// under AD_NOT_INSERTED), when the ad cannot be played.
    func loadAdAsset(_ ad: TimelineAd, breakId: String, prefetched: Result<AdPlaylists, any Error>? = nil) async -> AdAsset? {
        do {
            let fetched: AdPlaylists
            if let prefetched {
                fetched = try prefetched.get()
            } else {
                // Fetched in line (a VOD's breaks before playback, a live pre-roll at the join): the
                // virtual clock charges what the fetches took, as a live break's transfer does.
                let result = await Self.fetchedAdPlaylists(ad.url, network: network, contentBitsPerSecond: report.variantBandwidth,
                                                           at: driver.now)
                driver.advance(by: result.fetchSeconds)
                fetched = try result.get()
            }
            report.bytesDownloaded += fetched.bytes
            if let content = state.contentProfile {
                let adProfile = HLSStreamProfile(playlist: fetched.top, mediaPlaylists: [fetched.media], url: fetched.topURL)
                let checked = AdRequirements.check(ad: adProfile, content: content, contentBitsPerSecond: report.variantBandwidth,
                                                   breakId: breakId, adId: ad.id)
                if !checked.canInsert {
                    for var notification in checked.notifications {
                        // The ad is not on the timeline: its VAST error URLs travel in the notification
                        // (a rejected ad, VAST 403, called none).
                        if notification[.vastErrorCode] != nil, notification[.errorURLs] == nil, !ad.errorURLs.isEmpty {
                            notification[.errorURLs] = ad.errorURLs.joined(separator: "\n")
                        }
                        bus.post(.notification(notification))
                    }
                    return nil
                }
            }
            // The same options as the content's, the dump sink included: the presented ad frames are dumped
            // too (they were left out, so --dump held the content alone while framemd5 had the ads).
            let asset = AdAsset(ad: ad, playlists: fetched, options: decoder.options, loadedAt: driver.now)
            if case let .multivariant(multivariant) = fetched.top {
                // An ad whose audio is a rendition of its own: ads are played from their variant's playlist
                // alone, so it plays without that audio. Said, and counted as media missing.
                let groups = Set(multivariant.variants.compactMap(\.audio))
                if multivariant.media.contains(where: { $0.type == .audio && $0.uri != nil && groups.contains($0.groupId) }) {
                    let issue = "ad \(ad.id) (\(ad.url)): its audio is an AUDIO rendition of its own, which ads do not play yet: the ad plays without audio"
                    report.damage.append(issue)
                    bus.post(.custom(name: "adAudioNotPlayed", payload: ["breakId": breakId, "adId": ad.id, "url": ad.url, "description": issue]))
                }
            }
            return asset
        } catch {
            if let failure = error as? AdPlaylistFailure { report.bytesDownloaded += failure.bytes }
            // The ad's VAST error URLs fire with the code (the ad is not on the timeline, so they travel
            // in the notification); a media file that could not be loaded fired none.
            bus.post(.notification(.adNotInserted(description: "ad \(ad.id): \(error)", breakId: breakId, adId: ad.id, url: ad.url,
                                                  vastErrorCode: Self.vastErrorCode(forMediaFailure: error), errorURLs: ad.errorURLs)))
            return nil
        }
    }

    /// The VAST error code of an ad whose HLS media could not be loaded: 401 (file not found) for
    /// 404 and 410, 402 (timeout of the media file URI) for a timeout, else 405 (problem displaying it).
    static func vastErrorCode(forMediaFailure error: any Error) -> Int {
        let underlying = (error as? AdPlaylistFailure)?.underlying ?? error
        guard case let .network(http)? = underlying as? PlayheadError else { return 405 }
        switch http {
        case let .status(_, code, _) where code == 404 || code == 410: return 401
        case .timeout: return 402
        default: return 405
        }
    }

    /// ``fetchAdPlaylists(_:network:contentBitsPerSecond:at:)`` as a result: a failure still carries what
    /// the fetches cost (``Result/fetchSeconds``), for the virtual clock to charge.
    static func fetchedAdPlaylists(_ adURL: String, network: any PlayerNetwork, contentBitsPerSecond: Int?,
                                   at sessionSeconds: Double) async -> Result<AdPlaylists, any Error> {
        do {
            return .success(try await fetchAdPlaylists(adURL, network: network, contentBitsPerSecond: contentBitsPerSecond, at: sessionSeconds))
        } catch { return .failure(error) }
    }

    /// Fetches an ad's playlist and, for a multivariant one, the media playlist of the rendition that
    /// matches content playing at `contentBitsPerSecond`. Needs nothing of the loop's state, so a live
    /// resolution runs it off the loop.
    static func fetchAdPlaylists(_ adURL: String, network: any PlayerNetwork, contentBitsPerSecond: Int?,
                                 at sessionSeconds: Double) async throws -> AdPlaylists {
        var bytes = 0, seconds = 0.0
        do {
            let first = try await network.fetch(adURL, range: nil, at: sessionSeconds)
            bytes += first.body.count
            seconds += first.seconds
            let parsed = try Playlist.parse(data: first.body, sources: VariableSources(playlistURL: adURL, imported: [:])).playlist
            switch parsed {
            case let .media(playlist):
                return AdPlaylists(top: parsed, topURL: first.effectiveURL, media: playlist, mediaURL: first.effectiveURL,
                                   bytes: bytes, seconds: seconds)
            case let .multivariant(multivariant):
                guard !multivariant.variants.isEmpty else { throw PlayheadError.unexpectedPlaylist(url: adURL, detail: "no variants") }
                // Every rendition, the chosen one first (its failure is the ad's; another's only leaves it out):
                // the break plays the one matching the content's rung when it starts.
                func rendition(_ variant: VariantStream) async throws -> AdRendition {
                    let url = try ResourceURL.resolve(variant.uri, against: first.effectiveURL)
                    let fetched = try await network.fetch(url, range: nil, at: sessionSeconds + seconds)
                    bytes += fetched.body.count
                    seconds += fetched.seconds
                    let sources = VariableSources(playlistURL: url, imported: multivariant.variableValues)
                    guard case let .media(media) = try Playlist.parse(data: fetched.body, sources: sources).playlist else {
                        throw PlayheadError.unexpectedPlaylist(url: url, detail: "ad variant is not a media playlist")
                    }
                    return AdRendition(variant: variant, url: fetched.effectiveURL, media: media)
                }
                let chosen = try await rendition(chooseAdVariant(multivariant, contentBitsPerSecond: contentBitsPerSecond))
                var renditions = [chosen]
                for other in multivariant.variants where other.uri != chosen.variant.uri {
                    if let more = try? await rendition(other) { renditions.append(more) }
                }
                return AdPlaylists(top: parsed, topURL: first.effectiveURL, media: chosen.media, mediaURL: chosen.url,
                                   renditions: renditions, bytes: bytes, seconds: seconds)
            }
        } catch {
            throw AdPlaylistFailure(underlying: error, bytes: bytes, seconds: seconds)
        }
    }

    /// The variant of a multivariant ad for content playing at `contentBitsPerSecond`: the PSDK's matching
    /// video variant (within its tolerance), else ``adVariant(_:matching:)``. Chosen at load and again as
    /// the break starts (``AdAsset/matchRendition(contentBitsPerSecond:at:)``).
    static func chooseAdVariant(_ multivariant: MultivariantPlaylist, contentBitsPerSecond: Int?) -> VariantStream {
        let profile = HLSStreamProfile(multivariant: multivariant, mediaPlaylists: [])
        return contentBitsPerSecond.flatMap { AdRequirements.matchingVariant(ad: profile, contentBitsPerSecond: $0) }
            ?? adVariant(multivariant.variants, matching: contentBitsPerSecond)
    }

    /// The ad variant for content playing at `bandwidth`: the highest at or below it, else the
    /// lowest; with no content bitrate known, the first listed.
    static func adVariant(_ variants: [VariantStream], matching bandwidth: Int?) -> VariantStream {
        guard let bandwidth else { return variants[0] }
        let sorted = variants.sorted { $0.bandwidth < $1.bandwidth }
        return sorted.last { $0.bandwidth <= bandwidth } ?? sorted[0]
    }
}

/// An ad's playlists as fetched: the one its URL names and the media playlist to play.
struct AdPlaylists: Sendable {
    /// The playlist at the ad's URL (multivariant or media).
    var top: Playlist
    /// Its URL after redirects.
    var topURL: String
    /// The media playlist played (`top` itself when that is one).
    var media: MediaPlaylist
    /// Its URL after redirects.
    var mediaURL: String
    /// Every rendition of a multivariant ad (the one in `media` among them); empty for a media playlist.
    var renditions: [AdRendition] = []
    /// Bytes fetched for both.
    var bytes: Int
    /// Seconds the fetches took, as the network reports them.
    var seconds: Double
}

/// An ad's playlists could not be used; carries what fetching them cost before the failure.
struct AdPlaylistFailure: Error, CustomStringConvertible {
    /// The fetch or parse error.
    var underlying: any Error
    /// Bytes fetched before it.
    var bytes: Int
    /// Seconds the fetches before it took.
    var seconds: Double
    /// The underlying error's text, so notifications read as before.
    var description: String { "\(underlying)" }
}

extension Result<AdPlaylists, any Error> {
    /// Seconds the fetches took, whether or not the playlists could be used.
    var fetchSeconds: Double {
        switch self {
        case let .success(playlists): playlists.seconds
        case let .failure(error): (error as? AdPlaylistFailure)?.seconds ?? 0
        }
    }
}
