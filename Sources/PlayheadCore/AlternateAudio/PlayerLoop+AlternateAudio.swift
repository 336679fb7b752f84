import PlayheadHLS
import PlayheadMedia

/// Alternate audio (F21): when the variants name an AUDIO group whose chosen rendition has its own
/// playlist, that rendition's segments are loaded beside the video's (each before the video segment of
/// its time), and every video segment carries the rendition's audio packets of its time span in place of
/// any of its own (``DemuxedSegment/replacing(_:with:from:)``): one timeline, one decoder per kind.
extension MediaPlayer {
    /// Slack below a video segment's first timestamp within which audio still goes with it.
    static let audioJoinSlackSeconds = 0.1

    /// Lists the AUDIO renditions of the variants' group, reports them, and loads the chosen one's
    /// playlist (in line: the first video segment waits for its audio). A rendition without URI is the
    /// variant's own audio: nothing more to load.
    func setUpAudio(_ multivariant: MultivariantPlaylist?, variant: VariantStream?, baseURL: String, now: Double) async {
        // The group of the variant played first (else the first any variant names).
        guard let multivariant, let group = variant?.audio ?? multivariant.variants.lazy.compactMap(\.audio).first else { return }
        var refused: [String] = []
        let options = AudioOption.options(in: multivariant, group: group, baseURL: baseURL, refused: &refused)
        guard !options.isEmpty || !refused.isEmpty else { return }
        var audio = AudioReport()
        audio.issues = refused
        for issue in refused {
            // Audio left out is media missing (a video-only variant then plays silent): said as a warning.
            report.damage.append(issue)
            warnAlternateAudio(["DESCRIPTION": issue], now: now)
        }
        audio.options = options
        audio.choice = configuration.audio
        audio.selected = configuration.audio.pick(from: options)
        report.audio = audio
        // The PSDK's collection holds the main audio as "default": listed first when no rendition is it.
        let offered = (AudioChoice.main.pick(from: options) == nil ? [AudioChoice.main.description] : []) + options.map(\.name)
        bus.post(.custom(name: "mediaSelectionOptionsAvailable", payload: ["audio": offered.joined(separator: "\n")]))
        if audio.selected == nil, configuration.audio != .main {
            // A video-only variant would play silent: the default rendition plays instead, and that is said.
            let fallback = AudioChoice.automatic.pick(from: options)
            let issue = "no audio rendition is named \(configuration.audio) or has that language; offered: \(options.offered); "
                + (fallback.map { "\(options[$0].name) plays" } ?? "the variant's own audio plays")
            report.audio?.issues.append(issue)
            report.audio?.selected = fallback
            bus.post(.custom(name: "audioRenditionNotFound", payload: ["choice": "\(configuration.audio)", "description": issue]))
        }
        guard let index = report.audio?.selected else {
            // `main` where every rendition has a URI: the variant's own audio (the PSDK's "default").
            if configuration.audio == .main {
                notify(.audioTrackChange, metadata: ["NAME": AudioChoice.main.description, "LANGUAGE": "", "URL": ""], now: now)
            }
            return
        }
        let option = options[index]
        notify(.audioTrackChange, metadata: ["NAME": option.name, "LANGUAGE": option.language ?? "", "URL": option.url ?? ""], now: now)
        guard let url = option.url else { return }
        do {
            let playlist = try mediaPlaylist(in: try await fetchInLine(url), detail: Self.renditionGaveMultivariant)
            state.audio = makeAudioLane(option, playlist: playlist, now: driver.now)
        } catch {
            let issue = "\(url): \(error); the variant's own audio plays (none in a video-only variant)"
            report.audio?.issues.append(issue)
            report.damage.append(issue)
            warnAlternateAudio(["DESCRIPTION": issue, "URL": url], now: driver.now)
        }
    }

    /// What an audio rendition's URI that gave a multivariant playlist is called.
    static let renditionGaveMultivariant = "an audio rendition's URI gave a multivariant playlist"

    /// A NETWORK_ERROR warning about the alternate audio (the guide's warnings say where a problem was:
    /// metadata CONTENT alternateAudio).
    private func warnAlternateAudio(_ metadata: [String: String], now: Double) {
        var metadata = metadata
        metadata["CONTENT"] = "alternateAudio"
        notify(.networkError, metadata: metadata, now: now)
    }

    /// The state of rendition `option` whose media playlist is `playlist`.
    func makeAudioLane(_ option: AudioOption, playlist: MediaPlaylist, now: Double) -> AudioTrackState {
        var lane = AudioTrackState(option: option, tracker: LivePlaylistTracker(first: playlist, loadedAt: now),
                                   demuxer: RenditionDecoder(options: RenditionDecoderOptions()))
        if let content = state.tracker, content.isLive { lane.playlistOffset = content.liveEdgeSeconds - lane.tracker.liveEdgeSeconds }
        return lane
    }

    /// Plays another rendition of the AUDIO group from the playhead on: its playlist is loaded (the
    /// rendition playing goes on meanwhile), then the media ahead is loaded again from the playhead with
    /// the new audio (a seek to where the playhead is, `automatic` "audioTrackChange"). A rendition
    /// without URI is the variant's own audio. Inside an ad, the content after the break takes it.
    func selectAudio(_ choice: AudioChoice, now: Double) async {
        guard let options = report.audio?.options, !options.isEmpty else {
            // Without an AUDIO group the variant's own audio plays: the main audio is already the one chosen.
            if choice != .main {
                bus.post(.custom(name: "audioRenditionNotFound", payload: ["choice": "\(choice)", "description": "the variants name no AUDIO group"]))
            }
            return
        }
        if choice == .main, choice.pick(from: options) == nil {
            // Every rendition has its own playlist: the main audio is the variant's own, no rendition loaded.
            cancelTransfers { if case .audioRenditionPlaylist = $0 { true } else { false } }
            report.audio?.choice = choice
            guard report.audio?.selected != nil else { return }
            cancelAudioTransfers()
            state.audio = nil
            audioRenditionChanged(to: nil, choice: choice, now: now)
            return
        }
        guard let index = choice.pick(from: options) else {
            let issue = "no audio rendition is named \(choice) or has that language; offered: \(options.offered); the rendition playing goes on"
            report.audio?.issues.append(issue)
            bus.post(.custom(name: "audioRenditionNotFound", payload: ["choice": "\(choice)", "description": issue]))
            return
        }
        // A selection still loading its playlist gives way to this one (two at one time: the last wins).
        cancelTransfers { if case .audioRenditionPlaylist = $0 { true } else { false } }
        guard index != report.audio?.selected else {
            report.audio?.choice = choice
            return
        }
        cancelAudioTransfers()
        guard let url = options[index].url else {
            state.audio = nil
            audioRenditionChanged(to: index, choice: choice, now: now)
            return
        }
        report.audio?.choice = choice
        await startPlaylistFetch(url, as: .audioRenditionPlaylist(index: index))
    }

    /// The playlist of a selected rendition came: it plays from the playhead on.
    func selectedAudioPlaylistArrived(_ result: TransferResult, index: Int, now: Double) {
        guard let option = report.audio?.options[index], let url = option.url else { return }
        do {
            let playlist = try mediaPlaylist(in: try result.get(), detail: Self.renditionGaveMultivariant)
            state.audio = makeAudioLane(option, playlist: playlist, now: now)
            audioRenditionChanged(to: index, choice: report.audio?.choice ?? .automatic, now: now)
        } catch {
            let issue = "\(url): \(error); the rendition playing goes on"
            report.audio?.issues.append(issue)
            warnAlternateAudio(["DESCRIPTION": issue, "URL": url], now: now)
        }
    }

    /// Records the change and loads the media ahead again with the new audio, from the playhead. A nil
    /// `index` is the variant's own audio, no rendition of the group (the PSDK's "default").
    private func audioRenditionChanged(to index: Int?, choice: AudioChoice, now: Double) {
        report.audio?.selected = index
        report.audio?.choice = choice
        if let index, let option = report.audio?.options[index] {
            notify(.audioTrackChange, metadata: ["NAME": option.name, "LANGUAGE": option.language ?? "", "URL": option.url ?? ""], now: now)
        } else {
            notify(.audioTrackChange, metadata: ["NAME": AudioChoice.main.description, "LANGUAGE": "", "URL": ""], now: now)
        }
        let position = state.position(at: now)
        if case .content = state.timeline.position(atVirtual: position), [.playing, .paused, .ready].contains(state.status) {
            let shownEnd = state.presentedEnd
            seek(to: position, now: now, automatic: "audioTrackChange", reload: true)
            // The video frame at the playhead was shown already (a switch at a frame's start): not again (the
            // loop drops a content frame that starts at or before the last one queued).
            if let shownEnd, shownEnd > position, !state.audioOnly { state.lastQueued[.video] = (shownEnd - 1e-3, .content) }
        }
    }

    /// Drops the audio transfers under way (a selection replaces the rendition).
    private func cancelAudioTransfers() {
        cancelTransfers {
            switch $0 {
            case .audioSegment, .audioPlaylist, .audioRenditionPlaylist: true
            default: false
            }
        }
    }

    /// Whether the alternate audio of content segment `tracked`'s time comes first: an audio segment of its
    /// time is to be loaded (started now: the segment carries its audio), or, live, the audio playlist does
    /// not list its time yet (the segment waits for the reload).
    func loadsAudioFirst(before tracked: TrackedSegment) async -> Bool {
        guard state.audio != nil else { return false }
        if let audio = audioSegmentWanted(before: tracked) {
            await startAudioSegment(audio)
            return true
        }
        return audioPlaylistBehind(tracked)
    }

    /// Whether `tracked` is the last segment of a content playlist that has ended.
    func isLastContentSegment(_ tracked: TrackedSegment) -> Bool {
        state.tracker.map { $0.endListSeen && $0.segments.last?.mediaSequence == tracked.mediaSequence } ?? false
    }

    /// The audio segment to load before content segment `tracked` (one of its time not loaded yet), or nil.
    func audioSegmentWanted(before tracked: TrackedSegment) -> TrackedSegment? {
        guard let lane = state.audio else { return nil }
        let offset = lane.playlistOffset
        // At the item's last segment, every audio segment left (audio may run a little past the video's
        // playlist time, and its last frame was never fetched).
        let isLast = isLastContentSegment(tracked)
        return lane.tracker.segments.first {
            !lane.loaded.contains($0.mediaSequence) && $0.endSeconds + offset > tracked.startSeconds + 0.001
                && (isLast || $0.startSeconds + offset < tracked.endSeconds - 0.001)
        }
    }

    /// Starts fetching audio segment `tracked` of the rendition.
    func startAudioSegment(_ tracked: TrackedSegment) async {
        guard let lane = state.audio, let url = lane.option.url else { return }
        let id = nextTransferID()
        state.transfers[id] = .audioSegment(mediaSequence: tracked.mediaSequence)
        await fetch(tracked.segment, baseURL: url, id: id)
    }

    /// Takes in an audio segment: demuxed and kept until the video segments of its time take its packets.
    func audioSegmentArrived(_ result: TransferResult, mediaSequence: Int, now: Double) {
        guard var lane = state.audio, let tracked = lane.tracker.segment(mediaSequence: mediaSequence) else { return }
        defer { state.audio = lane }
        switch result {
        case let .success(transfer):
            lane.failures = 0
            lane.loaded.insert(mediaSequence)
            recordSegment(transfer, mediaSequence: mediaSequence, now: now, estimatesContent: false)
            report.audio?.segmentsLoaded += 1
            do {
                let demuxed = try lane.demuxer.demux(transfer.body, discontinuity: tracked.segment.discontinuity)
                reportDemuxDamage(demuxed, url: transfer.url, now: now)
                let pending = PendingAudio(mediaSequence: mediaSequence, segment: demuxed, body: transfer.body)
                let at = lane.pending.firstIndex { $0.mediaSequence > mediaSequence } ?? lane.pending.endIndex
                lane.pending.insert(pending, at: at)
            } catch {
                report.damage.append("\(transfer.url): \(error.description)")
                report.audio?.issues.append("\(transfer.url): \(error.description) (its audio is missing)")
                notify(.hlsSegmentError, metadata: ["URL": transfer.url, "DESCRIPTION": error.description], now: now)
            }
        case let .failure(error):
            warnAlternateAudio(notification(for: error, now: now).metadata, now: now)
            lane.failures += 1
            if lane.failures > configuration.fetchRetries {
                lane.failures = 0
                lane.loaded.insert(mediaSequence)
                // Media lost, as a damaged segment's is (`--strict` counts it).
                report.audio?.issues.append("\(error) (the segment's audio is missing)")
                report.damage.append("\(error.description) (alternate audio segment \(mediaSequence): its audio is missing)")
            }
        }
    }

    /// A content segment with the rendition's audio of its time in place of its own: the pending audio
    /// packets timed before its video's end (all that is left, at the item's last segment; before
    /// `clipEnd`, content seconds, when a break cuts the segment: the rest waits for its second fetch),
    /// from its video's start on (after a start or seek, from the first). Older packets (content passed
    /// over, as a replacement break does) are dropped. The audio's timestamps are the video's when the two
    /// agree within ``audioTimestampToleranceSeconds`` (HLS renditions share one clock); otherwise (each
    /// packaged on its own clock) the audio is moved onto the video's by the playlists' times, and said.
    /// Also gives the rendition's timed ID3 of the same span, its times on the video's timestamps.
    func joiningAudio(_ demuxed: DemuxedSegment, tracked: TrackedSegment, clipEnd: Double?) -> (DemuxedSegment, [TimedID3]) {
        guard var lane = state.audio, let span = demuxed.timeSpan(of: .video) else { return (demuxed, []) }
        defer { state.audio = lane }
        if lane.shiftSeconds == nil, let shift = audioTimestampShift(lane, videoStart: span.start, tracked: tracked) {
            lane.shiftSeconds = shift
            if shift != 0 {
                report.audio?.issues.append(String(format: "%@: its timestamps differ from the video's by %.3f s (each packaged on its own clock): aligned by the playlists' times",
                                                   lane.option.url ?? lane.option.name, abs(shift)))
            }
        }
        let shift = lane.shiftSeconds ?? 0
        let isLast = isLastContentSegment(tracked)
        let lower = lane.fresh ? -Double.infinity : span.start - Self.audioJoinSlackSeconds
        var upper = isLast ? Double.infinity : span.end
        if let clipEnd { upper = min(upper, span.start + clipEnd - tracked.startSeconds) }
        lane.fresh = false
        var taken: [Packet] = []
        var id3: [TimedID3] = []
        var source: DemuxedSegment?
        for pending in lane.pending {
            for var item in pending.id3 {
                item.mediaSeconds += shift
                if item.mediaSeconds >= lower, item.mediaSeconds < upper { id3.append(item) }
            }
            pending.id3.removeAll { $0.mediaSeconds + shift < upper }
            var kept: [Packet] = []
            var lastTaken = false
            for packet in pending.packets {
                guard let pts = packet.pts else {
                    // Untimed: goes where the packet before it went.
                    if lastTaken { taken.append(packet) } else { kept.append(packet) }
                    continue
                }
                let seconds = Double(pts) * packet.timeBase.doubleValue + shift
                if seconds < lower { lastTaken = false; continue }
                if seconds < upper {
                    taken.append(packet)
                    source = source ?? pending.segment
                    lastTaken = true
                } else {
                    kept.append(packet)
                    lastTaken = false
                }
            }
            pending.packets = kept
        }
        lane.pending.removeAll { $0.packets.isEmpty && $0.id3.isEmpty }
        guard let source, !taken.isEmpty else { return (demuxed, id3) }
        if shift != 0 {
            for packet in taken { packet.shiftTimestamps(bySeconds: shift) }
        }
        return (demuxed.replacing([.audio], with: taken, from: source), id3)
    }

    /// Timestamp differences up to this between an audio rendition and the video at one playlist time are
    /// the media's own (an encoder's audio priming, B-frame delay); beyond it the two were packaged on
    /// different clocks.
    static let audioTimestampToleranceSeconds = 1.0

    /// Seconds to add to the rendition's timestamps to put them on the video's: 0 when they agree within
    /// ``audioTimestampToleranceSeconds`` at the playlists' common time, else the difference; nil when no
    /// audio of the segment's time is loaded to compare.
    private func audioTimestampShift(_ lane: AudioTrackState, videoStart: Double, tracked: TrackedSegment) -> Double? {
        for pending in lane.pending {
            guard let audio = lane.tracker.segment(mediaSequence: pending.mediaSequence),
                  let first = pending.segment.timeSpan(of: .audio)?.start else { continue }
            let audioStart = audio.startSeconds + lane.playlistOffset
            guard audioStart <= tracked.startSeconds + 0.001, audio.endSeconds + lane.playlistOffset > tracked.startSeconds else { continue }
            // Where the video and the audio put the content time of the video segment's start.
            let shift = (videoStart - tracked.startSeconds) - (first - audioStart)
            return abs(shift) <= Self.audioTimestampToleranceSeconds ? 0 : shift
        }
        return nil
    }

    /// A seek away from the buffer: the audio loaded is dropped and loading starts again at the landing.
    func resetAudioLane() {
        guard state.audio != nil else { return }
        state.audio?.pending = []
        state.audio?.loaded = []
        state.audio?.fresh = true
        state.audio?.failures = 0
    }

    /// Live: the rendition's playlist does not list the time of content segment `tracked` yet (its next
    /// reload will), while its reloads work. The segment waits for it rather than play without audio.
    func audioPlaylistBehind(_ tracked: TrackedSegment) -> Bool {
        guard let lane = state.audio, lane.tracker.isLive, lane.reloadFailures <= configuration.fetchRetries else { return false }
        guard lane.tracker.liveEdgeSeconds + lane.playlistOffset < tracked.endSeconds - 0.001 else { return false }
        // A playlist that stopped changing (the tracker's stuck rule) holds the video no longer: it plays on
        // without that audio, said once.
        if lane.tracker.isStuck(at: driver.now) {
            if state.audio?.stuckSaid == false {
                state.audio?.stuckSaid = true
                let issue = "\(lane.option.url ?? lane.option.name): the live audio playlist stopped changing; the video plays on without its audio"
                report.audio?.issues.append(issue)
                report.damage.append(issue)
                warnAlternateAudio(["DESCRIPTION": issue, "URL": lane.option.url ?? ""].filter { !$0.value.isEmpty }, now: driver.now)
            }
            return false
        }
        return true
    }

    /// When the rendition's live playlist is due for a reload (nil: not live, or a reload under way).
    func nextAudioReloadTime() -> Double? {
        guard let lane = state.audio, !state.transfers.values.contains(where: { if case .audioPlaylist = $0 { true } else { false } }),
              let due = lane.tracker.nextReloadTime() else { return nil }
        return max(due, lane.reloadRetryAt ?? due)
    }

    /// Starts the reload of the rendition's live playlist when it is due.
    func reloadAudioPlaylistIfDue(now: Double) async {
        guard let due = nextAudioReloadTime(), now >= due, let url = state.audio?.option.url, !state.finished else { return }
        await startPlaylistFetch(url, as: .audioPlaylist)
    }

    /// Takes in a reload of the rendition's live playlist.
    func audioPlaylistArrived(_ result: TransferResult, now: Double) {
        guard var lane = state.audio else { return }
        defer { state.audio = lane }
        do {
            let transfer = try result.get()
            let playlist = try mediaPlaylist(in: transfer, detail: "a reload gave a multivariant playlist")
            let update = lane.tracker.update(with: playlist, loadedAt: now)
            bus.post(.playlistLoaded(url: transfer.url, segments: playlist.segments.count, changed: update.changed))
            if update.changed { lane.stuckSaid = false }
            lane.reloadFailures = 0
            lane.reloadRetryAt = nil
        } catch {
            lane.reloadFailures += 1
            lane.reloadRetryAt = now + lane.tracker.targetDurationSeconds / 2
            warnAlternateAudio(notification(for: error, now: now).metadata, now: now)
            report.audio?.issues.append("\(error)")
        }
    }
}
