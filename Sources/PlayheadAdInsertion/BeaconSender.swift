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

/// Calls beacons one after another (so they reach the server in the order the events came),
/// retrying with backoff, and records each in the log (and, given a bus, as a `beacon` custom event).
struct BeaconSender: Sendable {
    let client: HTTPClient
    let log: BeaconLog
    let retry: BeaconRetryPolicy
    let clock: @Sendable () -> Date
    let sleep: @Sendable (Double) async -> Void
    let bus: EventBus?

    /// The name of the custom event posted per beacon (what the daemon's store records).
    static let eventName = "beacon"

    func send(_ beacon: Beacon) async {
        var attempts = 0, status: Int?, failure: String?
        while attempts < retry.attempts {
            attempts += 1
            if attempts > 1 { await sleep(retry.backoff(beforeAttempt: attempts)) }
            do {
                status = try await client.get(beacon.url).status
                failure = nil
                break
            } catch {
                if case let .status(_, code, _) = error { status = code } else { status = nil }
                failure = error.description
                if !error.isRetryable { break }
            }
        }
        let record = BeaconRecord(event: beacon.event, breakId: beacon.breakId, adId: beacon.adId,
                                  mediaTimeSeconds: beacon.mediaTimeSeconds, pts: beacon.pts, wallTime: clock(), url: beacon.url,
                                  httpStatus: status, attempts: attempts, error: failure)
        log.append(record)
        bus?.post(.custom(name: Self.eventName, payload: [
            "event": record.event, "breakId": record.breakId, "adId": record.adId, "url": record.url,
            "mediaTime": String(record.mediaTimeSeconds), "status": record.httpStatus.map(String.init) ?? "",
            "attempts": String(record.attempts),
        ]))
    }
}
