import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// The splicer: where loading goes next when ad breaks are on the timeline.
///
/// Content is loaded segment by segment as before. The segment holding a cue is loaded clipped at
/// the cue (its frames at or after the cue are decoded but not presented); then the break's ads are
/// loaded one after another, each placed right after the previous one's last frame; then content
/// resumes from the segment holding the resume point (the cue for insertion, cue + duration for
/// replacement), decoded from its keyframe and presented from that exact frame. Every frame keeps its
/// true timestamps; only the offset that puts its source on the timeline changes.
extension MediaPlayer {
    /// The ad policy selector of the session's factory (nil without ads).
    var adPolicySelector: (any AdPolicySelector)? { configuration.ads?.factory.adPolicySelector }

    /// The viewer clicked: `adClicked` for the ad presenting now, with its click-through URL.
    func clickAd(now: Double) {
        guard let last = state.lastPresented[masterKind], case let .ad(breakId, adIndex) = last.source,
              let info = adInfo(breakId: breakId, adIndex: adIndex, offset: last.stamp.sourceSeconds, pts: last.stamp.ptsSeconds) else {
            // Nothing to click: said, so that a scripted click that missed its ad leaves a trace.
            bus.post(.custom(name: "adClickIgnored", payload: ["reason": "no ad is playing", "position": String(format: "%.6g", state.position(at: now))]))
            return
        }
        bus.post(.adClicked(info, clickThrough: state.timeline.breaks[info.breakIndex].ads[adIndex].clickThrough))
    }

    /// Slack for comparing cue and segment times, seconds.
    static let spliceSlackSeconds = 1e-3
    /// How far short of a break's cue the content loaded before it may end for the segment at the cue to be
    /// played first (its pictures before the cue): more is a hole in the media, not reordered pictures.
    static let shortOfCueSeconds = 0.5

    /// The first break not yet entered whose cue lies in `[from, before)` content seconds and whose
    /// ads are ready.
    func pendingBreak(from: Double, before: Double) -> AdBreak? {
        state.timeline.breaks.first { adBreak in
            !state.breaksDone.contains(adBreak.id) && state.adAssets[adBreak.id]?.isEmpty == false
                && adBreak.contentSeconds >= from - Self.spliceSlackSeconds && adBreak.contentSeconds < before - Self.spliceSlackSeconds
        }
    }

    /// Whether a resolution still under way concerns a cue inside segment `sequence` or before it:
    /// that segment waits for the answer (or the resolver's timeout).
    func awaitsResolution(before sequence: Int) -> Bool {
        guard let tracked = state.tracker?.segment(mediaSequence: sequence) else { return false }
        return state.transfers.values.contains { transfer in
            if case let .resolution(opportunity, _) = transfer { return opportunity.contentSeconds < tracked.endSeconds }
            return false
        }
    }

    /// Where content segment `sequence` goes on the timeline, or nil when a break starts before any
    /// of it plays (the loader is then inside the break). Breaks whose cue is already behind are passed.
    func contentPlacement(for sequence: Int, now: Double) -> Placement? {
        guard let tracked = state.tracker?.segment(mediaSequence: sequence) else { return nil }
        // A segment buffered before (a seek went back) is matched by its media: the breaks met then sit where its
        // media starts or ends, not on the EXTINF grid (EXTINF 1.5 for 2 s: a break moved to 12.012 s played
        // again at 16.016 s after a seek back before it).
        let recorded = findsSegmentsByMedia ? state.playlistTimes.span(mediaSequence: sequence) : nil
        let from = state.contentClipStart ?? recorded?.mediaStart ?? tracked.startSeconds
        let end = recorded?.mediaEnd ?? tracked.endSeconds
        // Blackouts replace content second for second on the playlist's own time.
        enterBlackoutJoinedInside(from: state.contentClipStart ?? tracked.startSeconds, segmentEnd: tracked.endSeconds)
        // Breaks before the start position are not played: a pre-roll with --start 2 played from 2 s into the
        // ad, then the content from 0 (the start was inside the first segment, so the cue was not behind it).
        let passed = max(from, state.requestedStart ?? -.infinity)
        for adBreak in state.timeline.breaks where !state.breaksDone.contains(adBreak.id)
            && adBreak.contentSeconds < passed - Self.spliceSlackSeconds && state.adAssets[adBreak.id]?.isEmpty == false {
            // Its cue went by before its ads were ready (live), or before the start: content plays on.
            state.breaksDone.insert(adBreak.id)
        }
        var placement = Placement(source: .content, offset: state.contentOffset, clipStart: state.contentClipStart, clipEnd: nil)
        // Normal playback reaching a break: the ad policy says whether it plays (the default: always).
        while let adBreak = pendingBreak(from: from, before: end), !isBlackout(adBreak.id), let selector = adPolicySelector,
              let index = state.timeline.index(ofBreak: adBreak.id),
              selector.planBreakReached(state.timeline, breakIndex: index, currentVirtual: adBreak.contentSeconds + state.contentOffset).breaksToPlay.isEmpty {
            state.breaksDone.insert(adBreak.id)
        }
        if let adBreak = pendingBreak(from: from, before: end) {
            // The content shown so far runs past an inserted break's cue (EXTINFs that undercount by a segment or
            // more: the EXTINF grid puts the cue in this segment, whose media starts after it): the break comes
            // first, where that content ends. The segment was cut at the cue, none of its media before it, and
            // the content before played on past the cue under the ad (QA40 #2: 2 frames lost, overlap).
            let shown = adBreak.replacedContentSeconds == 0 && state.contentClipStart == nil
                ? state.loadedEnd.map { $0 - state.contentOffset } : nil
            // The cue is where what is left of the segment starts: the break comes first.
            if adBreak.contentSeconds <= max(from, shown ?? from) + Self.spliceSlackSeconds {
                // The content loaded before ends short of the cue (B-frames of a stream cut by time: this segment
                // holds pictures before the cue): this segment plays first, cut at the cue. They were lost.
                if let loaded = state.loadedEnd.map({ $0 - state.contentOffset }), state.contentClipStart == nil,
                   loaded < adBreak.contentSeconds - 1e-3, loaded > adBreak.contentSeconds - Self.shortOfCueSeconds {
                    placement.clipEnd = adBreak.contentSeconds
                    return placement
                }
                enterBreak(alignBreakToLoadedEnd(adBreak, before: tracked), now: now)
                return nil
            }
            placement.clipEnd = adBreak.contentSeconds
        }
        state.contentClipStart = nil
        return placement
    }

    /// An inserted break whose cue falls between two frames of the content segment it cuts moves to the
    /// start of the first frame (master kind) at or after the cue: the ad then begins where the last
    /// content frame before the cue ends, and content resumes with that frame, with no overlap before the
    /// ad nor a hole after it (a 29.97 fps content with a cue at 10 s had the ad start 10 ms inside its
    /// last frame). Returns the clip end the segment's placement then has (the cue when nothing moved).
    func alignBreakToFrame(cue: Double, in segment: BufferedSegment) -> Double {
        guard let adBreak = state.timeline.breaks.first(where: { abs($0.contentSeconds - cue) < 1e-9 && !state.breaksDone.contains($0.id) }),
              adBreak.replacedContentSeconds == 0,
              let index = segment.demuxed.streams.first(where: { $0.kind == masterKind })?.index else { return cue }
        var first: Double?
        for packet in segment.demuxed.packets where packet.streamIndex == index {
            guard let pts = packet.pts else { continue }
            let source = sourceSeconds(Double(pts) * packet.timeBase.doubleValue, in: segment)
            if source >= cue - 1e-6, first.map({ source < $0 }) ?? true { first = source }
        }
        // A cue inside the segment's last frame, or past its media (EXTINFs that overcount: the EXTINF grid puts
        // the cue in this segment, whose media ends before it): the break moves to where the segment's media ends
        // (the next frame is the next segment's first), and content resumes with the next segment. It was left at
        // the cue: content resumed two frames early, or a hole as long as the overcount came before the ad, and
        // content resumed inside this segment again (QA41: frames shown twice).
        var atEnd = false
        if first == nil, let span = segment.demuxed.timeSpan(of: masterKind) {
            first = sourceSeconds(span.end, in: segment)
            atEnd = true
        }
        guard let frame = first, abs(frame - cue) > 1e-6, frame < cue + 0.5 else { return cue }
        if atEnd { state.resumeSequences[adBreak.id] = segment.tracked.mediaSequence + 1 }
        moveBreak(adBreak, to: frame)
        return frame
    }

    /// An inserted break cued at a segment's listed start, where the media of the segment before runs past
    /// it (EXTINF rounded: 4.0 for 4.004 s of 29.97 fps), moves to where that media ends, however far: the
    /// ad then begins where the last content frame ends, as ``alignBreakToFrame(cue:in:)`` does for a cue
    /// inside a segment. (Past half a second it stayed: the ad began under the content's last frames and left
    /// a hole as long after it, and rounded EXTINFs drift that far in ten minutes of 29.97 fps.) When that media
    /// ends short of the cue (EXTINFs that overcount) and `next`, the segment the cue starts, continues it (the
    /// one after, in the same discontinuity sequence), the break moves back there: the ad followed a hole as
    /// long as the overcount, and content resumed with media before the break's place on the timeline. A post-roll
    /// (`next` nil) moves back when the last segment loaded is the playlist's last.
    func alignBreakToLoadedEnd(_ adBreak: AdBreak, before next: TrackedSegment?) -> AdBreak {
        guard adBreak.replacedContentSeconds == 0, let loadedEnd = state.loadedEnd, !state.breaksDone.contains(adBreak.id) else { return adBreak }
        let end = loadedEnd - state.contentOffset
        let continues = state.lastContentEnd.map { last in
            next.map { last.mediaSequence == $0.mediaSequence - 1 && last.anchorKey == $0.discontinuitySequence }
                ?? (last.mediaSequence == state.tracker?.segments.last?.mediaSequence)
        } ?? false
        guard end > adBreak.contentSeconds + 1e-6 || (continues && end < adBreak.contentSeconds - 1e-6) else { return adBreak }
        if let last = state.lastContentEnd { state.resumeSequences[adBreak.id] = last.mediaSequence + 1 }
        moveBreak(adBreak, to: end)
        return state.timeline.breaks.first { $0.id == adBreak.id } ?? adBreak
    }

    /// Moves `adBreak` to content time `seconds` on the timeline, keeping the cue it was signalled at for
    /// its boundary record.
    private func moveBreak(_ adBreak: AdBreak, to seconds: Double) {
        state.signalledCues[adBreak.id] = state.signalledCues[adBreak.id] ?? adBreak.contentSeconds
        state.timeline = state.timeline.movingBreak(adBreak.id, toContentSeconds: seconds)
        postTimelineChanged()
    }

    /// Starts loading `adBreak`'s ads: the break begins on the timeline where its cue is.
    func enterBreak(_ adBreak: AdBreak, now: Double) {
        state.breaksDone.insert(adBreak.id)
        // Each ad plays the rendition matching the content's rung now (ABR may have moved since the ads loaded).
        for asset in state.adAssets[adBreak.id] ?? [] { asset.matchRendition(contentBitsPerSecond: report.variantBandwidth, at: now) }
        guard let first = state.adAssets[adBreak.id]?.first, let sequence = first.firstSequence else { return }
        let start = adBreak.contentSeconds + state.contentOffset
        state.adCursor = AdLoadCursor(breakId: adBreak.id, adIndex: 0, mediaSequence: sequence,
                                      adTimelineStart: start, breakTimelineStart: start)
        let resume = adBreak.contentSeconds + adBreak.replacedContentSeconds
        if state.boundaryIndex[adBreak.id] == nil {
            report.adBoundaries.append(AdBoundaryRecord(breakId: adBreak.id, cueContentSeconds: state.signalledCues[adBreak.id] ?? adBreak.contentSeconds,
                                                        replacedContentSeconds: adBreak.replacedContentSeconds,
                                                        resumeContentSeconds: resume))
            state.boundaryIndex[adBreak.id] = report.adBoundaries.count - 1
        }
    }

    /// Takes in one ad segment: places it after the ad's previous segments, then moves the cursor on
    /// (next segment, next ad, or back to content).
    func adSegmentArrived(_ cursor: AdLoadCursor, _ transfer: NetworkTransfer, now: Double) {
        guard let assets = state.adAssets[cursor.breakId], assets.indices.contains(cursor.adIndex),
              let adBreak = state.timeline.breaks.first(where: { $0.id == cursor.breakId }) else { return }
        let asset = assets[cursor.adIndex]
        guard let tracked = asset.tracker.segment(mediaSequence: cursor.mediaSequence) else { return }
        recordSegment(transfer, mediaSequence: cursor.mediaSequence, now: now, estimatesContent: false)
        // Replacement: the break may not outlast the content it replaces; a longer ad is cut.
        let budgetEnd = budgetEnd(of: adBreak, cursor: cursor)
        let placement = Placement(source: .ad(breakId: cursor.breakId, adIndex: cursor.adIndex), offset: cursor.adTimelineStart,
                                  clipStart: nil, clipEnd: budgetEnd.map { $0 - cursor.adTimelineStart })
        // Once per ad: a seek back into the break loads its first segment again.
        if cursor.mediaSequence == asset.firstSequence, let index = state.boundaryIndex[cursor.breakId],
           state.adPlaylistsRecorded.insert("\(cursor.breakId)#\(cursor.adIndex)").inserted {
            report.adBoundaries[index].adMediaURLs.append(asset.mediaURL)
        }
        let span = bufferSegment(transfer, tracked: tracked, placement: placement, now: now)
        if let span { asset.trueEndSeconds = max(asset.trueEndSeconds ?? span.end, span.end) }
        var next = cursor
        next.mediaSequence += 1
        let reachedBudget = budgetEnd.map { cursor.adTimelineStart + (span?.end ?? 0) >= $0 - Self.spliceSlackSeconds } ?? false
        if asset.tracker.segment(mediaSequence: next.mediaSequence) != nil, !reachedBudget {
            estimateAdDuration(cursor, asset: asset, loadedThrough: tracked, budgetEnd: budgetEnd)
            state.adCursor = next
            return
        }
        adFinishedLoading(cursor, asset: asset, budgetEnd: budgetEnd, now: now)
    }

    /// While an ad loads, its duration is what its media so far says of the whole: the segments not yet in are
    /// taken to run as long, against their EXTINFs, as those loaded (an ad playlist listing 1.5 s for each 2 s
    /// segment is 10 s, not 7.5 s, from its first segment on). Its quartiles and progress offsets are then shares
    /// of one duration from the start (QA40 #5: the first quartile at 25 % of the 7.5 s listed, the others of the
    /// 10 s played, and other times for the same creative as a post-roll). The true end replaces it once the last
    /// segment is in (``adFinishedLoading``).
    private func estimateAdDuration(_ cursor: AdLoadCursor, asset: AdAsset, loadedThrough tracked: TrackedSegment, budgetEnd: Double?) {
        guard let media = asset.trueEndSeconds, let first = asset.tracker.segments.first, let last = asset.tracker.segments.last,
              tracked.endSeconds - first.startSeconds > 0,
              let ads = state.timeline.breaks.first(where: { $0.id == cursor.breakId })?.ads, ads.indices.contains(cursor.adIndex) else { return }
        let loadedListed = tracked.endSeconds - first.startSeconds
        var estimate = media + (last.endSeconds - tracked.endSeconds) * media / loadedListed
        if let budgetEnd { estimate = min(estimate, budgetEnd - cursor.adTimelineStart) }
        guard abs(estimate - ads[cursor.adIndex].durationSeconds) > 1e-3 else { return }
        state.timeline = state.timeline.settingAdDuration(estimate, breakId: cursor.breakId, adIndex: cursor.adIndex)
        postTimelineChanged()
    }

    /// An ad segment could not be fetched: retried like content, then the rest of the ad is given up.
    func adSegmentFailed(_ cursor: AdLoadCursor, attempt: Int, error: PlayheadError, now: Double) {
        let failure = notification(for: error, now: now)
        if attempt < configuration.fetchRetries {
            bus.post(.notification(PlayerNotification.make(.networkError, metadata: failure.metadata, playerTime: now)))
            state.segmentRetry = SegmentRetry(at: now + Double(1 << attempt), mediaSequence: cursor.mediaSequence, attempt: attempt + 1, ad: cursor)
            return
        }
        // The ad plays cut short: it names the ad and its VAST code, so its Error URLs are called, and it
        // ends skipped, not completed (it completed, its complete beacon fired, at the cut).
        var metadata = failure.metadata
        if let ads = state.timeline.breaks.first(where: { $0.id == cursor.breakId })?.ads, ads.indices.contains(cursor.adIndex) {
            metadata[NotificationMetadataKey.adId.rawValue] = ads[cursor.adIndex].id
        }
        metadata[NotificationMetadataKey.breakId.rawValue] = cursor.breakId
        metadata[NotificationMetadataKey.vastErrorCode.rawValue] = String(Self.vastErrorCode(forMediaFailure: error))
        state.adsCutShort.insert(.ad(breakId: cursor.breakId, adIndex: cursor.adIndex))
        noteAlternateSegmentFailed(cursor, error: error)
        bus.post(.notification(Self.adNotification(.adInsertionFail, metadata: metadata, now: now)))
        guard let asset = state.adAssets[cursor.breakId]?[cursor.adIndex],
              let adBreak = state.timeline.breaks.first(where: { $0.id == cursor.breakId }) else { return }
        adFinishedLoading(cursor, asset: asset, budgetEnd: budgetEnd(of: adBreak, cursor: cursor), now: now)
    }

    /// The ad's last segment is in: the next ad starts where this one's media ends (cut to the budget).
    private func adFinishedLoading(_ cursor: AdLoadCursor, asset: AdAsset, budgetEnd: Double?, now: Double) {
        var end = cursor.adTimelineStart + (asset.trueEndSeconds ?? 0)
        if let budgetEnd { end = min(end, budgetEnd) }
        state.timeline = state.timeline.settingAdDuration(end - cursor.adTimelineStart, breakId: cursor.breakId, adIndex: cursor.adIndex)
        let count = state.adAssets[cursor.breakId]?.count ?? 0
        let budgetLeft = budgetEnd.map { end < $0 - Self.spliceSlackSeconds } ?? true
        if cursor.adIndex + 1 < count, budgetLeft, let sequence = state.adAssets[cursor.breakId]?[cursor.adIndex + 1].firstSequence {
            state.adCursor = AdLoadCursor(breakId: cursor.breakId, adIndex: cursor.adIndex + 1, mediaSequence: sequence,
                                          adTimelineStart: end, breakTimelineStart: cursor.breakTimelineStart)
            return
        }
        // A blackout outlasting its alternate content plays it again from its start.
        if budgetLeft, let loop = nextAlternateLoop(after: cursor, endingAt: end, now: now) {
            state.adCursor = loop
            return
        }
        exitBreak(cursor, timelineEnd: end, now: now)
    }

    /// A blackout just closed while its loading waited at the end of what the main playlist listed: when
    /// the alternate content already reaches the end tag, loading goes back to the main content now.
    func finishBlackoutLoadingIfDone(_ cursor: AdLoadCursor, now: Double) {
        guard let adBreak = state.timeline.breaks.first(where: { $0.id == cursor.breakId }),
              let asset = state.adAssets[cursor.breakId]?[cursor.adIndex],
              let budgetEnd = budgetEnd(of: adBreak, cursor: cursor) else { return }
        let loadedEnd = cursor.adTimelineStart + (asset.trueEndSeconds ?? 0)
        let nextStart = asset.tracker.segment(mediaSequence: cursor.mediaSequence).map { cursor.adTimelineStart + $0.startSeconds }
        guard (nextStart ?? loadedEnd) >= budgetEnd - Self.spliceSlackSeconds else { return }
        if asset.trueEndSeconds == nil {
            // Nothing of this play was loaded: the break ends where the previous play did.
            state.timeline = state.timeline.keepingAds(upTo: cursor.adIndex, breakId: cursor.breakId)
            exitBreak(AdLoadCursor(breakId: cursor.breakId, adIndex: max(0, cursor.adIndex - 1), mediaSequence: cursor.mediaSequence,
                                   adTimelineStart: cursor.adTimelineStart, breakTimelineStart: cursor.breakTimelineStart),
                      timelineEnd: min(cursor.adTimelineStart, budgetEnd), now: now)
            return
        }
        adFinishedLoading(cursor, asset: asset, budgetEnd: budgetEnd, now: now)
    }

    /// A blackout the session joined (or sought) inside, past its start: it takes over where playback
    /// starts (the start or seek position when it lies in this segment, else `from`, the first content time
    /// loaded), the alternate from its start, rather than being passed as a break whose cue went by.
    private func enterBlackoutJoinedInside(from: Double, segmentEnd: Double) {
        for (index, adBreak) in state.timeline.breaks.enumerated() where isBlackout(adBreak.id) && !state.breaksDone.contains(adBreak.id) {
            // A blackout replaces content second for second: inside it, timeline and content differ by what
            // inserted breaks before it add.
            var at = from
            if let skip = state.skipBefore {
                let content = adBreak.contentSeconds + skip - state.timeline.virtualStart(ofBreak: index)
                if content > from, content < segmentEnd { at = content }
            }
            guard adBreak.contentSeconds < at - Self.spliceSlackSeconds,
                  adBreak.id == state.openBlackout || adBreak.contentSeconds + adBreak.replacedContentSeconds > at + Self.spliceSlackSeconds else { continue }
            let end = adBreak.contentSeconds + adBreak.replacedContentSeconds
            moveBreak(adBreak, to: at)
            state.timeline = state.timeline.settingReplacedSeconds(max(0, end - at), breakId: adBreak.id).balancingLastAd(ofBreak: adBreak.id)
            if let index = state.blackoutIndex[adBreak.id] { report.blackouts[index].replacedFromSeconds = at }
        }
    }

    /// Back to content after a break that ended at `timelineEnd`: at the cue (insertion) or at
    /// cue + duration (replacement), from the segment holding that point.
    func exitBreak(_ cursor: AdLoadCursor, timelineEnd: Double, now: Double) {
        state.adCursor = nil
        guard let adBreak = state.timeline.breaks.first(where: { $0.id == cursor.breakId }) else { return }
        if let count = state.adAssets[cursor.breakId]?.count, count > 0 {
            // Ads not played (a replacement budget spent early) leave the timeline.
            state.timeline = state.timeline.keepingAds(upTo: cursor.adIndex + 1, breakId: cursor.breakId)
        }
        postTimelineChanged()
        if state.landingAfterBreak != nil {
            // A seek over breaks: once this break has played, the loop seeks on (checkStall).
            state.nextSequence = nil
            state.contentResume = nil
            return
        }
        let resume = adBreak.contentSeconds + adBreak.replacedContentSeconds
        state.contentOffset = timelineEnd - resume
        // A blackout whose alternate gave nothing at all: the content goes on as if no break had been, its
        // decoder's last frames before the cue (never drained by an alternate segment) still shown.
        let nothingPlayed = state.blackoutsAbandoned.contains(adBreak.id) && adBreak.replacedContentSeconds <= Self.spliceSlackSeconds
        state.contentClipStart = nothingPlayed ? nil : resume
        // The content decoder starts afresh at the resume point's segment (a keyframe, or a preroll).
        state.needsKeyframe = true
        guard let tracker = state.tracker else { return }
        // Content resumes with the segment after the last loaded when the break moved to where that one's media
        // ended: looked up by time on the EXTINF grid, a drift of a segment or more skipped whole segments
        // (EXTINF 1.5 for 2.002 s: a break at 9 s resumed 4 s late, 120 frames never shown), and a resume point
        // past the playlist's listed end ended the item there (QA41 #1: every content frame after the break lost).
        if let sequence = state.resumeSequences.removeValue(forKey: adBreak.id), adBreak.replacedContentSeconds == 0,
           tracker.segment(mediaSequence: sequence) != nil {
            state.nextSequence = sequence
            state.contentResume = nil
            return
        }
        if let last = tracker.segments.last, !tracker.isLive, resume >= last.endSeconds - Self.spliceSlackSeconds {
            // A post-roll: nothing after it.
            state.nextSequence = nil
            state.endLoaded = true
            return
        }
        // An inserted break met again after a seek back resumes with the segment buffered before whose media holds
        // the resume point (on the EXTINF grid, where EXTINFs undercount, a later one: 120 frames skipped).
        if adBreak.replacedContentSeconds == 0, findsSegmentsByMedia, let span = state.playlistTimes.span(holdingContent: resume + Self.spliceSlackSeconds),
           tracker.segment(mediaSequence: span.mediaSequence) != nil {
            state.nextSequence = span.mediaSequence
            state.contentResume = nil
            return
        }
        state.nextSequence = nil
        state.contentResume = resume
        resumeContentIfListed(tracker)
    }

    /// After a break, finds the content segment holding the resume point once the playlist lists it.
    func resumeContentIfListed(_ tracker: LivePlaylistTracker) {
        guard let resume = state.contentResume else { return }
        if let segment = tracker.segment(containing: resume + Self.spliceSlackSeconds) ?? tracker.segment(containing: resume) {
            state.nextSequence = segment.mediaSequence
            state.contentResume = nil
        } else if tracker.endListSeen, let last = tracker.segments.last, resume >= last.endSeconds - Self.spliceSlackSeconds {
            state.contentResume = nil
            state.endLoaded = true
        }
    }

    /// An ad notification with the inner chain the PSDK guide gives its code (for example
    /// AD_TIMEOUT → AD_INSERTION_FAIL → AD_NOT_INSERTED).
    static func adNotification(_ code: NotificationCode, metadata: [String: String], now: Double) -> PlayerNotification {
        PlayerNotification.nested(code, metadata: metadata, playerTime: now)
    }
}
