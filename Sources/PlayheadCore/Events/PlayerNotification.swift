import Foundation

/// A PSDK notification (`PTNotification`): a typed, coded record of something the player did or
/// suffered, with metadata and at most one inner notification that caused it.
///
/// Notifications go on the session's ``EventBus`` as ``PlayerEventKind/notification(_:)`` or
/// ``PlayerEventKind/error(_:)``, and from there into its ``NotificationHistory``. Their JSON
/// form is `{"type":"ERROR","code":170006,"name":"MISSING_FILE_ERROR","metadata":{…},
/// "playerTime":1.5,"mediaTime":…,"innerNotification":{…},"wallClockTime":"…"}`, with
/// `mediaTime`, `innerNotification` and `wallClockTime` left out when absent.
public struct PlayerNotification: Sendable, Codable, Equatable {
    /// The code, with its number and name.
    public var code: NotificationCode
    /// The type; by default the one the code's range gives.
    public var type: NotificationType
    /// The name; by default the code's name.
    public var name: String
    /// Metadata as key/value text; keys are mostly ``NotificationMetadataKey`` raw values.
    public var metadata: [String: String]
    /// The notification that directly caused this one: empty or one element (an array keeps the
    /// type a value type).
    public var inner: [PlayerNotification]
    /// The media (content) time the notification concerns, in seconds, when there is one.
    public var mediaTime: Double?
    /// When it happened, in seconds on the session clock; the bus sets it on posting.
    public var playerTime: Double
    /// When it happened in real time; the bus sets it on posting. Not deterministic.
    public var wallClockTime: Date?

    /// Makes a notification.
    ///
    /// - Parameters:
    ///   - code: The code; custom codes are allowed.
    ///   - type: The type; `nil` takes the code's (from its range).
    ///   - name: The name; `nil` takes the code's.
    ///   - metadata: Metadata keyed by ``NotificationMetadataKey`` raw values or custom keys.
    ///   - inner: The notification that caused this one, if any.
    ///   - mediaTime: The media time concerned, in seconds, if any.
    ///   - playerTime: Seconds on the session clock (the bus overwrites it when posting).
    ///   - wallClockTime: Real time (the bus overwrites it when posting).
    public init(
        code: NotificationCode, type: NotificationType? = nil, name: String? = nil,
        metadata: [String: String] = [:], inner: PlayerNotification? = nil,
        mediaTime: Double? = nil, playerTime: Double = 0, wallClockTime: Date? = nil
    ) {
        self.code = code
        self.type = type ?? code.type
        self.name = name ?? code.name
        self.metadata = metadata
        self.inner = inner.map { [$0] } ?? []
        self.mediaTime = mediaTime
        self.playerTime = playerTime
        self.wallClockTime = wallClockTime
    }

    /// The inner notification, if any (the first element of ``inner``).
    public var innerNotification: PlayerNotification? {
        get { inner.first }
        set { inner = newValue.map { [$0] } ?? [] }
    }

    /// The metadata value for a known key.
    ///
    /// - Parameter key: A metadata key.
    public subscript(key: NotificationMetadataKey) -> String? {
        get { metadata[key.rawValue] }
        set { metadata[key.rawValue] = newValue }
    }

    /// A copy with the given times (the bus stamps notifications with the posting time).
    func stamped(playerTime: Double, wallClockTime: Date?) -> PlayerNotification {
        var copy = self
        copy.playerTime = playerTime
        copy.wallClockTime = wallClockTime
        return copy
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case type, code, name, metadata, playerTime, mediaTime, innerNotification, wallClockTime
    }

    /// Encodes the JSON form described on the type; the wall-clock time as ISO 8601 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(code.code, forKey: .code)
        try container.encode(name, forKey: .name)
        try container.encode(metadata, forKey: .metadata)
        try container.encode(playerTime, forKey: .playerTime)
        try container.encodeIfPresent(mediaTime, forKey: .mediaTime)
        try container.encodeIfPresent(inner.first, forKey: .innerNotification)
        try container.encodeIfPresent(wallClockTime.map(EventJSON.iso8601), forKey: .wallClockTime)
    }

    /// Decodes the JSON form described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let number = try container.decode(Int.self, forKey: .code)
        name = try container.decode(String.self, forKey: .name)
        code = NotificationCode.known(code: number, name: name)
        type = try container.decode(NotificationType.self, forKey: .type)
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
        playerTime = try container.decodeIfPresent(Double.self, forKey: .playerTime) ?? 0
        mediaTime = try container.decodeIfPresent(Double.self, forKey: .mediaTime)
        inner = try container.decodeIfPresent(PlayerNotification.self, forKey: .innerNotification).map { [$0] } ?? []
        let wallClockText = try container.decodeIfPresent(String.self, forKey: .wallClockTime)
        wallClockTime = try wallClockText.map { text in
            guard let date = EventJSON.date(iso8601: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .wallClockTime, in: container, debugDescription: "not an ISO 8601 time: \(text)")
            }
            return date
        }
    }
}
