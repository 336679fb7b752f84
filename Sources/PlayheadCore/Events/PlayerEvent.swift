import Foundation

/// One event on a session's ``EventBus``: what happened (``kind``), its place in the session's
/// order (``sequence``) and when (``playerTime``, and ``wallClockTime`` in real time).
///
/// Everything but ``wallClockTime`` is deterministic under the virtual clock, so two runs of the
/// same session give equal events once wall-clock times are dropped
/// (see ``jsonLine(includeWallClock:)`` and ``withoutWallClock``).
public struct PlayerEvent: Sendable, Equatable {
    /// The position on the bus: 1 for the first event posted, then 2, 3, … without gaps.
    public var sequence: Int
    /// When it was posted, in seconds on the session clock (virtual or real).
    public var playerTime: Double
    /// When it was posted in real time; the only field that is not deterministic.
    public var wallClockTime: Date?
    /// What happened, with its payload.
    public var kind: PlayerEventKind

    /// Makes an event; the bus makes them when posting, tests and decoders may too.
    ///
    /// - Parameters:
    ///   - sequence: The position on the bus, from 1.
    ///   - playerTime: Seconds on the session clock.
    ///   - wallClockTime: Real time, if known.
    ///   - kind: What happened.
    public init(sequence: Int, playerTime: Double, wallClockTime: Date? = nil, kind: PlayerEventKind) {
        self.sequence = sequence
        self.playerTime = playerTime
        self.wallClockTime = wallClockTime
        self.kind = kind
    }

    /// The event's name, the `"event"` value of its JSON line (for example `statusChanged`).
    public var name: String { kind.name }

    /// A copy without any wall-clock time (also none in a carried notification), for comparing
    /// runs.
    public var withoutWallClock: PlayerEvent {
        var copy = self
        copy.wallClockTime = nil
        switch kind {
        case let .notification(notification): copy.kind = .notification(notification.withoutWallClock)
        case let .error(notification): copy.kind = .error(notification.withoutWallClock)
        default: break
        }
        return copy
    }
}

extension PlayerNotification {
    /// A copy without wall-clock times, its inner notification's included.
    public var withoutWallClock: PlayerNotification {
        var copy = self
        copy.wallClockTime = nil
        copy.inner = inner.map(\.withoutWallClock)
        return copy
    }
}
