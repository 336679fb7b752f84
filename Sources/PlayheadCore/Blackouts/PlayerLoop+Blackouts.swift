import PlayheadHLS
import PlayheadMedia

/// Blackouts in the player loop.
///
/// A blackout is a replacement break on the timeline (`blackout:<id>`) whose "ads" are the alternate
/// content, played from its start, again and again, until the end tag. While the end tag has not come
/// the blackout is open: each reload of the main playlist (watched in the background) lets it run to
/// the end of what that playlist lists, and the alternate content is never loaded past that point, since
/// the end may be signalled at any segment still to come. The end tag closes it there, and the main
/// content resumes, frame-exact, at the end tag's segment. A blackout whose both tags are in the playlist
/// is a non-seekable range: a seek into it lands at its end. Ad events and beacons are not posted for
/// it; `blackoutStarted` and `blackoutEnded` are, at the first alternate frame and at the first main
/// frame after.
extension MediaPlayer {
    /// Whether break `breakId` is a blackout's.
    func isBlackout(_ breakId: String) -> Bool { state.blackoutIndex[breakId] != nil }

    /// The break id of blackout `id`.
    static func blackoutBreakID(_ id: String) -> String { AdBreak.blackoutPrefix + id }

    /// Fetches the alternate content's playlists once, at load, in line (the virtual clock charges their
    /// fetch). A failure is said (a warning) and blackouts then leave the main content on.
    func loadAlternateContent() async {
        guard let settings = configuration.blackout, state.alternate == nil, state.alternateFailure == nil else { return }
        let result = await Self.fetchedAdPlaylists(settings.alternateURL, network: network, contentBitsPerSecond: report.variantBandwidth,
                                                   at: driver.now)
        driver.advance(by: result.fetchSeconds)
        switch result {
        case let .success(playlists):
            report.bytesDownloaded += playlists.bytes
            if !playlists.media.endList || playlists.media.segments.isEmpty {
                alternateFailed("the alternate content \(playlists.mediaURL) is \(playlists.media.segments.isEmpty ? "empty" : "a live playlist (no EXT-X-ENDLIST)"): blackouts need a VOD playlist to play in their place")
                return
            }
            state.alternate = playlists
        case let .failure(error):
            if let failure = error as? AdPlaylistFailure { report.bytesDownloaded += failure.bytes }
            alternateFailed("the alternate content \(settings.alternateURL) could not be loaded: \(error)")
        }
    }

    private func alternateFailed(_ description: String) {
        state.alternateFailure = description
        report.damage.append(description)
        notify(.networkError, metadata: ["URL": configuration.blackout?.alternateURL ?? "", "DESCRIPTION": description], now: driver.now)
    }

    /// Reads the blackout tags of the segments `tracker` lists now (its last `listed`), once each: a start
    /// opens a blackout, an end closes the open one; then an open blackout runs on to the end of what the
    /// playlist lists (or to its end, once it has ended). `atLoad`: the first load (a blackout whose both
    /// tags are there is a non-seekable range of the DVR window).
    func updateBlackouts(_ tracker: LivePlaylistTracker, listed: Int, atLoad: Bool = false, now: Double) {
        // Not before the alternate was tried at load (a first ABR choice reads the playlist before that).
        guard let settings = configuration.blackout, state.alternate != nil || state.alternateFailure != nil else { return }
        if let open = state.openBlackout, !atLoad, let index = state.blackoutIndex[open] { report.blackouts[index].backgroundReloads += 1 }
        let name = String(settings.tag.dropFirst())
        for tracked in tracker.segments.suffix(listed) {
            for tag in tracked.segment.tags where tag.name == name {
                let value = tag.value ?? ""
                guard state.blackoutTagsSeen.insert("\(tracked.mediaSequence)\n\(value)").inserted else { continue }
                let fallback = "\(settings.tag)@\(tracked.mediaSequence)"
                switch BlackoutSignal.read(value, fallbackID: fallback) {
                case let .start(id)?:
                    openBlackout(id: id, at: tracked, now: now)
                case let .end(id)?:
                    closeBlackout(id: id, atSeconds: tracked.startSeconds, mediaSequence: tracked.mediaSequence, atLoad: atLoad, now: now)
                case nil:
                    bus.post(.custom(name: "blackoutTagIgnored", payload: [
                        "tag": settings.tag, "value": value, "mediaSequence": String(tracked.mediaSequence),
                        "reason": "neither START nor END (alone, or as TYPE=), nor an SCTE-35 cue that starts or ends a blackout",
                    ]))
                }
            }
        }
        guard let open = state.openBlackout, let last = tracker.segments.last else { return }
        if tracker.endListSeen {
            // The main content ended inside the blackout: it ends with it.
            closeBlackout(id: nil, atSeconds: last.endSeconds, mediaSequence: nil, atLoad: atLoad, now: now)
        } else {
            setBlackoutEnd(open, to: last.endSeconds)
        }
    }

    private func openBlackout(id: String, at tracked: TrackedSegment, now: Double) {
        guard let settings = configuration.blackout else { return }
        if let open = state.openBlackout {
            bus.post(.custom(name: "blackoutTagIgnored", payload: [
                "tag": settings.tag, "mediaSequence": String(tracked.mediaSequence),
                "reason": "blackout \(id) starts while \(open) is still open: it is part of that one",
            ]))
            return
        }
        // An id used by an earlier blackout (ended) names a new one: `id#2`, … as timed metadata ids are made unique.
        let id = TimedMetadata.unique(id, in: &state.blackoutIDs)
        let breakId = Self.blackoutBreakID(id)
        report.blackouts.append(BlackoutRecord(id: id, startSeconds: tracked.startSeconds, startMediaSequence: tracked.mediaSequence,
                                               alternateURL: settings.alternateURL))
        state.blackoutIndex[breakId] = report.blackouts.count - 1
        state.openBlackout = breakId
        bus.post(.custom(name: "blackoutDetected", payload: [
            "id": id, "startSeconds": String(format: "%g", tracked.startSeconds), "mediaSequence": String(tracked.mediaSequence),
        ]))
        // Without alternate content (said at load, as damage) the blackout is only recorded: the main content plays
        // on, and the blackout says so as a play of the alternate that gave no media does (it said nothing).
        if state.alternate == nil, let failure = state.alternateFailure {
            bus.post(.custom(name: "blackoutAlternateFailed", payload: [
                "id": id, "contentSeconds": String(format: "%g", tracked.startSeconds),
                "description": "blackout \(id): \(failure); the main content plays on",
            ]))
        }
        guard state.alternate != nil, let asset = makeAlternateAsset(breakId: breakId, loop: 0) else { return }
        // Watched from the start: the ad policy neither plays it again after a seek over it nor holds a seek for it.
        let adBreak = AdBreak(id: breakId, contentSeconds: tracked.startSeconds, ads: [asset.ad],
                              replacedContentSeconds: max(0, tracked.endSeconds - tracked.startSeconds), watched: true)
        state.adAssets[breakId] = [asset]
        state.timeline = state.timeline.withBreak(adBreak).balancingLastAd(ofBreak: breakId)
        postTimelineChanged()
        dropAdBreaksInside(breakId)
    }

    private func closeBlackout(id: String?, atSeconds seconds: Double, mediaSequence: Int?, atLoad: Bool, now: Double) {
        guard let open = state.openBlackout, let index = state.blackoutIndex[open] else {
            if mediaSequence != nil, let settings = configuration.blackout {
                bus.post(.custom(name: "blackoutTagIgnored", payload: [
                    "tag": settings.tag, "mediaSequence": String(mediaSequence ?? -1), "reason": "an end with no blackout open",
                ]))
            }
            return
        }
        // An end names the blackout by the id its start gave (a reused id was made `id#2` here).
        if let id, id != report.blackouts[index].id, !report.blackouts[index].id.hasPrefix(id + "#") {
            bus.post(.custom(name: "blackoutTagIgnored", payload: [
                "tag": configuration.blackout?.tag ?? "", "mediaSequence": String(mediaSequence ?? -1),
                "reason": "the end of blackout \(id), while \(report.blackouts[index].id) is open",
            ]))
            return
        }
        state.openBlackout = nil
        report.blackouts[index].endSeconds = seconds
        report.blackouts[index].endMediaSequence = mediaSequence
        report.blackouts[index].knownAtLoad = atLoad
        setBlackoutEnd(open, to: seconds)
        bus.post(.custom(name: "blackoutEndDetected", payload: [
            "id": report.blackouts[index].id, "endSeconds": String(format: "%g", seconds),
        ]))
        // Loading waits at the old end (the alternate content reached what the playlist listed): it goes on
        // to the new one, or back to the main content now.
        if let cursor = state.adCursor, cursor.breakId == open { finishBlackoutLoadingIfDone(cursor, now: now) }
    }

    /// Moves the end of blackout break `breakId` to content seconds `seconds` (never before what the
    /// alternate content has loaded, which the loop keeps within the listed main content).
    private func setBlackoutEnd(_ breakId: String, to seconds: Double) {
        guard !state.blackoutsAbandoned.contains(breakId), let adBreak = state.timeline.breaks.first(where: { $0.id == breakId }) else { return }
        let replaced = max(0, seconds - adBreak.contentSeconds)
        guard abs(replaced - adBreak.replacedContentSeconds) > 1e-9 else { return }
        state.timeline = state.timeline.settingReplacedSeconds(replaced, breakId: breakId).balancingLastAd(ofBreak: breakId)
        if let index = state.boundaryIndex[breakId] {
            report.adBoundaries[index].replacedContentSeconds = replaced
            report.adBoundaries[index].resumeContentSeconds = adBreak.contentSeconds + replaced
        }
        postTimelineChanged()
        dropAdBreaksInside(breakId)
    }

    /// A new play of the alternate content for blackout break `breakId` (loop `loop`, from 0).
    private func makeAlternateAsset(breakId: String, loop: Int) -> AdAsset? {
        guard let alternate = state.alternate, let index = state.blackoutIndex[breakId] else { return nil }
        let record = report.blackouts[index]
        let duration = (alternate.media.segments.reduce(0.0) { $0 + max(0, $1.duration) })
        let ad = TimelineAd(id: "\(record.id)#\(loop + 1)", url: alternate.topURL, durationSeconds: duration)
        return AdAsset(ad: ad, playlists: alternate, options: decoder.options, loadedAt: driver.now)
    }

    /// The blackout break's alternate content ran out before the blackout's end: it plays again from its
    /// start. Returns the cursor of that next play (nil when the break is not a blackout's).
    func nextAlternateLoop(after cursor: AdLoadCursor, endingAt end: Double, now: Double) -> AdLoadCursor? {
        guard isBlackout(cursor.breakId) else { return nil }
        if state.adAssets[cursor.breakId]?[cursor.adIndex].trueEndSeconds == nil {
            // This play gave no media at all (its segments failed): playing it again would give none either.
            abandonAlternate(cursor.breakId, atTimeline: end, offset: cursor.breakTimelineStart - (state.timeline.breaks.first { $0.id == cursor.breakId }?.contentSeconds ?? 0))
            return nil
        }
        guard let asset = makeAlternateAsset(breakId: cursor.breakId, loop: cursor.adIndex + 1) else { return nil }
        // Each play takes the alternate's rendition matching the content's rung now, as a break's ads do when it starts.
        asset.matchRendition(contentBitsPerSecond: report.variantBandwidth, at: now)
        guard let sequence = asset.firstSequence else { return nil }
        state.adAssets[cursor.breakId, default: []].append(asset)
        state.timeline = state.timeline.addingAds([asset.ad], toBreak: cursor.breakId).balancingLastAd(ofBreak: cursor.breakId)
        postTimelineChanged()
        return AdLoadCursor(breakId: cursor.breakId, adIndex: cursor.adIndex + 1, mediaSequence: sequence,
                            adTimelineStart: end, breakTimelineStart: cursor.breakTimelineStart)
    }

    /// The alternate content of blackout break `breakId` gave nothing: the break ends where it stopped
    /// (timeline `end`), the main content plays on from there, and the blackout's range is not followed
    /// any more. Said as damage and a `blackoutAlternateFailed` event.
    private func abandonAlternate(_ breakId: String, atTimeline end: Double, offset: Double) {
        guard let adBreak = state.timeline.breaks.first(where: { $0.id == breakId }), let index = state.blackoutIndex[breakId] else { return }
        let content = end - offset
        state.timeline = state.timeline.settingReplacedSeconds(max(0, content - adBreak.contentSeconds), breakId: breakId)
            .balancingLastAd(ofBreak: breakId)
        state.blackoutsAbandoned.insert(breakId)
        let description = String(format: "blackout %@: the alternate content %@ gave no media; the main content plays from %g s", report.blackouts[index].id,
                                 report.blackouts[index].alternateURL, content)
        report.damage.append(description)
        bus.post(.custom(name: "blackoutAlternateFailed", payload: ["id": report.blackouts[index].id, "contentSeconds": String(format: "%g", content),
                                                                    "description": description]))
        postTimelineChanged()
    }

    /// A segment of a blackout's alternate content could not be loaded: damage, as for the content.
    func noteAlternateSegmentFailed(_ cursor: AdLoadCursor, error: any Error) {
        guard let index = state.blackoutIndex[cursor.breakId] else { return }
        report.damage.append("blackout \(report.blackouts[index].id): segment \(cursor.mediaSequence) of the alternate content could not be loaded: \(error)")
    }

    /// The replacement budget's end of a break on the timeline: where its ads are cut (nil: no budget, an
    /// inserted break, or an open blackout, whose end is not known yet).
    func budgetEnd(of adBreak: AdBreak, cursor: AdLoadCursor) -> Double? {
        if adBreak.id == state.openBlackout, !state.blackoutsAbandoned.contains(adBreak.id) { return nil }
        return adBreak.replacedContentSeconds > 0 || isBlackout(adBreak.id) ? cursor.breakTimelineStart + adBreak.replacedContentSeconds : nil
    }

    /// Whether the alternate segment at `cursor` must wait: its blackout is open and the segment would
    /// run past what the main playlist lists (the end tag may come at any segment still to come).
    func blackoutHolds(_ cursor: AdLoadCursor, segmentEndSeconds: Double) -> Bool {
        guard cursor.breakId == state.openBlackout, !state.blackoutsAbandoned.contains(cursor.breakId), let adBreak = state.timeline.breaks.first(where: { $0.id == cursor.breakId }) else { return false }
        let listedEnd = cursor.breakTimelineStart + adBreak.replacedContentSeconds
        return cursor.adTimelineStart + segmentEndSeconds > listedEnd + Self.spliceSlackSeconds
    }

    /// Content seconds at playback-timeline time `virtual`: inside a blackout, the content time it replaces
    /// (a blackout replaces content second for second); elsewhere the PSDK's local time.
    func contentSeconds(atVirtual virtual: Double) -> Double {
        state.timeline.contentSecondsCountingBlackouts(atVirtual: virtual) ?? state.timeline.localSeconds(atVirtual: virtual)
    }

    /// A seek target at or past the start of the open blackout is inside it, however far the playlist lists:
    /// held within what is listed of it (its end moves on with each reload), never in the content.
    func openBlackoutSeekTarget(_ target: Double) -> Double {
        guard let open = state.openBlackout, !state.blackoutsAbandoned.contains(open), let index = state.timeline.index(ofBreak: open) else { return target }
        let start = state.timeline.virtualStart(ofBreak: index)
        let end = start + state.timeline.breaks[index].replacedContentSeconds
        guard target >= start - Self.spliceSlackSeconds, target >= end - 1e-3 else { return target }
        return max(start, end - 1e-3)
    }

    /// Ad breaks whose cue falls inside blackout break `breakId` (not entered yet) leave the timeline: their
    /// content is never played, so they never play either, and they would shift every later time on the
    /// timeline by their length. Each is said in an `adBreakInBlackout` event.
    func dropAdBreaksInside(_ breakId: String) {
        guard let blackout = state.timeline.breaks.first(where: { $0.id == breakId }), let index = state.blackoutIndex[breakId] else { return }
        let end = blackout.contentSeconds + blackout.replacedContentSeconds
        let inside = state.timeline.breaks.filter { adBreak in
            !isBlackout(adBreak.id) && state.boundaryIndex[adBreak.id] == nil
                && adBreak.contentSeconds >= blackout.contentSeconds - Self.spliceSlackSeconds && adBreak.contentSeconds < end - Self.spliceSlackSeconds
        }
        guard !inside.isEmpty else { return }
        let ids = Set(inside.map(\.id))
        state.timeline = AdTimeline(breaks: state.timeline.breaks.filter { !ids.contains($0.id) })
        for adBreak in inside {
            state.breaksDone.insert(adBreak.id)
            bus.post(.custom(name: "adBreakInBlackout", payload: [
                "breakId": adBreak.id, "blackoutId": report.blackouts[index].id, "contentSeconds": String(format: "%g", adBreak.contentSeconds),
                "reason": "its cue is inside a blackout, whose content is not played: the break leaves the timeline",
            ]))
        }
        postTimelineChanged()
    }

    /// A seek target inside a closed blackout's range lands at its end (a non-seekable range), said in a
    /// `blackoutSeekAdjusted` event.
    func blackoutSeekTarget(_ target: Double, requested: Double) -> Double {
        guard let record = report.blackouts.first(where: { $0.endSeconds != nil && $0.contains(target) }), let end = record.endSeconds else { return target }
        bus.post(.custom(name: "blackoutSeekAdjusted", payload: [
            "id": record.id, "requestedSeconds": String(format: "%g", requested), "toSeconds": String(format: "%g", end),
            "reason": "the blackout's range is not seekable: the seek lands at its end",
        ]))
        return end
    }

    /// A reload of the main playlist failed while a blackout is open: the background item's error.
    func noteBackgroundReloadFailure(_ error: any Error, url: String) {
        guard let open = state.openBlackout, isBlackout(open), let index = state.blackoutIndex[open] else { return }
        report.blackouts[index].backgroundErrors += 1
        bus.post(.custom(name: "backgroundManifestError", payload: ["id": report.blackouts[index].id, "url": url, "description": "\(error)"]))
    }

    /// Timed metadata found while a blackout is open comes from the playlist watched in the background.
    func noteBackgroundMetadata(_ metadata: TimedMetadata) {
        guard let open = state.openBlackout, let index = state.blackoutIndex[open] else { return }
        bus.post(.custom(name: "backgroundTimedMetadata", payload: [
            "blackoutId": report.blackouts[index].id, "id": metadata.id, "name": metadata.name ?? "",
            "timeSeconds": String(format: "%g", metadata.timeSeconds), "content": metadata.content,
        ]))
    }

    /// The first alternate frame of a blackout is presented.
    func blackoutStarted(_ breakId: String, frame: BoundaryFrame, now: Double) {
        guard let index = state.blackoutIndex[breakId] else { return }
        if report.blackouts[index].startedAtSessionSeconds == nil { report.blackouts[index].startedAtSessionSeconds = now }
        // Content seconds: where the break sits (the playback timeline also counts inserted ads before it).
        let content = state.timeline.breaks.first { $0.id == breakId }?.contentSeconds ?? frame.timelineSeconds
        bus.post(.custom(name: "blackoutStarted", payload: [
            "id": report.blackouts[index].id, "contentSeconds": String(format: "%g", content),
            "alternateURL": report.blackouts[index].alternateURL,
        ]))
    }

    /// Presentation leaves a blackout for the main content: at its end tag (`bySeek` false), or by a seek
    /// out of it (true). The report keeps the first return either way, as it keeps the first start (a seek out
    /// was left out, so after a seek back the pair named the first start and the last return).
    func blackoutEnded(_ breakId: String, now: Double, bySeek: Bool = false) {
        guard let index = state.blackoutIndex[breakId] else { return }
        let record = report.blackouts[index]
        if record.endedAtSessionSeconds == nil { report.blackouts[index].endedAtSessionSeconds = now }
        bus.post(.custom(name: "blackoutEnded", payload: [
            "id": record.id, "endSeconds": record.endSeconds.map { String(format: "%g", $0) } ?? "",
            "loops": String(record.alternateLoops), "reason": bySeek ? "seek" : "endTag",
        ]))
    }
}

extension AdBreak {
    /// What a blackout's break id starts with (`blackout:<id>`).
    public static let blackoutPrefix = "blackout:"
    /// Whether this break is a blackout's (its "ads" are plays of the alternate content).
    public var isBlackout: Bool { id.hasPrefix(Self.blackoutPrefix) }
}

extension AdTimeline {
    /// The content seconds at playback-timeline time `virtual`, a blackout counted as the content it replaces
    /// second for second; nil inside an ad.
    public func contentSecondsCountingBlackouts(atVirtual virtual: Double) -> Double? {
        switch position(atVirtual: virtual) {
        case let .content(seconds): return seconds
        case let .ad(index, _, _):
            guard breaks[index].isBlackout else { return nil }
            return breaks[index].contentSeconds + virtual - virtualStart(ofBreak: index)
        }
    }

    /// The playback-timeline time of content seconds `content`, inside a blackout too (``virtualSeconds(forContent:)``
    /// maps replaced content to the break's end).
    public func virtualSecondsCountingBlackouts(forContent content: Double) -> Double {
        for (index, adBreak) in breaks.enumerated() where adBreak.isBlackout
            && content >= adBreak.contentSeconds && content < adBreak.contentSeconds + adBreak.replacedContentSeconds {
            return virtualStart(ofBreak: index) + content - adBreak.contentSeconds
        }
        return virtualSeconds(forContent: content)
    }

    /// The timeline with break `breakId` replacing `seconds` of content.
    func settingReplacedSeconds(_ seconds: Double, breakId: String) -> AdTimeline {
        var breaks = self.breaks
        guard let index = breaks.firstIndex(where: { $0.id == breakId }) else { return self }
        breaks[index].replacedContentSeconds = seconds
        return AdTimeline(breaks: breaks)
    }

    /// The timeline with the last ad of break `breakId` lasting what the break replaces beyond its other
    /// ads: a blackout's plays of the alternate content then span exactly its range, so virtual time stays
    /// content time across it (each finished play keeps its true length).
    func balancingLastAd(ofBreak breakId: String) -> AdTimeline {
        var breaks = self.breaks
        guard let index = breaks.firstIndex(where: { $0.id == breakId }), let last = breaks[index].ads.indices.last else { return self }
        let others = breaks[index].ads.dropLast().reduce(0) { $0 + $1.durationSeconds }
        breaks[index].ads[last].durationSeconds = max(0, breaks[index].replacedContentSeconds - others)
        return AdTimeline(breaks: breaks)
    }
}
