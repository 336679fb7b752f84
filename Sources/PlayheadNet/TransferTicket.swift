/// What one `get` asks for, and the hand-over point between the awaiting task and the multi thread.
///
/// The ticket is shared: the task installs its continuation and may flag cancellation; the multi thread
/// completes it. Completion happens exactly once; later attempts are ignored.
final class TransferTicket: Sendable {
    /// The URL as the caller gave it.
    let url: String
    /// The byte range asked for, if any.
    let range: ByteRangeRequest?
    /// Extra request headers.
    let headers: [String: String]
    /// Where a 2xx body goes instead of the response (nil: into the response).
    let sink: (any HTTPBodySink)?

    private struct State {
        var continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>?
        var isCancelled = false
        var isCompleted = false
        var pendingResult: Result<HTTPResponse, HTTPError>?
    }
    private let state = Locked(State())

    init(url: String, range: ByteRangeRequest?, headers: [String: String], sink: (any HTTPBodySink)?) {
        self.url = url
        self.range = range
        self.headers = headers
        self.sink = sink
    }

    /// Whether the awaiting task was cancelled.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Installs the continuation. Returns `false`, having resumed it, when the ticket was already
    /// cancelled or completed; the caller then must not submit the ticket.
    func install(_ continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) -> Bool {
        let early: Result<HTTPResponse, HTTPError>? = state.withLock { state in
            if let result = state.pendingResult { return result }
            if state.isCancelled {
                state.isCompleted = true
                return .failure(.cancelled(url: url))
            }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(returning: early)
        return false
    }

    /// Flags the ticket as cancelled. Returns `true` when it was still open.
    @discardableResult
    func markCancelled() -> Bool {
        state.withLock { state in
            state.isCancelled = true
            return !state.isCompleted
        }
    }

    /// Completes the ticket with `result` unless it was completed before.
    func complete(_ result: Result<HTTPResponse, HTTPError>) {
        let continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>? = state.withLock { state in
            guard !state.isCompleted else { return nil }
            state.isCompleted = true
            if state.continuation == nil { state.pendingResult = result }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}
