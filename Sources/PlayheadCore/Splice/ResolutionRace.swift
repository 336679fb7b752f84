import Foundation

/// What became of one placement opportunity sent to a content resolver.
enum ResolutionOutcome: Sendable {
    /// The resolver answered with these breaks (maybe none).
    case resolved([AdBreak])
    /// The resolver failed; the notification says why.
    case failed(PlayerNotification)
    /// No answer within the resolver's timeout.
    case timedOut
}

/// Sends an opportunity to a resolver and waits for its one answer or its timeout, whichever is
/// first; a late answer is ignored and a timed-out resolver is told to cancel.
final class ResolutionRace: ContentResolverDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<ResolutionOutcome, Never>?
    private var outcome: ResolutionOutcome?
    private var collected: [PlayerNotification] = []

    /// Warnings the resolver raised on the way (ads left out: AD_NOT_INSERTED…).
    var warnings: [PlayerNotification] { lock.withLock { collected } }

    /// Runs the race. `timeoutSeconds` is real time: resolvers are outside components.
    static func run(_ resolver: any ContentResolver, _ opportunity: PlacementOpportunity) async -> (ResolutionOutcome, [PlayerNotification]) {
        let race = ResolutionRace()
        let outcome = await race.run(timeout: resolver.timeoutSeconds, cancel: { resolver.cancel() }) { race in
            resolver.process(opportunity, delegate: race)
        }
        return (outcome, race.warnings)
    }

    /// Runs `start` (which makes the resolver answer `race`, once) against `timeout` real seconds.
    func run(timeout: Double, cancel: @escaping @Sendable () -> Void, start: (ResolutionRace) -> Void) async -> ResolutionOutcome {
        let race = self
        let timer = Task {
            try? await Task.sleep(for: .seconds(max(0, timeout)))
            if !Task.isCancelled, race.finish(.timedOut) { cancel() }
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<ResolutionOutcome, Never>) in
            let ready: ResolutionOutcome? = race.lock.withLock {
                if let outcome = race.outcome { return outcome }
                race.continuation = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            start(race)
        }
        timer.cancel()
        return result
    }

    /// Records the first outcome; false when one was already recorded.
    @discardableResult
    private func finish(_ result: ResolutionOutcome) -> Bool {
        let (first, waiting): (Bool, CheckedContinuation<ResolutionOutcome, Never>?) = lock.withLock {
            guard outcome == nil else { return (false, nil) }
            outcome = result
            defer { continuation = nil }
            return (true, continuation)
        }
        waiting?.resume(returning: result)
        return first
    }

    func resolver(_ resolver: any ContentResolver, didResolve opportunity: PlacementOpportunity, into breaks: [AdBreak]) {
        finish(.resolved(breaks))
    }

    func resolver(_ resolver: any ContentResolver, didFail opportunity: PlacementOpportunity, with notification: PlayerNotification) {
        finish(.failed(notification))
    }

    func resolver(_ resolver: any ContentResolver, didWarn opportunity: PlacementOpportunity, with notification: PlayerNotification) {
        lock.withLock { collected.append(notification) }
    }
}

/// Carries a resolution's outcome from the resolving task back to the player loop.
final class ResolutionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (ResolutionOutcome, [PlayerNotification])?
    private var playlists: [String: Result<AdPlaylists, any Error>] = [:]

    /// The ads' playlists fetched with the answer, by ad URL.
    var prefetched: [String: Result<AdPlaylists, any Error>] { lock.withLock { playlists } }

    /// Keeps what fetching ad `url`'s playlists gave.
    func setPlaylists(_ fetched: Result<AdPlaylists, any Error>, for url: String) { lock.withLock { playlists[url] = fetched } }

    /// The outcome and the warnings raised, once set.
    var result: (ResolutionOutcome, [PlayerNotification])? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
