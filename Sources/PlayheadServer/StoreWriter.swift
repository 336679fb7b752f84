import Foundation
import GRDB
import PlayheadCore

/// One write waiting for the next batch.
enum PendingWrite: Sendable {
    /// A bus event of a session.
    case event(sessionID: String, PlayerEvent)
    /// A QoS sample of a session.
    case sample(sessionID: String, PlaybackInformation)
    /// A session's player status changed.
    case status(sessionID: String, String)
    /// A session ended: its report; `samples` replace the live ones (the report's are once a second of
    /// session time, exact on the virtual clock).
    case finish(sessionID: String, PlaybackReport)

    /// The session written to.
    var sessionID: String {
        switch self {
        case let .event(id, _), let .sample(id, _), let .status(id, _), let .finish(id, _): id
        }
    }
}

/// Batches the store's writes: everything queued is written in one transaction every
/// ``defaultFlushIntervalSeconds`` (and on ``flush()``), so writing never holds up a player and a crash
/// loses at most one interval.
public final class StoreWriter: Sendable {
    /// Default interval between two batches: 0.25 s (the issue allows a second at most).
    public static let defaultFlushIntervalSeconds = 0.25
    /// Name of the custom event the beacon tracker posts; each is also written to the `beacon` table.
    public static let beaconEventName = "beacon"

    private let store: SessionStore
    private let pending = Mutex<[PendingWrite]>([])
    /// Per session, the highest event sequence committed, and the tasks waiting for one.
    private let stored = Mutex(StoredEvents())

    private struct StoredEvents {
        var highest: [String: Int] = [:]
        var waiters: [UUID: (sessionID: String, sequence: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var closed = false

        /// Takes out the waiters `isDue` says are due.
        mutating func due(_ isDue: (String, Int) -> Bool) -> [CheckedContinuation<Void, Never>] {
            let keys = waiters.filter { isDue($0.value.sessionID, $0.value.sequence) }.map(\.key)
            return keys.compactMap { waiters.removeValue(forKey: $0)?.continuation }
        }
    }
    private let flushLock = NSLock()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Creates a writer for `store` and starts its periodic flush.
    /// - Parameters:
    ///   - store: The database.
    ///   - flushIntervalSeconds: Time between batches.
    public init(store: SessionStore, flushIntervalSeconds: Double = defaultFlushIntervalSeconds) {
        self.store = store
        let loop = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(flushIntervalSeconds))
                self?.flush()
            }
        }
        task.withLock { $0 = loop }
    }

    /// Stops the periodic flush (after one last one).
    public func close() {
        task.withLock { $0?.cancel() }
        flush()
        let waiting = stored.withLock { state in
            state.closed = true
            return state.due { _, _ in true }
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once event `sequence` of session `sessionID` (and so every earlier one of it) is in the store,
    /// so that what a client is shown is what a restart keeps; at once when it already is, when the writer is
    /// closed, or when the task is cancelled. (A batch whose write failed counts as done: its failure is
    /// reported, and waiting longer would not store it.)
    func waitUntilStored(sessionID: String, sequence: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = stored.withLock { state -> Bool in
                    if state.closed || (state.highest[sessionID] ?? 0) >= sequence || Task.isCancelled { return true }
                    state.waiters[id] = (sessionID, sequence, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            stored.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Queues a write for the next batch.
    func enqueue(_ write: PendingWrite) {
        pending.withLock { $0.append(write) }
    }

    /// Writes everything queued now, in one transaction. Errors are reported on standard error; the
    /// batch is dropped rather than retried forever.
    public func flush() {
        flushLock.withLock {
            let batch = pending.withLock { queue -> [PendingWrite] in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            guard !batch.isEmpty else { return }
            do {
                try store.pool.write { db in
                    for write in batch { try Self.apply(write, db) }
                    let written = Set(batch.map(\.sessionID))
                    let now = Date().timeIntervalSince1970
                    for id in written {
                        try db.execute(sql: "UPDATE session SET lastWriteAt = ? WHERE id = ?", arguments: [now, id])
                    }
                }
            } catch {
                FileHandle.standardError.write(Data("playhead serve: store write failed: \(error)\n".utf8))
            }
            var highest: [String: Int] = [:]
            for case let .event(id, event) in batch { highest[id] = max(highest[id] ?? 0, event.sequence) }
            guard !highest.isEmpty else { return }
            let due = stored.withLock { state in
                state.highest.merge(highest) { max($0, $1) }
                let now = state.highest
                return state.due { id, sequence in (now[id] ?? 0) >= sequence }
            }
            for continuation in due { continuation.resume() }
        }
    }

    static func apply(_ write: PendingWrite, _ db: Database) throws {
        switch write {
        case let .event(id, event):
            try db.execute(sql: "INSERT OR REPLACE INTO event (sessionId, seq, time, name, line) VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, event.sequence, event.playerTime, event.name, event.jsonLine()])
            try db.execute(sql: "UPDATE session SET lastSequence = MAX(lastSequence, ?) WHERE id = ?", arguments: [event.sequence, id])
            if case let .custom(name, payload) = event.kind, name == beaconEventName {
                try db.execute(sql: "INSERT OR REPLACE INTO beacon (sessionId, seq, time, url) VALUES (?, ?, ?, ?)",
                               arguments: [id, event.sequence, event.playerTime, payload["url"] ?? ""])
            }
        case let .sample(id, info):
            try db.execute(sql: "INSERT OR REPLACE INTO sample (sessionId, time, info) VALUES (?, ?, ?)",
                           arguments: [id, info.playerTime, try json(info)])
        case let .status(id, status):
            try db.execute(sql: "UPDATE session SET status = ? WHERE id = ? AND active = 1", arguments: [status, id])
        case let .finish(id, report):
            try db.execute(sql: "DELETE FROM sample WHERE sessionId = ?", arguments: [id])
            for info in report.samples {
                try db.execute(sql: "INSERT OR REPLACE INTO sample (sessionId, time, info) VALUES (?, ?, ?)",
                               arguments: [id, info.playerTime, try json(info)])
            }
            try db.execute(sql: "UPDATE session SET status = ?, active = 0, endedAt = ?, report = ?, error = ? WHERE id = ?",
                           arguments: [report.finalStatus.rawValue, Date().timeIntervalSince1970, try json(report), report.error, id])
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

/// A value behind a lock (a small stand-in for `Synchronization.Mutex`, usable on every platform we build on).
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
