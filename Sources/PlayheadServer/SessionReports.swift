import Foundation
import PlayheadCore

/// Reports of stored sessions: the final one when the session ended, else one put together from what
/// was recorded (running or interrupted sessions).
enum SessionReports {
    /// The report of session `id` and whether it is partial.
    /// - Throws: 404 for an unknown session.
    static func report(manager: SessionManager, id: String) throws -> (PlaybackReport, partial: Bool) {
        guard let stored = try manager.store.session(id: id) else { throw APIError.sessionNotFound(id) }
        if let report = stored.report { return (report, false) }
        // A running session: the player's own report as it stands, with the stored samples and the
        // bus's notifications.
        if let session = manager.runningSession(id), var report = session.player.reportSoFar {
            report.samples = try manager.store.samples(sessionID: id)
            report.notifications = session.player.bus.notificationHistory.items
            return (report, true)
        }
        return (try rebuilt(stored, manager: manager), true)
    }

    /// The report of a session without a player (interrupted, or running but not yet turned): put
    /// together from its stored events and samples: video frames from the last sample, playlist reloads from
    /// the playlists loaded again (and so whether it was live). What only the player knew (media and
    /// manifest seconds, audio frames, live edge distances) is left at its zero value, and `error` says so.
    static func rebuilt(_ stored: StoredSession, manager: SessionManager) throws -> PlaybackReport {
        let id = stored.id
        var report = PlaybackReport(url: stored.spec.url, clock: stored.spec.clock.rawValue, mode: stored.spec.mode.rawValue)
        report.samples = try manager.store.samples(sessionID: id)
        report.playbackInformation = report.samples.last
        // The media playlist of each rung: a load follows the switch to its rung; a switch back to a
        // rung already loaded reuses its playlist without loading it again.
        var rungURLs: [Int: String] = [:]
        var loaded: Set<String> = []
        for event in try events(manager: manager, id: id) {
            report.sessionSeconds = max(report.sessionSeconds, event.playerTime)
            switch event.kind {
            case let .statusChanged(_, to):
                if let record: StatusRecord = record(["status": to.rawValue, "playerTime": event.playerTime]) {
                    report.statuses.append(record)
                }
                report.finalStatus = to
            case .stalled:
                if let record: RebufferRecord = record(["startSeconds": event.playerTime, "positionSeconds": report.positionSeconds,
                                                        "durationSeconds": 0]) {
                    report.rebuffers.append(record)
                }
            case let .recovered(duration):
                if let last = report.rebuffers.indices.last {
                    report.rebuffers[last].endSeconds = event.playerTime
                    report.rebuffers[last].durationSeconds = duration
                }
            case let .timeChanged(seconds): report.positionSeconds = seconds
            case let .bitrateChanged(from, to, reason):
                if let record: BitrateSwitchRecord = record(["playerTime": event.playerTime, "toBitsPerSecond": to, "reason": reason]
                                                              .merging(from.map { ["fromBitsPerSecond": $0] } ?? [:]) { a, _ in a }) {
                    report.bitrateSwitches.append(record)
                }
                report.variantBandwidth = to
                if let url = rungURLs[to] { report.mediaPlaylistURL = url }
            case let .seekStarted(from, to):
                if let record: SeekRecord = record(["fromSeconds": from, "toSeconds": to, "requestedAt": event.playerTime]) {
                    report.seeks.append(record)
                }
            case .seekCompleted:
                if let last = report.seeks.indices.last { report.seeks[last].completedAt = event.playerTime }
            case let .framesDropped(count, _, _): report.framesDropped += count
            case let .playlistLoaded(url, _, _):
                // A playlist loaded again is a reload: only a live playlist is (a VOD rung's is kept).
                if !loaded.insert(url).inserted { report.playlistReloads += 1 }
                report.mediaPlaylistURL = url
                if let rung = report.variantBandwidth { rungURLs[rung] = url }
            case let .segmentLoaded(_, _, bytes, _, _):
                report.segmentsDownloaded += 1
                report.bytesDownloaded += bytes
            case let .notification(n), let .error(n): report.notifications.append(n)
            default: break
            }
        }
        report.totalRebufferSeconds = report.rebuffers.map(\.durationSeconds).reduce(0, +)
        // The last sample counts what events do not carry (playlists' bytes, frames).
        if let last = report.playbackInformation {
            report.bytesDownloaded = max(report.bytesDownloaded, last.bytesDownloaded)
            report.segmentsDownloaded = max(report.segmentsDownloaded, last.segmentsDownloaded)
            report.framesDropped = max(report.framesDropped, last.droppedFrameCount)
            report.framesPresented["video"] = max(report.framesPresented["video"] ?? 0, last.presentedFrameCount)
        }
        report.isLive = report.playlistReloads > 0
        if stored.status == SessionStore.interruptedStatus {
            report.error = "interrupted: the daemon stopped while the session ran (report rebuilt from the stored events and samples; "
                + "audio frames, manifest and media seconds and the live edge distance were not recorded)"
        }
        return report
    }

    /// A report record made from its JSON fields (the records have no public memberwise initialisers).
    static func record<Record: Decodable>(_ fields: [String: Any]) -> Record? {
        guard let data = try? JSONSerialization.data(withJSONObject: fields) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Every stored event of session `id`, decoded (lines that do not decode are skipped).
    static func events(manager: SessionManager, id: String) throws -> [PlayerEvent] {
        var events = try manager.store.events(sessionID: id).compactMap { try? PlayerEvent(jsonLine: $0.line) }
        if let session = manager.runningSession(id) {
            let last = events.last?.sequence ?? 0
            events += session.player.bus.events.filter { $0.sequence > last }
        }
        return events
    }
}
