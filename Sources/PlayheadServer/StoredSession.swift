import Foundation
import GRDB
import PlayheadCore

/// A session as the store holds it (and as `GET /v1/sessions/{id}` shows it, with live figures added
/// while it runs).
public struct StoredSession: Sendable, Codable {
    /// The session id.
    public var id: String
    /// When it was created, seconds since 1970.
    public var createdAtSeconds: Double
    /// When it ended, seconds since 1970 (nil while running).
    public var endedAtSeconds: Double?
    /// The spec it was created with.
    public var spec: SessionSpec
    /// The player status (`created` … `completed`, `stopped`, `error`), or `interrupted` for a session the
    /// daemon lost (killed) while it ran.
    public var status: String
    /// Whether it is running.
    public var active: Bool
    /// The error that ended it, if any.
    public var error: String?
    /// The sequence number of the last event stored.
    public var lastSequence: Int
    /// The final report, once it ended (not listed in `GET /v1/sessions`).
    public var report: PlaybackReport?

    init(row: Row) {
        id = row["id"]
        createdAtSeconds = row["createdAt"]
        endedAtSeconds = row["endedAt"]
        let specText: String = row["spec"]
        spec = (try? JSONDecoder().decode(SessionSpec.self, from: Data(specText.utf8))) ?? SessionSpec(url: "")
        status = row["status"]
        active = row["active"]
        error = row["error"]
        lastSequence = row["lastSequence"]
        let reportText: String? = row["report"]
        report = reportText.flatMap { try? JSONDecoder().decode(PlaybackReport.self, from: Data($0.utf8)) }
    }
}

/// One stored event: its sequence number, name and NDJSON line.
public struct StoredEvent: Sendable, Equatable {
    /// The bus sequence number.
    public var sequence: Int
    /// The event's name (`statusChanged`, …).
    public var name: String
    /// The NDJSON line (``PlayheadCore/PlayerEvent/jsonLine(includeWallClock:)``).
    public var line: String
}
