import Foundation
import PlayheadCore
import Prometheus

/// `GET /metrics`: Prometheus text, refreshed at each scrape from the sessions and the process.
///
/// Counters (`playhead_rebuffers_total`, `playhead_bytes_downloaded_total`,
/// `playhead_frames_presented_total`, `playhead_frames_dropped_total`, `playhead_segments_downloaded_total`,
/// `playhead_beacons_total`, `playhead_session_errors_total`, `process_cpu_seconds_total`) cover the
/// sessions of this process, ended and running. Gauges: `playhead_sessions{status}` (stored sessions by
/// status, `interrupted` included), `playhead_session_bitrate_bits_per_second{session,kind}` (profile and
/// observed, running sessions), `playhead_session_buffer_seconds{session}`, `playhead_event_streams_open`
/// (SSE clients following a running session), `process_resident_memory_bytes`.
public final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let manager: SessionManager
    private let counters: [String: Counter]
    private let exported = Mutex<[String: Double]>([:])
    private let sessionGauges = Mutex<[String: [Gauge]]>([:])
    private let rss: Gauge
    private let eventStreams: Gauge
    private let scrapeLock = NSLock()

    /// The counters and their help lines.
    static let counterHelp: [(String, String)] = [
        ("playhead_rebuffers_total", "Rebuffers (stalls after playback started)"),
        ("playhead_bytes_downloaded_total", "Bytes downloaded by sessions"),
        ("playhead_frames_presented_total", "Frames presented of each session's master stream (video; audio when there is none)"),
        ("playhead_frames_dropped_total", "Video frames dropped for lateness"),
        ("playhead_segments_downloaded_total", "Segments downloaded"),
        ("playhead_beacons_total", "Ad beacons sent"),
        ("playhead_session_errors_total", "Sessions that ended in error"),
        ("process_cpu_seconds_total", "User and system CPU time of the daemon, seconds"),
    ]

    static let bitrateHelp = "Bitrate of a running session: the variant's profile, or observed, bits per second"

    /// A descriptor for a whole metric name (swift-prometheus joins its parts; the unit is in the name).
    private static func descriptor(_ name: String, help: String = "") -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// Creates the metrics of `manager`'s sessions.
    public init(manager: SessionManager) {
        self.manager = manager
        var counters: [String: Counter] = [:]
        for (name, help) in Self.counterHelp { counters[name] = registry.makeCounter(descriptor: Self.descriptor(name, help: help)) }
        self.counters = counters
        rss = registry.makeGauge(descriptor: Self.descriptor("process_resident_memory_bytes", help: "Resident memory of the daemon, bytes"))
        eventStreams = registry.makeGauge(descriptor: Self.descriptor("playhead_event_streams_open",
                                                                      help: "Event streams (SSE) following a running session"))
    }

    /// Refreshes every metric and returns the exposition text.
    public func scrape() -> String {
        scrapeLock.withLock {
            refreshCounters()
            refreshSessionGauges()
            refreshStatusGauges()
            ProcessStats.releaseFreeMemory()
            rss.set(to: Double(ProcessStats.residentBytes()))
            eventStreams.set(to: Double(manager.runningSessions.map { $0.player.bus.openStreamCount }.reduce(0, +)))
            return registry.emitToString()
        }
    }

    private func refreshCounters() {
        let ended = manager.totals.withLock { $0 }
        var values: [String: Double] = [
            "playhead_rebuffers_total": Double(ended.rebuffers), "playhead_bytes_downloaded_total": Double(ended.bytes),
            "playhead_frames_presented_total": Double(ended.framesPresented),
            "playhead_frames_dropped_total": Double(ended.framesDropped),
            "playhead_segments_downloaded_total": Double(ended.segments),
            "playhead_beacons_total": Double(ended.beacons), "playhead_session_errors_total": Double(ended.errors),
            "process_cpu_seconds_total": ProcessStats.cpuSeconds(),
        ]
        for session in manager.runningSessions {
            let counts = session.counts.withLock { $0 }
            values["playhead_rebuffers_total", default: 0] += Double(counts.stalls)
            values["playhead_beacons_total", default: 0] += Double(counts.beacons)
            guard let info = session.player.playbackInformation else { continue }
            values["playhead_bytes_downloaded_total", default: 0] += Double(info.bytesDownloaded)
            values["playhead_frames_presented_total", default: 0] += Double(info.presentedFrameCount)
            values["playhead_frames_dropped_total", default: 0] += Double(info.droppedFrameCount)
            values["playhead_segments_downloaded_total", default: 0] += Double(info.segmentsDownloaded)
        }
        exported.withLock { last in
            for (name, value) in values {
                let delta = value - last[name, default: 0]
                // A session between its last live figures and its report may dip; counters never go down.
                guard delta > 0 else { continue }
                counters[name]?.increment(by: delta)
                last[name] = value
            }
        }
    }

    private func refreshSessionGauges() {
        let sessions = manager.runningSessions
        let ids = Set(sessions.map(\.id))
        sessionGauges.withLock { gauges in
            for (id, old) in gauges where !ids.contains(id) {
                for gauge in old { registry.unregisterGauge(gauge) }
                gauges[id] = nil
            }
            for session in sessions {
                let set = gauges[session.id] ?? [
                    registry.makeGauge(descriptor: Self.descriptor("playhead_session_bitrate_bits_per_second", help: Self.bitrateHelp),
                                       labels: [("session", session.id), ("kind", "profile")]),
                    registry.makeGauge(descriptor: Self.descriptor("playhead_session_bitrate_bits_per_second", help: Self.bitrateHelp),
                                       labels: [("session", session.id), ("kind", "observed")]),
                    registry.makeGauge(descriptor: Self.descriptor("playhead_session_buffer_seconds",
                                                                   help: "Forward buffer of a running session, seconds of media"),
                                       labels: [("session", session.id)]),
                ]
                gauges[session.id] = set
                let info = session.player.playbackInformation
                set[0].set(to: Double(info?.profileBitrate ?? 0))
                set[1].set(to: info?.observedBitrate ?? 0)
                set[2].set(to: info?.bufferLengthSeconds ?? 0)
            }
        }
    }

    private func refreshStatusGauges() {
        var counts = (try? manager.store.statusCounts(active: false)) ?? [:]
        for session in manager.runningSessions { counts[session.player.status.rawValue, default: 0] += 1 }
        let statuses = PlayerStatus.allCases.map(\.rawValue) + [SessionStore.interruptedStatus]
        for status in statuses {
            registry.makeGauge(descriptor: Self.descriptor("playhead_sessions", help: "Stored sessions by status"), labels: [("status", status)]).set(to: Double(counts[status] ?? 0))
        }
    }
}
