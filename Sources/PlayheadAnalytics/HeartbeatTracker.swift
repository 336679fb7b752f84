import Foundation
import PlayheadCore
import PlayheadNet

/// Video heartbeat tracking of one session (F27): a consumer of the player's ``EventBus`` that makes
/// the guide's `track…` calls and the periodic heartbeats (``HeartbeatSession`` decides them) as HTTP
/// GETs to the tracking server, and records each (``records``, ``report()``).
///
/// Calls are sent one at a time in the order they were made, by one task, so the collector sees them
/// in order; a call that fails is recorded with its status or error and not retried (the next
/// heartbeat carries the state again). In quiet mode nothing is sent: the calls are recorded with
/// `sent: false`. With a debug log, each track method is a `#track…` line (the guide's filter) and,
/// once answered, each call a `[plugin::adobe-heartbeat]` line with its URL and status.
public final class HeartbeatTracker: Sendable {
    /// The settings.
    public let settings: HeartbeatSettings

    private let state: Locked<TrackerState>
    private let calls: AsyncStream<TrackerJob>.Continuation
    private let debugLog: (@Sendable (String) -> Void)?
    private let base: String?

    /// Creates a tracker and its sending task.
    ///
    /// - Parameters:
    ///   - settings: How tracking is set up (check ``HeartbeatSettings/problem`` first).
    ///   - client: The HTTP client calls go through; nil sends nothing (as quiet mode).
    ///   - sessionId: The tracking session's id when the settings give none (else a random UUID).
    ///   - debugLog: Where debug lines go (the guide's `debugLogging`); nil writes none.
    public init(settings: HeartbeatSettings, client: HTTPClient?, sessionId: String? = nil,
                debugLog: (@Sendable (String) -> Void)? = nil) {
        self.settings = settings
        self.debugLog = debugLog
        base = settings.trackingServer.flatMap(HeartbeatURL.base)
        state = Locked(TrackerState(session: HeartbeatSession(settings: settings, sessionId: sessionId)))
        let (stream, continuation) = AsyncStream.makeStream(of: TrackerJob.self)
        calls = continuation
        let records = state
        let log = debugLog
        Task {
            for await job in stream {
                switch job {
                case let .send(index, url):
                    // Given up at the session's end (the server stopped answering): the rest is not sent.
                    guard records.withLock({ state in
                        if state.gaveUp { return false }
                        state.inFlight = index
                        return true
                    }) else { continue }
                    var status: Int?, failure: String?
                    if let client {
                        do throws(HTTPError) {
                            status = try await client.get(url).status
                        } catch {
                            if case let .status(_, code, _) = error { status = code } else { failure = error.description }
                        }
                    }
                    records.withLock { state in
                        state.inFlight = nil
                        state.answered += 1
                        guard !state.gaveUp else { return }
                        state.records[index].httpStatus = status
                        state.records[index].error = failure
                    }
                    log?("[plugin::adobe-heartbeat] GET \(url) → \(status.map(String.init) ?? failure ?? "no answer")")
                case let .flush(done):
                    done.resume()
                }
            }
        }
    }

    deinit { calls.finish() }

    /// The tracking session's id (`s:event:sid`).
    public var sessionId: String { state.withLock { $0.session.sessionId } }

    /// Every call so far, in call order (a sent call's status lands once it is answered; ``flush()`` first).
    public var records: [HeartbeatRecord] { state.withLock { $0.records } }

    /// Session time from `trackSessionStart` to the first `trackPlay`, once measured.
    public var startupTimeSeconds: Double? { state.withLock { $0.session.startupTimeSeconds } }

    /// The report's `heartbeats` section as it stands (``flush()`` first for every status).
    public func report() -> HeartbeatReport {
        state.withLock { state in
            HeartbeatReport(trackingServer: base, intervalSeconds: settings.intervalSeconds, quiet: settings.quiet,
                            startupTimeSeconds: state.session.startupTimeSeconds, calls: state.records)
        }
    }

    /// Consumes every event of `player`'s bus from now on, asking the player for its duration, liveness
    /// and ad timeline (the guide's `VideoPlayerPluginDelegate`).
    @discardableResult
    public func attach(to player: MediaPlayer) -> EventSubscription {
        state.withLock { state in
            state.info = { [weak player] in
                // The player's duration counts the ads in; the video's length leaves them out.
                HeartbeatPlayerInfo(durationSeconds: player.flatMap { player in player.duration.map(player.timeline.localSeconds(atVirtual:)) },
                                    isLive: player?.isLive ?? false,
                                    rate: player?.configuration.rate ?? 1, positionSeconds: player?.currentTime)
            }
            state.timeline = { [weak player] in player?.timeline ?? AdTimeline() }
        }
        return attach(to: player.bus)
    }

    /// Consumes every event of `bus` from now on (without a player: length unknown, VOD, no ads
    /// timeline unless ``update(timeline:)`` gives one).
    @discardableResult
    public func attach(to bus: EventBus) -> EventSubscription { bus.subscribe { [weak self] in self?.consume($0) } }

    /// Replaces the ad timeline (content playheads leave the ads out through it).
    public func update(timeline: AdTimeline) { state.withLock { $0.session.update(timeline: timeline) } }

    /// Consumes one player event (see ``HeartbeatSession`` for what each one calls).
    public func consume(_ event: PlayerEvent) {
        emit { state in
            if case .timelineChanged = event.kind, let timeline = state.timeline { state.session.update(timeline: timeline()) }
            return state.session.handle(event, info: state.info())
        }
    }

    /// Ends the tracking session with `trackVideoUnload` at session time `now` (once; the session's end
    /// when the player did not stop it).
    public func unload(at now: Double) {
        emit { state in state.session.unload(at: now, info: state.info()) }
    }

    /// Returns once every call made so far has been sent and answered (or failed).
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if case .terminated = calls.yield(.flush(done)) { done.resume() }
        }
    }

    /// Waits as ``flush()`` does while the tracking server keeps answering, but gives up once `seconds` of
    /// wall time pass with no answer: a dead or stalled server may not hold up the end of a session (each
    /// call would wait for its own timeout), while a slow one still gets every call. When it gives up, the
    /// call under way is recorded as unanswered and the calls not sent yet as not sent (and they are not
    /// sent later). Returns whether every call was answered.
    public func flush(within seconds: Double) async -> Bool {
        while true {
            let before = state.withLock { $0.answered }
            if await flush(orAfter: seconds) { return true }
            if state.withLock({ $0.answered }) == before { break }
        }
        state.withLock { state in
            state.gaveUp = true
            for index in state.records.indices where state.records[index].sent && state.records[index].httpStatus == nil
                && state.records[index].error == nil {
                if index == state.inFlight {
                    state.records[index].error = String(format: "no answer within %g s of the session's end", seconds)
                } else {
                    state.records[index].sent = false
                    state.records[index].error = String(format: "not sent: the tracking server had not answered for %g s when the session ended", seconds)
                }
            }
        }
        return false
    }

    /// ``flush()``, or false after `seconds` of wall time.
    private func flush(orAfter seconds: Double) async -> Bool {
        let resumed = Locked(false)
        let answered = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let finish: @Sendable (Bool) -> Void = { value in
                if resumed.withLock({ let first = !$0; $0 = true; return first }) { done.resume(returning: value) }
            }
            Task { await self.flush(); finish(true) }
            Task {
                try? await Task.sleep(for: .milliseconds(Int((max(0, seconds) * 1000).rounded())))
                finish(false)
            }
        }
        return answered
    }

    /// The base of the URLs recorded in quiet mode without a tracking server (`.invalid`, RFC 2606: no host).
    public static let quietBase = "http://heartbeat.invalid"

    /// How long the end of a session waits for the tracking server's next answer, wall-clock seconds.
    public static let endGraceSeconds = 2.0

    /// Decides under the lock and queues in the same critical section, so calls keep their order.
    private func emit(_ decide: (inout TrackerState) -> (calls: [HeartbeatCall], lines: [String])) {
        let lines: [String] = state.withLock { state in
            let decided = decide(&state)
            for call in decided.calls {
                // Quiet without a server still records each call's URL, on a base that names no host (its query
                // is what a run checks; it was left out, so a quiet run's parameters could not be read).
                let url = (base ?? (settings.quiet ? Self.quietBase : nil)).map { HeartbeatURL.url(base: $0, parameters: call.parameters) }
                let send = !settings.quiet && base != nil
                state.records.append(HeartbeatRecord(call: call.method, type: call.type, sessionSeconds: call.sessionSeconds,
                                                     playheadSeconds: call.playheadSeconds, assetType: call.assetType,
                                                     url: url, sent: send))
                if send, let url { calls.yield(.send(index: state.records.count - 1, url: url)) }
            }
            return decided.lines
        }
        if let debugLog { lines.forEach(debugLog) }
    }
}

/// What the sending task does next.
enum TrackerJob: Sendable {
    case send(index: Int, url: String)
    case flush(CheckedContinuation<Void, Never>)
}

/// The tracker's state: the decisions, the records, and how to ask the player.
struct TrackerState: Sendable {
    var session: HeartbeatSession
    var records: [HeartbeatRecord] = []
    /// The record whose call is under way.
    var inFlight: Int?
    /// Calls answered (or failed) so far.
    var answered = 0
    /// The end of the session gave up waiting: calls not sent yet are not sent.
    var gaveUp = false
    var info: @Sendable () -> HeartbeatPlayerInfo = { HeartbeatPlayerInfo(durationSeconds: nil, isLive: false) }
    var timeline: (@Sendable () -> AdTimeline)?
}
