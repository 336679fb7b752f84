import Foundation
import Hummingbird
import PlayheadCore

/// `GET /v1/sessions/{id}/events`: Server-Sent Events, one per bus event, resumable.
///
/// Each message is `id: SEQ`, `event: NAME`, `data: NDJSON line`. A client that reconnects with
/// `Last-Event-ID: N` (or `?lastEventId=N`) gets every event after N: first those in the store, then
/// those still in the bus's memory, then new ones as they are posted. The stream ends when the session
/// ends (at once for a session that already has).
enum EventStream {
    /// Encodes one message.
    static func message(sequence: Int, name: String, line: String) -> String {
        "id: \(sequence)\nevent: \(name)\ndata: \(line)\n\n"
    }

    /// The resume point from the header or the query.
    /// - Throws: 400 naming `Last-Event-ID` when it is not a non-negative integer.
    static func lastEventID(_ request: Request) throws -> Int {
        let header = request.headers[HTTPFields.Element.Name("Last-Event-ID")!]
        guard let text = header ?? request.uri.queryParameters.get("lastEventId") else { return 0 }
        guard let value = Int(text.trimmingCharacters(in: CharacterSet.whitespaces)), value >= 0 else {
            throw APIError.invalidField("Last-Event-ID", "must be a non-negative integer, got \"\(text)\"")
        }
        return value
    }

    /// The streaming response for session `id`.
    static func response(manager: SessionManager, id: String, after lastID: Int) throws -> Response {
        guard try manager.store.session(id: id) != nil else { throw APIError.sessionNotFound(id) }
        // Subscribe first, then read the backlog: nothing posted in between is missed (duplicates are skipped).
        let session = manager.runningSession(id)
        let live = session?.player.bus.stream()
        let store = manager.store
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            var last = lastID
            for event in try store.events(sessionID: id, afterSequence: last) {
                try await writer.write(ByteBuffer(string: message(sequence: event.sequence, name: event.name, line: event.line)))
                last = event.sequence
            }
            if let session, let live {
                for event in session.player.bus.events where event.sequence > last {
                    try await writer.write(ByteBuffer(string: message(sequence: event.sequence, name: event.name, line: event.jsonLine())))
                    last = event.sequence
                }
                for await event in live where event.sequence > last {
                    try await writer.write(ByteBuffer(string: message(sequence: event.sequence, name: event.name, line: event.jsonLine())))
                    last = event.sequence
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
