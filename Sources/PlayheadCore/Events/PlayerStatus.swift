/// The status of a player, as the PSDK names them (`PTMediaPlayerStatus`).
///
/// The lifecycle, from the PSDK programmer's guide: a player starts `created`; replacing its item
/// moves it to `initializing`; once the resource is loaded it is `initialized`; `prepareToPlay`
/// brings it to `ready`; playing and pausing move it between `playing` and `paused`; the end of
/// the stream makes it `completed`; releasing it makes it `stopped`; an error at any time makes
/// it `error`. ``canTransition(to:)`` holds the full table.
public enum PlayerStatus: String, Sendable, Codable, CaseIterable {
    /// The player exists and has no item yet (`PTMediaPlayerStatusCreated`).
    case created
    /// An item was set and its resource is loading (`PTMediaPlayerStatusInitializing`).
    case initializing
    /// The resource loaded; `prepareToPlay` may be called (`PTMediaPlayerStatusInitialized`).
    case initialized
    /// The stream is prepared and ads resolved (or given up); `play` may be called
    /// (`PTMediaPlayerStatusReady`).
    case ready
    /// Media is playing (`PTMediaPlayerStatusPlaying`).
    case playing
    /// Playback is paused (`PTMediaPlayerStatusPaused`).
    case paused
    /// Playback reached the end of the stream (`PTMediaPlayerStatusCompleted`).
    case completed
    /// The player was released; nothing plays until a new item is set (`PTMediaPlayerStatusStopped`).
    case stopped
    /// An error stopped playback (`PTMediaPlayerStatusError`).
    case error
}

extension PlayerStatus {
    /// Whether the PSDK lifecycle allows going from `self` to `next`.
    ///
    /// The table, derived from the lifecycle in the PSDK programmer's guide:
    ///
    /// | from | allowed next statuses |
    /// | --- | --- |
    /// | created | initializing |
    /// | initializing | initialized |
    /// | initialized | ready, initializing |
    /// | ready | playing, initializing |
    /// | playing | paused, completed, initializing |
    /// | paused | playing, completed, initializing |
    /// | completed | playing (replay, after a seek back), initializing |
    /// | error | initializing (a new item is set) |
    /// | stopped | initializing (the released player is reused with a new item) |
    ///
    /// In addition, every status except `stopped` may go to `stopped` (the application releases
    /// the player) and to `error` ("if an error occurs at any time during the process"). A
    /// stopped player reports no error: it does nothing until it is given an item again.
    /// "Replace item" (`initializing`) is allowed from every status, since the application may
    /// set a new item at any time. A status never transitions to itself: an unchanged status is
    /// not a transition and posts no status change. `paused → completed` is allowed because a
    /// seek to the end while paused completes the stream.
    ///
    /// - Parameter next: The status the player would move to.
    /// - Returns: `true` when the move is part of the lifecycle.
    public func canTransition(to next: PlayerStatus) -> Bool {
        if next == self { return false }
        switch (self, next) {
        case (_, .initializing): return true
        case (.stopped, _): return false
        case (_, .stopped), (_, .error): return true
        case (.initializing, .initialized): return true
        case (.initialized, .ready): return true
        case (.ready, .playing): return true
        case (.playing, .paused), (.playing, .completed): return true
        case (.paused, .playing), (.paused, .completed): return true
        case (.completed, .playing): return true
        default: return false
        }
    }

    /// The statuses the lifecycle allows after `self`, in declaration order.
    public var allowedNextStatuses: [PlayerStatus] {
        PlayerStatus.allCases.filter { canTransition(to: $0) }
    }
}
