import PlayheadCore
import Testing

@Suite struct EventsStatusTests {
    /// Every pair the lifecycle in the guide allows; everything else is refused.
    static let allowed: Set<String> = [
        "created>initializing", "created>stopped", "created>error",
        "initializing>initialized", "initializing>stopped", "initializing>error",
        "initialized>ready", "initialized>initializing", "initialized>stopped", "initialized>error",
        "ready>playing", "ready>initializing", "ready>stopped", "ready>error",
        "playing>paused", "playing>completed", "playing>initializing", "playing>stopped", "playing>error",
        "paused>playing", "paused>completed", "paused>initializing", "paused>stopped", "paused>error",
        "completed>playing", "completed>initializing", "completed>stopped", "completed>error",
        "error>initializing", "error>stopped",
        "stopped>initializing",
    ]

    @Test func transitionTableMatchesTheLifecycle() {
        for from in PlayerStatus.allCases {
            for to in PlayerStatus.allCases {
                let key = "\(from.rawValue)>\(to.rawValue)"
                #expect(from.canTransition(to: to) == Self.allowed.contains(key), "\(key)")
            }
        }
    }

    @Test func theGuidesBasicProcedureIsAllowedStepByStep() {
        let path: [PlayerStatus] = [.created, .initializing, .initialized, .ready, .playing, .paused, .playing, .completed, .stopped]
        for (from, to) in zip(path, path.dropFirst()) {
            #expect(from.canTransition(to: to), "\(from) → \(to)")
        }
    }

    @Test func refusedPairs() {
        #expect(!PlayerStatus.created.canTransition(to: .playing))
        #expect(!PlayerStatus.created.canTransition(to: .ready))
        #expect(!PlayerStatus.initializing.canTransition(to: .ready))
        #expect(!PlayerStatus.initialized.canTransition(to: .playing))
        #expect(!PlayerStatus.ready.canTransition(to: .paused))
        #expect(!PlayerStatus.ready.canTransition(to: .completed))
        #expect(!PlayerStatus.completed.canTransition(to: .paused))
        #expect(!PlayerStatus.stopped.canTransition(to: .playing))
        #expect(!PlayerStatus.stopped.canTransition(to: .error))
        #expect(!PlayerStatus.error.canTransition(to: .playing))
        for status in PlayerStatus.allCases { #expect(!status.canTransition(to: status)) }
    }

    @Test func allowedNextStatusesListsTheTableRow() {
        #expect(PlayerStatus.created.allowedNextStatuses == [.initializing, .stopped, .error])
        #expect(PlayerStatus.error.allowedNextStatuses == [.initializing, .stopped])
    }
}
