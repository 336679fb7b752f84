import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 for tests and the test origin.
///
/// Serves the files below `root` to GET and HEAD with persistent connections (every response carries
/// `Content-Length`), byte ranges (`bytes=a-b`, `bytes=a-`, `bytes=-n`: 206 with `Content-Range`, 416 past
/// the end), `Content-Encoding: gzip` when a sibling `<file>.gz` exists and the client accepts gzip (and
/// sent no `Range`), and content types for HLS media. Missing files get 404 with a short text body.
/// Per-path ``Fault``s and glob ``FaultRule``s make it misbehave on purpose; ``requestLog`` records what it
/// answered. A ``BodyTransformer`` can rewrite files on their way out (the live windows of `playhead origin
/// --live`) and a ``BandwidthSchedule`` paces every body as one shared link.
///
/// One accept thread plus one thread per connection. Bounded: request heads over 16 KiB get 431, request
/// bodies are read and dropped (over 1 MiB: 413 and close), connections idle longer than the idle timeout
/// are closed. ``stop()`` closes every connection and joins every thread.
public final class LoopbackHTTPServer: Sendable {
    /// Default idle timeout between two requests on one connection: 5 s.
    public static let defaultIdleTimeout: Duration = .seconds(5)

    /// The port listened on (the kernel's choice when 0 was asked for).
    public let port: Int
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The directory served.
    public var root: String { core.root }

    private let core: ServerCore
    private let listenFD: Int32
    private let threads = DispatchGroup()

    /// Starts serving the files below `root` on an ephemeral port of 127.0.0.1.
    /// - Parameters:
    ///   - root: directory whose files are served; `/a/b.ts` maps to `root/a/b.ts`.
    ///   - port: the port on 127.0.0.1; 0 (the default) lets the kernel pick a free one.
    ///   - idleTimeout: how long a kept-alive connection may wait for its next request.
    public convenience init(root: String, port: Int = 0, idleTimeout: Duration = defaultIdleTimeout) throws {
        try self.init(root: root, port: port, idleTimeout: idleTimeout, responder: nil)
    }

    /// Starts serving with `responder` answering requests before the file system does (see
    /// ``ServerCore/responder``).
    init(root: String, port: Int, idleTimeout: Duration,
         responder: (@Sendable (HTTPRequestHead, ServerCore) -> ResponsePlan?)?) throws {
        let idleMilliseconds = Int(idleTimeout.components.seconds) * 1000
            + Int(idleTimeout.components.attoseconds / 1_000_000_000_000_000)
        core = try ServerCore(root: root.hasSuffix("/") ? String(root.dropLast()) : root,
                              idleTimeoutMilliseconds: max(1, idleMilliseconds), responder: responder)
        (listenFD, self.port) = try Socket.listenOnLoopback(port: port)
        threads.enter()
        let thread = Thread { [core, listenFD, threads] in
            Self.acceptLoop(listenFD: listenFD, core: core, threads: threads)
            threads.leave()
        }
        thread.name = "loopback-http.accept"
        thread.start()
    }

    deinit { stop() }

    /// `baseURL` followed by `path` (which should start with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Stops accepting, closes every connection, ends faults that wait, and joins every thread. Idempotent.
    public func stop() {
        if core.stop() {
            threads.wait()
            close(listenFD)
            close(core.stopFD)
            close(core.stopWriteFD)
        }
    }

    /// Puts `fault` on requests for `path` (the decoded URL path, e.g. `/seg1.ts`; `*` for every path
    /// without a fault of its own), or removes it when `fault` is `nil`.
    ///
    /// - Parameters:
    ///   - fault: The misbehaviour, or `nil` to remove the path's fault.
    ///   - path: The decoded URL path, or `*`.
    ///   - times: How many requests it applies to before it removes itself (`nil`: until removed;
    ///     must be at least 1).
    public func setFault(_ fault: Fault?, forPath path: String, times: Int? = nil) {
        precondition(times.map { $0 >= 1 } ?? true, "setFault(times:) needs at least 1, got \(times ?? 0)")
        core.state.withLock { $0.faults[path] = fault.map { ServerCore.FaultEntry(fault: $0, remaining: times) } }
    }

    /// Adds a fault for the requests whose path matches `rule`'s glob, after the rules already added: a
    /// request gets the fault of its own path (``setFault(_:forPath:times:)``, `*` included) if any, else
    /// that of the first rule that matches, has requests left and draws it.
    public func addFaultRule(_ rule: FaultRule) {
        core.state.withLock {
            $0.rules.append(ServerCore.RuleEntry(rule: rule, remaining: rule.times, generator: SplitMix64(seed: rule.seed)))
        }
    }

    /// Removes every fault rule.
    public func removeFaultRules() { core.state.withLock { $0.rules = [] } }

    /// Changes a file's body on its way out: called with the decoded URL path, the whole file and the
    /// seconds since the server started; what it returns is served instead (200, `Cache-Control:
    /// no-cache`, an ETag of its own, never gzip), nil serves the file as it is. Consulted for requests
    /// without `Range` only. It runs on a connection's thread, so it must be quick and thread-safe.
    public typealias BodyTransformer = @Sendable (_ path: String, _ body: [UInt8], _ secondsSinceStart: Double) -> [UInt8]?

    /// Sets (or, with nil, removes) the ``BodyTransformer`` of every file response.
    public func setBodyTransformer(_ transformer: BodyTransformer?) { core.state.withLock { $0.bodyTransformer = transformer } }

    /// Paces response bodies as one bottleneck link shared by every connection, its rate following
    /// `schedule` from the moment the server started; nil sends at full speed. Heads go out at once;
    /// bodies go in chunks of about 20 ms each, each when the link would have carried it.
    /// - Precondition: `schedule` has no ``BandwidthSchedule/problem``.
    public func setBandwidth(_ schedule: BandwidthSchedule?) {
        precondition(schedule?.problem == nil, "setBandwidth: \(schedule?.problem ?? "")")
        let shaper = schedule.map { LinkShaper(schedule: $0, start: core.start) }
        core.state.withLock { $0.shaper = shaper }
    }

    /// Calls `observer` with every request record as it is logged (on the connection's thread, after the
    /// response is chosen and before it is sent); nil stops.
    public func setRequestObserver(_ observer: (@Sendable (RequestRecord) -> Void)?) { core.state.withLock { $0.observer = observer } }

    /// Seconds since the server started: the clock of the body transformer and the bandwidth schedule.
    public var secondsSinceStart: Double { core.secondsSinceStart }

    /// Every request answered so far, in order.
    public var requestLog: [RequestRecord] { core.state.withLock { $0.log } }

    /// Forgets the request log.
    public func clearRequestLog() { core.state.withLock { $0.log = [] } }

    /// Returns once at least `count` requests for `path` have been logged (a request is logged when its
    /// response is chosen, before a ``Fault/delay(seconds:)`` starts), or the server stops.
    public func waitForRequests(path: String, count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let satisfied = core.state.withLock { state in
                if state.isStopped || state.log.filter({ $0.path == path }).count >= count { return true }
                state.waiters.append(.init(path: path, count: count, continuation: continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }

    private static func acceptLoop(listenFD: Int32, core: ServerCore, threads: DispatchGroup) {
        while Socket.wait(forReadable: listenFD, stopFD: core.stopFD, timeoutMilliseconds: -1) == .readable {
            guard let fd = Socket.acceptConnection(listenFD) else { continue }
            guard let id = core.open(fd) else { close(fd); return }
            threads.enter()
            let thread = Thread {
                var connection = Connection(fd: fd, id: id, core: core)
                connection.run()
                threads.leave()
            }
            thread.name = "loopback-http.conn\(id)"
            thread.start()
        }
    }
}
