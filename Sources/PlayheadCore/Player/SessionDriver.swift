import Foundation

/// The outcome of one transfer a session started.
public typealias TransferResult = Result<NetworkTransfer, PlayheadError>

/// Session time and the transfers that run against it: the only place where the real and the
/// virtual clock differ. The player loop asks the driver to start transfers and to wait for the next
/// thing to happen; everything else is the same code on both clocks.
public protocol SessionDriver: AnyObject, Sendable {
    /// Seconds since the session started.
    var now: Double { get }
    /// Whether this is the virtual clock (exact presentation, no lateness).
    var isVirtual: Bool { get }
    /// Starts transfer `id`; `work` receives the session time it starts at. The result comes back from `wait`.
    func start(_ id: Int, _ work: @escaping @Sendable (Double) async -> TransferResult) async
    /// Waits until session time `deadline` (nil: until a transfer completes or `wake` is called) and
    /// returns the transfers that completed, in completion order (ties by id).
    func wait(until deadline: Double?) async -> [(id: Int, result: TransferResult)]
    /// Forgets transfer `id` (a seek or stop no longer wants it); a real transfer is cancelled.
    func cancel(_ id: Int)
    /// Makes a pending `wait` return early (a command arrived from outside).
    func wake()
    /// Charges `seconds` of work the loop awaited in line rather than as a transfer (the item's
    /// playlists, a VOD's ad playlists before playback): the virtual clock moves on by that much; on
    /// the real clock the time has already passed, so nothing changes.
    func advance(by seconds: Double)
}

/// Wall-clock session time; transfers run concurrently and report back when libcurl finishes.
public final class RealTimeDriver: SessionDriver, @unchecked Sendable {
    private let origin = ContinuousClock.now
    private let lock = NSLock()
    private var inbox: [(id: Int, result: TransferResult)] = []
    private var tasks: [Int: Task<Void, Never>] = [:]
    /// Transfers started and neither delivered nor cancelled.
    private var wanted: Set<Int> = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var woken = false

    /// Creates a driver whose session time starts now.
    public init() {}

    /// Seconds since the driver was made.
    public var now: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// False: this is the real clock.
    public var isVirtual: Bool { false }

    /// Runs `work` in its own task.
    ///
    /// The transfer is registered as wanted before its task starts: a fast transfer may finish before
    /// `start` returns, and its result must not be mistaken for one that was cancelled.
    public func start(_ id: Int, _ work: @escaping @Sendable (Double) async -> TransferResult) async {
        let startedAt = now
        lock.withLock { _ = wanted.insert(id) }
        let task = Task { [weak self] in
            let result = await work(startedAt)
            self?.deliver(id, result)
        }
        lock.withLock { if wanted.contains(id) { tasks[id] = task } }
    }

    private func deliver(_ id: Int, _ result: TransferResult) {
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            guard wanted.remove(id) != nil else { return nil }
            tasks[id] = nil
            inbox.append((id, result))
            defer { waiter = nil }
            return waiter
        }
        resume?.resume()
    }

    /// Sleeps until `deadline` unless a transfer completes or `wake` is called first.
    public func wait(until deadline: Double?) async -> [(id: Int, result: TransferResult)] {
        let timer: Task<Void, Never>? = deadline.map { deadline in
            let delay = max(0, deadline - now)
            return Task { [weak self] in
                try? await Task.sleep(for: .seconds(delay))
                if !Task.isCancelled { self?.wake() }
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if !inbox.isEmpty || woken { return true }
                waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        timer?.cancel()
        return lock.withLock {
            woken = false
            defer { inbox = [] }
            return inbox
        }
    }

    /// Cancels transfer `id`; its result is never delivered.
    public func cancel(_ id: Int) {
        let task = lock.withLock {
            wanted.remove(id)
            return tasks.removeValue(forKey: id)
        }
        task?.cancel()
    }

    /// Ends the current (or next) wait early.
    public func wake() {
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            woken = true
            defer { waiter = nil }
            return waiter
        }
        resume?.resume()
    }

    /// Nothing to do: the work's time passed on the wall clock while it ran.
    public func advance(by seconds: Double) {}
}

/// Virtual session time: it jumps to the next thing that happens. A transfer fetches its bytes at
/// once (real I/O, usually from 127.0.0.1) and completes at `start + transfer.seconds`, the time the
/// simulated network charged. Deterministic: one task, completions ordered by time then id.
public final class VirtualTimeDriver: SessionDriver, @unchecked Sendable {
    private let lock = NSLock()
    private var time = 0.0
    private var pending: [(id: Int, at: Double, result: TransferResult)] = []

    /// Creates a driver at session time 0.
    public init() {}

    /// The current virtual time.
    public var now: Double { lock.withLock { time } }

    /// True: this is the virtual clock.
    public var isVirtual: Bool { true }

    /// Runs `work` now and books its completion at the charged time.
    public func start(_ id: Int, _ work: @escaping @Sendable (Double) async -> TransferResult) async {
        let startedAt = now
        let result = await work(startedAt)
        let cost: Double
        switch result {
        case let .success(transfer): cost = max(0, transfer.seconds)
        // A timeout takes its limit (a simulated link's or the client's own); other failures are at once.
        case let .failure(error): cost = error.timeoutSeconds ?? 0
        }
        lock.withLock { pending.append((id, startedAt + cost, result)) }
    }

    /// Jumps to the earliest completion not after `deadline`, or to `deadline`.
    public func wait(until deadline: Double?) async -> [(id: Int, result: TransferResult)] {
        lock.withLock {
            let next = pending.map(\.at).min()
            if let next, deadline == nil || next <= deadline! {
                time = max(time, next)
                let due = pending.filter { $0.at <= time }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
                pending.removeAll { $0.at <= time }
                return due.map { ($0.id, $0.result) }
            }
            if let deadline { time = max(time, deadline) }
            return []
        }
    }

    /// Forgets transfer `id`.
    public func cancel(_ id: Int) { lock.withLock { pending.removeAll { $0.id == id } } }

    /// Nothing to wake: the virtual clock never blocks.
    public func wake() {}

    /// Moves the clock on by `seconds` (negative or non-finite amounts are ignored). A transfer booked
    /// to complete within the jump completes at the next `wait`.
    public func advance(by seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        lock.withLock { time += seconds }
    }
}
