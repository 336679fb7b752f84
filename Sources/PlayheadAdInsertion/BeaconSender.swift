import Foundation
import PlayheadCore
import PlayheadNet

/// How beacons are retried: up to ``attempts`` tries, waiting ``initialBackoffSeconds`` after the
/// first failure and ``multiplier`` times longer after each next one. Only failures that may pass
/// are retried (5xx, 408, 429, transport errors, timeouts).
public struct BeaconRetryPolicy: Sendable, Equatable {
    /// Default of ``attempts``: 3.
    public static let defaultAttempts = 3
    /// Default of ``initialBackoffSeconds``: 0.5 s.
    public static let defaultInitialBackoffSeconds = 0.5
    /// Default of ``multiplier``: 2.
    public static let defaultMultiplier = 2.0

    /// Tries in all, at least 1.
    public var attempts: Int
    /// Wait after the first failure, seconds.
    public var initialBackoffSeconds: Double
    /// Growth of the wait from one retry to the next.
    public var multiplier: Double

    /// Creates a policy; defaults as documented.
    public init(attempts: Int = defaultAttempts, initialBackoffSeconds: Double = defaultInitialBackoffSeconds,
                multiplier: Double = defaultMultiplier) {
        self.attempts = max(1, attempts)
        self.initialBackoffSeconds = max(0, initialBackoffSeconds)
        self.multiplier = max(1, multiplier)
    }

    /// The wait before attempt `attempt` (2, 3, …), seconds.
    public func backoff(beforeAttempt attempt: Int) -> Double {
        initialBackoffSeconds * pow(multiplier, Double(max(0, attempt - 2)))
    }
}

/// One beacon to call: its URL with macros expanded, and what it records.
struct Beacon: Sendable {
    var event: String
    var breakId: String
    var adId: String
    var mediaTimeSeconds: Double
    var pts: Double
    var url: String
}

/// Calls beacons, retrying with backoff, and records each in the log (and, given a bus, as a
/// `beacon` custom event). The tracker makes every first attempt in event order and hands a beacon
/// that may pass on a retry to its own task, so one failing beacon does not hold back the others.
struct BeaconSender: Sendable {
    let client: HTTPClient
    let log: BeaconLog
    let retry: BeaconRetryPolicy
    let clock: @Sendable () -> Date
    let sleep: @Sendable (Double) async -> Void
    let bus: EventBus?

    /// The name of the custom event posted per beacon (what the daemon's store records).
    static let eventName = "beacon"

    /// The outcome of one try.
    struct Attempt: Sendable {
        /// 1 for the first try.
        var number: Int
        /// The HTTP status, when there was an answer.
        var status: Int?
        /// Why it failed; nil on success.
        var failure: String?
        /// Whether another try may pass (and the policy allows one).
        var retryable: Bool
    }

    /// Tries `beacon` once.
    func attempt(_ beacon: Beacon, number: Int) async -> Attempt {
        do {
            let status = try await client.get(beacon.url).status
            return Attempt(number: number, status: status, failure: nil, retryable: false)
        } catch {
            var status: Int?
            if case let .status(_, code, _) = error { status = code }
            return Attempt(number: number, status: status, failure: error.description,
                           retryable: error.isRetryable && number < retry.attempts)
        }
    }

    /// Retries after `first` failed, with the policy's backoff, then records the last try.
    func retry(_ beacon: Beacon, after first: Attempt) async {
        var last = first
        while last.retryable {
            await sleep(retry.backoff(beforeAttempt: last.number + 1))
            last = await attempt(beacon, number: last.number + 1)
        }
        finish(beacon, last)
    }

    /// Records `beacon` with its last try.
    func finish(_ beacon: Beacon, _ last: Attempt) {
        let record = BeaconRecord(event: beacon.event, breakId: beacon.breakId, adId: beacon.adId,
                                  mediaTimeSeconds: beacon.mediaTimeSeconds, pts: beacon.pts, wallTime: clock(), url: beacon.url,
                                  httpStatus: last.status, attempts: last.number, error: last.failure)
        log.append(record)
        bus?.post(.custom(name: Self.eventName, payload: [
            "event": record.event, "breakId": record.breakId, "adId": record.adId, "url": record.url,
            "mediaTime": String(record.mediaTimeSeconds), "status": record.httpStatus.map(String.init) ?? "",
            "attempts": String(record.attempts),
        ]))
    }
}

/// Retries in flight, and the flushes waiting for them to end.
final class PendingRetries: Sendable {
    private let state = Locked<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    /// A retry starts.
    func begin() { state.withLock { $0.count += 1 } }

    /// A retry ended: wakes the waiters when none is left.
    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no retry is in flight.
    func wait() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.count == 0 { return true }
                state.waiters.append(done)
                return false
            }
            if now { done.resume() }
        }
    }
}
