/// The notifications of a session, oldest first, bounded and circular (PSDK `PTNotificationHistory`).
///
/// When full, appending drops the oldest entry and counts it in ``droppedCount``; memory stays
/// flat however long the session runs. The session's ``EventBus`` keeps one and appends every
/// posted ``PlayerEventKind/notification(_:)`` and ``PlayerEventKind/error(_:)``.
public struct NotificationHistory: Sendable {
    /// The default capacity: 1000 notifications (about a megabyte at most).
    public static let defaultCapacity = 1000

    private var ring: EventRing<PlayerNotification>

    /// Makes an empty history.
    ///
    /// - Parameter capacity: The most notifications kept (at least 1); by default ``defaultCapacity``.
    public init(capacity: Int = NotificationHistory.defaultCapacity) {
        ring = EventRing(capacity: capacity)
    }

    /// The most notifications kept.
    public var capacity: Int { ring.capacity }

    /// How many notifications are kept now.
    public var count: Int { ring.count }

    /// The notifications kept, oldest first (PSDK `notificationItems`).
    public var items: [PlayerNotification] { ring.elements }

    /// The newest notification, if any.
    public var last: PlayerNotification? { ring.last }

    /// How many notifications were dropped, oldest first, to stay within ``capacity``.
    public var droppedCount: Int { ring.droppedCount }

    /// Adds a notification as the newest, dropping the oldest when full.
    ///
    /// - Parameter notification: The notification to keep.
    public mutating func append(_ notification: PlayerNotification) {
        ring.append(notification)
    }
}
