import PlayheadCore
import PlayheadNet

/// A failed ad request, as the notification the player posts.
struct AdFailure: Error, Sendable {
    /// AD_TIMEOUT, AD_EMPTY_RESPONSE, AD_UNREACHABLE, AD_INSERTION_FAIL, …
    var notification: PlayerNotification
    /// Warnings raised before the failure (the ads skipped that left nothing to play).
    var warnings: [PlayerNotification] = []

    /// The notification for a failed transfer of `url`.
    ///
    /// - Parameters:
    ///   - error: The client's error.
    ///   - breakId: The break the request was for.
    ///   - timeoutSeconds: The resolver's timeout, named in AD_TIMEOUT.
    init(_ error: HTTPError, breakId: String?, timeoutSeconds: Double) {
        switch error {
        case let .timeout(url, _, _), let .cancelled(url):
            notification = .adTimeout(url: url, afterSeconds: timeoutSeconds, breakId: breakId)
        case let .status(url, code, _):
            notification = .adUnreachable(url: url, internalError: error.description, httpStatus: code, breakId: breakId)
        case let .transport(url, _, _), let .tooLarge(url, _):
            notification = .adUnreachable(url: url, internalError: error.description, breakId: breakId)
        case let .invalidURL(url):
            notification = .adInsertionFail(description: "invalid ad request URL", url: url, breakId: breakId, vastErrorCode: 301)
        }
    }

    /// A failure with this notification, after these warnings.
    init(_ notification: PlayerNotification, warnings: [PlayerNotification] = []) {
        self.notification = notification
        self.warnings = warnings
    }

    /// The warnings, then the failure.
    var notifications: [PlayerNotification] { warnings + [notification] }
}

/// Runs `body`, giving up after `seconds` of real time (the running work is cancelled): `nil` then.
func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: DeadlineOutcome<T>.self) { group in
        group.addTask { .done(await body()) }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(max(1, Int((seconds * 1000).rounded()))))
            return .expired
        }
        let first = await group.next() ?? .expired
        group.cancelAll()
        if case let .done(value) = first { return value }
        return nil
    }
}

/// Which of the work and the deadline finished first.
enum DeadlineOutcome<T: Sendable>: Sendable {
    case done(T)
    case expired
}
