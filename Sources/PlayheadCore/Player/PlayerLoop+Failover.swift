import PlayheadHLS
import PlayheadNet

/// Failover between redundant variants (F24; RFC 8216bis 6.3.3): variants of the same BANDWIDTH are
/// one rung with backups. When the rung's media playlist cannot be loaded, or its segments keep
/// failing after their retries, or its live reloads fail, the player loads the next backup's playlist
/// and goes on from the same media sequence number. Each failure cycles through the backups once:
/// when every one of them failed too, the session ends in error. On a backup, the primary (the first
/// listed) is tried again ``PlayerConfiguration/failbackSeconds`` later at a segment boundary
/// (failback); if it still fails the session stays on the backup and tries again as long after.
extension MediaPlayer {
    /// Loads the first media playlist at `url`, or at its redundant backups in turn when it fails. The last one
    /// tried (the only one without backups) gets the retries of a first playlist (``fetchFirstPlaylist(_:)``):
    /// one 500 from the backup after the primary's 404 ended the session, where a lone variant played on.
    /// - Throws: The last failure, when none could be loaded.
    func loadFirstMediaPlaylist(_ url: String) async throws -> (NetworkTransfer, MediaPlaylist) {
        var candidates = state.redundantURLs.isEmpty ? [url] : state.redundantURLs
        if let start = candidates.firstIndex(of: url) { candidates = Array(candidates[start...] + candidates[..<start]) }
        var lastError: any Error = PlayheadError.unexpectedPlaylist(url: url, detail: "no media playlist")
        for (attempt, candidate) in candidates.enumerated() {
            do {
                let transfer = attempt + 1 == candidates.count ? try await fetchFirstPlaylist(candidate) : try await fetchInLine(candidate)
                record(transfer)
                guard case let .media(playlist) = try parse(transfer) else {
                    throw PlayheadError.unexpectedPlaylist(url: candidate, detail: "variant \(candidate) is not a media playlist")
                }
                state.redundantURLInUse = candidate
                if let index = state.pendingSwitch, state.ladder != nil { state.ladder!.variants[index].url = candidate }
                return (transfer, playlist)
            } catch {
                lastError = error
                guard attempt + 1 < candidates.count else { break }
                let warning = notification(for: error, now: driver.now)
                bus.post(.notification(PlayerNotification.make(.networkError, metadata: warning.metadata, playerTime: driver.now)))
                // Each hop is said as it is made, as in mid-stream: only the last one was, once a backup loaded.
                announceFailover(from: candidate, to: candidates[attempt + 1], reason: "\(error)")
            }
        }
        throw lastError
    }

    /// Starts loading the next redundant media playlist of the rung playing, after `failure`; the
    /// segment `resume` names is fetched again from it. False when no backup is left to try.
    func failOver(after failure: any Error, resume: SegmentRetry?, now: Double) async -> Bool {
        guard state.failover == nil, state.redundantURLs.count > 1 else { return false }
        // The playlist as listed (the one in use may have been redirected elsewhere: compared with the
        // list, a redirected URL was never marked tried and the rung failed over to itself for ever).
        let current = state.redundantURLInUse ?? state.mediaURL
        state.failoverTried.insert(current)
        let urls = state.redundantURLs
        let start = (urls.firstIndex(of: current) ?? -1) + 1
        guard let next = (urls[start...] + urls[..<min(start, urls.count)]).first(where: { !state.failoverTried.contains($0) }) else {
            return false
        }
        state.failover = (next, resume, "\(failure)", false)
        await startPlaylistFetch(next, as: .failoverPlaylist(url: next))
        return true
    }

    /// The backup's playlist came: it replaces the rung's, and the segment that failed is fetched again.
    func failoverArrived(_ transfer: NetworkTransfer, now: Double) async {
        guard let failover = state.failover else { return }
        record(transfer)
        let playlist: MediaPlaylist
        do {
            guard case let .media(media) = try parse(transfer) else {
                throw PlayheadError.unexpectedPlaylist(url: transfer.url, detail: "the backup is a multivariant playlist, not a media playlist")
            }
            playlist = media
        } catch {
            // Its own error (M3U8_PARSER_ERROR naming the URL and line), not a vague one.
            return await failoverFailed(error, now: now)
        }
        state.failover = nil
        let from = state.mediaURL
        state.redundantURLInUse = failover.url
        state.failbackAt = failover.url == state.redundantURLs.first ? nil : now + configuration.failbackSeconds
        let oldTracker = state.tracker
        var tracker = LivePlaylistTracker(first: playlist, loadedAt: now)
        if let old = state.tracker, old.isLive { tracker = tracker.aligned(to: old) }
        state.tracker = tracker
        state.mediaURL = transfer.effectiveURL
        report.mediaPlaylistURL = transfer.effectiveURL
        state.reloadFailures = nil
        if let index = state.ladderIndex, state.ladder != nil {
            state.ladder!.variants[index].url = failover.url
            if !tracker.isLive { state.variantPlaylists[index] = (playlist, transfer.effectiveURL) }
        }
        announceFailover(from: from, to: transfer.effectiveURL, reason: failover.reason)
        bus.post(.playlistLoaded(url: transfer.effectiveURL, segments: playlist.segments.count, changed: true))
        // A VOD playlist that numbers its segments otherwise: the segment at the same time.
        func renumbered(_ sequence: Int) -> Int? {
            guard !tracker.isLive, tracker.segment(mediaSequence: sequence) == nil else { return sequence }
            guard let start = oldTracker?.segment(mediaSequence: sequence)?.startSeconds else { return nil }
            return tracker.segment(containing: start + 1e-3)?.mediaSequence
        }
        if var resume = failover.resume {
            guard let sequence = renumbered(resume.mediaSequence) else {
                return fail(PlayerNotification.make(.playbackError, metadata: ["URL": transfer.url, "DESCRIPTION":
                    "the backup \(transfer.url) has no segment where media sequence \(resume.mediaSequence) of \(from) was"],
                                                    playerTime: now), now: now)
            }
            let shift = sequence - resume.mediaSequence
            resume.mediaSequence = sequence
            resume.at = now
            state.nextSequence = state.nextSequence.map { $0 + shift }
            state.segmentRetry = resume
        } else if let next = state.nextSequence, let sequence = renumbered(next) {
            state.nextSequence = sequence
        }
    }

    /// Starts trying the rung's primary playlist again when the failback time has come, at a segment
    /// boundary (nothing loading, nothing to retry).
    func failBackIfDue(now: Double, loadingSegment: Bool) async {
        guard let at = state.failbackAt, now >= at, !state.endLoaded, !loadingSegment, state.failover == nil, state.segmentRetry == nil,
              state.pendingSwitch == nil, let primary = state.redundantURLs.first, primary != state.redundantURLInUse else { return }
        state.failbackAt = nil
        state.failover = (primary, nil, "failback to the primary", true)
        await startPlaylistFetch(primary, as: .failoverPlaylist(url: primary))
    }

    /// The backup failed too: on to the next one, or the session ends.
    func failoverFailed(_ error: any Error, now: Double) async {
        guard let failover = state.failover else { return }
        state.failover = nil
        let warning = notification(for: error, now: now)
        bus.post(.notification(PlayerNotification.make(.networkError, metadata: warning.metadata, playerTime: now)))
        // The primary still fails: stay on the backup, and try it again as long after.
        if failover.failback {
            state.failbackAt = now + configuration.failbackSeconds
            return
        }
        state.failoverTried.insert(failover.url)
        let from = state.redundantURLInUse
        state.redundantURLInUse = failover.url
        if await failOver(after: error, resume: failover.resume, now: now) { return }
        state.redundantURLInUse = from
        // A failover for a failed live reload leaves the session to its reloads (retried, and a playlist
        // that stays unchanged ends it); one for a segment that kept failing ends it here.
        guard failover.resume != nil else { return }
        fail(notification(for: error, now: now), now: now)
    }

    /// A `failover` event: the rung's playlist moved from `from` to its backup `to`.
    private func announceFailover(from: String, to: String, reason: String) {
        bus.post(.custom(name: "failover", payload: ["from": from, "to": to, "reason": reason]))
    }

    /// A segment or playlist of the rung worked: the next failure may cycle through every backup again.
    func redundantRungWorked() {
        if !state.failoverTried.isEmpty { state.failoverTried = [] }
    }
}
