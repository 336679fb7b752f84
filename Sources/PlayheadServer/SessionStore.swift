import Foundation
import GRDB
import PlayheadCore

/// The daemon's embedded SQLite database (`playhead.sqlite` in the data directory), in WAL mode.
///
/// Tables: `session` (one row per session: spec, status, final report), `event` (every bus event as its
/// NDJSON line), `sample` (QoS samples), `beacon` (beacon events). Writes come in batches from
/// ``StoreWriter``; with `synchronous = NORMAL` a committed batch survives the process being killed
/// (it is in the WAL, in the OS's cache), so a SIGKILL loses at most the batch not yet flushed.
public final class SessionStore: Sendable {
    /// The database file's name inside the data directory.
    public static let fileName = "playhead.sqlite"
    /// The status written for sessions that were running when the daemon stopped without ending them.
    public static let interruptedStatus = "interrupted"

    let pool: DatabasePool

    /// Opens (creating if needed) the database in `directory` and migrates it.
    /// - Parameter directory: The data directory; created if missing.
    /// - Throws: File-system or SQLite errors.
    public init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: directory + "/" + Self.fileName, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE session (
                    id TEXT PRIMARY KEY NOT NULL, createdAt DOUBLE NOT NULL, endedAt DOUBLE,
                    spec TEXT NOT NULL, status TEXT NOT NULL, active BOOLEAN NOT NULL,
                    report TEXT, error TEXT, lastSequence INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE event (
                    sessionId TEXT NOT NULL, seq INTEGER NOT NULL, time DOUBLE NOT NULL, name TEXT NOT NULL,
                    line TEXT NOT NULL, PRIMARY KEY (sessionId, seq)) WITHOUT ROWID;
                CREATE TABLE sample (
                    sessionId TEXT NOT NULL, time DOUBLE NOT NULL, info TEXT NOT NULL, PRIMARY KEY (sessionId, time))
                    WITHOUT ROWID;
                CREATE TABLE beacon (
                    sessionId TEXT NOT NULL, seq INTEGER NOT NULL, time DOUBLE NOT NULL, url TEXT NOT NULL,
                    PRIMARY KEY (sessionId, seq)) WITHOUT ROWID;
                """)
        }
        // When each session last had something written: an interrupted session ended about then.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN lastWriteAt DOUBLE")
        }
        return migrator
    }

    /// Marks every session still flagged as running as ``interruptedStatus`` (called at start-up).
    /// - Returns: How many sessions were marked.
    @discardableResult
    public func markInterrupted() throws -> Int {
        try pool.write { db in
            // It ended when its last write was stored (not now, at the restart); one that never wrote, as it began.
            try db.execute(sql: "UPDATE session SET status = ?, active = 0, endedAt = COALESCE(endedAt, lastWriteAt, createdAt) WHERE active = 1",
                           arguments: [Self.interruptedStatus])
            return db.changesCount
        }
    }

    /// Inserts a new session row at once (not batched: a created session is listed even after a crash).
    func insert(id: String, spec: SessionSpec, createdAt: Date) throws {
        let specJSON = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        try pool.write { db in
            try db.execute(sql: "INSERT INTO session (id, createdAt, spec, status, active) VALUES (?, ?, ?, ?, 1)",
                           arguments: [id, createdAt.timeIntervalSince1970, specJSON, PlayerStatus.created.rawValue])
        }
    }

    /// Deletes a session and everything recorded for it.
    /// - Returns: Whether the session existed.
    func delete(id: String) throws -> Bool {
        try pool.write { db in
            for table in ["event", "sample", "beacon"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE sessionId = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// One session's row, or nil.
    public func session(id: String) throws -> StoredSession? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [id]).map(StoredSession.init(row:))
        }
    }

    /// Every session, newest first.
    public func sessions() throws -> [StoredSession] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY createdAt DESC, id").map(StoredSession.init(row:))
        }
    }

    /// A session's events with a sequence number above `afterSequence`, in order, at most `limit`.
    public func events(sessionID: String, afterSequence: Int = 0, limit: Int = Int.max) throws -> [StoredEvent] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, name, line FROM event WHERE sessionId = ? AND seq > ? ORDER BY seq LIMIT ?",
                             arguments: [sessionID, afterSequence, limit])
                .map { StoredEvent(sequence: $0["seq"], name: $0["name"], line: $0["line"]) }
        }
    }

    /// A session's QoS samples in time order.
    public func samples(sessionID: String) throws -> [PlaybackInformation] {
        let decoder = JSONDecoder()
        return try pool.read { db in
            try String.fetchAll(db, sql: "SELECT info FROM sample WHERE sessionId = ? ORDER BY time", arguments: [sessionID])
        }.compactMap { try? decoder.decode(PlaybackInformation.self, from: Data($0.utf8)) }
    }

    /// How many sessions have each status (ended or interrupted sessions only when `activeOnly` is false).
    public func statusCounts(active: Bool) throws -> [String: Int] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM session WHERE active = ? GROUP BY status",
                                        arguments: [active])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["status"] as String, $0["n"] as Int) })
        }
    }

    /// Beacons recorded for a session, in order.
    public func beaconCount(sessionID: String) throws -> Int {
        try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM beacon WHERE sessionId = ?", arguments: [sessionID]) ?? 0
        }
    }
}
