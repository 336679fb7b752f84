import Foundation
import PlayheadMedia

/// Ad events and boundary records, driven by the frames actually presented: an ad starts when its
/// first frame is presented, not when it is loaded.
extension MediaPlayer {
    /// Notes a presented frame: a change of source is a splice boundary (events for the master kind,
    /// boundary records for every kind); inside an ad, progress.
    func noteSplice(_ item: PendingFrame) {
        guard state.timeline.breaks.isEmpty == false || item.source.isAd || state.lastPresented[item.kind]?.source.isAd == true else { return }
        let stamp = BoundaryFrame(sourceSeconds: item.sourceSeconds, timelineSeconds: item.timelineSeconds,
                                  ptsSeconds: item.ptsSeconds, durationSeconds: item.durationSeconds, md5: item.frame?.md5,
                                  isKeyframe: item.isKeyframe, pictureType: item.frame.map { String($0.pictureType) },
                                  segmentURL: item.segmentURL)
        let previous = state.lastPresented[item.kind]
        state.lastPresented[item.kind] = (item.source, stamp)
        let master = item.kind == masterKind
        // After a seek that left a blackout's alternate: the first frame says whether it ended.
        var stillInBlackout = false
        if master, let left = state.blackoutLeftBySeek {
            state.blackoutLeftBySeek = nil
            if item.source.breakId == left {
                stillInBlackout = true
            } else {
                // Content at or past the blackout's end tag: it ended there (the seek only got there sooner).
                let end = state.blackoutIndex[left].flatMap { report.blackouts[$0].endSeconds }
                let atEnd = item.source == .content && end.map { stamp.sourceSeconds >= $0 - Self.spliceSlackSeconds } == true
                blackoutEnded(left, now: eventTime.turn ?? driver.now, bySeek: !atEnd)
            }
        }
        if previous?.source != item.source {
            if case let .ad(breakId, adIndex)? = previous?.source {
                recordBoundary(breakId, master ? \.lastAd : \.lastAdAudio, previous!.stamp)
                if master { leaveAd(breakId: breakId, adIndex: adIndex, lastFrame: previous!.stamp, completed: true) }
                if master, item.source.breakId != breakId { leaveBreak(breakId) }
                if !item.source.isAd { recordBoundary(breakId, master ? \.firstContentAfter : \.firstContentAudioAfter, stamp) }
            }
            if case let .ad(breakId, adIndex) = item.source {
                if previous?.source.breakId != breakId {
                    if let previous, previous.source == .content {
                        recordBoundary(breakId, master ? \.lastContentBefore : \.lastContentAudioBefore, previous.stamp)
                    }
                    recordBoundary(breakId, master ? \.firstAd : \.firstAdAudio, stamp)
                    if master, isBlackout(breakId) {
                        if !stillInBlackout { blackoutStarted(breakId, frame: stamp, now: eventTime.turn ?? driver.now) }
                    } else if master {
                        enterBreakPresentation(breakId)
                    }
                }
                if master { startAd(breakId: breakId, adIndex: adIndex, frame: stamp) }
            }
        }
        if master, case let .ad(breakId, adIndex) = item.source { progress(breakId: breakId, adIndex: adIndex, frame: stamp) }
    }

    /// Publishes the timeline to outside readers (``MediaPlayer/timeline``), then posts
    /// `timelineChanged`, so a subscriber reading the timeline on that event sees the new one.
    func postTimelineChanged() {
        let timeline = state.timeline
        publish { $0.timeline = timeline }
        bus.post(.timelineChanged(breaks: timeline.breaks.count))
    }

    /// Playback ends (completed or stopped) inside an ad: the ad and its break end there.
    func closeAdAtEnd() {
        guard let last = state.lastPresented[masterKind], case let .ad(breakId, adIndex) = last.source else { return }
        // A post-roll (or a stop inside an ad) has no content frame after it: its last ad frames are the last
        // presented, recorded here (they were recorded only on the way back to content).
        recordBoundary(breakId, \.lastAd, last.stamp)
        for (kind, presented) in state.lastPresented where kind != masterKind && presented.source.breakId == breakId {
            recordBoundary(breakId, \.lastAdAudio, presented.stamp)
        }
        leaveAd(breakId: breakId, adIndex: adIndex, lastFrame: last.stamp, completed: true)
        // A blackout does not end with the session: no content frame came after it.
        if !isBlackout(breakId) { leaveBreak(breakId) }
        state.lastPresented = [:]
    }

    /// Playback stalls right after an ad's last frame (live: content resumes at the cue's end, which is
    /// not out yet): the ad completes at its end, and its break with it when it was the last ad, not
    /// when the next frame comes seconds later. The boundary still records that next frame.
    func completeAdBeforeStall() {
        guard let last = state.lastPresented[masterKind], case let .ad(breakId, adIndex) = last.source, !isBlackout(breakId),
              !state.adsEndedEarly.contains(last.source),
              let info = adInfo(breakId: breakId, adIndex: adIndex, offset: last.stamp.sourceSeconds + last.stamp.durationSeconds,
                                pts: last.stamp.ptsSeconds),
              info.offsetSeconds >= info.durationSeconds - last.stamp.durationSeconds / 2 else { return }
        leaveAd(breakId: breakId, adIndex: adIndex, lastFrame: last.stamp, completed: true)
        state.adsEndedEarly.insert(last.source)
        if adIndex == state.timeline.breaks[info.breakIndex].ads.count - 1 {
            leaveBreak(breakId)
            state.breaksEndedEarly.insert(breakId)
        }
    }

    /// The ad-event description of ad `adIndex` of break `breakId` at a presented frame.
    func adInfo(breakId: String, adIndex: Int, offset: Double, pts: Double?) -> AdEventInfo? {
        guard let breakIndex = state.timeline.index(ofBreak: breakId) else { return nil }
        let adBreak = state.timeline.breaks[breakIndex]
        guard adBreak.ads.indices.contains(adIndex) else { return nil }
        let ad = adBreak.ads[adIndex]
        return AdEventInfo(breakId: breakId, breakIndex: breakIndex, adId: ad.id, adIndex: adIndex, url: ad.url,
                           durationSeconds: ad.durationSeconds, offsetSeconds: offset, pts: pts ?? offset)
    }

    private func recordBoundary(_ breakId: String, _ field: WritableKeyPath<AdBoundaryRecord, BoundaryFrame?>, _ frame: BoundaryFrame) {
        guard let index = state.boundaryIndex[breakId] else { return }
        // Ends (last frames) move with every frame; starts keep the first one.
        if report.adBoundaries[index][keyPath: field] == nil || field == \.lastAd || field == \.lastAdAudio {
            report.adBoundaries[index][keyPath: field] = frame
        }
    }

    private func enterBreakPresentation(_ breakId: String) {
        guard let index = state.timeline.index(ofBreak: breakId) else { return }
        // Watched on entering its first ad (PSDK default; the selector's watched policy decides).
        state.timeline = adPolicySelector?.timeline(state.timeline, afterAdStarted: index, adIndex: 0) ?? state.timeline.markingWatched(index)
        bus.post(.adBreakStarted(breakId: breakId, breakIndex: index, ads: state.timeline.breaks[index].ads.count))
    }

    /// Leaves a break (nothing when it was already left at a stall after its last ad).
    func leaveBreak(_ breakId: String) {
        if isBlackout(breakId) { blackoutEnded(breakId, now: eventTime.turn ?? driver.now); return }
        guard state.breaksEndedEarly.remove(breakId) == nil, let index = state.timeline.index(ofBreak: breakId) else { return }
        if let selector = adPolicySelector { state.timeline = selector.timeline(state.timeline, afterBreakCompleted: index) }
        bus.post(.adBreakCompleted(breakId: breakId, breakIndex: index))
    }

    private func startAd(breakId: String, adIndex: Int, frame: BoundaryFrame) {
        state.adProgressMark = (-1, 0, 0)
        // A blackout's alternate content is not an ad: each play of it is counted, nothing is posted.
        if let index = state.blackoutIndex[breakId] { report.blackouts[index].alternateLoops += 1; return }
        guard let info = adInfo(breakId: breakId, adIndex: adIndex, offset: frame.sourceSeconds, pts: frame.ptsSeconds) else { return }
        bus.post(.adStarted(info))
        postCompanions(of: info)
    }

    /// The companion banners of the ad that started (F15, the PSDK's companions exposed on ad start): a custom
    /// `adCompanions` event with the ad's ids and its companions as JSON (size, slot, resources, click-through,
    /// click and view tracking). Nothing is shown headless, so no view beacon fires by itself.
    private func postCompanions(of info: AdEventInfo) {
        guard let index = state.timeline.index(ofBreak: info.breakId), state.timeline.breaks[index].ads.indices.contains(info.adIndex) else { return }
        let companions = state.timeline.breaks[index].ads[info.adIndex].companions
        guard !companions.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(companions) else { return }
        bus.post(.custom(name: "adCompanions", payload: ["breakId": info.breakId, "adId": info.adId, "adIndex": String(info.adIndex),
                                                          "companions": String(decoding: json, as: UTF8.self)]))
    }

    /// Leaves an ad: completed when its last frame reached its end, else skipped; nothing when it was
    /// already left at a stall after its last frame (``completeAdBeforeStall()``).
    func leaveAd(breakId: String, adIndex: Int, lastFrame: BoundaryFrame, completed: Bool) {
        guard !isBlackout(breakId) else { return }
        guard state.adsEndedEarly.remove(.ad(breakId: breakId, adIndex: adIndex)) == nil, let info = adInfo(breakId: breakId, adIndex: adIndex, offset: lastFrame.sourceSeconds + lastFrame.durationSeconds,
                                pts: lastFrame.ptsSeconds) else { return }
        let reachedEnd = info.offsetSeconds >= info.durationSeconds - lastFrame.durationSeconds / 2
        let cutShort = state.adsCutShort.remove(.ad(breakId: breakId, adIndex: adIndex)) != nil
        bus.post(completed && reachedEnd && !cutShort ? .adCompleted(info) : .adSkipped(info))
    }

    /// adProgress once per whole second of the ad, at the first frame at or past each quartile and at
    /// the first frame at or past each of the ad's VAST progress offsets.
    private func progress(breakId: String, adIndex: Int, frame: BoundaryFrame) {
        guard !isBlackout(breakId), let info = adInfo(breakId: breakId, adIndex: adIndex, offset: frame.sourceSeconds, pts: frame.ptsSeconds),
              info.durationSeconds > 0 else { return }
        let second = Int((info.offsetSeconds + 1e-9).rounded(.down))
        let quartile = min(3, Int((info.offsetSeconds / info.durationSeconds * 4 + 1e-9).rounded(.down)))
        let tracking = state.timeline.breaks[info.breakIndex].ads[adIndex].progressTracking
        let offsets = tracking.reduce(0) { $0 + ($1.offsetSeconds(forDuration: info.durationSeconds) <= info.offsetSeconds + 1e-9 ? 1 : 0) }
        let mark = state.adProgressMark
        guard second > mark.second || quartile > mark.quartile || offsets > mark.offsets else { return }
        state.adProgressMark = (max(second, mark.second), max(quartile, mark.quartile), max(offsets, mark.offsets))
        bus.post(.adProgress(info))
    }
}

extension SpliceSource {
    /// The break of an ad source.
    var breakId: String? { if case let .ad(breakId, _) = self { return breakId } else { return nil } }
}
