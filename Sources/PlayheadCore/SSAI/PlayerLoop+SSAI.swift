/// Server-side ad tracking in the player loop: the avails are read at load and at every playlist reload
/// (the tracking document's, and the playlist's cue markers), and every presented content frame of the
/// master kind goes through the ``SSAIAdTracker``; its events are posted as `custom` events named as the
/// Nowtilus SDK names them, with the beacon URLs they fire (the beacon tracker calls them).
extension MediaPlayer {
    /// Reads the tracking document (when one is configured): at load, and on live reloads.
    func loadSSAITracking() async {
        guard let settings = configuration.ssai, let url = settings.trackingURL else { return }
        do throws(PlayheadError) {
            let transfer = try await fetchInLine(url)
            report.bytesDownloaded += transfer.body.count
            do throws(SSAIError) {
                state.ssaiTrackingAvails = try SSAITrackingDocument.parse(transfer.body, source: url)
            } catch {
                ssaiTrackingFailed("\(error)")
            }
        } catch {
            ssaiTrackingFailed("the tracking document \(url) could not be loaded: \(error)")
        }
    }

    private func ssaiTrackingFailed(_ description: String) {
        if report.ssai?.trackingFailures.last != description { report.ssai?.trackingFailures.append(description) }
        bus.post(.custom(name: "ssaiTrackingError", payload: ["url": configuration.ssai?.trackingURL ?? "", "description": description]))
    }

    /// Merges the tracking document's avails with those the playlist's markers give (a marker avail that
    /// overlaps a tracked one is that one) and announces the new ones.
    func updateSSAI(_ tracker: LivePlaylistTracker) {
        guard configuration.ssai != nil else { return }
        let tracked = state.ssaiTrackingAvails
        let marked = SSAIMarkers.avails(segments: tracker.segments, dateRanges: tracker.playlist.dateRanges).filter { avail in
            !tracked.contains { other in
                let otherEnd = other.endSeconds ?? .infinity, end = avail.endSeconds ?? .infinity
                return avail.startSeconds < otherEnd - 1e-3 && other.startSeconds < end - 1e-3
            }
        }
        // Avails that left a live window stay known: the report keeps them, and an ad playing keeps its avail.
        let merged = tracked + marked
        let kept = state.ssai.avails.filter { old in !merged.contains { $0.id == old.id } && old.startSeconds < (tracker.segments.first?.startSeconds ?? 0) }
        postSSAI(state.ssai.update(kept + merged))
        report.ssai?.avails = state.ssai.avails
    }

    /// A frame was presented: content frames of the master kind drive the SSAI tracker, in playlist time (the
    /// avails' time; see ``PlaylistTimeMap``).
    func noteSSAI(_ item: PendingFrame) {
        guard configuration.ssai != nil, item.kind == masterKind, item.source == .content else { return }
        let seconds = state.playlistTimes.playlistSeconds(forContent: item.sourceSeconds)
        postSSAI(state.ssai.presented(seconds: seconds, durationSeconds: item.durationSeconds).map { event in
            var event = event
            event.framePTS = item.ptsSeconds
            event.frameMD5 = item.frame?.md5
            return event
        })
    }

    /// Playback ended: an ad played to its end completes.
    func finishSSAI() {
        guard configuration.ssai != nil else { return }
        postSSAI(state.ssai.finish())
    }

    /// The viewer skips the server-side ad playing (VOD, 5 s into it): `adSkipped`, then a seek to its end;
    /// otherwise `adSkipRefused` says why (and the report's refusals).
    func skipSSAIAd(now: Double) {
        let live = state.tracker?.isLive ?? false
        if configuration.ssai != nil, let (event, end) = state.ssai.skip(isLive: live) {
            postSSAI([event])
            // The ad's end is playlist time; the seek is on the content's own (where EXTINFs undercount, the ad's
            // media runs past it, and the seek landed inside the ad it skipped: a second impression).
            let content = state.playlistTimes.contentSeconds(forPlaylist: end) ?? end
            seek(to: state.timeline.virtualSeconds(forContent: content), now: now, applyPolicy: false, automatic: "ssaiSkip")
            return
        }
        let why = configuration.ssai == nil ? "the session does not track server-side ads (--ssai)"
            : state.ssai.skipRefusal(isLive: live) ?? "no server-side ad is playing"
        let position = state.position(at: now)
        report.ssai?.refusals.append("skip at \(String(format: "%.3f", position)) s: \(why)")
        var payload = ["ssai": "1", "reason": why, "position": String(format: "%.6g", position)]
        if let playhead = state.ssai.playhead {
            payload["availId"] = playhead.availId
            payload["adId"] = playhead.adId
            payload["contentSeconds"] = String(format: "%.6g", playhead.seconds)
        }
        bus.post(.custom(name: "adSkipRefused", payload: payload))
    }

    /// The viewer clicked while a server-side ad plays: `adClicked` with its click-through and click
    /// tracking. Returns false when no SSAI ad is playing.
    func clickSSAIAd() -> Bool {
        guard configuration.ssai != nil, let event = state.ssai.click() else { return false }
        postSSAI([event])
        return true
    }

    private func postSSAI(_ events: [SSAIEvent]) {
        for event in events {
            if event.name == "adRemainingTime" {
                report.ssai?.remainingTimeEvents += 1
            } else {
                report.ssai?.events.append(event)
            }
            bus.post(.custom(name: event.name, payload: event.payload))
        }
    }
}
