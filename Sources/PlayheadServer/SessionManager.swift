import Foundation
import PlayheadCore
import PlayheadNet

/// Totals over the sessions that ended in this process (added to the running ones for `/metrics`).
struct EndedTotals: Sendable {
    var rebuffers = 0
    var bytes = 0
    var framesPresented = 0
    var framesDropped = 0
    var segments = 0
    var errors = 0
    var beacons = 0
}

/// The daemon's sessions: creates and runs them, answers commands, and finds ended ones in the store.
public final class SessionManager: Sendable {
    /// The store (ended and interrupted sessions live only there).
    public let store: SessionStore
    let writer: StoreWriter
    let client: HTTPClient
    /// The most sessions that may run at once.
    public let maxSessions: Int
    private let running = Mutex<[String: PlaybackSession]>([:])
    let totals = Mutex(EndedTotals())
    /// Set once the daemon shuts down: no session is created after it.
    private let closing = Mutex(false)

    /// Opens the store in `dataDirectory`, marks sessions a previous process left running as interrupted,
    /// and starts the batched writer.
    /// - Parameters:
    ///   - dataDirectory: Where `playhead.sqlite` lives.
    ///   - maxSessions: The running-session limit (``ServerSettings/defaultMaxSessions``).
    ///   - flushIntervalSeconds: The writer's batch interval.
    public init(dataDirectory: String, maxSessions: Int = ServerSettings.defaultMaxSessions,
                flushIntervalSeconds: Double = StoreWriter.defaultFlushIntervalSeconds) throws {
        store = try SessionStore(directory: dataDirectory)
        try store.markInterrupted()
        writer = StoreWriter(store: store, flushIntervalSeconds: flushIntervalSeconds)
        // Every session is a viewer of its own: none waits for a connection behind the others.
        client = HTTPClient(configuration: .shared(byViewers: maxSessions))
        self.maxSessions = maxSessions
    }

    /// Creates a session from `spec`, stores it and starts it.
    /// - Returns: The stored row as created.
    /// - Throws: ``APIError/tooManySessions(limit:)`` at the limit; store errors.
    public func create(_ spec: SessionSpec) throws -> StoredSession {
        let id = Self.newID()
        let session = PlaybackSession(id: id, spec: spec, client: client)
        let admitted = try closing.withLock { closing -> Bool in
            if closing { throw APIError.shuttingDown }
            return running.withLock { sessions -> Bool in
                guard sessions.count < maxSessions else { return false }
                sessions[id] = session
                return true
            }
        }
        guard admitted else { throw APIError.tooManySessions(limit: maxSessions) }
        do {
            try store.insert(id: id, spec: spec, createdAt: Date())
        } catch {
            _ = running.withLock { $0.removeValue(forKey: id) }
            throw error
        }
        session.start(writer: writer) { [weak self] report in self?.ended(id: id, report: report) }
        return try store.session(id: id)!
    }

    private func ended(id: String, report: PlaybackReport) {
        // Audio frames count for a session that presented no video (an audio-only stream).
        let video = report.framesPresented["video", default: 0]
        let presented = video > 0 ? video : report.framesPresented["audio", default: 0]
        totals.withLock { t in
            let info = report.playbackInformation
            t.rebuffers += report.rebuffers.count
            t.bytes += info?.bytesDownloaded ?? report.bytesDownloaded
            t.framesPresented += info?.presentedFrameCount ?? presented
            t.framesDropped += info?.droppedFrameCount ?? report.framesDropped
            t.segments += info?.segmentsDownloaded ?? report.segmentsDownloaded
            t.errors += report.finalStatus == .error ? 1 : 0
            t.beacons += runningSession(id)?.counts.withLock { $0.beacons } ?? 0
        }
        _ = running.withLock { $0.removeValue(forKey: id) }
    }

    /// The running session `id`, if it runs.
    func runningSession(_ id: String) -> PlaybackSession? { running.withLock { $0[id] } }

    /// Every running session.
    var runningSessions: [PlaybackSession] { running.withLock { Array($0.values) } }

    /// A session (running or stored) with live figures when it runs.
    /// - Throws: ``APIError/sessionNotFound(_:)``.
    public func describe(_ id: String) throws -> (StoredSession, LiveFigures?) {
        let live = runningSession(id)?.live
        guard var stored = try store.session(id: id) else { throw APIError.sessionNotFound(id) }
        if let live {
            stored.status = live.status
            stored.lastSequence = max(stored.lastSequence, live.lastSequence)
        }
        return (stored, live)
    }

    /// Sends `command` to a running session.
    /// - Throws: 404 for an unknown session, 409 for one that ended.
    public func command(_ id: String, _ command: PlayerCommand) throws {
        guard let session = runningSession(id) else {
            if try store.session(id: id) == nil { throw APIError.sessionNotFound(id) }
            throw APIError.sessionEnded(id)
        }
        if command == .skipAd, session.spec.ssai == nil {
            throw APIError(status: 409, code: "notSSAI", message: "session \"\(id)\" does not track server-side ads (its spec has no ssai): there is no server-side ad to skip")
        }
        session.player.send(command)
    }

    /// Stops a session if it runs, waits for it to be stored, then deletes it and its records.
    /// - Throws: 404 for an unknown session.
    public func delete(_ id: String) async throws {
        if let session = runningSession(id) {
            session.player.stop()
            _ = await session.wait()
        }
        guard try store.delete(id: id) else { throw APIError.sessionNotFound(id) }
    }

    /// Refuses new sessions from now on, stops every running one and waits for their reports to be stored.
    public func stopSessions() async {
        closing.withLock { $0 = true }
        let sessions = runningSessions
        for session in sessions { session.player.stop() }
        for session in sessions { _ = await session.wait() }
    }

    /// Stops every running session and waits for their reports to be stored, then closes the store's
    /// writer and the HTTP client (the end of the daemon).
    public func shutdown() async {
        await stopSessions()
        writer.close()
        client.shutdown()
    }

    /// A new session id: 16 lowercase hex digits.
    static func newID() -> String {
        String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    }
}
