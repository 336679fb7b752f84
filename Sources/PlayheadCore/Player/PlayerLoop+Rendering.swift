import PlayheadMedia

extension MediaPlayer {
    /// The kind whose timeline drives presentation: video when the stream has it.
    var masterKind: MediaKind {
        if state.audioOnly { return .audio }
        return configuration.mode == .demux || decoder.options.kinds.contains(.video) ? .video : .audio
    }

    /// Decodes (or, in demux mode, takes packets) until a frame of the master kind is waiting, or the
    /// buffer runs dry; drains the decoders once the whole item is in and consumed. Each source
    /// (content, each ad) has its own decoder; moving to another source, or across a discontinuity,
    /// drains the one before, so its last frames come out placed by their own segment.
    func fillFrames(now: Double) {
        while frames.peek(masterKind) == nil {
            guard decodeStep(now: now) else { return }
        }
    }

    /// Real clock: with time to spare before the next frame is due, decodes on until a few frames of the
    /// master kind wait (``decodeAheadFrames``), one packet at a time, so work that makes no frame to show
    /// (the group of pictures before a resume point after an ad, decoded from its keyframe) is done ahead
    /// rather than when the frame is due, which made the first frames after a mid-roll late and dropped.
    func decodeAhead(now: Double) {
        guard !driver.isVirtual, state.clockRunning else { return }
        while frames.count(masterKind) < Self.decodeAheadFrames {
            if let next = frames.earliest(), state.time(atPosition: next.timelineSeconds) - driver.now < Self.decodeAheadSlackSeconds { return }
            guard decodeStep(now: now) else { return }
        }
    }

    /// Frames of the master kind ``decodeAhead(now:)`` keeps waiting on the real clock.
    static let decodeAheadFrames = 8
    /// It stops this close to the next frame's time, seconds.
    static let decodeAheadSlackSeconds = 0.015

    /// One step of decoding: one packet decoded (or, in demux mode, one segment's packets queued), or a
    /// decoder drained that is due; false when there is nothing to do now.
    private func decodeStep(now: Double) -> Bool {
        guard let (packet, segment) = buffer.nextPacket() else {
            if state.landingAfterBreak != nil, state.adCursor == nil, state.nextSequence == nil, configuration.mode != .demux,
               let last = state.decodingSegment {
                // The break a seek plays is all in: drain its decoder so its last frames play before the landing.
                drainDecoder(of: last, now: now)
                state.decodingSegment = nil
                return true
            }
            if configuration.mode != .demux, let last = state.decodingSegment, case let .ad(breakId, adIndex) = last.placement.source,
               state.adCursor?.breakId != breakId || state.adCursor?.adIndex != adIndex {
                // An ad all in and all fed, nothing after it yet (live: content resumes at the cue's end,
                // not out yet): drain its decoder now, so its last frames play and it completes on time
                // rather than when the next source comes.
                drainDecoder(of: last, now: now)
                state.decodingSegment = nil
                return true
            }
            if state.endLoaded, buffer.isDrained, !state.drained {
                state.drained = true
                if configuration.mode != .demux, let last = state.decodingSegment ?? buffer.back.last {
                    decoder(for: last.placement.source).finish { queueFrame($0, from: last, now: now) }
                }
            }
            return false
        }
        if let previous = state.decodingSegment, previous !== segment, configuration.mode != .demux {
            // A new source, a discontinuity (declared or not) within one, or another rendition whose streams need
            // other decoders (fMP4: its own initialization section): the frames the decoder still holds (B-frame
            // reordering, frame threads) belong to the segment before and are placed by its anchor.
            if previous.placement.source != segment.placement.source || previous.anchorKey != segment.anchorKey {
                drainDecoder(of: previous, now: now)
            } else if decoder(for: segment.placement.source).changesDecoders(segment.demuxed) {
                if state.audio != nil {
                    // A rendition switch under a joined audio rendition: only the video decoder changes; the
                    // audio one goes on (reset, its AAC state was lost and its frames were no longer FFmpeg's).
                    decoder(for: previous.placement.source).drainDecoders(unfitFor: segment.demuxed) { queueFrame($0, from: previous, now: now) }
                } else {
                    drainDecoder(of: previous, now: now)
                }
            }
        }
        if segment.skipVideoUntilKeyframe, packet.kind == .video {
            if !packet.isKeyframe { return true }
            segment.skipVideoUntilKeyframe = false
        }
        state.decodingSegment = segment
        if configuration.mode == .demux {
            // Packets come in decode order; present a whole segment's worth in presentation order.
            var packets = [packet]
            while let (next, _) = buffer.nextPacket(within: segment) {
                packets.append(next)
            }
            for item in packets.sorted(by: { ($0.pts ?? .min) < ($1.pts ?? .min) }) {
                queuePacket(item, from: segment, now: now)
            }
        } else {
            let known = segment.demuxed.damage.count
            decoder(for: segment.placement.source).decode(packet, in: segment.demuxed) { queueFrame($0, from: segment, now: now) }
            reportDecodeDamage(of: segment, after: known, now: now)
        }
        return true
    }

    /// Hands out the frames the decoder of `segment`'s source still holds, placed by that segment, and resets it.
    private func drainDecoder(of segment: BufferedSegment, now: Double) {
        let old = decoder(for: segment.placement.source)
        old.finish { queueFrame($0, from: segment, now: now) }
        old.reset()
    }

    /// Damage the decoders found in `segment` (concealed errors, undecodable packets) past the first
    /// `known` items: into the report and an HLS_SEGMENT_ERROR, as `frames` reports it (play reported
    /// only what the demuxer found).
    func reportDecodeDamage(of segment: BufferedSegment, after known: Int, now: Double) {
        let damage = segment.demuxed.damage
        guard damage.count > known else { return }
        let said = Set(damage[..<known].map(\.description))
        var new = Set<String>()
        for item in damage[known...] where !said.contains(item.description) && new.insert(item.description).inserted {
            // A frame the decoder handed out late belongs to the segment whose packet it came from.
            let url = owner(of: item, decoding: segment)?.url ?? segment.url
            report.damage.append("\(url): \(item)")
            notify(.hlsSegmentError, metadata: ["URL": url, "DESCRIPTION": item.description], now: now)
        }
    }

    /// The segment, `decoding` or one played before it still in the back buffer, holding the packet of
    /// a damaged frame (nil when the damage names no frame or no segment holds it).
    private func owner(of damage: MediaDamage, decoding: BufferedSegment) -> BufferedSegment? {
        guard let pts = damage.framePTS, let stream = damage.frameStreamIndex else { return nil }
        return ([decoding] + buffer.back.reversed()).first { candidate in
            candidate.demuxed.packets.contains { $0.streamIndex == stream && $0.pts == pts }
        }
    }

    /// The decoder of a source: the content's, or the ad's own.
    func decoder(for source: SpliceSource) -> RenditionDecoder {
        if case let .ad(breakId, adIndex) = source, let asset = state.adAssets[breakId]?[adIndex] { return asset.decoder }
        return decoder
    }

    /// Source time of a media timestamp of `segment` (content seconds, or seconds into the ad).
    func sourceSeconds(_ mediaSeconds: Double, in segment: BufferedSegment) -> Double {
        if case let .ad(breakId, adIndex) = segment.placement.source, let asset = state.adAssets[breakId]?[adIndex] {
            return asset.anchor.contentSeconds(forPTS: mediaSeconds, discontinuitySequence: segment.tracked.discontinuitySequence,
                                               segmentStartSeconds: segment.tracked.startSeconds)
        }
        return anchor.contentSeconds(forPTS: mediaSeconds, discontinuitySequence: segment.anchorKey,
                                     segmentStartSeconds: segment.tracked.startSeconds)
    }

    private func queueFrame(_ frame: DecodedFrame, from segment: BufferedSegment?, now: Double) {
        guard let segment, let pts = frame.ptsSeconds else { return }
        var duration = frame.kind == .video ? frame.durationSeconds
            : Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
        if frame.kind == .video {
            if duration > 0 { lastVideoFrameSeconds = duration } else { duration = lastVideoFrameSeconds }
        }
        let source = sourceSeconds(pts, in: segment)
        guard segment.placement.keeps(source) else { return }
        if configuration.mode == .keyframes, frame.kind == .video {
            duration = keyframeSpan(from: pts, source: source, in: segment) ?? duration
        }
        // Shown until its source's cut: a 29.97 fps ad cut at 4 s overlapped the content by 4 ms, and check-ads
        // could never call it exact.
        duration = segment.placement.shownDuration(from: source, duration)
        // Decoded frames come in presentation order. After a switch of rendition on segments cut between
        // keyframes, the new rung's first segment repeats a few frames the old rung already showed
        // (B-frames from before its cut): shown once, not twice.
        let timeline = source + segment.placement.offset
        if let last = state.lastQueued[frame.kind], last.source == segment.placement.source, timeline < last.seconds + 1e-6 { return }
        takeCaptions(of: frame, from: segment)
        state.lastQueued[frame.kind] = (timeline, segment.placement.source)
        queue(PendingFrame(kind: frame.kind, timelineSeconds: source + segment.placement.offset, source: segment.placement.source,
                           sourceSeconds: source, durationSeconds: duration, frame: frame, ptsSeconds: pts,
                           isKeyframe: frame.isKeyframe, segmentURL: segment.url), now: now)
    }

    /// Keyframes mode: a keyframe stands for its group of pictures, up to the segment's next keyframe
    /// or the segment's end (it counted one frame, so the buffer seemed to run dry seconds before the
    /// media in it did, and sessions stalled that had seconds buffered).
    private func keyframeSpan(from pts: Double, source: Double, in segment: BufferedSegment) -> Double? {
        let next = segment.demuxed.packets.lazy.filter { $0.kind == .video && $0.isKeyframe }
            .compactMap { packet in packet.pts.map { Double($0) * packet.timeBase.doubleValue } }
            .filter { $0 > pts + 1e-6 }.min()
        let end = next.map { $0 - pts } ?? (segment.timelineEnd - (source + segment.placement.offset))
        return end > 0 ? end : nil
    }

    /// Demux mode: packets stand in for frames (presentation from packet timestamps). Packets of a
    /// kind arrive in decode order; B-frames are put back in presentation order per segment.
    private func queuePacket(_ packet: Packet, from segment: BufferedSegment, now: Double) {
        guard packet.kind == .video || packet.kind == .audio, let pts = packet.pts else { return }
        let ptsSeconds = Double(pts) * packet.timeBase.doubleValue
        let source = sourceSeconds(ptsSeconds, in: segment)
        guard segment.placement.keeps(source) else { return }
        let duration = segment.placement.shownDuration(from: source, Double(packet.duration) * packet.timeBase.doubleValue)
        let item = PendingFrame(kind: packet.kind, timelineSeconds: source + segment.placement.offset, source: segment.placement.source,
                                sourceSeconds: source, durationSeconds: duration, frame: nil,
                                ptsSeconds: ptsSeconds, isKeyframe: packet.isKeyframe, segmentURL: segment.url)
        queue(item, now: now)
    }

    private func queue(_ frame: PendingFrame, now: Double) {
        if frame.kind != masterKind, let skip = state.skipOthersBefore {
            if frame.timelineSeconds < skip - 1e-6 { return }
            state.skipOthersBefore = nil
        }
        if let skip = state.skipBefore {
            // The first frame presented is the one with the smallest time at or after the target
            // (a microsecond of slack absorbs floating-point noise in the timestamp mapping).
            if frame.timelineSeconds < skip - 1e-6 { return }
            if frame.kind == masterKind { state.skipBefore = nil }
        }
        frames.push(frame)
    }

    /// Starts the clock when playback is wanted and enough is buffered (start, after a seek, after a rebuffer).
    func updateBuffering(now: Double) {
        guard state.wantsPlay, state.status == .playing, !state.clockRunning else { return }
        // Audio alone may be left (a seek into the last video frame's span): no video frame will come.
        if state.endLoaded, state.drained, frames.peek(masterKind) == nil {
            endWithNothingLeft(now: now)
            return
        }
        let position = state.anchorPosition
        let needed = state.stall != nil ? configuration.buffer.resumeSeconds : configuration.buffer.startSeconds
        let enough = buffer.level(at: position) >= needed || (state.endLoaded && frames.peek(masterKind) != nil)
        guard enough, frames.peek(masterKind) != nil else { return }
        // Live: keep the hold-back (RFC 8216: no closer than three target durations to the end) while
        // the window is still shorter than that, rather than stalling at every new segment.
        // A start point the playlist (EXT-X-START) or the user (a start position) put nearer the edge is
        // taken as given: waiting there for the window to grow left a playlist that never grew unstarted.
        // Only while the window grows: one that slides while shorter than the hold-back (an origin keeping fewer
        // than three target durations, against RFC 8216) never reaches it, and the session waited until it
        // fell behind the window.
        if state.firstListedSequence == nil { state.firstListedSequence = state.tracker?.segments.first?.mediaSequence }
        if let tracker = state.tracker, tracker.isLive, !state.started, tracker.playlist.start == nil, configuration.startSeconds == nil,
           tracker.segments.first?.mediaSequence == state.firstListedSequence,
           tracker.liveEdgeSeconds - position < tracker.holdBackSeconds - 1e-6 { return }
        // The subtitle file of the start position is on its way: its cues show from the first frame.
        if subtitlesHoldStart(at: position, now: now) { return }
        if let stall = state.stall { closeRebuffer(stall, at: now, resumed: true) }
        state.anchorTime = now
        state.clockRunning = true
    }

    /// Playback waits to start (or to resume) but everything is loaded and decoded and no video frame is
    /// left: nothing has played in the whole session (an error naming the playlist, with the damage
    /// already reported per segment), or nothing is left after the playhead (the item completes there),
    /// rather than wait for media that will never come.
    func endWithNothingLeft(now: Double) {
        // A seek asked for before the first frame (the daemon: seek, then play) that landed past the
        // last frame completes at the end, as it does once playback ran.
        guard report.framesPresented[masterKind.rawValue, default: 0] > 0 || state.pendingSeek != nil else {
            let description: String
            if let skip = state.skipBefore, report.damage.isEmpty {
                // Frames came, but all before the start position (inside the last frame's span).
                description = String(format: "nothing to play: no %@ frame starts at or after the start position %g s in %@",
                                     masterKind.rawValue, skip, state.mediaURL)
            } else {
                description = "nothing to play: the \(report.segmentsDownloaded) segment(s) loaded from \(state.mediaURL) gave no "
                    + "\(masterKind.rawValue)" + (report.damage.isEmpty ? "" : " (\(report.damage.count) damaged: \(report.damage[0]))")
            }
            fail(PlayerNotification.make(.playbackError, metadata: ["URL": state.mediaURL, "DESCRIPTION": description], playerTime: now), now: now)
            return
        }
        if let stall = state.stall { closeRebuffer(stall, at: now, resumed: false) }
        // A segment after the landing failed for good: the seek has no frame; the failure ends it, not this.
        if let index = state.pendingSeek, state.failureAfterPlayout == nil {
            // The seek landed past the last frame: it ends where it asked, with no frame to show.
            state.pendingSeek = nil
            state.skipBefore = nil
            report.seeks[index].completedAt = now
            bus.post(.seekCompleted(at: state.anchorPosition))
            notify(.seekComplete, metadata: [:], now: now)
            seekCompleted(index, now: now)
        }
        state.anchorTime = now
        state.clockRunning = true
    }

    /// Presents (or, late on the real clock, drops) every frame that is due.
    func presentDue(now: Double) {
        guard state.clockRunning else { return }
        while let next = frames.earliest() {
            let due = state.time(atPosition: next.timelineSeconds)
            guard due <= now + 1e-9 else { break }
            _ = frames.pop(next.kind)
            let lateness = driver.isVirtual ? 0 : max(0, now - due)
            if next.kind == .video, lateness > configuration.dropLatenessSeconds {
                report.framesDropped += 1
                qos.recordFramesDropped(1)
                bus.post(.framesDropped(count: 1, pts: next.timelineSeconds, latenessSeconds: lateness))
                // Decode on at once: the next frame is due too, and waiting for the next wake-up (up to
                // a second away) to decode it would make it late as well, one frame a second for ever.
                fillFrames(now: now)
                continue
            }
            present(next, lateness: lateness, at: driver.isVirtual ? due : now)
            noteSplice(next)
            noteSSAI(next)
            fillFrames(now: now)
        }
    }

    private func present(_ item: PendingFrame, lateness: Double, at time: Double) {
        report.framesPresented[item.kind.rawValue, default: 0] += 1
        if item.kind == masterKind {
            state.presentedEnd = item.timelineSeconds + item.durationSeconds
            noteProfile(of: item)
            qos.recordFramePresented(at: time)
            report.maxLatenessSeconds = max(report.maxLatenessSeconds, lateness)
            if !state.started {
                state.started = true
                qos.recordFirstFrame(at: time)
                bus.post(.playStarted)
                notify(.playbackStart, metadata: [:], now: time)
            }
            if let index = state.pendingSeek {
                state.pendingSeek = nil
                report.seeks[index].completedAt = time
                // Set as it is presented: a seek replaced by another before its first frame showed has none.
                report.seeks[index].firstFrameSeconds = item.timelineSeconds
                bus.post(.seekCompleted(at: item.timelineSeconds))
                notify(.seekComplete, metadata: [:], now: time)
                seekCompleted(index, now: time)
            }
            if configuration.perFrameEvents { bus.post(.framePresented(pts: item.timelineSeconds, latenessSeconds: lateness)) }
        }
        if let frame = item.frame {
            if frame.md5 != nil { onPresentedFrame?(frame) }
            if frame.retained != nil { decoder(for: item.source).dump(frame) }
        }
    }

    /// A live playlist that has stopped changing (``LivePlaylistTracker/isStuck(at:)``: 3.5 target
    /// durations since the last change, ExoPlayer's rule) while playback waits for media ends the session
    /// with an error naming the playlist, rather than waiting for ever (for the window to grow past the
    /// hold-back, or for the next segment). Playback still running on what is buffered goes on until it
    /// runs dry.
    func checkLiveStuck(now: Double) {
        guard let tracker = state.tracker, tracker.isStuck(at: now), state.wantsPlay, state.status == .playing,
              !state.clockRunning, state.adCursor == nil else { return }
        let unchanged = now - tracker.lastChangeSeconds
        // Reloads that went back did change, backwards (an encoder restart reusing segment names): said so, not "not changed".
        let stale = state.reloadFailures == nil ? tracker.lastStaleReload : nil
        var description = String(format: "the live playlist %@ has %@ for %.1f s (%.1f target durations of %.0f s) and playback is waiting for media",
                                 state.mediaURL, stale == nil ? "not changed" : "given nothing new", unchanged,
                                 unchanged / tracker.targetDurationSeconds, tracker.targetDurationSeconds)
        if let failures = state.reloadFailures {
            description += "; its last \(failures.count == 1 ? "reload" : "\(failures.count) reloads") failed: \(failures.last)"
        } else if let stale {
            description += ": its reloads went back (\(stale)) and list segments seen before, so they were ignored as stale copies"
        }
        fail(PlayerNotification.make(.playbackError, metadata: ["URL": state.mediaURL, "DESCRIPTION": description], playerTime: now), now: now)
    }

    /// A rebuffer starts when the playhead reaches the end of the buffered media before the end of the item.
    func checkStall(now: Double) {
        guard state.clockRunning, !state.endLoaded, frames.peek(masterKind) == nil else { return }
        let end = max(buffer.bufferedEnd ?? state.anchorPosition, state.presentedEnd ?? 0)
        let reached = state.time(atPosition: end)
        guard now >= reached - 1e-9 else { return }
        let at = driver.isVirtual ? reached : now
        if let landing = state.landingAfterBreak, state.adCursor == nil, state.nextSequence == nil, buffer.isDrained {
            // The break a seek over breaks played is over: on to the next one, or where the seek asked.
            // Its last ad played to its end, so it completes (lastAd, adCompleted, the complete beacon)
            // before the seek: the seek leaves no ad behind to skip.
            closeAdAtEnd()
            if !state.breakQueue.isEmpty {
                let next = state.breakQueue.removeFirst()
                seek(to: state.timeline.virtualStart(ofBreak: next), now: at, applyPolicy: false)
            } else {
                state.landingAfterBreak = nil
                seek(to: landing, now: at, applyPolicy: false)
            }
            return
        }
        completeAdBeforeStall()
        state.watchedSeconds += max(0, end - state.anchorPosition)
        state.anchorPosition = end
        state.anchorTime = at
        state.clockRunning = false
        state.stall = (at, end)
        qos.recordBufferingStarted(at: at)
        bus.post(.bufferEmpty)
        bus.post(.bufferingStarted)
        bus.post(.stalled)
    }

    func closeRebuffer(_ stall: (start: Double, position: Double), at now: Double, resumed: Bool) {
        let duration = max(0, now - stall.start)
        report.rebuffers.append(RebufferRecord(startSeconds: stall.start, endSeconds: resumed ? now : nil,
                                               positionSeconds: stall.position, durationSeconds: duration))
        qos.recordBufferingEnded(at: now)
        state.stall = nil
        if resumed {
            bus.post(.likelyToKeepUp)
            bus.post(.bufferingCompleted(durationSeconds: duration))
            bus.post(.recovered(durationSeconds: duration))
        }
    }

    /// The item completes when everything is loaded, presented, and the playhead is at the end.
    func checkCompletion(now: Double) {
        guard state.endLoaded, state.drained, frames.count == 0, state.status == .playing, state.clockRunning else { return }
        let end = completionPosition
        let at = state.time(atPosition: end)
        guard now >= at - 1e-9 else { return }
        let time = driver.isVirtual ? at : now
        state.watchedSeconds += max(0, end - state.anchorPosition)
        state.anchorPosition = end
        state.anchorTime = time
        state.clockRunning = false
        state.wantsPlay = false
        // An ad whose last frame was the last presented completes (and its break), the session ending or failing.
        closeAdAtEnd()
        if let failure = state.failureAfterPlayout {
            // A segment failed for good: what was loaded has played out, and the session ends in that error (an ad
            // played whole before it completed: QA42 #7, no adCompleted nor adBreakCompleted).
            fail(failure, now: time)
            return
        }
        finishSSAI()
        bus.post(.playCompleted)
        notify(.playbackComplete, metadata: [:], now: time)
        setStatus(.completed, now: time)
        state.finished = true
    }
}
