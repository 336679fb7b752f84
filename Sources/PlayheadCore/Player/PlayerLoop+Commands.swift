import PlayheadHLS

extension MediaPlayer {
    /// Applies a command at session time `now`.
    func apply(_ command: PlayerCommand, now: Double) async {
        switch command {
        case .play:
            // A failure waiting for its resume (F25): play resumes now, where it failed.
            if state.pendingResume != nil { resume(at: nil, autoplay: true, now: now) } else { startPlaying(now: now) }
        case .pause:
            pausePlayback(now: now)
        case let .seek(target):
            seek(to: target, now: now)
        case let .seekToLocal(local):
            seek(to: state.timeline.virtualSeconds(forLocal: local), now: now)
        case .clickAd:
            if !clickSSAIAd() { clickAd(now: now) }
        case .skipAd:
            skipSSAIAd(now: now)
        case let .selectAudio(choice):
            await selectAudio(choice, now: now)
        case let .selectSubtitles(choice):
            await selectSubtitles(choice, now: now)
        case let .resume(position, autoplay):
            resume(at: position, autoplay: autoplay, now: now)
        case .stop:
            closeAdAtEnd()
            finishSSAI()
            setStatus(.stopped, now: now)
            state.finished = true
        case let .setRate(rate):
            let position = state.position(at: now)
            state.anchorPosition = position
            state.anchorTime = now
            state.rate = rate > 0 ? rate : 1.0
        case let .replaceItem(url):
            cancelTransfers()
            buffer.clear()
            frames.clear()
            decoder.reset()
            anchor = TimestampAnchor()
            itemURL = url
            state = LoopState()
            state.rate = configuration.effectiveRate
            report.url = url
            await loadItem()
        }
    }

    /// The index of the first scheduled command the playhead can still reach by playing: none before
    /// where it last jumped to (``LoopState/playedFrom``).
    var nextReachableCommand: Int? {
        scheduled.firstIndex { $0.atPositionSeconds >= state.playedFrom - 1e-9 }
    }

    /// Runs the scheduled commands whose position the playhead has reached by playing, at the session
    /// time it reached them. A command whose position a start position or a seek jumped over waits until
    /// the playhead plays through it (after a seek back), rather than running at once, back-dated.
    func runScheduled(now: Double) {
        while let index = nextReachableCommand, state.clockRunning,
              state.position(at: now) >= scheduled[index].atPositionSeconds - 1e-9 {
            let next = scheduled.remove(at: index)
            let at = min(now, max(state.anchorTime, state.time(atPosition: next.atPositionSeconds)))
            switch next.action {
            case let .seek(target): seek(to: target, now: at)
            case let .seekToLocal(local): seek(to: state.timeline.virtualSeconds(forLocal: local), now: at)
            case let .pause(seconds):
                pausePlayback(now: at)
                state.resumeAt = at + seconds
            case .stop:
                closeAdAtEnd()
                finishSSAI()
                setStatus(.stopped, now: at)
                state.finished = true
                return
            case let .selectAudio(choice): state.selections.append(.selectAudio(choice))
            case let .selectSubtitles(choice): state.selections.append(.selectSubtitles(choice))
            case .clickAd: if !clickSSAIAd() { clickAd(now: at) }
            case .skipAd: skipSSAIAd(now: at)
            case let .resume(position, autoplay): resume(at: position, autoplay: autoplay, now: at)
            }
        }
    }

    /// Status playing; the clock starts once enough media is buffered.
    func startPlaying(now: Double) {
        guard [.ready, .paused, .completed, .playing].contains(state.status) else { return }
        if state.status == .completed { seek(to: 0, now: now) }
        state.wantsPlay = true
        let resuming = state.status == .paused
        if state.status != .playing { setStatus(.playing, now: now) }
        if resuming, let info = presentedAdInfo() { bus.post(.adResumed(info)) }
    }

    func pausePlayback(now: Double) {
        guard state.status == .playing else { return }
        freezeClock(at: now)
        state.wantsPlay = false
        setStatus(.paused, now: now)
        if let info = presentedAdInfo() { bus.post(.adPaused(info)) }
    }

    /// The ad presenting now, its offset at the end of its last presented frame (nil outside ads).
    func presentedAdInfo() -> AdEventInfo? {
        guard let last = state.lastPresented[masterKind], case let .ad(breakId, adIndex) = last.source else { return nil }
        return adInfo(breakId: breakId, adIndex: adIndex, offset: last.stamp.sourceSeconds + last.stamp.durationSeconds,
                      pts: last.stamp.ptsSeconds)
    }

    /// Stops the playhead where it is at `now`.
    func freezeClock(at now: Double) {
        if state.clockRunning { state.watchedSeconds += max(0, state.position(at: now) - state.anchorPosition) }
        state.anchorPosition = state.position(at: now)
        state.anchorTime = now
        state.clockRunning = false
    }

    /// Seeks on the playback timeline: flushes buffers and decoders, loads from the segment holding
    /// the target (content, or the start of the ad it falls in), and presents first the frame with the
    /// smallest timeline time at or after it. Breaks before a content target are passed. A target inside
    /// the content already fetched (forward or back buffer), in an item without breaks, plays from there:
    /// nothing is fetched again and the loading under way goes on.
    func seek(to requested: Double, now: Double, applyPolicy: Bool = true, automatic: String? = nil, reload: Bool = false) {
        guard let tracker = state.tracker else { return }
        let range = timelineSeekableRange(tracker)
        let from = state.position(at: now)
        var target = min(max(requested, range.lowerBound), range.upperBound)
        // Forward past the end of a live window's seekable range while the playhead is already nearer the
        // edge than that end (it stops three target durations short): the playhead stays, not go back.
        if requested >= from, target < from { target = from }
        // A blackout's range is not seekable: a target inside it lands at its end.
        if !report.blackouts.isEmpty {
            let content = contentSeconds(atVirtual: target)
            let adjusted = blackoutSeekTarget(content, requested: contentSeconds(atVirtual: requested))
            if adjusted != content { target = min(state.timeline.virtualSeconds(forContent: adjusted), range.upperBound) }
            target = openBlackoutSeekTarget(target)
        }
        let landing = target
        state.ssai.jump()
        bus.post(.seekStarted(from: from, to: target))
        notify(.seekStart, metadata: [:], now: now)
        hideSubtitles(at: from, now: now)
        let fromBuffer = !reload && state.timeline.breaks.isEmpty && buffer.rewind(toTimeline: target)
        report.seeks.append(SeekRecord(fromSeconds: from, toSeconds: target, requestedAt: now, automatic: automatic, fromBuffer: fromBuffer))
        state.pendingSeek = report.seeks.count - 1
        // A seek the user asks for ends a stall (the wait is the seek's); the player's own (the live window slid
        // past the next segment while it stalled) does not: the picture stays frozen until frames come, and
        // that is rebuffering (a 40 s session frozen for 21 s reported 6 s of it).
        if let stall = state.stall, automatic == nil { closeRebuffer(stall, at: now, resumed: true) }
        leaveAdForSeek()
        if !fromBuffer {
            cancelTransfers()
            state.segmentRetry = nil
            state.preroll = nil
            state.needsKeyframe = true
            buffer.clear()
            state.endLoaded = false
            // A segment that failed for good is tried again when loading reaches it.
            state.failureAfterPlayout = nil
            state.loadedEnd = nil
            resetAudioLane()
        }
        frames.clear()
        state.lastQueued = [:]
        decoder.reset()
        resetCaptions(leaving: from)
        for assets in state.adAssets.values { for asset in assets { asset.decoder.reset() } }
        state.decodingSegment = nil
        state.decidedSequence = nil
        state.drained = false
        state.presentedEnd = nil
        state.adCursor = nil
        state.contentResume = nil
        state.contentClipStart = nil
        // The ad policy decides where a seek over or into breaks really goes (PSDK table).
        if applyPolicy {
            state.breakQueue = []
            state.landingAfterBreak = nil
            if let selector = adPolicySelector, !state.timeline.breaks.isEmpty {
                let plan = selector.planSeek(state.timeline, fromVirtual: from, toVirtual: landing)
                target = plan.startVirtualSeconds
                if let resume = plan.resumeVirtualSeconds {
                    state.landingAfterBreak = resume
                    state.breakQueue = Array(plan.breaksToPlay.dropFirst())
                }
            }
        }
        // Breaks that start before the target are behind; those after it will play when reached.
        state.breaksDone = Set(state.timeline.breaks.indices.filter { state.timeline.virtualStart(ofBreak: $0) < target - Self.spliceSlackSeconds }
            .map { state.timeline.breaks[$0].id })
        switch state.timeline.position(atVirtual: target) {
        case let .content(content):
            state.contentOffset = target - content
            // A target at the very end (a seek past it is clamped there) is in no segment: the last one holds its frames.
            let atEnd = tracker.segments.last.map { content >= $0.endSeconds } ?? false
            if !fromBuffer {
                state.nextSequence = contentSegment(holding: content, in: tracker)?.mediaSequence
                    ?? (atEnd ? tracker.segments.last : tracker.segments.first)?.mediaSequence
            }
        case let .ad(breakIndex, adIndex, offset):
            // Into an ad: it plays from its start. Into a blackout (still open: a closed one's range was
            // left above): the alternate plays from the target, in the play of it that covers it.
            let adBreak = state.timeline.breaks[breakIndex]
            let breakStart = state.timeline.virtualStart(ofBreak: breakIndex)
            let adStart = breakStart + adBreak.ads[..<adIndex].reduce(0) { $0 + $1.durationSeconds }
            state.breaksDone.insert(adBreak.id)
            if state.boundaryIndex[adBreak.id] == nil { enterBreak(adBreak, now: now) }
            state.contentOffset = breakStart - adBreak.contentSeconds
            let asset = state.adAssets[adBreak.id]?[adIndex]
            let blackout = isBlackout(adBreak.id)
            let from = blackout ? asset?.tracker.segment(containing: offset) ?? asset?.tracker.segments.first : asset?.tracker.segments.first
            if let sequence = from?.mediaSequence {
                state.adCursor = AdLoadCursor(breakId: adBreak.id, adIndex: adIndex, mediaSequence: sequence,
                                              adTimelineStart: adStart, breakTimelineStart: breakStart)
            }
            if !blackout { target = adStart }
        }
        state.skipBefore = target
        state.captionsFrom = state.timeline.localSeconds(atVirtual: target)
        state.skipOthersBefore = target
        state.anchorPosition = target
        state.playedFrom = target
        state.requestedStart = nil
        state.anchorTime = now
        state.clockRunning = false
        if state.status == .completed { setStatus(.playing, now: now); state.wantsPlay = true }
    }

    /// Whether seeks and breaks met again find content segments by their recorded media: not in a session with
    /// blackouts, which replace content second for second on the playlist's own time (a seek into a closed blackout
    /// landed at its END tag's listed time on the media, 5 s of blacked-out content shown, QA42 #2).
    var findsSegmentsByMedia: Bool { configuration.blackout == nil }

    /// The content segment whose media holds content time `seconds`: one buffered before whose media holds it, or
    /// the one the playlist lists there by the drift the buffered ones show
    /// (``PlaylistTimeMap/estimatedPlaylistSeconds(forContent:)``). On the EXTINF grid alone, where EXTINFs
    /// undercount, a seek landed at the first frame of a later segment (EXTINF 1.5 for 2 s: a seek to 15 s at
    /// 20 s, and one back into a watched break 4 s past it, content never shown; QA41 #2).
    func contentSegment(holding seconds: Double, in tracker: LivePlaylistTracker) -> TrackedSegment? {
        guard findsSegmentsByMedia else { return tracker.segment(containing: seconds) }
        if let span = state.playlistTimes.span(holdingContent: seconds), let segment = tracker.segment(mediaSequence: span.mediaSequence) {
            return segment
        }
        if let listed = state.playlistTimes.estimatedPlaylistSeconds(forContent: seconds), let segment = tracker.segment(containing: listed) {
            return segment
        }
        return tracker.segment(containing: seconds)
    }

    /// The seekable range on the playback timeline (the content's, ads included).
    func timelineSeekableRange(_ tracker: LivePlaylistTracker) -> ClosedRange<Double> {
        let content = tracker.seekableRange()
        let lower = state.timeline.virtualSeconds(forContent: content.lowerBound)
        return lower...max(lower, state.timeline.virtualSeconds(forContent: content.upperBound))
    }

    /// A seek while an ad plays leaves it: adSkipped, and the break completes.
    private func leaveAdForSeek() {
        if let last = state.lastPresented[masterKind], case let .ad(breakId, adIndex) = last.source {
            // An ad (and break) that completed at a stall before the seek is not left again.
            leaveAd(breakId: breakId, adIndex: adIndex, lastFrame: last.stamp, completed: false)
            if isBlackout(breakId) {
                // Ended or not: the next frame says (a seek inside the blackout stays in it).
                state.blackoutLeftBySeek = breakId
            } else if state.breaksEndedEarly.remove(breakId) == nil, let index = state.timeline.index(ofBreak: breakId) {
                bus.post(.adBreakCompleted(breakId: breakId, breakIndex: index))
            }
        }
        state.lastPresented = [:]
    }

    func cancelTransfers() {
        cancelTransfers {
            switch $0 {
            case .segment, .adSegment, .audioSegment: true
            default: false
            }
        }
    }

    /// Drops the transfers under way that `matches` picks (their results are not waited for).
    func cancelTransfers(where matches: (PendingTransfer) -> Bool) {
        for (id, transfer) in state.transfers where matches(transfer) {
            driver.cancel(id)
            state.transfers[id] = nil
        }
    }

    /// Moves to `status` when the PSDK allows it; posts the change and PLAYER_STATE_CHANGE.
    func setStatus(_ status: PlayerStatus, now: Double, inner: PlayerNotification? = nil) {
        let from = state.status
        guard from != status, from.canTransition(to: status) else { return }
        state.status = status
        report.statuses.append(StatusRecord(status: status, playerTime: now))
        // Published before the event, with what the item's load made known (duration, liveness), so that
        // a consumer asking the player from its statusChanged handler (the heartbeat tracker's load and
        // start calls) sees the new status and the loaded item, not the turn before's.
        let tracker = state.tracker, seekable = state.tracker.map(timelineSeekableRange)
        publish {
            $0.status = status
            if let tracker {
                $0.isLive = tracker.isLive
                $0.duration = tracker.isLive ? nil : seekable?.upperBound
                $0.seekable = seekable
            }
        }
        stamped(now) {
            bus.post(.statusChanged(from: from, to: status))
            notify(.playerStateChange, metadata: ["STATE": status.rawValue], inner: inner, now: now)
        }
    }

    /// Posts a PSDK notification on the bus (which keeps the history), stamped `now`.
    func notify(_ code: NotificationCode, metadata: [String: String], inner: PlayerNotification? = nil, now: Double) {
        stamped(now) { bus.post(.notification(PlayerNotification.make(code, metadata: metadata, inner: inner, playerTime: now))) }
    }

    /// Runs `body` with events stamped `now`, the time the report records (on the real clock the
    /// driver's clock has moved on by a few microseconds, or more at load).
    func stamped(_ now: Double, _ body: () -> Void) {
        let saved = eventTime.turn
        eventTime.turn = now
        body()
        eventTime.turn = saved
    }

    /// Ends the session in error with `notification`, unless the resume policy lets it wait for a resume
    /// (`resumable`: false for the loop's own internal errors).
    func fail(_ notification: PlayerNotification, now: Double, resumable: Bool = true) {
        // What ends the session is an error: a warning that did (a timeout's NETWORK_ERROR) comes as
        // PLAYBACK_ERROR with the warning inside, as the guide nests causes.
        let notification = notification.type == .error ? notification
            : PlayerNotification(code: .playbackError, metadata: notification.metadata, inner: notification, playerTime: now)
        qos.recordError()
        let description = notification.metadata["DESCRIPTION"] ?? notification.name
        // A session that had started waits for its resume while the policy allows one (F25).
        if resumable, defersForResume(description, now: now) {
            // In the history, but not the session's error event: the session goes on (heartbeats ended at an error).
            bus.post(.notification(notification))
            return
        }
        endResume(outcome: "fail", detail: description, now: now)
        report.error = notification.metadata["DESCRIPTION"] ?? notification.name
        bus.post(.error(notification))
        setStatus(.error, now: now, inner: notification)
        state.finished = true
    }
}
