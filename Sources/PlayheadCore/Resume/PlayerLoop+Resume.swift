import Foundation

/// A failure waiting for its resume (``ResumePolicy``).
struct PendingResume {
    /// Session time of the resume.
    var at: Double
    /// Where it resumes, timeline seconds.
    var position: Double
    /// Whether playback starts by itself.
    var autoplay: Bool
    /// What failed.
    var failure: String
}

/// Resume (F25): a session re-initialised at a position, by the policy after it failed to play to the end
/// or by a `resume` command; the media ahead is loaded again from there (a seek with `automatic` `resume`,
/// breaks passed as a resume does not replay ads), and `resumeBegin` is followed by `resumeComplete` at the
/// first frame or `resumeFail`.
extension MediaPlayer {
    /// Whether the failure `description` waits for a resume instead of ending the session: the policy allows
    /// one more, and the session had started playing (it failed to play to the end). Then everything under
    /// way is dropped, the playhead stays, and `failedToPlayToEnd` is posted.
    func defersForResume(_ description: String, now: Double) -> Bool {
        guard let policy = configuration.resumeAfterFailure, state.started, state.tracker != nil, !state.finished,
              state.resumeAttempts < policy.attempts else { return false }
        let position = state.resumeUnderWay.flatMap { report.resumes?[$0].atSeconds } ?? state.position(at: now)
        endResume(outcome: "fail", detail: description, now: now)
        if let stall = state.stall { closeRebuffer(stall, at: now, resumed: false) }
        freezeClock(at: now)
        cancelTransfers { _ in true }
        state.segmentRetry = nil
        state.failureAfterPlayout = nil
        bus.post(.custom(name: "failedToPlayToEnd", payload: ["position": PlayerNotification.shortNumber(position), "description": description]))
        state.pendingResume = PendingResume(at: now + policy.delaySeconds, position: position, autoplay: state.status != .paused, failure: description)
        return true
    }

    /// Resumes at `position` (nil: where the failure waiting left the playhead, else where it is), playing
    /// by itself when `autoplay`. A session that has loaded no item yet has nothing to resume.
    func resume(at position: Double?, autoplay: Bool, now: Double) {
        guard state.tracker != nil, !state.finished else { return }
        let pending = state.pendingResume
        state.pendingResume = nil
        if pending != nil { state.resumeAttempts += 1 }
        var target = position ?? pending?.position ?? state.position(at: now)
        // A resume does not replay ads: a position inside a break is its end (a seek's policy is not applied).
        if case let .ad(breakIndex, _, _) = state.timeline.position(atVirtual: target) { target = state.timeline.virtualEnd(ofBreak: breakIndex) }
        // One replaced by this one before its first frame has no outcome.
        state.resumeUnderWay = nil
        report.resumes = (report.resumes ?? []) + [PlaybackResumeRecord(requestedAt: now, atSeconds: target, autoplay: autoplay, reason: pending == nil ? "command" : "policy",
                                           failure: pending?.failure)]
        bus.post(.custom(name: "resumeBegin", payload: ["position": PlayerNotification.shortNumber(target), "autoplay": autoplay ? "1" : "0",
                                                        "reason": pending == nil ? "command" : "policy"]))
        // The retries start afresh, as after a reload of the item.
        state.reloadFailures = nil
        state.segmentFailuresInARow = 0
        seek(to: target, now: now, applyPolicy: false, automatic: "resume", reload: true)
        state.resumeUnderWay = (report.resumes?.count ?? 1) - 1
        state.resumeSeek = report.seeks.count - 1
        if autoplay {
            startPlaying(now: now)
        } else {
            pausePlayback(now: now)
        }
    }

    /// The seek at `index` presented its first frame (or landed past the last one): a resume waiting for it,
    /// or for a seek that replaced its own (the player's, after a live window slid by), is complete, unless the
    /// media after it failed for good (that failure is the resume's).
    func seekCompleted(_ index: Int, now: Double) {
        guard let resumeSeek = state.resumeSeek, index >= resumeSeek, state.failureAfterPlayout == nil else { return }
        endResume(outcome: "complete", detail: nil, position: report.seeks[index].firstFrameSeconds ?? state.anchorPosition, now: now)
    }

    /// Records the outcome of the resume under way, if one is, and posts `resumeComplete` (with `position`, the
    /// first frame's) or `resumeFail`.
    func endResume(outcome: String, detail: String?, position: Double? = nil, now: Double) {
        guard let index = state.resumeUnderWay else { return }
        state.resumeUnderWay = nil
        state.resumeSeek = nil
        guard var record = report.resumes?[index] else { return }
        record.outcome = outcome
        record.endedAt = now
        record.failureOfResume = detail
        report.resumes?[index] = record
        if outcome == "complete" {
            bus.post(.custom(name: "resumeComplete", payload: ["position": PlayerNotification.shortNumber(position ?? record.atSeconds)]))
        } else {
            bus.post(.custom(name: "resumeFail", payload: ["position": PlayerNotification.shortNumber(record.atSeconds), "description": detail ?? ""]))
        }
    }
}
