import Logging

/// Which `Logger.Level` each kind of player event is logged at: settings as data, each default
/// documented. A level below the logger's own `logLevel` is not written.
public struct PlayerLogLevel: Sendable, Equatable {
    /// `.error` events and ERROR notifications. Default `.error`.
    public var errors: Logger.Level = .error
    /// WARN notifications, stalls and dropped frames. Default `.warning`.
    public var warnings: Logger.Level = .warning
    /// INFO notifications. Default `.info`.
    public var notifications: Logger.Level = .info
    /// Status changes. Default `.info`.
    public var status: Logger.Level = .info
    /// Play started and completed, item changes, seeks, buffering, recovery and bitrate changes.
    /// Default `.info`.
    public var playback: Logger.Level = .info
    /// Segment and playlist loads. Default `.debug`.
    public var network: Logger.Level = .debug
    /// Time changes. Default `.trace`.
    public var time: Logger.Level = .trace
    /// Presented frames. Default `.trace`.
    public var frames: Logger.Level = .trace
    /// Custom events and timed metadata. Default `.info`.
    public var custom: Logger.Level = .info

    /// The defaults listed on each property.
    public static let `default` = PlayerLogLevel()

    /// Makes the default table; change properties to taste.
    public init() {}

    /// The level an event of this kind is logged at.
    ///
    /// - Parameter kind: An event's kind.
    public func level(for kind: PlayerEventKind) -> Logger.Level {
        switch kind {
        case .error: errors
        case let .notification(notification):
            switch notification.type {
            case .error: errors
            case .warning: warnings
            case .info: notifications
            }
        case .stalled, .framesDropped: warnings
        case .statusChanged: status
        case .playStarted, .playCompleted, .itemChanged, .seekStarted, .seekCompleted, .bufferingStarted,
             .bufferingCompleted, .bufferEmpty, .likelyToKeepUp, .recovered, .bitrateChanged, .timelineChanged,
             .adBreakStarted, .adBreakCompleted, .adStarted, .adCompleted, .adSkipped, .adClicked, .adPaused, .adResumed:
            playback
        case .adProgress: time
        case .segmentLoaded, .playlistLoaded: network
        case .timeChanged: time
        case .framePresented: frames
        case .custom, .timedMetadata, .subtitleCueStarted, .subtitleCueEnded: custom
        }
    }
}

/// Bridges a session's events to a swift-log `Logger`, so any `LogHandler` (console, file, a
/// test's in-memory handler) is a pluggable player logger.
///
/// Each event becomes one message, `"<event> key=value …"`, at the level ``levels`` gives, with
/// the metadata `seq` and `time` (player seconds) and, for notifications, `code` and `name`.
public struct PlayerLogging: Sendable {
    /// Where messages go.
    public var logger: Logger
    /// The level of each kind of event.
    public var levels: PlayerLogLevel

    /// Makes a bridge.
    ///
    /// - Parameters:
    ///   - logger: The logger to write to; its `logLevel` filters as usual.
    ///   - levels: The level of each kind of event; by default ``PlayerLogLevel/default``.
    public init(logger: Logger, levels: PlayerLogLevel = .default) {
        self.logger = logger
        self.levels = levels
    }

    /// Logs one event.
    ///
    /// - Parameter event: The event.
    public func log(_ event: PlayerEvent) {
        let level = levels.level(for: event.kind)
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = ["seq": "\(event.sequence)", "time": "\(EventJSON.number(event.playerTime))"]
        if let notification = event.kind.notification {
            metadata["code"] = "\(notification.code.code)"
            metadata["name"] = "\(notification.name)"
        }
        logger.log(level: level, "\(PlayerLogging.message(for: event))", metadata: metadata)
    }

    /// Subscribes to `bus` and logs every event posted from now on.
    ///
    /// - Parameter bus: The session's bus.
    /// - Returns: The subscription; cancel it to stop logging.
    @discardableResult
    public func attach(to bus: EventBus) -> EventSubscription {
        let bridge = self
        return bus.subscribe { event in bridge.log(event) }
    }

    /// The message text: the event's name, then its payload fields as `key=value`, JSON values
    /// written compactly.
    ///
    /// - Parameter event: The event.
    public static func message(for event: PlayerEvent) -> String {
        let fields = event.kind.payloadFields(includeWallClock: false).map { key, value in
            if case let .string(text) = value { return "\(key)=\(text)" }
            return "\(key)=\(value.text)"
        }
        return ([event.name] + fields).joined(separator: " ")
    }
}
