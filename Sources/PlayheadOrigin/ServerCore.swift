#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state the accept thread, the connection threads and the public server share.
final class ServerCore: Sendable {
    /// Requests kept in the log; past it the older half is dropped, so a long-running origin stays bounded.
    static let maxLoggedRequests = 100_000
    struct Waiter {
        var path: String
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    /// A fault and how many more requests it applies to (`nil`: until removed).
    struct FaultEntry {
        var fault: LoopbackHTTPServer.Fault
        var remaining: Int?
    }

    /// A fault rule and what it has used up: requests left, its generator.
    struct RuleEntry {
        var rule: LoopbackHTTPServer.FaultRule
        var remaining: Int?
        var generator: SplitMix64
    }

    /// The fault a request gets, and the rule that chose it (nil for a path's own fault).
    struct AppliedFault {
        var fault: LoopbackHTTPServer.Fault
        var rule: String?
    }

    struct State {
        var faults: [String: FaultEntry] = [:]
        var rules: [RuleEntry] = []
        var bodyTransformer: LoopbackHTTPServer.BodyTransformer?
        var shaper: LinkShaper?
        var observer: (@Sendable (LoopbackHTTPServer.RequestRecord) -> Void)?
        var log: [LoopbackHTTPServer.RequestRecord] = []
        var openConnections: Set<Int32> = []
        var nextConnectionID = 1
        var waiters: [Waiter] = []
        var isStopped = false
    }

    /// Files are served from below this directory.
    let root: String
    /// Read end of the stop pipe: becomes readable, for good, when the server stops.
    let stopFD: Int32
    /// Write end of the stop pipe.
    let stopWriteFD: Int32
    /// How long a connection may sit idle between requests.
    let idleTimeoutMilliseconds: Int
    let state = Locked(State())
    /// When the server started: the origin of the live windows' and the link's time.
    let start = ContinuousClock.now
    /// Answers a request itself instead of the file system (the ad server's documents and beacons);
    /// `nil` from it, or no responder, falls back to files below ``root``.
    let responder: (@Sendable (HTTPRequestHead, ServerCore) -> ResponsePlan?)?

    init(root: String, idleTimeoutMilliseconds: Int,
         responder: (@Sendable (HTTPRequestHead, ServerCore) -> ResponsePlan?)? = nil) throws(LoopbackServerError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw LoopbackServerError(call: "pipe", code: errno) }
        self.root = root
        stopFD = fds[0]
        stopWriteFD = fds[1]
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        self.responder = responder
    }

    /// Registers a new connection; returns its id, or `nil` once the server is stopping.
    func open(_ fd: Int32) -> Int? {
        state.withLock { state in
            guard !state.isStopped else { return nil }
            state.openConnections.insert(fd)
            defer { state.nextConnectionID += 1 }
            return state.nextConnectionID
        }
    }

    /// Forgets and closes a connection.
    func closeConnection(_ fd: Int32) {
        state.withLock { _ = $0.openConnections.remove(fd) }
        _ = close(fd)
    }

    /// The fault for `path`: its own, else the catch-all fault registered for `*`, else the first rule
    /// whose glob matches, has requests left and, with a probability, draws this one. A fault limited to a
    /// number of requests counts this one and is removed once used up. A fault about a header (ignore-range,
    /// ignore-if-range) is for the requests that carry it only, and only those count.
    func fault(for path: String, headers: [String: String]) -> AppliedFault? {
        state.withLock { state in
            let key = state.faults[path] != nil ? path : "*"
            if var entry = state.faults[key] {
                guard entry.fault.concerns(headers) else { return nil }
                if let remaining = entry.remaining {
                    entry.remaining = remaining - 1
                    state.faults[key] = remaining > 1 ? entry : nil
                }
                return AppliedFault(fault: entry.fault, rule: nil)
            }
            for index in state.rules.indices where Glob.matches(state.rules[index].rule.pattern, path) && state.rules[index].rule.fault.concerns(headers) {
                if state.rules[index].remaining == 0 { continue }
                if let probability = state.rules[index].rule.probability, state.rules[index].generator.unit() >= probability { continue }
                state.rules[index].remaining = state.rules[index].remaining.map { $0 - 1 }
                return AppliedFault(fault: state.rules[index].rule.fault, rule: state.rules[index].rule.name)
            }
            return nil
        }
    }

    /// Seconds since the server started.
    var secondsSinceStart: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Appends to the request log and wakes the waiters it satisfies.
    func log(_ record: LoopbackHTTPServer.RequestRecord) {
        let (ready, observer): ([CheckedContinuation<Void, Never>], (@Sendable (LoopbackHTTPServer.RequestRecord) -> Void)?) = state.withLock { state in
            state.log.append(record)
            if state.log.count > Self.maxLoggedRequests { state.log.removeFirst(state.log.count / 2) }
            let log = state.log
            let (done, waiting) = state.waiters.partitioned { waiter in
                log.lazy.filter { $0.path == waiter.path }.count >= waiter.count
            }
            state.waiters = waiting
            return (done.map(\.continuation), state.observer)
        }
        observer?(record)
        ready.forEach { $0.resume() }
    }

    /// Marks the server stopped, wakes every poller and waiter, and breaks blocked sends.
    func stop() -> Bool {
        let (first, waiters): (Bool, [Waiter]) = state.withLock { state in
            guard !state.isStopped else { return (false, []) }
            state.isStopped = true
            state.openConnections.forEach { _ = shutdown($0, Int32(SHUT_RDWR)) }
            defer { state.waiters = [] }
            return (true, state.waiters)
        }
        guard first else { return false }
        var byte: UInt8 = 1
        _ = write(stopWriteFD, &byte, 1)
        waiters.forEach { $0.continuation.resume() }
        return true
    }
}

extension Array {
    /// The elements that satisfy `predicate`, and the others, each in order.
    func partitioned(_ predicate: (Element) -> Bool) -> ([Element], [Element]) {
        var yes: [Element] = []
        var no: [Element] = []
        for element in self { if predicate(element) { yes.append(element) } else { no.append(element) } }
        return (yes, no)
    }
}
