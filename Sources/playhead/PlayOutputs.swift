import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadMedia

/// Where `play` writes events (NDJSON) and framemd5 lines while the session runs.
final class SessionOutputs: @unchecked Sendable {
    private let eventsOut: OutputBuffer?
    private let md5Out: OutputBuffer?
    private let md5: FrameMD5Output?
    private let lock = NSLock()
    private var kept: [PlayerEvent] = []

    /// Every event of the session, when asked to keep them (for the HTML report).
    var keptEvents: [PlayerEvent] { lock.withLock { kept } }

    init(events: String?, framemd5: String?, keepEvents: Bool = false, player: MediaPlayer) throws {
        eventsOut = try Self.open(events)
        eventsOut?.flushIntervalNanoseconds = Self.eventsFlushNanoseconds
        md5Out = try Self.open(framemd5)
        if let md5Out {
            let output = FrameMD5Output(kinds: [.video], software: "playhead \(Playhead.version)", write: md5Out.write)
            md5 = output
            player.observeFrames(streams: { output.note(streams: $0) }, packets: { output.note($0) },
                                 presented: { output.add($0) })
        } else {
            md5 = nil
        }
        if eventsOut != nil || keepEvents {
            let eventsOut = self.eventsOut
            player.bus.subscribe { [self] event in
                lock.withLock {
                    eventsOut?.write(event.jsonLine() + "\n")
                    if keepEvents { kept.append(event) }
                }
            }
        }
    }

    /// Tells the framemd5 output where the rendition's timestamps start, from its first segment, when
    /// the session will not demux that segment (a start position): the ffmpeg CLI counts from the
    /// earliest stream's start there, which for fMP4 may be the audio's, a frame or so before the video
    /// of any later segment tells. Before the session runs.
    func primeFrameMD5(with first: DemuxedSegment) {
        guard let md5 else { return }
        md5.note(streams: first.streams)
        first.packets.forEach(md5.note)
    }

    /// Events reach their file or pipe at most this long after they happen: 0.2 s of wall time.
    static let eventsFlushNanoseconds: UInt64 = 200_000_000

    /// The buffer for an output option's value: nil without one, standard output for `-`, else the file
    /// (exit 2 naming it when it cannot be opened).
    static func open(_ target: String?) throws -> OutputBuffer? {
        guard let target else { return nil }
        if target == "-" { return OutputBuffer(fd: OutputBuffer.standardOutput) }
        guard let file = OutputBuffer(path: target) else {
            printError("cannot write \(target): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        return file
    }

    func finish() {
        md5?.finish()
        md5Out?.flush()
        lock.withLock { eventsOut?.flush() }
    }
}

/// A one-line progress display on standard error (only when it is a terminal).
final class ProgressLine: @unchecked Sendable {
    private let player: MediaPlayer
    private var task: Task<Void, Never>?

    init(player: MediaPlayer) { self.player = player }

    func start() {
        task = Task.detached { [player] in
            while !Task.isCancelled {
                let info = player.playbackInformation
                let line = String(format: "\r%@ %7.1f s  buffer %5.1f s  frames %d  dropped %d  rebuffers %d ",
                                  player.status.rawValue, player.currentTime, info?.bufferLengthSeconds ?? 0,
                                  info?.presentedFrameCount ?? 0, info?.droppedFrameCount ?? 0, info?.bufferingCount ?? 0)
                FileHandle.standardError.write(Data(line.utf8))
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    func stop() {
        task?.cancel()
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// The human summary printed when no --report is asked for.
enum PlaySummary {
    static func text(_ r: PlaybackReport) -> String {
        var lines = ["\(r.url) (\(r.clock) clock, \(r.mode))"]
        lines.append("  status: " + r.statuses.map(\.status.rawValue).joined(separator: " → "))
        lines.append(String(format: "  session %.2f s, position %.2f s, %d segments, %d bytes", r.sessionSeconds, r.positionSeconds, r.segmentsDownloaded, r.bytesDownloaded))
        let presented = r.framesPresented.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        lines.append("  frames presented: " + (presented.isEmpty ? "none" : presented) + ", dropped \(r.framesDropped)")
        let automatic = r.seeks.compactMap(\.automatic)
        let reasons = Dictionary(grouping: automatic, by: { $0 }).sorted { $0.key < $1.key }.map { reason, seeks in
            let said = ["fellBehindLiveWindow": "fell behind the live window", "audioTrackChange": "audio track changed"][reason] ?? reason
            return seeks.count == 1 ? said : "\(said) \(seeks.count)×"
        }
        lines.append(String(format: "  rebuffers: %d, %.3f s in all; seeks: %d", r.rebuffers.count, r.totalRebufferSeconds, r.seeks.count - automatic.count)
                     + (automatic.isEmpty ? "" : " (and \(automatic.count) by the player: \(reasons.joined(separator: ", ")))"))
        if let info = r.playbackInformation {
            let firstFrame = info.timeToFirstFrameSeconds.map { String(format: "%.3f s", $0) } ?? "none (no frame presented)"
            lines.append(String(format: "  time to first frame %@, observed bitrate %.0f bit/s", firstFrame, info.observedBitrate ?? 0))
        }
        lines.append(String(format: "  EXTINF %.3f s vs media %.3f s (drift %.3f s)", r.manifestSeconds, r.mediaSeconds, r.driftSeconds))
        if let first = r.damage.first {
            lines.append("  damaged: \(r.damage.count) (first: \(first))")
            // SAMPLE-AES carries no check of its own (no padding to fail): a wrong key or IV decodes to damage.
            if r.encryption?.contains("SAMPLE-AES") == true { lines.append("  note: the content is SAMPLE-AES: damage is what a wrong key or IV gives too") }
        }
        if let warnings = r.playlistWarnings, let first = warnings.first {
            lines.append("  playlist warnings: \(warnings.count)\(warnings.count == PlaybackReport.maxPlaylistWarnings ? " or more" : "") (first: \(first))")
        }
        if let audio = r.audio {
            let rendition = audio.selected.map { audio.options[$0].name } ?? "the variant's own"
            lines.append("  audio: \(rendition) of \(audio.options.count) offered; \(audio.segmentsLoaded) rendition segments loaded"
                         + (audio.issues.isEmpty ? "" : "; \(audio.issues.count) issues (first: \(audio.issues[0]))"))
        }
        if let captions = r.captions {
            lines.append("  closed captions (CEA-608 CC1): \(captions.cues.count) cues decoded" + (captions.cues.first.map { ", the first at \(String(format: "%.3f", $0.startSeconds)) s: \($0.text.replacingOccurrences(of: "\n", with: " / "))" } ?? ""))
        }
        if let subtitles = r.subtitles {
            let track = subtitles.selected.map { subtitles.options[$0].name } ?? "none"
            lines.append("  subtitles: \(track) of \(subtitles.options.count) offered; \(subtitles.cuesLoaded) cues loaded, \(subtitles.shown.count) shown"
                         + (subtitles.issues.isEmpty ? "" : "; \(subtitles.issues.count) issues (first: \(subtitles.issues[0]))"))
        }
        for blackout in r.blackouts {
            let end = blackout.endSeconds.map { String(format: "%.3f", $0) } ?? "open"
            let shown = blackout.startedAtSessionSeconds == nil ? "alternate not shown"
                : "alternate played \(blackout.alternateLoops)× from \(String(format: "%.3f", blackout.replacedFromSeconds)) s"
            lines.append("  blackout \(blackout.id): \(String(format: "%.3f", blackout.startSeconds))–\(end) s, \(shown); "
                         + "\(blackout.backgroundReloads) background reloads, \(blackout.backgroundErrors) failed")
        }
        if let ssai = r.ssai {
            let ads = ssai.avails.reduce(0) { $0 + $1.ads.count }
            let started = ssai.events.filter { $0.name == "adStarted" }.count, completed = ssai.events.filter { $0.name == "adComplete" }.count
            let beacons = r.beacons.filter { record in ssai.avails.contains { $0.id == record.breakId } }
            lines.append("  server-side ads: \(ssai.avails.count) avails, \(ads) ads; \(started) started, \(completed) completed; "
                         + "\(beacons.count) beacons (\(beacons.filter(\.succeeded).count) answered 2xx)"
                         + (ssai.trackingFailures.isEmpty ? "" : "; tracking document failed \(ssai.trackingFailures.count)×: \(ssai.trackingFailures[0])"))
        }
        if let heartbeats = r.heartbeats {
            let heartbeatCount = heartbeats.calls.filter { $0.call == "heartbeat" }.count
            let answered = heartbeats.calls.filter { $0.httpStatus.map { (200..<300).contains($0) } ?? false }.count
            let startup = heartbeats.startupTimeSeconds.map { String(format: "startup %.3f s", $0) } ?? "no startup (no first frame)"
            lines.append("  heartbeats: \(heartbeats.calls.count - heartbeatCount) track calls and \(heartbeatCount) heartbeats, "
                         + (heartbeats.quiet ? "none sent (quiet)" : "\(answered) answered 2xx by \(heartbeats.trackingServer ?? "?")") + "; \(startup)")
        }
        if let renditions = r.renditionsNotPlayed {
            lines.append("  not played (alternate renditions are not fetched): " + renditions.joined(separator: "; "))
        }
        for notification in r.notifications where notification.code == .seekError {
            lines.append("  seek: " + (notification.metadata["DESCRIPTION"] ?? notification.code.name))
        }
        if let error = r.error { lines.append("  error: \(error)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
