import PlayheadAds
import PlayheadCore

extension DefaultAdResolver {
    /// The VOD server map: one VMAP request, then each linear break's ads (inline VAST, or its ad tag
    /// URI fetched, wrappers followed), breaks resolved concurrently, each under ``timeoutSeconds``.
    ///
    /// Breaks are placed at their `timeOffset` (`start` → 0, `end` → the content's duration,
    /// `HH:MM:SS`, `n%` of the duration); a break that cannot be placed (`#n` positions, `end` or a
    /// percentage with an unknown duration), a non-linear break, custom ad data, or a break whose ads
    /// all fail is left out — with a warning, or with its failure sent to `delegate` as
    /// `didFail` for that break. A placed break keeps its VMAP tracking (`breakStart`, `breakEnd`); a
    /// break that fails, or is left out for its type, has its VMAP `error` URLs named in an
    /// AD_NOT_INSERTED with the VMAP error code (see ``VMAPErrorCode``), for a tracker to call.
    /// A failure of the VMAP request itself gives no breaks. Outside server-map mode (live, or VOD
    /// with manifest cues) nothing is requested and no break returned.
    public func resolveServerMap(contentDurationSeconds: Double?, delegate: (any ContentResolverDelegate)?) async -> ServerMapResolution {
        guard signalingMode == .serverMap else { return ServerMapResolution(breaks: []) }
        let url = urls.serverMap(contentDurationSeconds: contentDurationSeconds)
        let mapOpportunity = PlacementOpportunity.serverMap(url: url)
        let loader = self.loader
        let fetched = await withDeadline(seconds: timeoutSeconds) { () async -> Result<[UInt8], AdFailure> in
            do throws(AdFailure) { return .success(try await loader.fetch(url, breakId: nil)) } catch { return .failure(error) }
        }
        let map: VMAPDocument
        switch fetched {
        case nil:
            return fail(.adTimeout(url: url, afterSeconds: timeoutSeconds, breakId: nil), mapOpportunity, delegate)
        case let .failure(failure)?:
            return fail(failure.notification, mapOpportunity, delegate)
        case let .success(body)?:
            do {
                map = try VMAPParser.parse(body)
            } catch {
                return fail(.adInsertionFail(description: "unreadable VMAP: \(error)", url: url, vastErrorCode: 100), mapOpportunity, delegate)
            }
        }
        var notifications: [PlayerNotification] = map.warnings.map {
            .adNotInserted(description: "VMAP break dropped: \($0)", url: url)
        }
        guard !map.adBreaks.isEmpty else {
            return fail(.adEmptyResponse(url: url, description: "VMAP holds no ad break"), mapOpportunity, delegate, notifications)
        }
        var planned: [(index: Int, id: String, seconds: Double, source: VMAPAdSource, tracking: [String: [String]])] = []
        var usedIds: Set<String> = []
        for (index, vmapBreak) in map.adBreaks.enumerated() {
            var id = vmapBreak.breakId ?? "break-\(index + 1)"
            if usedIds.contains(id) { id += "#\(index + 1)" }
            usedIds.insert(id)
            let why: String?
            if !vmapBreak.breakTypes.isEmpty, !vmapBreak.breakTypes.contains("linear") {
                why = "break type \(vmapBreak.breakTypes.joined(separator: ",")) is not linear"
            } else if vmapBreak.timeOffset.seconds(contentDurationSeconds: contentDurationSeconds) == nil {
                if case .position = vmapBreak.timeOffset {
                    why = "timeOffset #n needs cue positions, which a server map does not have"
                } else {
                    why = "timeOffset needs the content's duration, which is unknown"
                }
            } else if vmapBreak.adSource == nil {
                why = "no ad source"
            } else {
                why = nil
            }
            if let why {
                // VMAP 1003 (break type not supported) goes to the break's error URLs; a break that cannot
                // be placed has no VMAP code, so only the warning.
                let unsupported = !vmapBreak.breakTypes.isEmpty && !vmapBreak.breakTypes.contains("linear")
                let errorURLs = unsupported ? vmapBreak.trackingEvents.urlsByEvent["error"] ?? [] : []
                notifications.append(.adNotInserted(description: "VMAP break \(id) left out: \(why)", breakId: id, url: url,
                                                    vastErrorCode: errorURLs.isEmpty ? nil : VMAPErrorCode.breakTypeNotSupported,
                                                    errorURLs: errorURLs))
                continue
            }
            let seconds = vmapBreak.timeOffset.seconds(contentDurationSeconds: contentDurationSeconds) ?? 0
            planned.append((index, id, seconds, vmapBreak.adSource!, vmapBreak.trackingEvents.urlsByEvent))
        }
        for note in notifications { delegate.map { $0.resolver(self, didWarn: mapOpportunity, with: note) } }
        let outcomes = await withTaskGroup(of: (Int, PlacementOpportunity, CueResolution).self) { group in
            for plan in planned {
                group.addTask {
                    let opportunity = PlacementOpportunity(
                        id: plan.id, kind: .breakStart, contentSeconds: plan.seconds, durationSeconds: nil, mediaSequence: 0,
                        tag: "VMAP", rawText: url, attributes: ["breakId": plan.id])
                    var outcome = await self.resolveMapBreak(plan.source, id: plan.id, seconds: plan.seconds, mapURL: url)
                    outcome.adBreak?.trackingEvents = plan.tracking
                    if outcome.failed, let failure = outcome.notifications.last, let errorURLs = plan.tracking["error"], !errorURLs.isEmpty {
                        let code = VMAPErrorCode.forFailure(failure, source: plan.source)
                        let note = PlayerNotification.adNotInserted(
                            description: "VMAP break \(plan.id) failed (VMAP error \(code)): \(failure[.description] ?? failure.name)",
                            breakId: plan.id, url: url, vastErrorCode: code, errorURLs: errorURLs)
                        outcome.notifications.insert(note, at: outcome.notifications.count - 1)
                    }
                    return (plan.index, opportunity, outcome)
                }
            }
            var all: [(Int, PlacementOpportunity, CueResolution)] = []
            for await outcome in group { all.append(outcome) }
            return all.sorted { $0.0 < $1.0 }
        }
        var breaks: [AdBreak] = []
        for (_, opportunity, outcome) in outcomes {
            notifications += outcome.notifications
            if let delegate { deliver(outcome, for: opportunity, to: delegate) }
            if let adBreak = outcome.adBreak { breaks.append(adBreak) }
        }
        return ServerMapResolution(breaks: breaks.sorted { $0.contentSeconds < $1.contentSeconds }, notifications: notifications)
    }

    /// One VMAP break's ads: its inline VAST or its ad tag URI, under the deadline; inserted (no content replaced).
    private func resolveMapBreak(_ source: VMAPAdSource, id: String, seconds: Double, mapURL: String) async -> CueResolution {
        switch source.content {
        case let .adTagURI(tag, _):
            return await resolveBreak(url: TimelineAd.absolute(tag, base: mapURL), id: id, contentSeconds: seconds,
                                      fillSeconds: nil, replacesContent: false, followRedirects: source.followRedirects ?? true)
        case let .vastAdData(document):
            let loader = self.loader
            let follow = source.followRedirects ?? true
            let result = await withDeadline(seconds: timeoutSeconds) { () async -> Result<BreakAds, AdFailure> in
                do throws(AdFailure) {
                    return .success(try await loader.load(document: document, sourceURL: mapURL, breakId: id, followRedirects: follow))
                } catch { return .failure(error) }
            }
            switch result {
            case nil: return CueResolution(adBreak: nil, notifications: [.adTimeout(url: mapURL, afterSeconds: timeoutSeconds, breakId: id)], failed: true)
            case let .failure(failure)?: return CueResolution(adBreak: nil, notifications: failure.notifications, failed: true)
            case let .success(found)?:
                return CueResolution(adBreak: AdBreak(id: id, contentSeconds: seconds, ads: found.ads), notifications: found.warnings, failed: false)
            }
        case .customAdData:
            return CueResolution(adBreak: nil, notifications: [
                .adInsertionFail(description: "VMAP break \(id): custom ad data is not supported", url: mapURL, breakId: id, vastErrorCode: 100)
            ], failed: true)
        }
    }

    private func fail(_ notification: PlayerNotification, _ opportunity: PlacementOpportunity, _ delegate: (any ContentResolverDelegate)?,
                      _ earlier: [PlayerNotification] = []) -> ServerMapResolution {
        delegate?.resolver(self, didFail: opportunity, with: notification)
        return ServerMapResolution(breaks: [], notifications: earlier + [notification])
    }
}
