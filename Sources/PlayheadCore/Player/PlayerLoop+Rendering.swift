import PlayheadMedia

extension MediaPlayer {
    /// The kind whose timeline drives presentation: video when the stream has it.
    var masterKind: MediaKind { configuration.mode == .demux || decoder.options.kinds.contains(.video) ? .video : .audio }

    /// Decodes (or, in demux mode, takes packets) until a frame of the master kind is waiting, or the
    /// buffer runs dry; drains the decoders once the whole item is in and consumed.
    func fillFrames(now: Double) {
        while frames.peek(masterKind) == nil {
            guard let (packet, segment) = buffer.nextPacket() else {
                if state.endLoaded, buffer.isDrained, !state.drained {
                    state.drained = true
                    if configuration.mode != .demux {
                        decoder.finish { queueFrame($0, from: buffer.back.last, now: now) }
                    }
                }
                return
            }
            onPacket?(packet)
            if configuration.mode == .demux {
                // Packets come in decode order; present a whole segment's worth in presentation order.
                var packets = [packet]
                while let (next, _) = buffer.nextPacket(within: segment) {
                    onPacket?(next)
                    packets.append(next)
                }
                for item in packets.sorted(by: { ($0.pts ?? .min) < ($1.pts ?? .min) }) {
                    queuePacket(item, from: segment, now: now)
                }
            } else {
                decoder.decode(packet, in: segment.demuxed) { queueFrame($0, from: segment, now: now) }
            }
        }
    }

    private func contentSeconds(_ mediaSeconds: Double, in segment: BufferedSegment) -> Double {
        anchor.contentSeconds(forPTS: mediaSeconds, discontinuitySequence: segment.tracked.discontinuitySequence,
                              segmentStartSeconds: segment.tracked.startSeconds)
    }

    private func queueFrame(_ frame: DecodedFrame, from segment: BufferedSegment?, now: Double) {
        guard let segment, let pts = frame.ptsSeconds else { return }
        let content = contentSeconds(pts, in: segment)
        var duration = frame.kind == .video ? frame.durationSeconds
            : Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
        if frame.kind == .video {
            if duration > 0 { lastVideoFrameSeconds = duration } else { duration = lastVideoFrameSeconds }
        }
        queue(PendingFrame(kind: frame.kind, contentSeconds: content, durationSeconds: duration, frame: frame), now: now)
    }

    /// Demux mode: packets stand in for frames (presentation from packet timestamps). Packets of a
    /// kind arrive in decode order; B-frames are put back in presentation order per segment.
    private func queuePacket(_ packet: Packet, from segment: BufferedSegment, now: Double) {
        guard packet.kind == .video || packet.kind == .audio, let pts = packet.pts else { return }
        let seconds = Double(pts) * packet.timeBase.doubleValue
        let item = PendingFrame(kind: packet.kind, contentSeconds: contentSeconds(seconds, in: segment),
                                durationSeconds: Double(packet.duration) * packet.timeBase.doubleValue, frame: nil)
        queue(item, now: now)
    }

    private func queue(_ frame: PendingFrame, now: Double) {
        if let skip = state.skipBefore {
            // The first frame presented is the one with the smallest time at or after the target
            // (a microsecond of slack absorbs floating-point noise in the timestamp mapping).
            if frame.contentSeconds < skip - 1e-6 { return }
            if frame.kind == masterKind {
                state.skipBefore = nil
                if let index = state.pendingSeek {
                    report.seeks[index].firstFrameSeconds = frame.contentSeconds
                }
            }
        }
        frames.push(frame)
    }

    /// Starts the clock when playback is wanted and enough is buffered (start, after a seek, after a rebuffer).
    func updateBuffering(now: Double) {
        guard state.wantsPlay, state.status == .playing, !state.clockRunning else { return }
        let position = state.anchorPosition
        let needed = state.stall != nil ? configuration.buffer.resumeSeconds : configuration.buffer.startSeconds
        let enough = buffer.level(at: position) >= needed || (state.endLoaded && frames.peek(masterKind) != nil)
        guard enough, frames.peek(masterKind) != nil else { return }
        // Live: keep the hold-back (RFC 8216: no closer than three target durations to the end) while
        // the window is still shorter than that, rather than stalling at every new segment.
        if let tracker = state.tracker, tracker.isLive, !state.started,
           tracker.liveEdgeSeconds - position < tracker.holdBackSeconds - 1e-6 { return }
        if let stall = state.stall { closeRebuffer(stall, at: now, resumed: true) }
        state.anchorTime = now
        state.clockRunning = true
    }

    /// Presents (or, late on the real clock, drops) every frame that is due.
    func presentDue(now: Double) {
        guard state.clockRunning else { return }
        while let next = frames.earliest() {
            let due = state.time(atPosition: next.contentSeconds)
            guard due <= now + 1e-9 else { break }
            _ = frames.pop(next.kind)
            let lateness = driver.isVirtual ? 0 : max(0, now - due)
            if next.kind == .video, lateness > configuration.dropLatenessSeconds {
                report.framesDropped += 1
                qos.recordFramesDropped(1)
                bus.post(.framesDropped(count: 1, pts: next.contentSeconds, latenessSeconds: lateness))
                continue
            }
            present(next, lateness: lateness, at: driver.isVirtual ? due : now)
            fillFrames(now: now)
        }
    }

    private func present(_ item: PendingFrame, lateness: Double, at time: Double) {
        report.framesPresented[item.kind.rawValue, default: 0] += 1
        if item.kind == masterKind {
            state.presentedEnd = item.contentSeconds + item.durationSeconds
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
                bus.post(.seekCompleted(at: item.contentSeconds))
                notify(.seekComplete, metadata: [:], now: time)
            }
            if configuration.perFrameEvents { bus.post(.framePresented(pts: item.contentSeconds, latenessSeconds: lateness)) }
        }
        if let frame = item.frame, frame.md5 != nil { onPresentedFrame?(frame) }
    }

    /// A rebuffer starts when the playhead reaches the end of the buffered media before the end of the item.
    func checkStall(now: Double) {
        guard state.clockRunning, !state.endLoaded, frames.peek(masterKind) == nil else { return }
        let end = max(buffer.bufferedEnd ?? state.anchorPosition, state.presentedEnd ?? 0)
        let reached = state.time(atPosition: end)
        guard now >= reached - 1e-9 else { return }
        let at = driver.isVirtual ? reached : now
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
        bus.post(.playCompleted)
        notify(.playbackComplete, metadata: [:], now: time)
        setStatus(.completed, now: time)
        state.finished = true
    }
}
