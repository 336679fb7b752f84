extension PlayerNotification {
    /// A notification for `code` with `metadata`, as the player posts it.
    static func make(_ code: NotificationCode, metadata: [String: String], inner: PlayerNotification? = nil,
                     playerTime: Double) -> PlayerNotification {
        PlayerNotification(code: code, metadata: metadata, inner: inner, playerTime: playerTime)
    }
}
