import Foundation
import Hummingbird
import PlayheadCore

/// `GET /v1/sessions/{id}/events`: Server-Sent Events, one per bus event, resumable.
///
/// Each message is `id: SEQ`, `event: NAME`, `data: NDJSON line`. A client that reconnects with
/// `Last-Event-ID: N` (or `?lastEventId=N`) gets every event after N: first those in the store, then
/// those still in the bus's memory, then new ones as they are posted. The stream ends when the session
/// ends (at once for a session that already has). An event is sent once the store holds it (at most one
/// write batch later), so that an event a client has seen survives a crash of the daemon. While no event comes, a comment line (`: keep-alive`)
/// is sent every `keepAliveSeconds`: a client that left is noticed when that write fails, and the
/// stream's subscription to the bus ends with it.
enum EventStream {
    /// What the live part of a stream writes next.
    enum Item: Sendable {
        case event(PlayerEvent)
        case keepAlive
    }

    /// The keep-alive comment.
    static let keepAliveComment = ": keep-alive\n\n"

    /// The session's live events, with a keep-alive item after every `seconds` without one. The sequence
    /// ends when the bus stream does; `stop` ends the tasks behind it.
    static func merged(_ live: AsyncStream<PlayerEvent>, keepAliveSeconds seconds: Double) -> (items: AsyncStream<Item>, stop: @Sendable () -> Void) {
        let (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(EventBus.defaultStreamBufferSize))
        let lastEvent = Mutex(ContinuousClock.now)
        let forward = Task {
            for await event in live {
                lastEvent.withLock { $0 = .now }
                continuation.yield(.event(event))
            }
            continuation.finish()
        }
        let ticker = Task {
            while !Task.isCancelled {
                let due = lastEvent.withLock { $0 } + .seconds(seconds)
                try? await Task.sleep(until: due, clock: .continuous)
                if Task.isCancelled { break }
                if lastEvent.withLock({ $0 }) + .seconds(seconds) <= .now {
                    lastEvent.withLock { $0 = .now }
                    continuation.yield(.keepAlive)
                }
            }
        }
        let stop: @Sendable () -> Void = {
            forward.cancel()
            ticker.cancel()
            continuation.finish()
        }
        continuation.onTermination = { _ in
            forward.cancel()
            ticker.cancel()
        }
        return (items, stop)
    }

    /// Encodes one message.
    static func message(sequence: Int, name: String, line: String) -> String {
        "id: \(sequence)\nevent: \(name)\ndata: \(line)\n\n"
    }

    /// The resume point from the header or the query.
    /// - Throws: 400 naming `Last-Event-ID` (or the `lastEventId` parameter) when it is not a non-negative integer.
    static func lastEventID(_ request: Request) throws -> Int {
        let header = request.headers[HTTPFields.Element.Name("Last-Event-ID")!]
        let source = header != nil ? "Last-Event-ID" : "lastEventId"
        guard let text = header ?? request.uri.queryParameters.get("lastEventId") else { return 0 }
        guard let value = Int(text.trimmingCharacters(in: CharacterSet.whitespaces)), value >= 0 else {
            throw APIError.invalidField(source, "must be a non-negative integer, got \"\(text)\"")
        }
        return value
    }

    /// The streaming response for session `id`.
    static func response(manager: SessionManager, id: String, after lastID: Int,
                         keepAliveSeconds: Double = ServerSettings.defaultEventStreamKeepAliveSeconds) throws -> Response {
        guard try manager.store.session(id: id) != nil else { throw APIError.sessionNotFound(id) }
        // Subscribe first, then read the backlog: nothing posted in between is missed (duplicates are skipped).
        let session = manager.runningSession(id)
        let live = session?.player.bus.stream()
        let store = manager.store
        let storeWriter = manager.writer
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
                    await storeWriter.waitUntilStored(sessionID: id, sequence: event.sequence)
                    try await writer.write(ByteBuffer(string: message(sequence: event.sequence, name: event.name, line: event.jsonLine())))
                    last = event.sequence
                }
                let (items, stop) = merged(live, keepAliveSeconds: keepAliveSeconds)
                defer { stop() }
                for await item in items {
                    switch item {
                    case let .event(event) where event.sequence > last:
                        await storeWriter.waitUntilStored(sessionID: id, sequence: event.sequence)
                        try await writer.write(ByteBuffer(string: message(sequence: event.sequence, name: event.name, line: event.jsonLine())))
                        last = event.sequence
                    case .event: continue
                    case .keepAlive: try await writer.write(ByteBuffer(string: keepAliveComment))
                    }
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
