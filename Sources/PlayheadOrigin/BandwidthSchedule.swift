import Foundation

/// The rate of the server's one simulated bottleneck link over time since the server started: steps of
/// constant bits per second, optionally repeating (see ``LoopbackHTTPServer/setBandwidth(_:)``).
public struct BandwidthSchedule: Sendable, Equatable {
    /// When each step begins, in seconds from the start (or from the start of each period); the first is 0,
    /// the others increasing.
    public var startSeconds: [Double]
    /// Each step's rate in bits per second (0: nothing gets through meanwhile).
    public var bitsPerSecond: [Double]
    /// The steps repeat every this many seconds (nil: the last step lasts for ever).
    public var periodSeconds: Double?

    /// Creates a schedule; ``problem`` says whether it is usable.
    /// - Parameters:
    ///   - startSeconds: When each step begins; starts at 0 and increases.
    ///   - bitsPerSecond: Each step's rate.
    ///   - periodSeconds: The period after which the steps repeat, past the last start; nil: no repeat.
    public init(startSeconds: [Double], bitsPerSecond: [Double], periodSeconds: Double? = nil) {
        self.startSeconds = startSeconds
        self.bitsPerSecond = bitsPerSecond
        self.periodSeconds = periodSeconds
    }

    /// One rate for ever.
    public static func constant(bitsPerSecond: Double) -> BandwidthSchedule {
        BandwidthSchedule(startSeconds: [0], bitsPerSecond: [bitsPerSecond])
    }

    /// Why the schedule cannot pace a link (mismatched or empty steps, times that do not start at 0 or do
    /// not increase, negative or non-finite rates, no rate above 0 where it goes on), or nil.
    public var problem: String? {
        guard !startSeconds.isEmpty, startSeconds.count == bitsPerSecond.count else { return "the schedule needs one rate per step" }
        guard startSeconds[0] == 0 else { return "the first step must start at 0" }
        guard zip(startSeconds, startSeconds.dropFirst()).allSatisfy({ $0 < $1 }) else { return "step times must increase" }
        guard bitsPerSecond.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return "rates must be finite and not negative" }
        if let periodSeconds {
            guard periodSeconds.isFinite, periodSeconds > startSeconds.last! else { return "the period must end after the last step starts" }
            guard bitsPerSecond.contains(where: { $0 > 0 }) else { return "no step carries any data" }
        } else if bitsPerSecond.last! <= 0 {
            return "the last step, which lasts for ever, carries no data"
        }
        return nil
    }

    /// When `bits` sent from `seconds` on are through the link, in seconds from the start (a schedule
    /// with a ``problem`` gives infinity).
    public func finish(bits: Double, startingAt seconds: Double) -> Double {
        guard problem == nil else { return .infinity }
        var left = bits
        var now = max(0, seconds)
        // Enough steps to cross every step of a period a few times over, however small the rates.
        for _ in 0..<(startSeconds.count * 4 + 1_000_000) {
            let (rate, end) = step(at: now)
            if rate > 0, left <= (end - now) * rate { return now + left / rate }
            left -= (end - now) * rate
            now = end
        }
        return .infinity
    }

    /// The rate at `seconds` and when its step ends.
    func step(at seconds: Double) -> (rate: Double, end: Double) {
        var offset = seconds, base = 0.0
        if let periodSeconds {
            let passes = (seconds / periodSeconds).rounded(.down)
            base = passes * periodSeconds
            offset = seconds - base
        }
        // The last step starting at or before the offset.
        var low = 0, high = startSeconds.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if startSeconds[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let end = low + 1 < startSeconds.count ? startSeconds[low + 1] : (periodSeconds ?? .infinity)
        // A step that ends where a rounding error put the offset must still move time on.
        let stepEnd = base + end
        return (bitsPerSecond[low], stepEnd > seconds ? stepEnd : seconds.nextUp)
    }
}

/// The server's one bottleneck link: response bodies from every connection take turns on it, chunk by
/// chunk, each chunk going out when the schedule would have carried it (first come, first served).
final class LinkShaper: Sendable {
    /// Time the link may have fallen behind (late wake-ups) and still count as busy, so that the lateness
    /// does not add up over a long transfer.
    static let slackSeconds = 0.05

    let schedule: BandwidthSchedule
    let start: ContinuousClock.Instant
    private let freeAt = Locked(0.0)

    init(schedule: BandwidthSchedule, start: ContinuousClock.Instant) {
        self.schedule = schedule
        self.start = start
    }

    /// Seconds since the server started.
    func now() -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// How many bytes to send next: about 20 ms at the present rate, from one packet to 64 KiB.
    func chunkSize() -> Int {
        let rate = schedule.step(at: now()).rate
        return min(64 * 1024, max(1460, Int(rate * 0.02 / 8)))
    }

    /// Books `bytes` on the link; returns when they are through, which is when to send them.
    func reserve(bytes: Int) -> ContinuousClock.Instant {
        let now = now()
        let finish = freeAt.withLock { freeAt in
            let begin = freeAt >= now - Self.slackSeconds ? freeAt : now
            freeAt = schedule.finish(bits: Double(bytes) * 8, startingAt: begin)
            return freeAt
        }
        guard finish.isFinite else { return start + .seconds(86_400 * 365) }
        return start + .nanoseconds(Int64(finish * 1e9))
    }
}
