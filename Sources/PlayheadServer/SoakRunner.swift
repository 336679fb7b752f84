import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Where a soak's sessions run: in this process, or in a daemon.
protocol SoakTarget: Sendable {
    /// Starts every session.
    func start() async throws
    /// Each session's figures and the playing process's resources now.
    func snapshot() async throws -> ([SoakSessionFigures], ProcessStats)
    /// Stops whatever still runs and waits for it.
    func finish() async
}

/// `playhead soak`: runs many real-clock sessions at once, prints a summary line every interval and ends
/// with a ``SoakReport``.
public enum SoakRunner {
    /// Runs the soak.
    /// - Parameters:
    ///   - settings: What to run.
    ///   - print: Called with each summary line.
    /// - Returns: The report.
    public static func run(_ settings: SoakSettings, print: @Sendable (String) -> Void) async throws -> SoakReport {
        MediaLog.level = .quiet
        let target: any SoakTarget = settings.server.map { DaemonSoakTarget(settings: settings, server: $0) }
            ?? InProcessSoakTarget(settings: settings)
        return try await run(settings, on: target, print: print)
    }

    /// Runs the soak on a target: starts its sessions, samples them until they end, finishes them. When
    /// anything fails, the sessions already started (in a daemon, they would play on) are stopped before
    /// the error is given.
    static func run(_ settings: SoakSettings, on target: any SoakTarget, print: @Sendable (String) -> Void) async throws -> SoakReport {
        do {
            return try await sample(settings, on: target, print: print)
        } catch {
            await target.finish()
            throw error
        }
    }

    /// The sampling loop.
    static func sample(_ settings: SoakSettings, on target: any SoakTarget, print: @Sendable (String) -> Void) async throws -> SoakReport {
        try await target.start()
        let started = Date()
        var samples: [SoakSample] = []
        var last = (time: started, cpu: ProcessStats.current().cpuSeconds)
        if settings.server != nil { last.cpu = try await target.snapshot().1.cpuSeconds }
        while true {
            let elapsed = Date().timeIntervalSince(started)
            let wait = min(settings.summaryIntervalSeconds, max(0.1, settings.durationSeconds + 5 - elapsed))
            try? await Task.sleep(for: .seconds(wait))
            // Cancelled (a signal): one last sample, then the sessions stop and the report is made.
            let stopping = Task.isCancelled
            let (sessions, stats) = try await target.snapshot()
            let now = Date()
            let cpu = (stats.cpuSeconds - last.cpu) / max(now.timeIntervalSince(last.time), 0.001) * 100
            last = (now, stats.cpuSeconds)
            let running = sessions.filter(\.isRunning).count
            let sample = SoakSample(elapsedSeconds: now.timeIntervalSince(started), running: running,
                                    rebuffers: sessions.map(\.rebuffers).reduce(0, +), errors: sessions.filter(\.failed).count,
                                    cpuPercent: cpu, rssBytes: stats.residentBytes, sessions: sessions)
            samples.append(sample)
            print(sample.line)
            if stopping || running == 0 || sample.elapsedSeconds > settings.durationSeconds + 60 { break }
        }
        await target.finish()
        return SoakReport(settings: settings, samples: samples)
    }
}

/// What one in-process session's events told about its stalls.
struct StallDetails {
    /// Its stalls so far.
    var stalls: [SoakStall] = []
    /// The last segment that arrived.
    var lastSegment: String?
    /// The first 20 retried fetches, for the report.
    var networkErrors: [String] = []
    /// Retried fetches of the last ``SoakStall/retryWindowSeconds``: session time and text.
    var retries: [(at: Double, text: String)] = []
    /// The session's error, once it failed.
    var error: String?

    /// A stall began at session time `seconds`: recorded with the fetches retried in the window before it.
    mutating func stalled(at seconds: Double, position: Double) {
        let recent = retries.filter { $0.at >= seconds - SoakStall.retryWindowSeconds }.map(\.text)
        stalls.append(SoakStall(atSeconds: seconds, positionSeconds: position, lastSegment: lastSegment,
                                retriedFetches: recent.isEmpty ? nil : recent))
    }

    /// The last stall ended after `duration` seconds.
    mutating func recovered(after duration: Double) {
        if !stalls.isEmpty { stalls[stalls.count - 1].durationSeconds = duration }
    }

    /// A fetch failed and is retried (`text`: when and what, as the report shows it); one retried while a
    /// stall lasts belongs to that stall.
    mutating func retried(at seconds: Double, _ text: String) {
        if networkErrors.count < 20 { networkErrors.append(text) }
        retries.append((seconds, text))
        retries.removeAll { $0.at < seconds - SoakStall.retryWindowSeconds }
        if let last = stalls.indices.last, stalls[last].durationSeconds == nil {
            stalls[last].retriedFetches = (stalls[last].retriedFetches ?? []) + [text]
        }
    }
}

/// Sessions as players in this process.
final class InProcessSoakTarget: SoakTarget {
    let settings: SoakSettings
    /// One client for every session, with connections enough for all of them: each session stands for a
    /// viewer with its own connections, not for tabs of one browser sharing six.
    let client: HTTPClient
    let players: [MediaPlayer]
    let stalls: [Mutex<Int>]
    /// Each session's stalls, with the last segment that arrived before each.
    let stallDetails: [Mutex<StallDetails>]
    let tasks = Mutex<[Task<PlaybackReport, Never>]>([])

    init(settings: SoakSettings) {
        self.settings = settings
        client = HTTPClient(configuration: .shared(byViewers: settings.sessions))
        var configuration = PlayerConfiguration()
        configuration.mode = DecodeMode(rawValue: settings.mode) ?? .demux
        players = (0..<settings.sessions).map { [client] _ in
            MediaPlayer(url: settings.url, configuration: configuration, driver: RealTimeDriver(), network: LiveNetwork(client: client))
        }
        stalls = players.map { _ in Mutex(0) }
        stallDetails = players.map { _ in Mutex(StallDetails()) }
    }

    func start() async throws {
        for ((player, count), details) in zip(zip(players, stalls), stallDetails) {
            player.bus.subscribe { [player] event in
                switch event.kind {
                case .stalled:
                    count.withLock { $0 += 1 }
                    let position = player.currentTime
                    details.withLock { $0.stalled(at: event.playerTime, position: position) }
                case let .recovered(duration):
                    details.withLock { $0.recovered(after: duration) }
                case let .notification(notification) where notification.code == .playbackError:
                    details.withLock { $0.error = notification.metadata["DESCRIPTION"] ?? notification.name }
                case let .notification(notification) where notification.code == .networkError:
                    let text = String(format: "%.1f s: ", event.playerTime) + (notification.metadata["DESCRIPTION"] ?? notification.name)
                    details.withLock { $0.retried(at: event.playerTime, text) }
                case let .segmentLoaded(_, sequence, _, seconds, _):
                    details.withLock { $0.lastSegment = String(format: "#%d at %.1f s, took %.2f s", sequence, event.playerTime, seconds) }
                default: break
                }
            }
            let duration = settings.durationSeconds
            let task = Task.detached { await player.run(maxSessionSeconds: duration) }
            tasks.withLock { $0.append(task) }
        }
    }

    func snapshot() async throws -> ([SoakSessionFigures], ProcessStats) {
        let figures = zip(players, stalls).enumerated().map { index, pair in
            SoakSessionFigures(id: String(index + 1), status: pair.0.status.rawValue, rebuffers: pair.1.withLock { $0 },
                               failed: pair.0.status == .error,
                               error: pair.0.status == .error ? stallDetails[index].withLock { $0.error } ?? pair.0.reportSoFar?.error : nil,
                               positionSeconds: pair.0.currentTime,
                               stalls: stallDetails[index].withLock { $0.stalls },
                               networkErrors: stallDetails[index].withLock { $0.networkErrors },
                               edgeDistanceSeconds: pair.0.isLive ? pair.0.reportSoFar?.liveEdgeDistanceSeconds.map { max(0, $0) } : nil)
        }
        ProcessStats.releaseFreeMemory()
        return (figures, ProcessStats.current())
    }

    func finish() async {
        for player in players { player.stop() }
        for task in tasks.withLock({ $0 }) { _ = await task.value }
        client.shutdown()
    }
}

/// Sessions in a daemon, created and read through its API.
final class DaemonSoakTarget: SoakTarget {
    let settings: SoakSettings
    let server: String
    let ids = Mutex<[String]>([])
    /// The last figures read while each session ran (an ended session has no live figures any more).
    let lastSeen = Mutex<[String: SoakSessionFigures]>([:])
    /// Ended sessions whose report was read for their final figures.
    let finalRead = Mutex<Set<String>>([])

    init(settings: SoakSettings, server: String) {
        self.settings = settings
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
    }

    var headers: [String: String] {
        var fields = ["Content-Type": "application/json"]
        if let token = settings.token { fields["Authorization"] = "Bearer " + token }
        return fields
    }

    func start() async throws {
        let spec: [String: Any] = ["url": settings.url, "clock": "real", "mode": settings.mode, "durationSeconds": settings.durationSeconds]
        let body = try JSONSerialization.data(withJSONObject: spec)
        for _ in 0..<settings.sessions {
            let reply = try LoopbackHTTPClient.send("POST", server + "/v1/sessions", headers: headers, body: body)
            guard reply.status == 201, let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any],
                  let id = object["id"] as? String else {
                throw LoopbackHTTPClient.Failure(description: "creating a session: \(reply.status) \(reply.text)")
            }
            ids.withLock { $0.append(id) }
        }
    }

    func snapshot() async throws -> ([SoakSessionFigures], ProcessStats) {
        var figures: [SoakSessionFigures] = []
        for id in ids.withLock({ $0 }) {
            let reply = try LoopbackHTTPClient.send("GET", server + "/v1/sessions/" + id, headers: headers)
            let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any] ?? [:]
            let status = object["status"] as? String ?? "unknown"
            var figure = lastSeen.withLock { $0[id] } ?? SoakSessionFigures(id: id, status: status, rebuffers: 0, failed: false, positionSeconds: 0)
            figure.status = status
            figure.failed = status == "error"
            if let live = object["live"] as? [String: Any] {
                // Its stalls in detail, and how far it plays behind a live edge, as an in-process session's: from
                // its report so far; the live figures, fresher than that report, then give position and rebuffers.
                let report = try LoopbackHTTPClient.send("GET", server + "/v1/sessions/\(id)/report", headers: headers)
                if report.status == 200, let so = try? JSONDecoder().decode(PlaybackReport.self, from: report.body) { figure.take(so) }
                figure.rebuffers = live["rebufferCount"] as? Int ?? figure.rebuffers
                figure.positionSeconds = live["positionSeconds"] as? Double ?? figure.positionSeconds
            } else if ["completed", "stopped", "error"].contains(status), !finalRead.withLock({ $0.contains(id) }) {
                // Ended between two samples: its last figures are in its report, read once.
                let report = try LoopbackHTTPClient.send("GET", server + "/v1/sessions/\(id)/report", headers: headers)
                if report.status == 200, let fields = (try? JSONSerialization.jsonObject(with: report.body)) as? [String: Any] {
                    // The stalls from the decoded report; the figures as JSONSerialization reads them (JSONDecoder
                    // gave the position a last digit off).
                    if let final = try? JSONDecoder().decode(PlaybackReport.self, from: report.body) { figure.take(final) }
                    figure.positionSeconds = fields["positionSeconds"] as? Double ?? figure.positionSeconds
                    figure.error = fields["error"] as? String
                    figure.rebuffers = (fields["rebuffers"] as? [Any])?.count ?? figure.rebuffers
                    finalRead.withLock { _ = $0.insert(id) }
                }
            }
            lastSeen.withLock { $0[id] = figure }
            figures.append(figure)
        }
        let metrics = try LoopbackHTTPClient.send("GET", server + "/metrics", headers: headers).text
        return (figures, ProcessStats(residentBytes: Int(Self.value("process_resident_memory_bytes", in: metrics)),
                                      cpuSeconds: Self.value("process_cpu_seconds_total", in: metrics)))
    }

    func finish() async {
        for id in ids.withLock({ $0 }) {
            _ = try? LoopbackHTTPClient.send("POST", server + "/v1/sessions/\(id)/stop", headers: headers)
        }
    }

    /// The value of an unlabelled metric in Prometheus text.
    static func value(_ name: String, in text: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }
}

extension SoakSessionFigures {
    /// Takes a daemon session's figures from its report (so far, or final): rebuffers, position, and each
    /// stall with the fetches retried around it (its NETWORK_ERROR warnings), and the live-edge distance.
    /// The last segment before a stall is not in a report: said as unknown.
    mutating func take(_ report: PlaybackReport) {
        rebuffers = report.rebuffers.count
        positionSeconds = report.positionSeconds
        var details = StallDetails()
        // In session-time order; at one time a retry comes before the stall it belongs to, an end last.
        var steps: [(at: Double, order: Int, apply: (inout StallDetails) -> Void)] = []
        for notification in report.notifications where notification.code == .networkError {
            let at = notification.playerTime
            let text = String(format: "%.1f s: ", at) + (notification.metadata["DESCRIPTION"] ?? notification.name)
            steps.append((at, 0, { $0.retried(at: at, text) }))
        }
        for stall in report.rebuffers {
            steps.append((stall.startSeconds, 1, { $0.stalled(at: stall.startSeconds, position: stall.positionSeconds) }))
            if let end = stall.endSeconds { steps.append((end, 2, { $0.recovered(after: stall.durationSeconds) })) }
        }
        for step in steps.sorted(by: { ($0.at, $0.order) < ($1.at, $1.order) }) { step.apply(&details) }
        stalls = details.stalls
        networkErrors = details.networkErrors
        edgeDistanceSeconds = report.isLive ? report.liveEdgeDistanceSeconds.map { max(0, $0) } : nil
    }
}
