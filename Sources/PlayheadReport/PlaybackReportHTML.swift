import Foundation
import PlayheadCore

/// The HTML report of one playback session: one self-contained page (inline CSS and SVG, no scripts,
/// no external assets) with charts of buffer level, selected bitrate and measured throughput, and frame
/// lateness over session time (rebuffers and ad breaks shaded, ad boundaries marked), and tables of
/// rebuffers, seeks, notifications and events.
public enum PlaybackReportHTML {
    /// Default most event rows in the events table (the rest are counted, not listed): 5,000.
    public static let defaultMaxEventRows = 5_000

    /// Renders the page.
    /// - Parameters:
    ///   - report: The session's report (`playhead play --report`, or the daemon's).
    ///   - events: The session's events in order (ads, lateness and throughput come from them).
    ///   - maxEventRows: Most rows in the events table.
    ///   - partialNote: When set, the report is not final (a session still running, or one the daemon
    ///     rebuilt after an interruption): said under the title.
    /// - Returns: The HTML document.
    public static func render(report: PlaybackReport, events: [PlayerEvent], maxEventRows: Int = defaultMaxEventRows,
                              partialNote: String? = nil) -> String {
        let timeline = ReportTimeline(report: report, events: events)
        var html = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Playhead report: "
        html += HTML.escape(report.url) + "</title><style>" + style + "</style></head><body>"
        html += "<h1>Playback report</h1><p class=\"url\">" + HTML.escape(report.url) + "</p>"
        if let partialNote { html += "<p class=\"partial\">" + HTML.escape(partialNote) + "</p>" }
        html += ReportTables.summary(report, timeline: timeline)
        html += "<h2>Charts</h2>"
        if timeline.lateness.isEmpty && timeline.dropped.isEmpty {
            html += "<p class=\"note\">Frame lateness: no per-frame events in this session (ask for frame events to chart every frame).</p>"
        }
        for chart in timeline.charts() { html += "<div class=\"chart\">" + chart.render() + "</div>" }
        html += ReportTables.rebuffers(report)
        html += ReportTables.adBreaks(timeline)
        html += ReportTables.adBoundaries(report)
        html += ReportTables.seeks(report)
        if report.resumes != nil { html += ReportTables.resumes(report) }
        if report.keys != nil { html += ReportTables.keys(report) }
        html += ReportTables.timedMetadata(report)
        html += ReportTables.subtitles(report)
        html += ReportTables.captions(report)
        html += ReportTables.blackouts(report)
        html += ReportTables.ssai(report)
        html += ReportTables.heartbeats(report)
        html += ReportTables.notifications(report.notifications)
        html += ReportTables.events(events, maxRows: maxEventRows)
        return html + "</body></html>\n"
    }

    static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}h1{margin:0 0 4px}\
    .url{color:#555;word-break:break-all}table{border-collapse:collapse;margin:8px 0 20px}\
    td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top;white-space:pre-line}th{background:#f2f2f2}\
    td.num{text-align:right;font-variant-numeric:tabular-nums}.note{color:#666}\
    svg .title{font-weight:600;font-size:13px}svg .tick,svg .legend{font-size:11px;fill:#444}\
    svg .grid{stroke:#e5e5e5}svg .axis{stroke:#888}svg .frame{fill:none;stroke:#888}\
    div.chart{margin:8px 0 12px}code{font-size:12px;word-break:break-all}\
    .partial{background:#fff4d6;border:1px solid #e0b84c;padding:4px 8px;display:inline-block}
    """
}
