import Foundation
import PlayheadHLS
import PlayheadMedia

extension MediaPlayer {
    /// Runs the session to its end and returns the report. Call once.
    /// - Parameter maxSessionSeconds: Stop after this much session time (nil: play to the end).
    public func run(maxSessionSeconds: Double? = nil) async -> PlaybackReport {
        state.rate = configuration.effectiveRate
        qos.recordLoadStarted(at: driver.now)
        state.sessionLimit = maxSessionSeconds
        await loadItem()
        var lastTime = -1.0, turnsWithoutProgress = 0
        while !state.finished {
            let now = driver.now
            eventTime.turn = now
            // A virtual run that keeps turning without time moving is a bug; end it rather than spin.
            turnsWithoutProgress = now == lastTime ? turnsWithoutProgress + 1 : 0
            lastTime = now
            if driver.isVirtual, turnsWithoutProgress > Self.maxTurnsWithoutProgress {
                fail(PlayerNotification.make(.playbackError, metadata: ["DESCRIPTION": "the virtual clock stopped advancing at \(now) s (internal error)"], playerTime: now), now: now, resumable: false)
                break
            }
            for command in takeCommands() { await apply(command, now: now) }
            if state.finished { break }
            if let pending = state.pendingResume, (maxSessionSeconds.map { now < $0 } ?? true) {
                // A failure waits for its resume (F25): nothing else moves until then.
                guard now >= pending.at - 1e-9 else {
                    publishSnapshot(now: now)
                    eventTime.turn = nil
                    let completed = await driver.wait(until: min(pending.at, maxSessionSeconds ?? .infinity))
                    eventTime.turn = driver.now
                    for (id, result) in completed { await handle(id, result) }
                    lastTime = -1
                    continue
                }
                resume(at: nil, autoplay: pending.autoplay, now: now)
            }
            if let limit = maxSessionSeconds, now >= limit {
                // As a stop command does: an ad playing now is left (adSkipped, its break ends).
                closeAdAtEnd()
                setStatus(.stopped, now: now)
                state.finished = true
                break
            }
            turn(now: now)
            if state.finished { break }
            while !state.selections.isEmpty { await apply(state.selections.removeFirst(), now: now) }
            await startTransfers(now: now)
            checkNothingToLoad(now: now)
            if state.finished { break }
            publishSnapshot(now: now)
            if waitsForCommand {
                await commandArrival()
                lastTime = -1
                continue
            }
            let deadline = nextDeadline(now: now, limit: maxSessionSeconds)
            eventTime.turn = nil
            let completed = await driver.wait(until: deadline)
            eventTime.turn = driver.now
            if completed.isEmpty, deadline == nil, driver.isVirtual, state.transfers.isEmpty {
                fail(PlayerNotification.make(.playbackError, metadata: ["DESCRIPTION": "nothing left to wait for on the virtual clock (paused with no resume?)"], playerTime: driver.now), now: driver.now, resumable: false)
                break
            }
            for (id, result) in completed { await handle(id, result) }
        }
        eventTime.turn = nil
        return finishReport()
    }

    /// True when only a command from outside can move the session on and its clock is virtual: paused
    /// without a scheduled resume, or ready without autoplay (``PlayerConfiguration/externallyControlled``).
    var waitsForCommand: Bool {
        guard configuration.externallyControlled, driver.isVirtual, state.resumeAt == nil else { return false }
        return state.status == .paused || state.status == .ready
    }

    /// Virtual session seconds a VOD may wait for media with nothing under way that could bring it.
    static let nothingToLoadSeconds = 30.0

    /// On the virtual clock, a VOD waiting for media with no transfer, retry or failover under way
    /// waits for nothing: after ``nothingToLoadSeconds`` it ends in error naming what it waits for (a
    /// segment missing from the playlist in use ran the clock on for ever, its memory with it).
    func checkNothingToLoad(now: Double) {
        guard driver.isVirtual, state.wantsPlay, state.status == .playing, !state.clockRunning, !state.endLoaded,
              state.transfers.isEmpty, state.segmentRetry == nil, state.failover == nil, state.pendingSwitch == nil,
              let tracker = state.tracker, nextReloadTime(tracker) == nil, frames.count == 0 else {
            state.idleSince = nil
            return
        }
        let since = state.idleSince ?? now
        state.idleSince = since
        guard now - since >= Self.nothingToLoadSeconds else { return }
        let waiting = state.nextSequence.map { "media sequence \($0), which \(state.mediaURL) does not list" } ?? "media"
        fail(PlayerNotification.make(.playbackError, metadata: ["URL": state.mediaURL, "DESCRIPTION":
            String(format: "nothing to load: playback has waited %.0f s for %@, with nothing under way", now - since, waiting)],
                                     playerTime: now), now: now)
    }

    /// Loop turns at one virtual time after which the run is ended as stuck.
    static let maxTurnsWithoutProgress = 100_000

    /// Where the item ends: the end of the last presented frame or of the last segment loaded, whichever is later.
    var completionPosition: Double { max(state.presentedEnd ?? state.anchorPosition, state.loadedEnd ?? 0) }

    /// One turn of the loop at session time `now`: scheduled commands, decoding ahead, buffering,
    /// presentation, completion, QoS.
    func turn(now: Double) {
        runScheduled(now: now)
        if let resumeAt = state.resumeAt, now >= resumeAt {
            state.resumeAt = nil
            startPlaying(now: now)
        }
        fillFrames(now: now)
        updateBuffering(now: now)
        presentDue(now: now)
        updateSubtitles(now: now)
        decodeAhead(now: now)
        buffer.trimBack(position: state.position(at: now))
        checkStall(now: now)
        checkLiveStuck(now: now)
        checkCompletion(now: now)
        if let sample = qos.sampleIfDue(at: now) { report.samples.append(sample) }
        let position = state.position(at: now)
        if state.clockRunning, Int(position) != state.lastTimeEventSecond {
            state.lastTimeEventSecond = Int(position)
            bus.post(.timeChanged(seconds: position))
        }
    }

    /// The next session time something is due, or nil to wait for a transfer or a command.
    func nextDeadline(now: Double, limit: Double?) -> Double? {
        var times: [Double] = []
        if state.clockRunning {
            if let next = frames.earliest() { times.append(state.time(atPosition: next.timelineSeconds)) }
            // The same conditions as checkStall and checkCompletion, so a deadline always leads somewhere.
            if frames.peek(masterKind) == nil, !state.endLoaded {
                times.append(state.time(atPosition: max(buffer.bufferedEnd ?? state.anchorPosition, state.presentedEnd ?? 0)))
            }
            if state.endLoaded, state.drained, frames.count == 0 {
                times.append(state.time(atPosition: completionPosition))
            }
            if let index = nextReachableCommand { times.append(state.time(atPosition: scheduled[index].atPositionSeconds)) }
            if let cue = nextSubtitleTime(now: now) { times.append(cue) }
        }
        if let subtitles = nextSubtitleLoadTime() { times.append(subtitles) }
        if let since = state.subtitleWaitSince { times.append(since + Self.subtitleStartWaitSeconds) }
        if let audio = nextAudioReloadTime() { times.append(audio) }
        if let tracker = state.tracker, let reload = nextReloadTime(tracker), !state.transfers.values.contains(where: { if case .playlist = $0 { return true } else { return false } }) {
            times.append(reload)
        }
        // A retry is taken when loading wants media: one already due while the buffer is full (a seek back into it
        // during the retries) is no deadline, or the virtual clock stood still at it (QA42 #1: an internal error,
        // and the loaded frames after the seek never shown). The tick below wakes the loop meanwhile.
        if let retry = state.segmentRetry, retry.at > now { times.append(retry.at) }
        if let failback = state.failbackAt, !state.endLoaded { times.append(failback) }
        if let resume = state.resumeAt { times.append(resume) }
        // A failure waiting for its resume: the resume is due then, not at the next tick.
        if let pending = state.pendingResume { times.append(pending.at) }
        if let limit { times.append(limit) }
        if state.status == .playing || state.status == .paused { times.append((now + 1e-9).rounded(.down) + 1) }
        guard let earliest = times.min() else { return nil }
        return max(earliest, now)
    }

    /// Session time between two copies of the report so far.
    static let reportPublishIntervalSeconds = 0.25

    func publishSnapshot(now: Double) {
        let position = state.position(at: now)
        let levels = buffer.levels(at: position)
        qos.setBufferLength(buffer.level(at: position), video: levels[.video], audio: levels[.audio])
        let information = qos.information(at: now)
        let tracker = state.tracker
        let status = state.status
        let seekable = tracker.map(timelineSeekableRange)
        let timeline = state.timeline
        // A copy of the report without its longest arrays (the loop's next append does not copy them),
        // at most every quarter second of session time or at a status change: each copy makes the loop's
        // next change to a shared record copy it.
        var partial: PlaybackReport?
        if state.finished || state.reportPublished.map({ now - $0.at >= Self.reportPublishIntervalSeconds || $0.status != status }) ?? true {
            state.reportPublished = (now, status)
            var copy = report
            copy.samples = []
            copy.notifications = []
            copy.finalStatus = status
            copy.sessionSeconds = now
            copy.positionSeconds = position
            copy.playbackInformation = information
            copy.totalRebufferSeconds = copy.rebuffers.reduce(0) { $0 + $1.durationSeconds }
            copy.driftSeconds = copy.mediaSeconds - copy.manifestSeconds
            copy.adTimeline = timeline
            partial = copy
        }
        publish {
            if let partial { $0.report = partial }
            $0.status = status
            $0.position = position
            $0.information = information
            $0.isLive = tracker?.isLive ?? false
            $0.seekable = seekable
            $0.duration = (tracker?.isLive ?? true) ? nil : seekable?.upperBound
            $0.timeline = timeline
        }
        // A live session's distance to the edge, also after its ENDLIST came (it stopped there).
        if let tracker, report.isLive, state.clockRunning {
            let distance = tracker.liveEdgeSeconds - position
            report.liveEdgeDistanceSeconds = distance
            report.maxLiveEdgeDistanceSeconds = max(report.maxLiveEdgeDistanceSeconds ?? distance, distance)
        }
    }

    func finishReport() -> PlaybackReport {
        let now = driver.now
        if let stall = state.stall { closeRebuffer(stall, at: now, resumed: false) }
        finishCaptions()
        decoder.reset()
        buffer.clear()
        report.finalStatus = state.status
        report.sessionSeconds = now
        report.positionSeconds = state.position(at: now)
        report.playbackInformation = qos.information(at: now)
        report.notifications = bus.notificationHistory.items
        // Always there (no break placed: an empty list), as adBoundaries and beacons are.
        report.adTimeline = state.timeline
        report.adBoundaries.removeAll(where: \.presentedNothing)
        state.boundaryIndex = [:]
        report.totalRebufferSeconds = report.rebuffers.reduce(0) { $0 + $1.durationSeconds }
        report.driftSeconds = report.mediaSeconds - report.manifestSeconds
        publishSnapshot(now: now)
        return report
    }
}
