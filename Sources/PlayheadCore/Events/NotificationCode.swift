/// A PSDK notification code: a number, its name, and what the guide's tables say it carries.
///
/// The number's range gives the ``type`` (errors 1xxxxx, warnings 2xxxxx, information 3xxxxx);
/// within a range, each block of 1000 values is a subrange (DRM, playback, ad processing, …).
/// Every code of the guide's tables is a static (``playbackStart``, ``networkError``, …) and is in
/// ``all``; ``lookup(_:)`` finds one by number. Custom codes are made with ``init(_:_:inner:keys:)``.
///
/// Two codes are equal when their numbers and names are; the documentation fields
/// (``innerNotificationName``, ``metadataKeys``) do not take part.
public struct NotificationCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The numeric code, such as 300000.
    public let code: Int
    /// The upper-case name, such as `PLAYBACK_START`.
    public let name: String
    /// The name of the code the guide says is the inner notification of this one, if any
    /// (for example `AD_NOT_INSERTED` inside `AD_INSERTION_FAIL`).
    public let innerNotificationName: String?
    /// The metadata keys the guide says this code carries.
    public let metadataKeys: [NotificationMetadataKey]

    /// Makes a code; use it for custom notifications, or read the statics for the PSDK's own.
    ///
    /// - Parameters:
    ///   - code: The number; its range gives the type (see ``type``).
    ///   - name: The upper-case name.
    ///   - inner: The name of the expected inner notification, if any.
    ///   - keys: The metadata keys the notification carries.
    public init(_ code: Int, _ name: String, inner: String? = nil, keys: [NotificationMetadataKey] = []) {
        self.code = code
        self.name = name
        self.innerNotificationName = inner
        self.metadataKeys = keys
    }

    /// The type the code's range gives: `.error` for 100000–199999, `.warning` for 200000–299999,
    /// `.info` for 300000–399999, and `.info` for any code outside the three ranges (a custom
    /// notification with such a code says its type itself, see `PlayerNotification.type`).
    public var type: NotificationType { NotificationType(range: code) ?? .info }

    /// The second-level classification: the block of 1000 codes within the top-level range
    /// (for example 1 for 101xxx playback errors, 70 for 170xxx iOS-specific errors).
    public var subrange: Int { (code / 1000) % 100 }

    /// The code of the expected inner notification, looked up by ``innerNotificationName``.
    public var innerNotificationCode: NotificationCode? {
        innerNotificationName.flatMap { NotificationCode.lookup(name: $0) }
    }

    /// `NAME (code)`, for logs.
    public var description: String { "\(name) (\(code))" }

    /// The PSDK code with this number, or `nil` when the guide's tables have none.
    ///
    /// - Parameter code: A notification code such as 170006.
    public static func lookup(_ code: Int) -> NotificationCode? { byCode[code] }

    /// The PSDK code with this name (exact, upper case), or `nil`.
    ///
    /// - Parameter name: A name such as `MISSING_FILE_ERROR`.
    public static func lookup(name: String) -> NotificationCode? { byName[name] }

    private static let byCode: [Int: NotificationCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
    private static let byName: [String: NotificationCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // MARK: Equality and coding by number and name

    /// Equal when number and name are equal.
    public static func == (lhs: NotificationCode, rhs: NotificationCode) -> Bool {
        lhs.code == rhs.code && lhs.name == rhs.name
    }

    /// Hashes number and name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(name)
    }

    private enum CodingKeys: String, CodingKey { case code, name }

    /// Encodes `{"code": …, "name": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(name, forKey: .name)
    }

    /// Decodes `{"code": …, "name": …}`, restoring the guide's fields for a known code.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(Int.self, forKey: .code)
        let name = try container.decode(String.self, forKey: .name)
        self = NotificationCode.known(code: code, name: name)
    }

    /// The catalog entry when number and name match one, else a custom code with them.
    static func known(code: Int, name: String) -> NotificationCode {
        if let entry = lookup(code), entry.name == name { return entry }
        return NotificationCode(code, name)
    }
}
