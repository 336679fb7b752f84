import Foundation

/// One ad beacon fired (or given up on): what, for which ad, at which media time, where, and how it
/// went. The playback report can carry these (``BeaconLog/records``).
public struct BeaconRecord: Sendable, Equatable, Codable {
    /// The VAST event (`impression`, `creativeView`, `start`, `firstQuartile`, `midpoint`,
    /// `thirdQuartile`, `complete`, `pause`, `resume`, `skip`, `click`, `error`).
    public var event: String
    /// The break's id.
    public var breakId: String
    /// The ad's id.
    public var adId: String
    /// Seconds into the ad of the presented frame the event was posted at (the ad event's `offsetSeconds`).
    public var mediaTimeSeconds: Double
    /// Presentation time of that frame in the ad's own media, seconds (the ad event's `pts`).
    public var pts: Double
    /// When the last attempt was made, in real time. In JSON: Unix seconds (as the test ad server's
    /// `/beacons` writes them), not Foundation's default of seconds since 2001.
    public var wallTime: Date {
        get { Date(timeIntervalSince1970: wallTimeUnixSeconds) }
        set { wallTimeUnixSeconds = newValue.timeIntervalSince1970 }
    }
    /// ``wallTime`` as stored and coded: Unix seconds.
    private var wallTimeUnixSeconds: Double
    /// The URL called, macros expanded.
    public var url: String
    /// The HTTP status of the last attempt; `nil` when no answer came (transport error, timeout).
    public var httpStatus: Int?
    /// How many attempts were made.
    public var attempts: Int
    /// The last attempt's error, when the beacon failed.
    public var error: String?

    /// Creates a record.
    public init(event: String, breakId: String, adId: String, mediaTimeSeconds: Double, pts: Double, wallTime: Date,
                url: String, httpStatus: Int?, attempts: Int, error: String? = nil) {
        self.event = event
        self.breakId = breakId
        self.adId = adId
        self.mediaTimeSeconds = mediaTimeSeconds
        self.pts = pts
        self.wallTimeUnixSeconds = wallTime.timeIntervalSince1970
        self.url = url
        self.httpStatus = httpStatus
        self.attempts = attempts
        self.error = error
    }

    /// Whether the beacon got a 2xx answer.
    public var succeeded: Bool { httpStatus.map { (200..<300).contains($0) } ?? false }

    private enum CodingKeys: String, CodingKey {
        case event, breakId, adId, mediaTimeSeconds, pts, wallTimeUnixSeconds = "wallTime", url, httpStatus, attempts, error
    }
}

/// A thread-safe, append-only log of ``BeaconRecord``s, in the order the beacons finished.
public final class BeaconLog: Sendable {
    private let state = BeaconLogState()

    /// An empty log.
    public init() {}

    /// Appends a record.
    public func append(_ record: BeaconRecord) { state.withLock { $0.append(record) } }

    /// Every record so far, in order.
    public var records: [BeaconRecord] { state.withLock { $0 } }

    /// How many records there are.
    public var count: Int { state.withLock { $0.count } }
}

/// The lock-guarded array behind ``BeaconLog``.
private final class BeaconLogState: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [BeaconRecord] = []

    func withLock<T>(_ body: (inout [BeaconRecord]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&records)
    }
}
