/// The top-level class of a PSDK notification (`PTNotificationType`).
///
/// Codes fall into ranges by type: errors 100000–199999, warnings 200000–299999 and
/// information 300000–399999.
public enum NotificationType: String, Sendable, Codable, CaseIterable {
    /// Information about normal operation (codes 300000–399999).
    case info = "INFO"
    /// Something went wrong and playback went on (codes 200000–299999).
    case warning = "WARN"
    /// Something went wrong and may have stopped playback (codes 100000–199999).
    case error = "ERROR"

    /// The type a code's range gives it, or `nil` for a code outside the PSDK's three ranges
    /// (custom notifications may use such codes and then carry an explicit type).
    ///
    /// - Parameter code: A notification code.
    public init?(range code: Int) {
        switch code {
        case 100_000...199_999: self = .error
        case 200_000...299_999: self = .warning
        case 300_000...399_999: self = .info
        default: return nil
        }
    }
}

/// A metadata key of a PSDK notification; the guide's tables name which keys each code carries.
///
/// Keys are strings on the wire (`PlayerNotification.metadata` is `[String: String]`), so custom
/// notifications may use keys of their own; these are the ones the player itself writes.
public enum NotificationMetadataKey: String, Sendable, Codable, CaseIterable {
    /// The URL of the resource concerned (PSDK `URL`).
    case url = "URL"
    /// A human-readable description (PSDK `DESCRIPTION`).
    case description = "DESCRIPTION"
    /// The lower layer's own error, as text (PSDK `INTERNAL_ERROR`).
    case internalError = "INTERNAL_ERROR"
    /// A bitrate in bits per second (PSDK `BITRATE`).
    case bitrate = "BITRATE"
    /// The major DRM error code (PSDK `MAJOR_DRM_CODE`).
    case majorDRMCode = "MAJOR_DRM_CODE"
    /// The minor DRM error code (PSDK `MINOR_DRM_CODE`).
    case minorDRMCode = "MINOR_DRM_CODE"
    /// Playhead's own: the HTTP status of a failed transfer.
    case httpStatus = "HTTP_STATUS"
    /// Playhead's own: the status a `PLAYER_STATE_CHANGE` moved to (a `PlayerStatus` raw value).
    case state = "STATE"
    /// Playhead's own: a position in seconds of virtual time (seek start and completion).
    case positionSeconds = "POSITION_SECONDS"
    /// Playhead's own: where a seek came from, in seconds of virtual time.
    case fromSeconds = "FROM_SECONDS"
    /// Playhead's own: the line of a playlist a parse error points at.
    case line = "LINE"
    /// Playhead's own: the ad break concerned (cue id, VMAP break id).
    case breakId = "BREAK_ID"
    /// Playhead's own: the ad concerned (VAST ad id).
    case adId = "AD_ID"
    /// Playhead's own: the VAST error code to report to the ad's error URLs (`[ERRORCODE]`).
    case vastErrorCode = "VAST_ERROR_CODE"
    /// Playhead's own: the error URL templates of an ad left out (one per line), for the beacon tracker.
    case errorURLs = "ERROR_URLS"
}
