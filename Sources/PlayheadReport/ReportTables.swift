import Foundation
import PlayheadCore

/// The report's tables, each an HTML fragment with its heading.
enum ReportTables {
    /// The headline figures.
    static func summary(_ r: PlaybackReport, timeline: ReportTimeline) -> String {
        let info = r.playbackInformation
        let frames = r.framesPresented.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let rows: [(String, String)] = [
            ("Clock, mode", "\(r.clock), \(r.mode)\(r.isLive ? ", live" : "")"),
            ("Status", r.statuses.map(\.status.rawValue).joined(separator: " → ")),
            ("Final status", r.finalStatus.rawValue + (r.error.map { " (\($0))" } ?? "")),
            ("Session, position", String(format: "%.2f s, %.2f s", r.sessionSeconds, r.positionSeconds)),
            ("Variant", r.variantBandwidth.map { "\($0) bit/s" } ?? "–"),
            ("Time to first frame", info?.timeToFirstFrameSeconds.map { String(format: "%.3f s", $0) } ?? "–"),
            ("Rebuffers", String(format: "%d, %.3f s in all", r.rebuffers.count, r.totalRebufferSeconds)),
            ("Ad breaks", "\(timeline.adBreaks.count)"),
            // A report rebuilt from a daemon's store (an interrupted session) has no frames by kind;
            // its last sample counts the master stream's.
            ("Frames presented", !frames.isEmpty ? frames
                : r.playbackInformation.map { "\($0.presentedFrameCount) (master stream, last sample)" } ?? "0"),
            ("Frames dropped, max lateness", String(format: "%d, %.3f s", r.framesDropped, r.maxLatenessSeconds)),
            ("Segments, bytes", "\(r.segmentsDownloaded), \(r.bytesDownloaded)"),
            ("EXTINF vs media", String(format: "%.3f s vs %.3f s (drift %.3f s)", r.manifestSeconds, r.mediaSeconds, r.driftSeconds)),
        ]
        return "<table class=\"summary\">" + rows.map { "<tr><th>\(HTML.escape($0.0))</th><td>\(HTML.escape($0.1))</td></tr>" }.joined() + "</table>"
    }

    /// A table with a heading, or a note when there are no rows.
    static func table(_ title: String, headers: [String], rows: [[String]], numeric: Set<Int> = []) -> String {
        var html = "<h2>\(HTML.escape(title))</h2>"
        guard !rows.isEmpty else { return html + "<p class=\"note\">None.</p>" }
        html += "<table><tr>" + headers.map { "<th>\(HTML.escape($0))</th>" }.joined() + "</tr>"
        for row in rows {
            html += "<tr>" + row.enumerated().map { index, cell in
                numeric.contains(index) ? "<td class=\"num\">\(HTML.escape(cell))</td>" : "<td>\(HTML.escape(cell))</td>"
            }.joined() + "</tr>"
        }
        return html + "</table>"
    }

    static func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "–" }

    /// Every rebuffer.
    static func rebuffers(_ r: PlaybackReport) -> String {
        table("Rebuffers", headers: ["start (s)", "end (s)", "position (s)", "duration (s)"],
              rows: r.rebuffers.map { [seconds($0.startSeconds), seconds($0.endSeconds), seconds($0.positionSeconds), seconds($0.durationSeconds)] },
              numeric: [0, 1, 2, 3])
    }

    /// Every ad break.
    static func adBreaks(_ timeline: ReportTimeline) -> String {
        table("Ad breaks", headers: ["start (s)", "end (s)", "duration (s)"],
              rows: timeline.adBreaks.map { [seconds($0.start), seconds($0.end), seconds($0.end - $0.start)] }, numeric: [0, 1, 2])
    }

    /// Every splice boundary: the frames on each side (content time for content, ad time for ads).
    static func adBoundaries(_ r: PlaybackReport) -> String {
        table("Ad boundaries", headers: ["break", "cue (s)", "kind", "last content before (s)", "first ad frame at (s)",
                                         "first content after (s)", "audio gap out / in (ms)"],
              rows: r.adBoundaries.map { b in
                  let out = zipGap(b.firstAdAudio?.timelineSeconds, b.lastContentAudioBefore?.timelineEnd)
                  let back = zipGap(b.firstContentAudioAfter?.timelineSeconds, b.lastAdAudio?.timelineEnd)
                  return [b.breakId, seconds(b.cueContentSeconds), b.replacedContentSeconds > 0 ? "replacement" : "insertion",
                          seconds(b.lastContentBefore?.sourceSeconds), seconds(b.firstAd?.timelineSeconds),
                          seconds(b.firstContentAfter?.sourceSeconds), "\(out) / \(back)"]
              }, numeric: [1, 3, 4, 5])
    }

    private static func zipGap(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b else { return "–" }
        return String(format: "%.1f", (a - b) * 1000)
    }

    /// Every resume (F25): when, where, why, and how it went.
    static func resumes(_ r: PlaybackReport) -> String {
        table("Resumes", headers: ["requested at (s)", "at (s)", "reason", "after the failure", "outcome", "ended at (s)"],
              rows: (r.resumes ?? []).map { [seconds($0.requestedAt), seconds($0.atSeconds), $0.reason + ($0.autoplay ? "" : ", paused"),
                                              $0.failure ?? "–", ($0.outcome ?? "under way") + ($0.failureOfResume.map { ": " + $0 } ?? ""),
                                              seconds($0.endedAt)] },
              numeric: [0, 1, 5])
    }

    /// Every key the playlists named (the drmMetadataChanged events).
    static func keys(_ r: PlaybackReport) -> String {
        table("Keys", headers: ["method", "URI", "KEYFORMAT", "from", "first segment"],
              rows: (r.keys ?? []).map { [$0.method, $0.uri ?? "–", $0.keyFormat ?? "identity", $0.session ? "session key" : $0.playlistURL,
                                          $0.mediaSequence.map(String.init) ?? "–"] },
              numeric: [4])
    }

    /// Every seek.
    static func seeks(_ r: PlaybackReport) -> String {
        table("Seeks", headers: ["requested at (s)", "from (s)", "to (s)", "completed at (s)", "first frame (s)"],
              rows: r.seeks.map { [seconds($0.requestedAt), seconds($0.fromSeconds), seconds($0.toSeconds), seconds($0.completedAt), seconds($0.firstFrameSeconds)] },
              numeric: [0, 1, 2, 3, 4])
    }

    /// Every subscribed tag identified (shown only when there is one).
    static func timedMetadata(_ r: PlaybackReport) -> String {
        guard !r.timedMetadata.isEmpty else { return "" }
        return table("Timed metadata", headers: ["time (s)", "type", "name", "id", "content"],
                     rows: r.timedMetadata.map { [seconds($0.timeSeconds), $0.type.rawValue, $0.name ?? "–", $0.id, $0.content] }, numeric: [0])
    }

    /// Every closed-caption cue decoded (only when the video carried some).
    static func captions(_ r: PlaybackReport) -> String {
        guard let captions = r.captions, !captions.cues.isEmpty else { return "" }
        return table("Closed captions (CEA-608)", headers: ["start (s)", "end (s)", "channel", "text"],
                     rows: captions.cues.map { [seconds($0.startSeconds), seconds($0.endSeconds), $0.channel, $0.text] }, numeric: [0, 1])
    }

    /// Every subtitle cue shown (only when a track was shown), with the track's problems.
    static func subtitles(_ r: PlaybackReport) -> String {
        guard let subtitles = r.subtitles, let selected = subtitles.selected else { return "" }
        let rows = subtitles.shown.map { [seconds($0.cue.startSeconds), seconds($0.cue.endSeconds), seconds($0.shownAtPosition),
                                          seconds($0.hiddenAtPosition), $0.cue.id, $0.cue.text] }
            + subtitles.issues.map { ["–", "–", "–", "–", "issue", $0] }
        return table("Subtitles: \(subtitles.options[selected].name)", headers: ["start (s)", "end (s)", "shown at (s)", "hidden at (s)", "id", "text"],
                     rows: rows, numeric: [0, 1, 2, 3])
    }

    /// Every blackout met: its range, where the alternate content took over, when it showed and how often
    /// it played, and the main playlist watched in the background meanwhile.
    static func blackouts(_ r: PlaybackReport) -> String {
        guard !r.blackouts.isEmpty else { return "" }
        return table("Blackouts", headers: ["id", "start (s)", "end (s)", "replaced from (s)", "shown at (s)", "back at (s)", "plays of the alternate",
                                            "background reloads", "failed", "alternate"],
                     rows: r.blackouts.map { b in
                         [b.id, seconds(b.startSeconds), b.endSeconds.map { seconds($0) } ?? "open", seconds(b.replacedFromSeconds),
                          seconds(b.startedAtSessionSeconds), seconds(b.endedAtSessionSeconds), String(b.alternateLoops),
                          String(b.backgroundReloads), String(b.backgroundErrors), b.alternateURL]
                     }, numeric: [1, 2, 3, 4, 5, 6, 7, 8])
    }

    /// Server-side ad tracking: every event but the remaining-time ticks, at its presented frame, with the
    /// URLs it fired.
    static func ssai(_ r: PlaybackReport) -> String {
        guard let ssai = r.ssai else { return "" }
        let title = "Server-side ads (\(ssai.avails.count) avails, \(ssai.avails.reduce(0) { $0 + $1.ads.count }) ads, "
            + "\(ssai.remainingTimeEvents) remaining-time events\(ssai.trackingURL.map { "; tracking \($0)" } ?? "; from the playlist's markers"))"
        let rows = ssai.events.map { e in
            [seconds(e.contentSeconds), e.name, e.availId, e.adId.map { "\($0) (\(e.adNumber ?? 0)/\(e.adsInAvail))" } ?? "", e.adTitle ?? "",
             e.offsetSeconds.map { seconds($0) } ?? "", e.frameMD5 ?? "", e.beaconURLs.joined(separator: "\n") + (e.clickThrough.map { "\n→ \($0)" } ?? "")]
        } + (ssai.trackingFailures + ssai.refusals).map { ["–", "problem", "", "", "", "", "", $0] }
        return table(title, headers: ["content (s)", "event", "avail", "ad", "title", "into the ad (s)", "frame MD5", "URLs"], rows: rows, numeric: [0, 5])
    }

    /// Every video heartbeat call (with `--heartbeat-server` or quiet mode): what was called, when, at which
    /// playhead, and how the tracking server answered; the startup time in the title.
    static func heartbeats(_ r: PlaybackReport) -> String {
        guard let heartbeats = r.heartbeats, !heartbeats.calls.isEmpty else { return "" }
        let startup = heartbeats.startupTimeSeconds.map { String(format: ", startup %.3f s", $0) } ?? ""
        let server = heartbeats.quiet ? "quiet: none sent" : heartbeats.trackingServer ?? "–"
        return table("Video heartbeats (\(server)\(startup))", headers: ["time (s)", "call", "type", "asset", "playhead (s)", "HTTP", "error"],
                     rows: heartbeats.calls.map { c in
                         [seconds(c.sessionSeconds), c.call, c.type, c.assetType, seconds(c.playheadSeconds),
                          c.httpStatus.map(String.init) ?? (c.sent ? "none" : "not sent"), c.error ?? ""]
                     }, numeric: [0, 4])
    }

    /// The notification history.
    static func notifications(_ list: [PlayerNotification]) -> String {
        table("Notifications", headers: ["time (s)", "type", "code", "name", "details"],
              rows: list.map { n in
                  let details = n.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
                  return [seconds(n.playerTime), n.type.rawValue, "\(n.code.code)", n.name, details]
              }, numeric: [0, 2])
    }

    /// The events, at most `maxRows` of them, with their payloads as JSON.
    static func events(_ events: [PlayerEvent], maxRows: Int) -> String {
        let shown = events.prefix(maxRows)
        var html = table("Events (\(events.count))", headers: ["seq", "time (s)", "event", "payload"],
                         rows: shown.map { [String($0.sequence), seconds($0.playerTime), $0.name, payload($0)] }, numeric: [0, 1])
        if events.count > shown.count { html += "<p class=\"note\">\(events.count - shown.count) more events not listed.</p>" }
        return html
    }

    /// The event's JSON line without the keys the other columns show.
    static func payload(_ event: PlayerEvent) -> String {
        guard let data = event.jsonLine(includeWallClock: false).data(using: .utf8),
              var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return "" }
        for key in ["seq", "time", "event"] { object[key] = nil }
        guard !object.isEmpty, let text = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "" }
        return String(decoding: text, as: UTF8.self)
    }
}
