/// Resume after a failure (F25, Brightcove's `resumeVideoAtTime:withAutoPlay:` after
/// `FailedToPlayToEndTime`): a session that fails after it started playing (its retries spent) posts
/// `failedToPlayToEnd`, waits ``delaySeconds`` and resumes where it failed (`resumeBegin`, then
/// `resumeComplete` at the first frame or `resumeFail`), up to ``attempts`` times; after that the failure
/// ends the session as before.
public struct ResumePolicy: Sendable, Equatable, Codable {
    /// Resumes allowed in the session.
    public var attempts: Int
    /// Session seconds from the failure to its resume (a network that went away has time to come back).
    public var delaySeconds: Double

    /// Default wait before a resume: 5 s.
    public static let defaultDelaySeconds = 5.0

    /// Creates a policy.
    public init(attempts: Int, delaySeconds: Double = defaultDelaySeconds) {
        self.attempts = attempts
        self.delaySeconds = delaySeconds
    }

    /// Reads `N` or `N:DELAY` (`--resume-after-failure`): attempts 1–1000, a delay 0–86400 s.
    /// - Throws: a message saying what is wrong.
    public static func parse(_ text: String) throws(ResumePolicyError) -> ResumePolicy {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let attempts = Int(parts[0]), (1...1000).contains(attempts) else {
            throw ResumePolicyError(text: text, reason: "the number of resumes must be a whole number from 1 to 1000")
        }
        guard parts.count == 2 else { return ResumePolicy(attempts: attempts) }
        guard let delay = Double(parts[1]), delay.isFinite, (0...86_400).contains(delay) else {
            throw ResumePolicyError(text: text, reason: "the delay must be 0 to 86400 seconds")
        }
        return ResumePolicy(attempts: attempts, delaySeconds: delay)
    }
}

/// A `--resume-after-failure` value that cannot be read.
public struct ResumePolicyError: Error, Equatable, CustomStringConvertible {
    /// The value as given.
    public var text: String
    /// What is wrong.
    public var reason: String

    /// "'TEXT': REASON".
    public var description: String { "'\(text)': \(reason)" }
}

/// One resume of the session (the report's `resumes`): asked by a `resume` command or by the policy after a
/// failure.
public struct PlaybackResumeRecord: Sendable, Codable, Equatable {
    /// Session time of `resumeBegin`.
    public var requestedAt: Double
    /// Playback position it resumes at, timeline seconds.
    public var atSeconds: Double
    /// Whether playback starts by itself once ready.
    public var autoplay: Bool
    /// `policy` (after a failure) or `command`.
    public var reason: String
    /// What failed before it (the failure's description); nil for one asked while playing.
    public var failure: String?
    /// `complete` (a frame came), `fail` (it failed before one did), nil while under way or when the session
    /// ended first.
    public var outcome: String?
    /// Session time of the outcome.
    public var endedAt: Double?
    /// Why it failed.
    public var failureOfResume: String?

    /// Creates a record of a resume under way.
    public init(requestedAt: Double, atSeconds: Double, autoplay: Bool, reason: String, failure: String?) {
        self.requestedAt = requestedAt
        self.atSeconds = atSeconds
        self.autoplay = autoplay
        self.reason = reason
        self.failure = failure
    }
}
