import PlayheadHLS
import PlayheadMedia
import PlayheadNet

extension MediaPlayer {
    /// Loads the item: the playlist (and the chosen variant's media playlist), then ready.
    func loadItem() async {
        let now = driver.now
        setStatus(.initializing, now: now)
        bus.post(.itemChanged(url: itemURL))
        do {
            let first = try await fetchFirstPlaylist(itemURL)
            record(first)
            var media: MediaPlaylist
            var mediaURL = first.effectiveURL
            var multivariantLoaded: MultivariantPlaylist?
            var variantPlayed: VariantStream?
            switch try parse(first) {
            case let .media(playlist):
                media = playlist
            case let .multivariant(multivariant):
                multivariantLoaded = multivariant
                noteRenditionsNotPlayed(multivariant)
                state.importedVariables = multivariant.variableValues
                let url: String
                let resolved = try multivariant.variants.map { ($0.bandwidth, try ResourceURL.resolve($0.uri, against: first.effectiveURL)) }
                // ABR climbs the video variants; an audio-only one (CODECS of audio alone) is left out when
                // there are any: it was chosen first as the lowest rung and played nothing (no video).
                let rungs = multivariant.variants.playableIndices
                if abr != nil, Set(rungs.map { multivariant.variants[$0].bandwidth }).count > 1 {
                    if rungs.count < resolved.count {
                        bus.post(.custom(name: "audioOnlyVariantsLeftOut", payload: [
                            "urls": resolved.indices.filter { !rungs.contains($0) }.map { resolved[$0].1 }.joined(separator: " "),
                            "reason": "ABR chooses among the video variants; an audio-only variant has no picture to present",
                        ]))
                    }
                    state.ladder = VariantLadder(grouping: rungs.map { resolved[$0] })
                    let index = decideVariant(now: driver.now) ?? 0
                    state.firstSegmentRungChosen = true
                    url = state.ladder!.variants[index].url
                    variantPlayed = resolved.firstIndex { $0.1 == url }.map { multivariant.variants[$0] }
                    state.redundantURLs = state.ladder!.redundant[index]
                    state.pendingSwitch = index
                } else {
                    let index = try configuration.variant.pick(from: multivariant.variants, url: itemURL)
                    let variant = multivariant.variants[index]
                    variantPlayed = variant
                    report.variantBandwidth = variant.bandwidth
                    qos.setProfileBitrate(variant.bandwidth)
                    // Chosen once the playlist came: the event, the record and the notification carry that time.
                    let chosenAt = driver.now
                    stamped(chosenAt) { bus.post(.bitrateChanged(fromBitsPerSecond: nil, toBitsPerSecond: variant.bandwidth, reason: "fixed")) }
                    // In the report too, as ABR's first choice is (the events had it, the report did not).
                    report.bitrateSwitches.append(BitrateSwitchRecord(playerTime: chosenAt, mediaSequence: nil, fromBitsPerSecond: nil,
                                                                      toBitsPerSecond: variant.bandwidth, reason: "fixed"))
                    notify(.bitrateChange, metadata: ["BITRATE": String(variant.bandwidth)], now: chosenAt)
                    url = resolved[index].1
                    state.redundantURLs = [url] + resolved.filter { $0.0 == variant.bandwidth && $0.1 != url }.map(\.1)
                }
                let (second, playlist) = try await loadFirstMediaPlaylist(url)
                media = playlist
                mediaURL = second.effectiveURL
                if let index = state.pendingSwitch {
                    state.pendingSwitch = nil
                    switchVariant(to: index, playlist: playlist, url: mediaURL, now: driver.now)
                }
            }
            report.mediaPlaylistURL = mediaURL
            state.mediaURL = mediaURL
            await setUpSubtitles(multivariantLoaded, variant: variantPlayed, baseURL: first.effectiveURL, now: driver.now)
            if configuration.ads != nil {
                // What the ad checks compare ads with: the item's playlists.
                let top = (try? Playlist.parse(data: first.body, sources: VariableSources(playlistURL: first.url)).playlist) ?? .media(media)
                state.contentProfile = HLSStreamProfile(playlist: top, mediaPlaylists: [media], url: first.effectiveURL)
            }
            let tracker = state.tracker ?? LivePlaylistTracker(first: media, loadedAt: driver.now)
            if !tracker.isLive, tracker.segments.isEmpty {
                throw PlayheadError.unexpectedPlaylist(url: mediaURL, detail: "the playlist is VOD or has ended, and lists no segments: nothing to play")
            }
            state.tracker = tracker
            state.firstListedSequence = tracker.segments.first?.mediaSequence
            report.isLive = tracker.isLive
            await setUpAudio(multivariantLoaded, variant: variantPlayed, baseURL: first.effectiveURL, now: driver.now)
            state.captionsDeclaredNone = variantPlayed?.closedCaptions == ClosedCaptionsReference.none
            let methods = Set(media.segments.compactMap { $0.key.flatMap { $0.method == .none ? nil : $0.method.text } })
            report.encryption = methods.isEmpty ? nil : methods.sorted()
            if case let .group(group)? = variantPlayed?.closedCaptions, let renditions = multivariantLoaded?.media {
                // The names and languages the multivariant playlist gives the channels (INSTREAM-ID CC1–CC4).
                state.captionRenditions = Dictionary(renditions.filter { $0.type == .closedCaptions && $0.groupId == group }
                    .compactMap { rendition in rendition.instreamId.map { ($0, rendition) } }, uniquingKeysWith: { first, _ in first })
            }
            bus.post(.playlistLoaded(url: mediaURL, segments: media.segments.count, changed: true))
            setStatus(.initialized, now: driver.now)
            reportTimedMetadata(tracker, listed: media.segments.count)
            if let multivariantLoaded {
                reportKeys(multivariantLoaded.sessionKeys.map { ($0, nil) }, session: true, playlistURL: first.effectiveURL)
            }
            reportKeys(of: tracker, listed: media.segments.count, playlistURL: mediaURL)
            await detectOpportunities(now: driver.now)
            if let ssai = configuration.ssai {
                report.ssai = SSAIReport(trackingURL: ssai.trackingURL)
                await loadSSAITracking()
                updateSSAI(tracker)
            }
            if configuration.blackout != nil {
                await loadAlternateContent()
                updateBlackouts(tracker, listed: media.segments.count, atLoad: true, now: driver.now)
            }
            // A start inside a blackout whose both tags are listed lands at its end, as a seek does (unless the
            // blackout runs to the item's end: then the alternate plays from the start).
            var startSeconds = configuration.startSeconds
            if let requested = startSeconds, !report.blackouts.isEmpty, let last = tracker.segments.last,
               let end = report.blackouts.first(where: { $0.endSeconds != nil && $0.contains(requested) })?.endSeconds, end < last.endSeconds {
                startSeconds = blackoutSeekTarget(requested, requested: requested)
            }
            let start: (seconds: Double, mediaSequence: Int)
            if let requested = startSeconds, let segment = tracker.segment(containing: requested) {
                // A millisecond or less into a segment is its start, as a break's cue there is not passed (QA40 #9:
                // --start 0.001 played the pre-roll at 0, then dropped the content's first frame).
                start = (requested - segment.startSeconds <= Self.spliceSlackSeconds ? segment.startSeconds : requested, segment.mediaSequence)
            } else if let requested = startSeconds, !tracker.isLive {
                // A VOD start position outside the item is a mistake to report, not to play past.
                let end = tracker.segments.last?.endSeconds ?? 0
                // (The end itself is outside: a frame must start at or after the position, and none starts there.)
                throw PlayheadError.unexpectedPlaylist(url: mediaURL, detail: String(format: "the start position %g s is at or past the item's end (%g s of content)", requested, end))
            } else if let requested = startSeconds, let first = tracker.segments.first {
                // Live, and the position is not in the window (not yet produced, or gone): start at the
                // window's start or at the live start point, and say so rather than ignore the request.
                start = requested < first.startSeconds ? (first.startSeconds, first.mediaSequence) : tracker.startPosition()
                // The window a start may name: from its first segment to the live edge (a start is taken
                // anywhere in a listed segment; the seekable range stops short of the edge).
                let description = String(format: "the start position %g s is outside the live window (%g to %g s); starting at %g s",
                                         requested, first.startSeconds, tracker.liveEdgeSeconds, start.seconds)
                notify(.seekError, metadata: [NotificationMetadataKey.description.rawValue: description], now: driver.now)
            } else {
                start = tracker.startPosition()
            }
            state.nextSequence = start.mediaSequence
            // A VOD start is content seconds; the playback timeline counts the breaks before it (passed, not played),
            // as a seek there would: positions, --seek and --pause count it (they ran on content seconds, so a seek
            // 1 s forward after --start 12 past a 10 s break went 9 s back).
            var timelineStart = start.seconds
            if startSeconds != nil, !tracker.isLive {
                let passed = state.timeline.breaks.filter { $0.contentSeconds < start.seconds - Self.spliceSlackSeconds }
                state.contentOffset = passed.reduce(0) { $0 + $1.durationSeconds - $1.replacedContentSeconds }
                timelineStart += state.contentOffset
            }
            state.anchorPosition = timelineStart
            state.playedFrom = timelineStart
            if startSeconds != nil { state.requestedStart = start.seconds }
            if start.seconds > 0 {
                state.skipBefore = timelineStart
                state.captionsFrom = start.seconds
                state.skipOthersBefore = timelineStart
            }
            setStatus(.ready, now: driver.now)
            if configuration.autoplay { startPlaying(now: driver.now) }
        } catch {
            // Stopped by the session's time limit: the run loop ends it as stopped.
            if state.loadStoppedAtLimit { return }
            fail(notification(for: error, now: driver.now), now: driver.now)
        }
    }

    /// The item's playlist, its first fetch retried as players retry a manifest (hls.js once after 1 s): a
    /// failure that may pass (5xx, 408, 429, a transport error; not a timeout) up to ``PlayerConfiguration/fetchRetries``
    /// times more, after 1, 2 and 4 s (the segments' back-off), each said as NETWORK_ERROR, within the
    /// session's time limit. A 503 from a busy origin ended every soak session at once.
    func fetchFirstPlaylist(_ url: String) async throws(PlayheadError) -> NetworkTransfer {
        var attempt = 0
        while true {
            do {
                return try await fetchInLine(url)
            } catch {
                // Not a timeout: it has already cost its limit (60 s for the whole transfer), four of them minutes.
                guard case let .network(http) = error, http.isRetryable, !http.isTimeout, attempt < configuration.fetchRetries,
                      !state.loadStoppedAtLimit, !Task.isCancelled else { throw error }
                let delay = Double(1 << attempt)
                bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification(for: error, now: driver.now).metadata,
                                                               playerTime: driver.now)))
                attempt += 1
                if let limit = state.sessionLimit, driver.now + delay >= limit {
                    // The session's time runs out during the wait: it ends at its limit (QA34: at once, 1 s into a
                    // 2 s session), and in error, with the failure: it never had its playlist (a soak flags it).
                    await pause(max(0, limit - driver.now))
                    throw error
                }
                await pause(delay)
            }
        }
    }

    /// Lets `seconds` of session time pass while the session loads: on the virtual clock at once, on the real
    /// one by sleeping.
    private func pause(_ seconds: Double) async {
        if driver.isVirtual {
            driver.advance(by: seconds)
        } else {
            try? await Task.sleep(for: .seconds(seconds))
        }
    }

    /// Fetches `url` with nothing else under way (the item's playlists at load) and moves the clock on
    /// by what it cost: the transfer's time, or a timeout's limit when it failed so (on the virtual
    /// clock too; on the real clock the time has passed and `advance` does nothing).
    func fetchInLine(_ url: String) async throws(PlayheadError) -> NetworkTransfer {
        let transfer: NetworkTransfer
        do {
            transfer = try await network.fetch(url, range: nil, at: driver.now)
        } catch {
            driver.advance(by: error.timeoutSeconds ?? 0)
            throw error
        }
        if driver.isVirtual, state.status == .initializing, let limit = state.sessionLimit, driver.now + transfer.seconds > limit {
            // The session's time runs out while this playlist loads (a slow link): it stops there.
            driver.advance(by: max(0, limit - driver.now))
            state.loadStoppedAtLimit = true
            throw PlayheadError.unexpectedPlaylist(url: url, detail: "the session's time ran out while it loaded")
        }
        driver.advance(by: transfer.seconds)
        return transfer
    }

    /// Reports the EXT-X-MEDIA renditions with their own playlist that the variants name: the session
    /// plays each variant's own playlist only (its muxed audio), so these are said, not silently left.
    private func noteRenditionsNotPlayed(_ multivariant: MultivariantPlaylist) {
        let named = Set(multivariant.variants.flatMap { [$0.audio, $0.video, $0.subtitles].compactMap { $0 } })
        // Subtitle renditions are offered as subtitle tracks (``setUpSubtitles``), audio ones as audio (``setUpAudio``).
        let unplayed = multivariant.media.filter { $0.uri != nil && named.contains($0.groupId) && $0.type != .subtitles && $0.type != .audio }
            .map { "\($0.type.text) \"\($0.name)\" (group \($0.groupId)): \($0.uri ?? "")" }
        guard !unplayed.isEmpty else { return }
        report.renditionsNotPlayed = unplayed
        bus.post(.custom(name: "renditionsNotPlayed", payload: ["renditions": unplayed.joined(separator: "; ")]))
    }

    func parse(_ transfer: NetworkTransfer) throws(PlayheadError) -> Playlist {
        do {
            let parsed = try Playlist.parse(data: transfer.body,
                                            sources: VariableSources(playlistURL: transfer.url, imported: state.importedVariables))
            for warning in parsed.warnings {
                var payload = ["url": transfer.url, "code": warning.code, "message": warning.message]
                if let line = warning.line { payload["line"] = String(line) }  // none for a whole-playlist warning
                bus.post(.custom(name: "playlistWarning", payload: payload))
                let text = transfer.url + (warning.line.map { ":\($0)" } ?? "") + ": [\(warning.code)] \(warning.message)"
                var kept = report.playlistWarnings ?? []
                if kept.count < PlaybackReport.maxPlaylistWarnings, !kept.contains(text) {
                    kept.append(text)
                    report.playlistWarnings = kept
                }
            }
            return parsed.playlist
        } catch {
            throw .playlist(url: transfer.url, error)
        }
    }

    func record(_ transfer: NetworkTransfer) {
        report.bytesDownloaded += transfer.body.count
        qos.recordTransfer(bytes: transfer.body.count, seconds: transfer.seconds, firstByteSeconds: transfer.firstByteSeconds,
                           isSegment: false)
    }

    /// Starts the segment fetch the buffer wants and the playlist reload that is due.
    func startTransfers(now: Double) async {
        guard !state.finished, let tracker = state.tracker else { return }
        let loadingSegment = state.transfers.values.contains {
            switch $0 {
            case .segment, .adSegment, .prerollSegment, .audioSegment: return true
            default: return false
            }
        }
        let position = state.position(at: now)
        let watched = state.watchedSeconds + (state.clockRunning ? max(0, position - state.anchorPosition) : 0)
        let target = configuration.buffer.targetSeconds(watchedSeconds: watched)
        resumeContentIfListed(tracker)
        let wantsMedia = state.nextSequence != nil || state.adCursor != nil
        await failBackIfDue(now: now, loadingSegment: loadingSegment)
        if !loadingSegment, state.status != .error, wantsMedia, buffer.level(at: position) < target {
            if let preroll = state.preroll {
                // The segments before a held one, back to a keyframe: nothing else is fetched meanwhile.
                if let tracked = tracker.segment(mediaSequence: preroll.next) {
                    let id = nextTransferID()
                    state.transfers[id] = .prerollSegment(mediaSequence: preroll.next)
                    await fetch(tracked.segment, baseURL: state.mediaURL, id: id)
                } else {
                    prerollFailed(now: now)
                }
            } else if let retry = state.segmentRetry {
                if now >= retry.at {
                    state.segmentRetry = nil
                    if let cursor = retry.ad {
                        await startAdSegment(cursor, attempt: retry.attempt, now: now)
                    } else if let placement = retry.placement {
                        await startSegment(retry.mediaSequence, attempt: retry.attempt, placement: placement, now: now)
                    }
                }
            } else if let cursor = state.adCursor {
                await startAdSegment(cursor, attempt: 0, now: now)
            } else if state.pendingSwitch == nil, state.failover == nil, let sequence = state.nextSequence, let tracked = tracker.segment(mediaSequence: sequence),
                      !awaitsResolution(before: sequence), await !loadsAudioFirst(before: tracked) {
                let decided = state.firstSegmentRungChosen || state.decidedSequence == sequence ? nil : decideVariant(now: now)
                state.firstSegmentRungChosen = false
                state.decidedSequence = sequence
                if let index = decided {
                    if !tracker.isLive, let cached = state.variantPlaylists[index] {
                        switchVariant(to: index, playlist: cached.playlist, url: cached.url, now: now)
                    } else {
                        await startVariantPlaylist(index, now: now)
                        return
                    }
                }
                // The segment may start an ad break instead (its cue is at or before its start).
                if let placement = contentPlacement(for: sequence, now: now) {
                    await startSegment(sequence, attempt: 0, placement: placement, now: now)
                } else if let cursor = state.adCursor {
                    await startAdSegment(cursor, attempt: 0, now: now)
                }
            }
        }
        await startSubtitleTransfers(now: now)
        await reloadAudioPlaylistIfDue(now: now)
        let reloading = state.transfers.values.contains { if case .playlist = $0 { return true } else { return false } }
        if !reloading, state.failover == nil, let due = nextReloadTime(tracker), now >= due {
            await startPlaylistFetch(state.mediaURL, as: .playlist(attempt: 0))
        }
    }

    /// Starts fetching the whole resource at `url` as the transfer `purpose`: a playlist (a reload, a rung's,
    /// a backup's, a rendition's) or a sidecar WebVTT file.
    func startPlaylistFetch(_ url: String, as purpose: PendingTransfer) async {
        let id = nextTransferID()
        state.transfers[id] = purpose
        let network = self.network
        await driver.start(id) { startedAt in
            do throws(PlayheadError) { return .success(try await network.fetch(url, range: nil, at: startedAt)) } catch { return .failure(error) }
        }
    }

    private func startVariantPlaylist(_ index: Int, now: Double) async {
        guard let url = state.ladder?.variants[index].url else { return }
        state.pendingSwitch = index
        await startPlaylistFetch(url, as: .variantPlaylist(index: index))
    }

    private func startSegment(_ sequence: Int, attempt: Int, placement: Placement, now: Double) async {
        guard let tracked = state.tracker?.segment(mediaSequence: sequence) else { return }
        if tracked.segment.gap {
            // EXT-X-GAP (RFC 8216bis 4.4.4.7): not loaded; its time passes with the last frame shown.
            bus.post(.custom(name: "gapSkipped", payload: ["mediaSequence": String(sequence), "uri": tracked.segment.uri,
                                                           "seconds": String(tracked.durationSeconds)]))
            segmentDone(sequence, tracked: tracked, placement: placement, presented: nil, now: now)
            state.loadedEnd = max(state.loadedEnd ?? 0, placement.timelineSpan(start: tracked.startSeconds, end: tracked.endSeconds).end)
            return
        }
        let id = nextTransferID()
        state.transfers[id] = .segment(mediaSequence: sequence, attempt: attempt, placement: placement)
        await fetch(tracked.segment, baseURL: state.mediaURL, id: id)
    }

    func startAdSegment(_ cursor: AdLoadCursor, attempt: Int, now: Double) async {
        guard let asset = state.adAssets[cursor.breakId]?[cursor.adIndex],
              let tracked = asset.tracker.segment(mediaSequence: cursor.mediaSequence) else { return }
        // An open blackout's alternate content waits at the end of what the main playlist lists.
        if blackoutHolds(cursor, segmentEndSeconds: tracked.endSeconds) { return }
        let id = nextTransferID()
        state.transfers[id] = .adSegment(cursor, attempt: attempt)
        await fetch(tracked.segment, baseURL: asset.mediaURL, id: id)
    }

    func fetch(_ segment: MediaSegment, baseURL: String, id: Int) async {
        let fetcher = self.fetcher
        await driver.start(id) { startedAt in
            do throws(PlayheadError) {
                let fetched = try await fetcher.fetch(segment, baseURL: baseURL, at: startedAt)
                var transfer = fetched.transfer
                transfer.body = fetched.bytes
                transfer.seconds = fetched.seconds
                // What crossed the network: the media before decryption, the key and init section when fetched now.
                transfer.bytesOnWire = fetched.fetchedByteCount
                return .success(transfer)
            } catch {
                return .failure(error)
            }
        }
    }

    func nextTransferID() -> Int {
        defer { state.nextTransferID += 1 }
        return state.nextTransferID
    }

    /// Segment transfers kept for the bandwidth estimate.
    static let keptThroughputSamples = 32

    /// Takes in a finished transfer.
    func handle(_ id: Int, _ result: TransferResult) async {
        guard let purpose = state.transfers.removeValue(forKey: id) else { return }
        let now = driver.now
        switch (purpose, result) {
        case let (.segment(sequence, _, placement), .success(transfer)):
            segmentArrived(sequence, transfer, placement: placement, now: now)
        case let (.segment(sequence, attempt, placement), .failure(error)):
            let notification = notification(for: error, now: now)
            state.segmentFailuresInARow += 1
            // The retries count the failures in a row, not only this segment's: on live, segments that
            // keep failing used to be retried afresh after each fell-behind seek, the session "playing"
            // with nothing shown until the stream ended.
            // A rung with a backup not yet tried fails over at once (the failover queue moves on at each
            // failure); retries with back-off are for a rung whose backups are spent. A dead primary used to
            // be retried for 7 s first, and the buffer ran dry while a healthy backup was listed.
            if await failOver(after: error, resume: SegmentRetry(at: now, mediaSequence: sequence, attempt: 0, placement: placement), now: now) {
                // The segment is fetched again from the backup's playlist.
                bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification.metadata, playerTime: now)))
                state.segmentFailuresInARow = 0
            } else if attempt < configuration.fetchRetries, state.segmentFailuresInARow <= configuration.fetchRetries {
                bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification.metadata, playerTime: now)))
                state.segmentRetry = SegmentRetry(at: now + Double(1 << attempt), mediaSequence: sequence, attempt: attempt + 1, placement: placement)
            } else if state.started, state.status == .playing || state.status == .paused {
                // What was loaded plays out first, the frames the decoder still holds included: the session ended
                // at once, and the last frames of the segment before, loaded and intact, were never shown (QA41 #4;
                // paused then, it ended while paused and every loaded frame after the pause was lost, QA42 #2).
                state.failureAfterPlayout = notification
                state.nextSequence = nil
                state.endLoaded = true
            } else {
                fail(notification, now: now)
            }
        case let (.prerollSegment(sequence), .success(transfer)):
            prerollSegmentArrived(transfer, sequence: sequence, now: now)
        case let (.prerollSegment, .failure(error)):
            // Not worth a retry: the held segment plays as it is (from its first keyframe, or damaged).
            bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification(for: error, now: now).metadata, playerTime: now)))
            prerollFailed(now: now)
        case let (.adSegment(cursor, _), .success(transfer)):
            adSegmentArrived(cursor, transfer, now: now)
        case let (.adSegment(cursor, attempt), .failure(error)):
            adSegmentFailed(cursor, attempt: attempt, error: error, now: now)
        case let (.resolution(opportunity, box), _):
            await resolutionFinished(opportunity, box.result ?? (.timedOut, []), prefetched: box.prefetched, now: now)
        case let (.playlist, .success(transfer)):
            await playlistArrived(transfer, now: now)
        case let (.playlist, .failure(error)):
            let notification = notification(for: error, now: now)
            bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification.metadata, playerTime: now)))
            reloadFailed(error, now: now)
            _ = await failOver(after: error, resume: nil, now: now)
        case let (.failoverPlaylist, .success(transfer)):
            await failoverArrived(transfer, now: now)
        case let (.failoverPlaylist, .failure(error)):
            await failoverFailed(error, now: now)
        case let (.audioSegment(sequence), _):
            audioSegmentArrived(result, mediaSequence: sequence, now: now)
        case (.audioPlaylist, _):
            audioPlaylistArrived(result, now: now)
        case let (.audioRenditionPlaylist(index), _):
            selectedAudioPlaylistArrived(result, index: index, now: now)
        case (.subtitlePlaylist, _):
            subtitlePlaylistArrived(result, now: now)
        case let (.subtitleFile(sequence), _):
            subtitleFileArrived(result, mediaSequence: sequence, now: now)
        case let (.variantPlaylist(index), .success(transfer)):
            state.pendingSwitch = nil
            record(transfer)
            if case let .media(playlist)? = try? parse(transfer) {
                switchVariant(to: index, playlist: playlist, url: transfer.effectiveURL, now: now)
                // Said like every playlist load, after the switch as at the start (a daemon rebuilding a
                // report from events learns the rung's URL from it).
                bus.post(.playlistLoaded(url: transfer.effectiveURL, segments: playlist.segments.count, changed: true))
            } else {
                state.excludedVariants[index] = now + Self.variantExclusionSeconds
            }
        case let (.variantPlaylist(index), .failure(error)):
            let notification = notification(for: error, now: now)
            bus.post(.notification(PlayerNotification.make(.networkError, metadata: notification.metadata, playerTime: now)))
            // A redundant backup of the rung not tried yet for this switch: that one instead.
            if let ladder = state.ladder {
                let failed = ladder.variants[index].url
                state.switchURLsTried[index, default: []].insert(failed)
                if let next = ladder.redundant[index].first(where: { !state.switchURLsTried[index, default: []].contains($0) }) {
                    state.ladder!.variants[index].url = next
                    bus.post(.custom(name: "failover", payload: ["from": failed, "to": next, "reason": "\(error)"]))
                    await startVariantPlaylist(index, now: now)
                    return
                }
            }
            // Stay on the current rung, and leave the failing one out of the decisions for a while (it was
            // asked for again at once, at the same instant, until the session gave up).
            state.switchURLsTried[index] = nil
            state.pendingSwitch = nil
            state.excludedVariants[index] = now + Self.variantExclusionSeconds
        }
    }

    /// Records a segment transfer: report, QoS and the `segmentLoaded` event; a content segment's also
    /// feeds the throughput estimate the ABR controller reads (`estimatesContent`). An ad segment's does not:
    /// it comes from another server, in short files, and after each break it pulled the content's rung down.
    func recordSegment(_ transfer: NetworkTransfer, mediaSequence: Int, now: Double, estimatesContent: Bool = true) {
        for item in transfer.damage {
            report.damage.append(item)
            notify(.hlsSegmentError, metadata: ["URL": transfer.url, "DESCRIPTION": item], now: now)
        }
        report.segmentsDownloaded += 1
        // Counted as fetched (not the decrypted bytes with the cached init section in front the demuxer gets).
        let bytes = transfer.bytesOnWire
        report.bytesDownloaded += bytes
        qos.recordTransfer(bytes: bytes, seconds: transfer.seconds, firstByteSeconds: transfer.firstByteSeconds)
        let throughput = transfer.seconds > 0 ? Double(bytes * 8) / transfer.seconds : 0
        if estimatesContent {
            state.throughputSamples.append(ThroughputSample(bytes: bytes, seconds: transfer.seconds, endSeconds: now))
            if state.throughputSamples.count > Self.keptThroughputSamples { state.throughputSamples.removeFirst() }
        }
        bus.post(.segmentLoaded(url: transfer.url, mediaSequence: mediaSequence, bytes: bytes,
                                seconds: transfer.seconds, throughputBitsPerSecond: throughput))
    }

    /// Demuxes a segment and puts it in the buffer where `placement` says; returns its source span
    /// (master kind, source seconds), or nil when it held nothing playable (damage recorded).
    @discardableResult
    func bufferSegment(_ transfer: NetworkTransfer, tracked: TrackedSegment, placement: Placement, now: Double) -> (start: Double, end: Double)? {
        // A segment the fetch already found unreadable (it did not decrypt) has its damage said: no second
        // report that zero bytes do not open.
        if transfer.body.isEmpty, !transfer.damage.isEmpty { return nil }
        do {
            var demuxed = try decoder(for: placement.source).demux(transfer.body, discontinuity: tracked.segment.discontinuity)
            onSegmentStreams?(demuxed.streams)
            // Every packet of the segment, as it is demuxed (framemd5 takes the input's start time from
            // the first segment's; handed out as they were decoded, the start came too late). A joined audio
            // rendition's are not: the framemd5 of the video is FFmpeg's of the video playlist.
            if let onPacket { demuxed.packets.forEach(onPacket) }
            var renditionID3: [TimedID3] = []
            if placement.source == .content, state.audio != nil {
                (demuxed, renditionID3) = joiningAudio(demuxed, tracked: tracked, clipEnd: placement.clipEnd)
            }
            reportDemuxDamage(demuxed, url: transfer.url, now: now)
            let master: MediaKind = demuxed.streams.contains { $0.kind == .video } ? .video : .audio
            if placement.source == .content {
                // An audio-only rendition: its audio paces playback (it failed with "gave no video").
                state.audioOnly = master == .audio && demuxed.streams.contains { $0.kind == .audio }
                report.audioOnly = state.audioOnly
                // Brightcove's determinedMediaType: said once, at the first content segment (and again if a
                // later one changes it: an audio-only rung chosen by ABR).
                let mediaType = state.audioOnly ? "audio" : master == .video && demuxed.streams.contains { $0.kind == .audio } ? "audioVideo" : master == .video ? "video" : "none"
                if state.determinedMediaType != mediaType {
                    state.determinedMediaType = mediaType
                    bus.post(.custom(name: "determinedMediaType", payload: ["mediaType": mediaType, "url": transfer.url]))
                }
            }
            guard let span = demuxed.timeSpan(of: master) else {
                report.damage.append("\(transfer.url): no timed \(master.rawValue) packets")
                return nil
            }
            let start: Double
            var key = tracked.discontinuitySequence
            if case let .ad(breakId, adIndex) = placement.source, let asset = state.adAssets[breakId]?[adIndex] {
                start = asset.anchor.contentSeconds(forPTS: span.start, discontinuitySequence: tracked.discontinuitySequence,
                                                    segmentStartSeconds: tracked.startSeconds)
            } else {
                key = anchorKey(for: tracked, firstPTS: span.start, url: transfer.url, now: now)
                let pinAt = continuationStart(of: tracked, anchorKey: key)
                // The playlist's start of a segment is the time of its first picture in decode order (where the
                // packager cut it); a segment cut between keyframes also carries B-frames shown before that
                // cut. Pinning the timeline there, not at the earliest timestamp, keeps a session that starts
                // or joins at such a segment on the same timeline as one played from the start (it ran three
                // frames early: --start 7.3 showed the frame at 7.2, a live return two frames early).
                if let first = demuxed.packets.first(where: { $0.kind == master && $0.pts != nil }), let pts = first.pts {
                    let cut = Double(pts) * first.timeBase.doubleValue
                    if cut > span.start { _ = anchor.contentSeconds(forPTS: cut, discontinuitySequence: key, segmentStartSeconds: pinAt) }
                }
                start = anchor.contentSeconds(forPTS: span.start, discontinuitySequence: key, segmentStartSeconds: pinAt)
                state.lastContentEnd = ContentSegmentEnd(mediaSequence: tracked.mediaSequence, anchorKey: key,
                                                         driftSeconds: start + (span.end - span.start) - tracked.endSeconds)
                state.playlistTimes.record(.init(mediaSequence: tracked.mediaSequence, mediaStart: start, mediaEnd: start + (span.end - span.start),
                                                 listedStart: tracked.startSeconds, listedDuration: tracked.durationSeconds))
                reportTimedID3(TimedID3.found(in: demuxed, body: transfer.body, spanStart: span.start),
                               mediaSequence: tracked.mediaSequence, segmentStart: start, spanStart: span.start)
                reportTimedID3(renditionID3, source: "audio#", mediaSequence: tracked.mediaSequence, segmentStart: start, spanStart: span.start)
            }
            let end = start + (span.end - span.start)
            let onTimeline = placement.timelineSpan(start: start, end: end)
            if placement.source == .content { noteSegmentProfile(url: transfer.url) }
            buffer.append(BufferedSegment(demuxed: demuxed, tracked: tracked, timelineStart: onTimeline.start,
                                          timelineEnd: onTimeline.end, byteCount: transfer.body.count, placement: placement,
                                          anchorKey: key, url: transfer.url))
            return (start, end)
        } catch {
            report.damage.append("\(transfer.url): \(error.description)")
            notify(.hlsSegmentError, metadata: ["URL": transfer.url, "DESCRIPTION": error.description], now: now)
            return nil
        }
    }

    private func segmentArrived(_ sequence: Int, _ transfer: NetworkTransfer, placement: Placement, now: Double) {
        guard let tracker = state.tracker, let tracked = tracker.segment(mediaSequence: sequence) else { return }
        state.segmentFailuresInARow = 0
        redundantRungWorked()
        recordSegment(transfer, mediaSequence: sequence, now: now)
        var placement = placement
        let span = bufferSegment(transfer, tracked: tracked, placement: placement, now: now)
        // A cue between two frames: the break moves to the next frame's start, and so does this clip's end.
        if let cue = placement.clipEnd, span != nil, let segment = buffer.forward.last, segment.tracked.mediaSequence == sequence {
            placement.clipEnd = alignBreakToFrame(cue: cue, in: segment)
            // The same frames are kept; the last one's shown duration now runs to the moved cut.
            segment.placement.clipEnd = placement.clipEnd
        }
        let presented = span.map { placement.timelineSpan(start: $0.start, end: $0.end) }
        if holdForPreroll(sequence, tracked: tracked, placement: placement, presented: presented) { return }
        segmentDone(sequence, tracked: tracked, placement: placement, presented: presented, now: now)
    }

    /// After a content segment is loaded (or passed over as a gap): the drift line's counts, the next
    /// segment wanted, and a break or the end that follows. A segment that gave nothing (damaged, or a
    /// gap) still counts its EXTINF, so the drift line shows what is missing.
    func segmentDone(_ sequence: Int, tracked: TrackedSegment, placement: Placement, presented: (start: Double, end: Double)?, now: Double) {
        guard let tracker = state.tracker else { return }
        let next = sequence + 1
        state.nextSequence = tracker.segment(mediaSequence: next) != nil || tracker.isLive ? next : nil
        // Count only what plays: a segment cut by a cue is fetched twice, once for each side.
        let listed = placement.timelineSpan(start: tracked.startSeconds, end: tracked.startSeconds + tracked.durationSeconds)
        report.manifestSeconds += listed.end - listed.start
        if let presented {
            state.loadedEnd = presented.end
            report.mediaSeconds += presented.end - presented.start
        }
        if let cue = placement.clipEnd, let adBreak = state.timeline.breaks.first(where: { abs($0.contentSeconds - cue) < 1e-9 && !state.breaksDone.contains($0.id) }) {
            enterBreak(adBreak, now: now)
        } else if state.nextSequence == nil {
            if let postRoll = pendingBreak(from: tracked.endSeconds, before: .infinity) {
                enterBreak(alignBreakToLoadedEnd(postRoll, before: nil), now: now)
            } else {
                state.endLoaded = true
            }
        }
    }

    /// What the demuxer met inside a segment it could still read (corrupt or cut packets), each once:
    /// recorded as `frames` records it (it was dropped, and the lost media went unreported).
    func reportDemuxDamage(_ demuxed: DemuxedSegment, url: String, now: Double) {
        var said = Set<String>()
        for item in demuxed.damage where said.insert(item.description).inserted {
            report.damage.append("\(url): \(item)")
            notify(.hlsSegmentError, metadata: ["URL": url, "DESCRIPTION": item.description], now: now)
        }
    }

    /// The media playlist a playlist transfer brought (recorded), or an error when it is a multivariant one
    /// (`detail` says what it was fetched as).
    func mediaPlaylist(in transfer: NetworkTransfer, detail: String) throws(PlayheadError) -> MediaPlaylist {
        record(transfer)
        guard case let .media(playlist) = try parse(transfer) else { throw .unexpectedPlaylist(url: transfer.url, detail: detail) }
        return playlist
    }

    /// Counts a failed reload and puts the next one half a target duration later (it was retried
    /// every turn, hundreds of times a second, and on the virtual clock the session never ended).
    private func reloadFailed(_ error: any Error, now: Double) {
        noteBackgroundReloadFailure(error, url: state.mediaURL)
        let wait = (state.tracker?.targetDurationSeconds ?? 2) / 2
        state.reloadFailures = ((state.reloadFailures?.count ?? 0) + 1, "\(error)", now + wait)
    }

    /// When the live playlist may be reloaded next: the tracker's time, and not before the retry time
    /// after a failed reload.
    func nextReloadTime(_ tracker: LivePlaylistTracker) -> Double? {
        guard let due = tracker.nextReloadTime() else { return nil }
        return max(due, state.reloadFailures?.retryAt ?? due)
    }

    private func playlistArrived(_ transfer: NetworkTransfer, now: Double) async {
        report.playlistReloads += 1
        record(transfer)
        guard var tracker = state.tracker else { return }
        let playlist: MediaPlaylist
        do {
            guard case let .media(media) = try parse(transfer) else {
                throw PlayheadError.unexpectedPlaylist(url: transfer.url, detail: "a reload gave a multivariant playlist")
            }
            playlist = media
        } catch {
            notify(.m3u8ParserError, metadata: ["DESCRIPTION": "\(error)", "URL": transfer.url], now: now)
            reloadFailed(error, now: now)
            _ = await failOver(after: error, resume: nil, now: now)
            return
        }
        state.reloadFailures = nil
        let update = tracker.update(with: playlist, loadedAt: now)
        state.tracker = tracker
        bus.post(.playlistLoaded(url: transfer.url, segments: playlist.segments.count, changed: update.changed))
        for warning in update.warnings { bus.post(.custom(name: "playlistWarning", payload: ["url": transfer.url, "message": warning])) }
        if update.changed {
            reportTimedMetadata(tracker, listed: playlist.segments.count)
            reportKeys(of: tracker, listed: playlist.segments.count, playlistURL: transfer.url)
            await detectOpportunities(now: now)
        }
        updateBlackouts(tracker, listed: playlist.segments.count, now: now)
        if configuration.ssai != nil {
            // Live: the tracking document grows with the window, read again with each new playlist.
            if update.changed, tracker.isLive { await loadSSAITracking() }
            updateSSAI(tracker)
        }
        let inBreak = state.adCursor != nil || state.contentResume != nil
        if state.nextSequence == nil, !state.endLoaded, !inBreak, let last = tracker.segments.last {
            state.nextSequence = last.mediaSequence + 1
        }
        if !inBreak, let next = state.nextSequence, tracker.fellBehind(nextMediaSequence: next) {
            let recovery = tracker.recoveryPosition()
            bus.post(.custom(name: "fellBehindLiveWindow", payload: ["missingMediaSequence": String(next), "recoverTo": String(recovery.seconds)]))
            seek(to: recovery.seconds, now: now, automatic: "fellBehindLiveWindow")
        }
        if !inBreak, let next = state.nextSequence, tracker.endListSeen, tracker.segment(mediaSequence: next) == nil {
            state.nextSequence = nil
            state.endLoaded = true
        }
    }

    /// The PSDK notification for an error: MISSING_FILE_ERROR for 404/410, M3U8_PARSER_ERROR, NETWORK_ERROR, NATIVE_ERROR.
    func notification(for error: any Error, now: Double) -> PlayerNotification {
        guard let error = error as? PlayheadError else {
            return PlayerNotification.make(.nativeError, metadata: ["INTERNAL_ERROR": "\(error)"], playerTime: now)
        }
        switch error {
        case let .network(http):
            if case let .status(url, code, _) = http, code == 404 || code == 410 {
                return PlayerNotification.make(.missingFileError, metadata: ["URL": url, "DESCRIPTION": http.description, "INTERNAL_ERROR": String(code)], playerTime: now)
            }
            return PlayerNotification.make(.networkError, metadata: ["URL": http.url, "DESCRIPTION": http.description], playerTime: now)
        case let .playlist(url, parse):
            // The description names the playlist too: the session's URL may be another (a variant's).
            return PlayerNotification.make(.m3u8ParserError, metadata: ["URL": url, "DESCRIPTION": "\(url): \(parse.description)"],
                                           playerTime: now)
        default:
            return PlayerNotification.make(.nativeError, metadata: ["DESCRIPTION": error.description], playerTime: now)
        }
    }
}
