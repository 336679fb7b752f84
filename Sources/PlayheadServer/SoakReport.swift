import Foundation
import PlayheadCore

/// How a soak run is set up. Defaults are named statics.
public struct SoakSettings: Sendable, Codable {
    /// Default interval between two summary lines: 10 s.
    public static let defaultSummaryIntervalSeconds = 10.0
    /// Default RSS growth after warm-up that is flagged: 5 %.
    public static let defaultMemoryGrowthLimitPercent = 5.0
    /// Default warm-up: 60 s, the time a session's buffers take to reach their size (the forward target
    /// grows to its cap over the first 56 s watched, the back buffer fills in 30 s): memory that grows
    /// before then is the buffers filling, not a leak. A run that ends within it measures no growth.
    /// (It was a fifth of the run: short healthy runs were flagged for their buffers filling.)
    public static func defaultWarmUpSeconds(durationSeconds: Double) -> Double {
        let buffer = BufferPolicy()
        let forward = (buffer.maximumSeconds - buffer.minimumSeconds) / buffer.growthPerWatchedSecond
        return (max(forward, buffer.backBufferSeconds) / 10).rounded(.up) * 10
    }

    /// The stream every session plays.
    public var url: String
    /// Sessions run at once.
    public var sessions: Int
    /// Session length, seconds of real time.
    public var durationSeconds: Double
    /// decode, demux or keyframes.
    public var mode = "demux"
    /// A daemon's base URL (`http://127.0.0.1:7070`) to run the sessions there; nil: in this process.
    public var server: String?
    /// The daemon's bearer token.
    public var token: String?
    /// Interval between summary lines, seconds.
    public var summaryIntervalSeconds = defaultSummaryIntervalSeconds
    /// Samples before this are warm-up (RSS growth is measured from the first sample after it).
    public var warmUpSeconds: Double
    /// RSS growth after warm-up that is flagged, percent.
    public var memoryGrowthLimitPercent = defaultMemoryGrowthLimitPercent

    /// Creates settings with the defaults.
    public init(url: String, sessions: Int, durationSeconds: Double) {
        self.url = url
        self.sessions = sessions
        self.durationSeconds = durationSeconds
        warmUpSeconds = Self.defaultWarmUpSeconds(durationSeconds: durationSeconds.isFinite ? durationSeconds : 0)
    }

    /// The report keeps everything but the bearer token.
    enum CodingKeys: String, CodingKey {
        case url, sessions, durationSeconds, mode, server, summaryIntervalSeconds, warmUpSeconds, memoryGrowthLimitPercent
    }

    /// What is wrong with these settings, each problem naming its option; empty when they can run.
    public var problems: [String] {
        var problems: [String] = []
        func seconds(_ value: Double, _ option: String, allowZero: Bool = false) {
            guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= SessionSpec.maxSeconds else {
                problems.append("\(option) is \(value): it must be \(allowZero ? "0" : "above 0") to \(Int(SessionSpec.maxSeconds)) seconds")
                return
            }
        }
        if !Self.isHTTPURL(url) { problems.append("the stream URL \(url) is not an http or https URL with a host") }
        if let server, !Self.isHTTPURL(server) { problems.append("--server \(server) is not an http URL with a host (http://HOST:PORT)") }
        if sessions < 1 { problems.append("--sessions is \(sessions): it must be at least 1") }
        seconds(durationSeconds, "--duration")
        seconds(summaryIntervalSeconds, "--interval")
        seconds(warmUpSeconds, "--warm-up", allowZero: true)
        if !memoryGrowthLimitPercent.isFinite || memoryGrowthLimitPercent <= 0 {
            problems.append("--memory-growth-limit is \(memoryGrowthLimitPercent): it must be a percentage above 0")
        }
        if !["decode", "demux", "keyframes"].contains(mode) { problems.append("--mode is \(mode): it must be decode, demux or keyframes") }
        return problems
    }

    /// Whether `text` is an absolute http or https URL with a host.
    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return false }
        return !(url.host ?? "").isEmpty
    }
}

/// One session's figures at one moment.
public struct SoakSessionFigures: Sendable, Codable, Equatable {
    /// The session id (an index in process, the daemon's id otherwise).
    public var id: String
    /// The player status.
    public var status: String
    /// Rebuffers so far.
    public var rebuffers: Int
    /// Whether it ended in error.
    public var failed: Bool
    /// What the error was (URL and cause), when it ended in error.
    public var error: String? = nil
    /// Playback position, seconds.
    public var positionSeconds: Double
    /// Each stall so far (in process only): when, where, how long, and how far from the live edge.
    public var stalls: [SoakStall]? = nil
    /// Fetches that failed and were retried (NETWORK_ERROR notifications), and the last one's description (in process only).
    public var networkErrors: [String]? = nil
    /// Live: how far the playback position is behind the live edge (the end of the last segment the
    /// playlist lists), seconds, 0 or more (in process only).
    public var edgeDistanceSeconds: Double? = nil

    /// Whether the session still runs (not completed, stopped or in error).
    public var isRunning: Bool { !["completed", "stopped", "error"].contains(status) }
}

/// One stall of a soak session, with what the player knew then.
public struct SoakStall: Sendable, Codable, Equatable {
    /// Session time the stall began, seconds.
    public var atSeconds: Double
    /// Playback position, seconds.
    public var positionSeconds: Double
    /// How long it lasted (nil while it lasts), seconds.
    public var durationSeconds: Double?
    /// The last segment loaded before it: its media sequence and the session time it arrived.
    public var lastSegment: String?
    /// Fetches that failed and were retried from ``SoakStall/retryWindowSeconds`` before the stall until it
    /// ended (session time and what failed); nil for none.
    public var retriedFetches: [String]?

    /// How long before a stall a failed fetch counts as part of it: 30 s.
    public static let retryWindowSeconds = 30.0

    /// Creates a record.
    public init(atSeconds: Double, positionSeconds: Double, durationSeconds: Double? = nil, lastSegment: String? = nil,
                retriedFetches: [String]? = nil) {
        self.atSeconds = atSeconds
        self.positionSeconds = positionSeconds
        self.durationSeconds = durationSeconds
        self.lastSegment = lastSegment
        self.retriedFetches = retriedFetches
    }
}

/// The whole run at one moment.
public struct SoakSample: Sendable, Codable {
    /// Seconds since the sessions were started.
    public var elapsedSeconds: Double
    /// Sessions still running.
    public var running: Int
    /// Rebuffers over all sessions.
    public var rebuffers: Int
    /// Sessions that ended in error.
    public var errors: Int
    /// CPU of the process playing the sessions since the previous sample, percent of one core.
    public var cpuPercent: Double
    /// Its resident memory, bytes.
    public var rssBytes: Int
    /// Resident memory divided by the sessions still running, bytes (nil once none runs: what is left is the
    /// process, not sessions).
    public var rssPerSessionBytes: Int?
    /// Each session.
    public var sessions: [SoakSessionFigures]

    /// A sample; the memory per session is worked out from the resident memory and the sessions running.
    public init(elapsedSeconds: Double, running: Int, rebuffers: Int, errors: Int, cpuPercent: Double, rssBytes: Int,
                sessions: [SoakSessionFigures]) {
        self.elapsedSeconds = elapsedSeconds
        self.running = running
        self.rebuffers = rebuffers
        self.errors = errors
        self.cpuPercent = cpuPercent
        self.rssBytes = rssBytes
        self.rssPerSessionBytes = running > 0 ? rssBytes / running : nil
        self.sessions = sessions
    }

    /// Resident memory per running session in MiB, or a dash when none runs, right-aligned in `width` characters.
    func rssPerSessionText(width: Int) -> String {
        let text = rssPerSessionBytes.map { String(format: "%.2f", Double($0) / 1_048_576) } ?? "—"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// The summary line printed every interval (with the mean distance to the live edge when known).
    public var line: String {
        // Of the sessions still playing: one that ended keeps its last distance, which says nothing now.
        let edges = sessions.filter(\.isRunning).compactMap(\.edgeDistanceSeconds)
        let edge = edges.isEmpty ? "" : String(format: "  behind live edge %.1f–%.1f s", edges.min()!, edges.max()!)
        return String(format: "soak %6.0f s  running %3d  rebuffers %3d  errors %2d  cpu %6.1f %%  rss %7.1f MiB  rss/session %@ MiB",
                      elapsedSeconds, running, rebuffers, errors, cpuPercent, Double(rssBytes) / 1_048_576,
                      rssPerSessionText(width: 6)) + edge
    }
}

/// The end of a soak run: samples over time, per-session figures and the flags raised.
public struct SoakReport: Sendable, Codable {
    /// The settings run.
    public var settings: SoakSettings
    /// Every sample, in time order.
    public var samples: [SoakSample]
    /// RSS growth after warm-up while every session still ran (sessions ending free their memory), percent
    /// (nil if too short to say): the median of the last third of those samples against the median of the
    /// first third (of the last and the first sample when there are fewer than six), so that the swing of
    /// the buffers filling and draining (±7 % in a healthy run) does not decide it by where two samples fall.
    public var rssGrowthPercent: Double?
    /// Mean CPU over the samples after warm-up, percent of one core.
    public var meanCPUPercent: Double
    /// Problems found: memory growth past the limit, stalls, errors.
    public var flags: [String]
    /// The signal that stopped the run before its end (2 for SIGINT, 15 for SIGTERM); nil when it ran out.
    public var stoppedBySignal: Int32?
    /// Seconds the run lasted when a signal stopped it (the last sample's time).
    public var stoppedAfterSeconds: Double?

    /// Records that `signal` stopped the run, at its last sample's time.
    public mutating func markStopped(bySignal signal: Int32) {
        stoppedBySignal = signal
        stoppedAfterSeconds = samples.last?.elapsedSeconds ?? 0
    }

    /// Builds the report from the samples.
    public init(settings: SoakSettings, samples: [SoakSample]) {
        self.settings = settings
        self.samples = samples
        let warm = samples.filter { $0.elapsedSeconds >= settings.warmUpSeconds }
        let allRunning = warm.filter { $0.running >= settings.sessions }
        if let first = allRunning.first, let last = allRunning.last, first.elapsedSeconds < last.elapsedSeconds {
            let window = max(1, allRunning.count / 3)
            let before = Self.median(allRunning.prefix(window).map { Double($0.rssBytes) })
            let after = Self.median(allRunning.suffix(window).map { Double($0.rssBytes) })
            if before > 0 { rssGrowthPercent = (after / before - 1) * 100 }
        }
        let cpu = warm.isEmpty ? samples : warm
        meanCPUPercent = cpu.isEmpty ? 0 : cpu.map(\.cpuPercent).reduce(0, +) / Double(cpu.count)
        var flags: [String] = []
        if let growth = rssGrowthPercent, growth >= settings.memoryGrowthLimitPercent {
            flags.append(String(format: "memory growth: RSS grew %.1f %% after warm-up (limit %.1f %%)", growth, settings.memoryGrowthLimitPercent))
        }
        for session in samples.last?.sessions ?? [] {
            if session.rebuffers > 0 {
                // Each stall with the retried fetches around it only (QA: retries a minute later were listed).
                let details = (session.stalls ?? []).map { stall in
                    String(format: "at %.1f s (position %.1f s, %@; last segment %@)", stall.atSeconds, stall.positionSeconds,
                           stall.durationSeconds.map { String(format: "%.2f s", $0) } ?? "not over", stall.lastSegment ?? "?")
                        + ((stall.retriedFetches ?? []).isEmpty ? "" : "; retried fetches around it: " + (stall.retriedFetches ?? []).suffix(3).joined(separator: " | "))
                }
                flags.append("stalls: session \(session.id) rebuffered " + (session.rebuffers == 1 ? "once" : "\(session.rebuffers) times") + (details.isEmpty ? "" : ": " + details.joined(separator: "; ")))
            }
            if session.failed { flags.append("error: session \(session.id) ended in error" + (session.error.map { ": " + $0 } ?? "")) }
        }
        self.flags = flags
    }

    /// The middle value of `values` (the mean of the two middle ones for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The closing text: samples over time, per-session figures, flags.
    public var text: String {
        let stopped = stoppedBySignal.map { signal in
            String(format: " (stopped by %@ after %.0f s)", signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)",
                   stoppedAfterSeconds ?? 0)
        } ?? ""
        var lines = ["soak report: \(settings.sessions) sessions × \(String(format: "%g", settings.durationSeconds)) s\(stopped), \(settings.mode), \(settings.url)"]
        lines.append("  time (s)  running  rebuffers  errors    cpu %   rss MiB  rss/session MiB")
        for s in samples {
            lines.append(String(format: "  %8.0f  %7d  %9d  %6d  %7.1f  %8.1f  %@", s.elapsedSeconds, s.running, s.rebuffers, s.errors,
                                s.cpuPercent, Double(s.rssBytes) / 1_048_576, s.rssPerSessionText(width: 15)))
        }
        lines.append("  per session (at the last sample): id  status  rebuffers  position (s)")
        for session in samples.last?.sessions ?? [] {
            lines.append(String(format: "    %@  %@  %d  %.1f", session.id, session.status, session.rebuffers, session.positionSeconds))
        }
        lines.append(String(format: "  mean CPU after warm-up %.1f %% of one core (%.2f %% per session)", meanCPUPercent,
                            meanCPUPercent / Double(max(settings.sessions, 1))))
        if let growth = rssGrowthPercent {
            lines.append(String(format: "  RSS growth after warm-up (%.0f s): %.2f %%", settings.warmUpSeconds, growth))
        } else {
            lines.append(String(format: "  RSS growth: not measured (fewer than two samples after the %.0f s warm-up while every session ran)", settings.warmUpSeconds))
        }
        lines.append(flags.isEmpty ? "  flags: none" : "  flags:\n" + flags.map { "    " + $0 }.joined(separator: "\n"))
        return lines.joined(separator: "\n") + "\n"
    }
}
