import Foundation
import PlayheadHLS

/// Subtitles (F22): the track chosen among the variant's SUBTITLES renditions and the sidecar files is
/// loaded beside the content (its playlist reloaded when live, its WebVTT files a little ahead of the
/// playhead), its cue times mapped onto the content through X-TIMESTAMP-MAP and the content's own
/// timestamps, and each cue is shown and hidden when the playhead reaches its start and end.
extension MediaPlayer {
    /// Slack when comparing the playhead with a cue's times: a deadline computed from a cue's time can
    /// land a rounding error short of it.
    static let subtitleSlackSeconds = 1e-9

    /// Lists the subtitle tracks offered (the SUBTITLES group the variants name, then the sidecar files),
    /// reports them, and starts loading the one `configuration.subtitles` picks.
    func setUpSubtitles(_ multivariant: MultivariantPlaylist?, variant: VariantStream?, baseURL: String, now: Double) async {
        var options: [SubtitleOption] = []
        var refused: [String] = []
        var missingGroup: String?
        // The group of the variant played first (else the first any variant names).
        if let multivariant, let group = variant?.subtitles ?? multivariant.variants.lazy.compactMap(\.subtitles).first {
            options = SubtitleOption.options(in: multivariant, group: group, baseURL: baseURL, refused: &refused)
            if !multivariant.media.contains(where: { $0.type == .subtitles && $0.groupId == group }) { missingGroup = group }
        }
        options += configuration.sidecarSubtitles.map(\.option)
        let choice = configuration.subtitles
        guard !options.isEmpty || choice != .automatic || missingGroup != nil || !refused.isEmpty else { return }
        var subtitles = SubtitleReport()
        subtitles.issues = refused
        if let missingGroup {
            subtitles.issues.append("the variant names SUBTITLES group \"\(missingGroup)\", which no EXT-X-MEDIA defines")
        }
        subtitles.options = options
        subtitles.choice = choice
        subtitles.selected = choice.pick(from: options)
        if !options.isEmpty {
            bus.post(.custom(name: "mediaSelectionOptionsAvailable", payload: [
                "subtitles": options.map(\.name).joined(separator: "\n"),
            ]))
        }
        if case let .track(wanted) = choice, subtitles.selected == nil {
            let issue = "no subtitle track is named \(wanted) or has that language; offered: \(options.offered)"
            subtitles.issues.append(issue)
            notify(.subtitleTrackChangeFail, metadata: ["DESCRIPTION": issue], now: now)
        }
        report.subtitles = subtitles
        guard let index = subtitles.selected else { return }
        state.subtitles = SubtitleTrackState(option: options[index])
        notify(.subtitlesTrackChange, metadata: ["NAME": options[index].name, "LANGUAGE": options[index].language ?? "", "URL": options[index].url], now: now)
        await startSubtitleTransfers(now: now)
    }

    /// Shows another subtitle track (or none) from now on: the cues showing hide, the new track loads.
    func selectSubtitles(_ choice: SubtitleChoice, now: Double) async {
        let options = report.subtitles?.options ?? []
        let index = choice.pick(from: options)
        if case let .track(wanted) = choice, index == nil {
            let issue = "no subtitle track is named \(wanted) or has that language; offered: \(options.offered)"
            report.subtitles?.issues.append(issue)
            notify(.subtitleTrackChangeFail, metadata: ["DESCRIPTION": issue], now: now)
            return
        }
        guard report.subtitles != nil else { return }
        guard index != report.subtitles?.selected else { return }
        hideSubtitles(at: state.position(at: now), now: now)
        cancelTransfers {
            switch $0 {
            case .subtitlePlaylist, .subtitleFile: true
            default: false
            }
        }
        report.subtitles?.selected = index
        report.subtitles?.choice = choice
        state.subtitles = index.map { SubtitleTrackState(option: options[$0]) }
        notify(.subtitlesTrackChange, metadata: ["NAME": index.map { options[$0].name } ?? "off", "LANGUAGE": index.flatMap { options[$0].language } ?? "",
                                                  "URL": index.map { options[$0].url } ?? ""], now: now)
        await startSubtitleTransfers(now: now)
    }

    /// Starts what the subtitle track needs now: its playlist (first load or a live reload) or the next
    /// WebVTT file within reach of the playhead. One subtitle transfer at a time.
    func startSubtitleTransfers(now: Double) async {
        guard let track = state.subtitles, !track.givenUp, !state.finished, state.status != .error, !subtitleTransferUnderWay else { return }
        if let retry = track.retry, now < retry.at { return }
        if track.option.source == .sidecar {
            guard !track.sidecarLoaded else { return }
            await startSubtitleFetch(url: track.option.url, segment: nil)
            return
        }
        guard let tracker = track.tracker else {
            if track.reloadRetryAt.map({ now >= $0 }) ?? true { await startSubtitlePlaylistFetch() }
            return
        }
        if let due = tracker.nextReloadTime(), now >= max(due, track.reloadRetryAt ?? due) {
            await startSubtitlePlaylistFetch()
            return
        }
        let content = state.timeline.localSeconds(atVirtual: state.position(at: now))
        let horizon = content + min(configuration.buffer.maximumSeconds, 30) + tracker.targetDurationSeconds
        let offset = track.playlistOffset
        guard let next = tracker.segments.first(where: {
            !track.loaded.contains($0.mediaSequence) && $0.endSeconds + offset > content && $0.startSeconds + offset < horizon
        }) else { return }
        await startSubtitleFetch(url: track.option.url, segment: next)
    }

    /// A subtitle playlist or file is being fetched (one at a time).
    var subtitleTransferUnderWay: Bool {
        state.transfers.values.contains {
            switch $0 {
            case .subtitlePlaylist, .subtitleFile: return true
            default: return false
            }
        }
    }

    private func startSubtitlePlaylistFetch() async {
        guard let url = state.subtitles?.option.url else { return }
        await startPlaylistFetch(url, as: .subtitlePlaylist)
    }

    private func startSubtitleFetch(url: String, segment: TrackedSegment?) async {
        guard let segment else { return await startPlaylistFetch(url, as: .subtitleFile(mediaSequence: nil)) }
        let id = nextTransferID()
        state.transfers[id] = .subtitleFile(mediaSequence: segment.mediaSequence)
        await fetch(segment.segment, baseURL: url, id: id)
    }

    /// Takes in the subtitle playlist: the first load, or a live reload.
    func subtitlePlaylistArrived(_ result: TransferResult, now: Double) {
        guard var track = state.subtitles else { return }
        defer { state.subtitles = track }
        let playlist: MediaPlaylist
        do {
            playlist = try mediaPlaylist(in: try result.get(), detail: "a subtitle track's URI gave a multivariant playlist")
        } catch {
            track.reloadFailures += 1
            let named = "\(error)".contains(track.option.url)
            let issue = named ? "\(error)" : "\(track.option.url): \(error)"
            // The first load failing for good leaves the session without subtitles, said once; a live
            // reload failing keeps the cues already known.
            if track.reloadFailures > configuration.fetchRetries {
                noteSubtitleIssue(issue + " (subtitles given up)")
                notify(.subtitleTrackChangeFail, metadata: ["DESCRIPTION": issue, "URL": track.option.url], now: now)
                track.givenUp = true
                return
            }
            noteSubtitleIssue(issue)
            track.reloadRetryAt = now + Double(1 << (track.reloadFailures - 1))
            return
        }
        track.reloadFailures = 0
        track.reloadRetryAt = nil
        if var tracker = track.tracker {
            _ = tracker.update(with: playlist, loadedAt: now)
            track.tracker = tracker
        } else {
            let tracker = LivePlaylistTracker(first: playlist, loadedAt: now)
            // Live, the two playlists' times start where each was first loaded, and their media sequences
            // need not match (subtitle segments are often longer): their live edges, loaded together, are
            // the same moment. Only the choice of files to fetch uses it; cue times come from the files.
            if let content = state.tracker, content.isLive { track.playlistOffset = content.liveEdgeSeconds - tracker.liveEdgeSeconds }
            track.tracker = tracker
        }
    }

    /// Takes in a WebVTT file of the track (a segment, or the sidecar file when `mediaSequence` is nil).
    func subtitleFileArrived(_ result: TransferResult, mediaSequence: Int?, now: Double) {
        guard var track = state.subtitles else { return }
        defer { state.subtitles = track }
        let transfer: NetworkTransfer
        do {
            transfer = try result.get()
        } catch {
            let attempt = (track.retry?.mediaSequence == mediaSequence ? track.retry?.attempt ?? 0 : 0) + 1
            bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification(for: error, now: now).metadata, playerTime: now)))
            // Said at the first failure (a session may end before the retries are spent), once.
            noteSubtitleIssue("\(error)")
            if attempt > configuration.fetchRetries {
                // The same failure, now final: its first line becomes this one (each file was listed twice).
                let final = "\(error) (the file's cues are left out)"
                if let first = report.subtitles?.issues.lastIndex(of: "\(error)") { report.subtitles?.issues[first] = final } else { noteSubtitleIssue(final) }
                track.retry = nil
                markSubtitleFileDone(&track, mediaSequence: mediaSequence)
            } else {
                track.retry = (mediaSequence, attempt, now + Double(1 << (attempt - 1)))
            }
            return
        }
        track.retry = nil
        record(transfer)
        markSubtitleFileDone(&track, mediaSequence: mediaSequence)
        report.subtitles?.filesLoaded += 1
        let document: WebVTTDocument
        do {
            document = try WebVTTParser.parse(String(decoding: transfer.body, as: UTF8.self))
        } catch {
            let issue = "\(transfer.url): \(error)"
            report.subtitles?.issues.append(issue)
            notify(.webVTTParserError, metadata: ["DESCRIPTION": issue, "URL": transfer.url], now: now)
            return
        }
        for problem in document.issues {
            report.subtitles?.issues.append("\(transfer.url): line \(problem.line): \(problem.message)")
        }
        if let mediaSequence, let segment = track.tracker?.segment(mediaSequence: mediaSequence) {
            if document.timestampMap == nil, !document.cues.isEmpty {
                report.subtitles?.issues.append("\(transfer.url): no X-TIMESTAMP-MAP: WebVTT time 0 taken as media time 0 (RFC 8216 section 3.5)")
            }
            track.waiting.append(PendingSubtitleFile(document: document, discontinuitySequence: segment.discontinuitySequence, url: transfer.url))
            placeWaitingSubtitles(&track)
        } else {
            // A sidecar file's times are the content's (a map in it is not used, and that is said).
            if document.timestampMap != nil {
                noteSubtitleIssue("\(transfer.url): X-TIMESTAMP-MAP ignored: a sidecar file's cue times are content seconds")
            }
            addCues(document.cues.map { ($0, $0.startTime, $0.endTime) }, to: &track)
        }
    }

    /// Adds a problem to the report's subtitle issues unless the same text is there already.
    func noteSubtitleIssue(_ issue: String) {
        guard report.subtitles?.issues.contains(issue) == false else { return }
        report.subtitles?.issues.append(issue)
    }

    private func markSubtitleFileDone(_ track: inout SubtitleTrackState, mediaSequence: Int?) {
        if let mediaSequence { track.loaded.insert(mediaSequence) } else { track.sidecarLoaded = true }
    }

    /// Places the cues of the files whose discontinuity sequence the content has pinned: the cue's
    /// WebVTT time, through X-TIMESTAMP-MAP (LOCAL ↔ MPEGTS), is a media timestamp, which the content's
    /// anchor turns into content time as it does the frames'.
    func placeWaitingSubtitles(_ track: inout SubtitleTrackState) {
        guard !track.waiting.isEmpty else { return }
        var still: [PendingSubtitleFile] = []
        for file in track.waiting {
            let map = file.document.timestampMap
            let offset = map.map { Double($0.mpegts) / 90_000 - $0.local } ?? 0
            guard let base = anchor.pinnedContentSeconds(forPTS: offset, discontinuitySequence: file.discontinuitySequence) else {
                still.append(file)
                continue
            }
            addCues(file.document.cues.map { ($0, base + $0.startTime, base + $0.endTime) }, to: &track)
        }
        track.waiting = still
    }

    private func addCues(_ cues: [(cue: WebVTTCue, start: Double, end: Double)], to track: inout SubtitleTrackState) {
        var added = 0
        // To the microsecond: a 90 kHz tick is 11 µs, and the float sums of the mapping leave noise below it.
        for (cue, start, end) in cues.map({ ($0.cue, Self.micro($0.start), Self.micro($0.end)) }) {
            guard end > start else {
                noteSubtitleIssue(String(format: "cue %@ at %.3f s dropped: it ends at or before its start", cue.id.isEmpty ? "\"\(cue.plainText.prefix(30))\"" : cue.id, start))
                continue
            }
            let key = String(format: "%.6f|%.6f|", start, end) + cue.text
            guard track.cueKeys.insert(key).inserted else { continue }
            let base = cue.id.isEmpty ? String(format: "%@@%.3f", track.option.name, start) : cue.id
            let id = TimedMetadata.unique(base, in: &track.cueIDs)
            track.cues.append(SubtitleCue(id: id, track: track.option.name, startSeconds: start, endSeconds: end,
                                          text: cue.plainText, markup: cue.text))
            track.longestCueSeconds = max(track.longestCueSeconds, end - start)
            added += 1
        }
        if let position = state.started ? state.timeline.localSeconds(atVirtual: state.position(at: driver.now)) as Double? : nil {
            let missed = track.cues.suffix(added).filter { $0.endSeconds <= position }.count
            if missed > 0 { noteSubtitleIssue("\(missed) cue(s) of \(track.option.name) ended before their file was loaded (at \(String(format: "%.3f", position)) s): not shown") }
        }
        if added > 0 {
            track.cues.sort { ($0.startSeconds, $0.endSeconds) < ($1.startSeconds, $1.endSeconds) }
            report.subtitles?.cuesLoaded += added
        }
    }

    /// Shows the cues the playhead is inside (while the clock runs) and hides those it left: a
    /// `subtitleCueStarted` or `subtitleCueEnded` event and the report's record. Inside an ad no
    /// content cue shows. Only the cues near the playhead are looked at (found by binary search on
    /// their sorted starts), so a turn costs the same with 200 000 cues loaded as with 20.
    func updateSubtitles(now: Double) {
        guard var track = state.subtitles else { return }
        defer { state.subtitles = track }
        placeWaitingSubtitles(&track)
        let position = state.position(at: now)
        let content: Double?
        if state.started, case let .content(seconds) = state.timeline.position(atVirtual: position) { content = seconds } else { content = nil }
        let slack = Self.subtitleSlackSeconds
        // Hide first, so a cue ending where the next starts is said in that order.
        let leaving = track.showing.values.filter { showing in
            guard let content else { return true }
            return !(content + slack >= showing.cue.startSeconds && content + slack < showing.cue.endSeconds)
        }
        hide(leaving, of: &track, at: position, now: now)
        guard let content, state.clockRunning else { return }
        let from = track.firstCue(startingAfter: content + slack - track.longestCueSeconds, orAt: true)
        let to = track.firstCue(startingAfter: content + slack)
        guard from < to else { return }
        for cue in track.cues[from..<to] where track.showing[cue.id] == nil && content + slack < cue.endSeconds {
            track.showing[cue.id] = (report.subtitles?.shown.count ?? 0, cue)
            report.subtitles?.shown.append(SubtitleCueRecord(cue: cue, shownAtPosition: Self.micro(position), shownAtSeconds: now))
            bus.post(.subtitleCueStarted(cue))
        }
    }

    /// Longest the start of playback (or its resumption after a seek or stall) waits for the subtitle
    /// file of its position; past it the file's cues show when it comes.
    static let subtitleStartWaitSeconds = 2.0

    /// Whether playback about to start (or to go on after a seek) at `position` should wait for the subtitle file of that time
    /// (being fetched, not yet loaded), for at most ``subtitleStartWaitSeconds`` (a cue on screen at a
    /// start showed a frame or more late, when its file came).
    func subtitlesHoldStart(at position: Double, now: Double) -> Bool {
        // At the start and after a seek only: a stall resumes as soon as its media is back.
        guard let track = state.subtitles, !track.givenUp, !state.started || state.pendingSeek != nil,
              case let .content(content) = state.timeline.position(atVirtual: position) else {
            state.subtitleWaitSince = nil
            return false
        }
        let ready: Bool
        if track.option.source == .sidecar {
            ready = track.sidecarLoaded
        } else if let tracker = track.tracker {
            ready = tracker.segment(containing: content - track.playlistOffset).map { track.loaded.contains($0.mediaSequence) } ?? true
        } else {
            ready = false
        }
        // Only while the file (or its playlist) is on its way: a failure waiting for a retry is not.
        if ready || !subtitleTransferUnderWay {
            state.subtitleWaitSince = nil
            return false
        }
        let since = state.subtitleWaitSince ?? now
        state.subtitleWaitSince = since
        // Against the deadline the loop wakes at (since + wait), not now − since: that difference fell a
        // rounding error short of the wait at its deadline, and the virtual clock turned there for ever.
        if now < since + Self.subtitleStartWaitSeconds { return true }
        state.subtitleWaitSince = nil
        return false
    }

    /// `seconds` to the microsecond (a position reached by the clock carries float noise below it).
    static func micro(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }

    /// Hides every cue showing, the playhead at `position` (a seek leaves them where it starts).
    func hideSubtitles(at position: Double, now: Double) {
        guard var track = state.subtitles, !track.showing.isEmpty else { return }
        defer { state.subtitles = track }
        hide(Array(track.showing.values), of: &track, at: position, now: now)
    }

    /// Hides `cues` of those showing, in the order they started: their records get the playhead's
    /// `position` and the session time, and each a `subtitleCueEnded` event.
    private func hide(_ cues: [(index: Int, cue: SubtitleCue)], of track: inout SubtitleTrackState, at position: Double, now: Double) {
        for showing in cues.sorted(by: { ($0.cue.startSeconds, $0.index) < ($1.cue.startSeconds, $1.index) }) {
            track.showing[showing.cue.id] = nil
            report.subtitles?.shown[showing.index].hiddenAtPosition = Self.micro(position)
            report.subtitles?.shown[showing.index].hiddenAtSeconds = now
            bus.post(.subtitleCueEnded(showing.cue))
        }
    }

    /// The session time of the next cue start or end the playhead reaches (nil: none, or the clock stopped).
    func nextSubtitleTime(now: Double) -> Double? {
        guard let track = state.subtitles, state.clockRunning, !track.cues.isEmpty else { return nil }
        let position = state.position(at: now)
        let content = state.timeline.localSeconds(atVirtual: position)
        let slack = Self.subtitleSlackSeconds
        let nextStart = track.firstCue(startingAfter: content + slack)
        var next = nextStart < track.cues.count ? track.cues[nextStart].startSeconds : nil
        for showing in track.showing.values where showing.cue.endSeconds > content + slack {
            next = min(next ?? showing.cue.endSeconds, showing.cue.endSeconds)
        }
        return next.map { state.time(atPosition: state.timeline.virtualSeconds(forContent: $0)) }
    }
}

extension MediaPlayer {
    /// The session time the subtitle track next needs loading at, when that is a time and not the
    /// playhead's progress: a live reload, or a retry after a failure.
    func nextSubtitleLoadTime() -> Double? {
        guard let track = state.subtitles, !track.givenUp, !subtitleTransferUnderWay else { return nil }
        var times: [Double] = []
        if let retry = track.retry { times.append(retry.at) }
        if let tracker = track.tracker, let due = tracker.nextReloadTime() { times.append(max(due, track.reloadRetryAt ?? due)) }
        else if track.tracker == nil, let at = track.reloadRetryAt { times.append(at) }
        return times.min()
    }
}
