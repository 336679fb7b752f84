import Foundation

// Factories for the notifications the player raises; each fills the metadata keys the guide's
// tables name for its code. Times are set by the bus when the notification is posted.
extension PlayerNotification {
    /// 270007 `NETWORK_ERROR` (warning): data could not be had from `url`.
    ///
    /// - Parameters:
    ///   - url: The resource's URL.
    ///   - description: What went wrong (transport error, timeout, …).
    public static func networkError(url: String, description: String? = nil) -> PlayerNotification {
        var metadata = [NotificationMetadataKey.url.rawValue: url]
        metadata[NotificationMetadataKey.description.rawValue] = description
        return PlayerNotification(code: .networkError, metadata: metadata)
    }

    /// 170006 `MISSING_FILE_ERROR` (error): `url` answered with an HTTP error status.
    ///
    /// - Parameters:
    ///   - url: The resource's URL.
    ///   - status: The HTTP status, such as 404.
    public static func missingFile(url: String, status: Int) -> PlayerNotification {
        let description = status == 404 ? "HTTP 404: file not found" : "HTTP \(status)"
        return PlayerNotification(code: .missingFileError, metadata: [
            NotificationMetadataKey.url.rawValue: url,
            NotificationMetadataKey.description.rawValue: description,
            NotificationMetadataKey.internalError.rawValue: "HTTP \(status)",
            NotificationMetadataKey.httpStatus.rawValue: String(status),
        ])
    }

    /// 170002 `M3U8_PARSER_ERROR` (error): a playlist did not parse.
    ///
    /// - Parameters:
    ///   - description: The parser's message.
    ///   - url: The playlist's URL, if known.
    ///   - line: The line the error points at, if known.
    public static func parserError(description: String, url: String? = nil, line: Int? = nil) -> PlayerNotification {
        var metadata = [NotificationMetadataKey.description.rawValue: description]
        metadata[NotificationMetadataKey.url.rawValue] = url
        metadata[NotificationMetadataKey.line.rawValue] = line.map(String.init)
        return PlayerNotification(code: .m3u8ParserError, metadata: metadata)
    }

    /// 170004 `HLS_SEGMENT_ERROR` (error): a segment could not be used.
    ///
    /// - Parameters:
    ///   - url: The segment's URL.
    ///   - description: What is wrong with it.
    ///   - internalError: The lower layer's error text, if any.
    public static func segmentError(url: String, description: String, internalError: String? = nil) -> PlayerNotification {
        var metadata = [
            NotificationMetadataKey.url.rawValue: url,
            NotificationMetadataKey.description.rawValue: description,
        ]
        metadata[NotificationMetadataKey.internalError.rawValue] = internalError
        return PlayerNotification(code: .hlsSegmentError, metadata: metadata)
    }

    /// 106000 `NATIVE_ERROR` (error): a low-level (FFmpeg, libcurl) error.
    ///
    /// - Parameter internalError: The lower layer's error text.
    public static func nativeError(internalError: String) -> PlayerNotification {
        PlayerNotification(code: .nativeError, metadata: [NotificationMetadataKey.internalError.rawValue: internalError])
    }

    /// 101008 `SEEK_ERROR` (error): a seek failed.
    ///
    /// - Parameter description: Why.
    public static func seekError(description: String) -> PlayerNotification {
        PlayerNotification(code: .seekError, metadata: [NotificationMetadataKey.description.rawValue: description])
    }

    /// 270000 `PLAYER_NOT_READY` (warning): an operation came in a status that does not allow it.
    ///
    /// - Parameter description: The operation and the status.
    public static func playerNotReady(description: String) -> PlayerNotification {
        PlayerNotification(code: .playerNotReady, metadata: [NotificationMetadataKey.description.rawValue: description])
    }

    /// 300005 `PLAYER_STATE_CHANGE` (info): the status became `status`; when it is `error`, pass
    /// the error notification that caused it as `inner`.
    ///
    /// - Parameters:
    ///   - status: The new status.
    ///   - inner: The cause, for a change to `error`.
    public static func stateChange(to status: PlayerStatus, inner: PlayerNotification? = nil) -> PlayerNotification {
        PlayerNotification(code: .playerStateChange, metadata: [NotificationMetadataKey.state.rawValue: status.rawValue], inner: inner)
    }

    /// 302000 `BITRATE_CHANGE` (info): the video bitrate changed.
    ///
    /// - Parameter bitsPerSecond: The new variant's bitrate in bits per second.
    public static func bitrateChange(bitsPerSecond: Int) -> PlayerNotification {
        PlayerNotification(code: .bitrateChange, metadata: [NotificationMetadataKey.bitrate.rawValue: String(bitsPerSecond)])
    }

    /// 300000 `PLAYBACK_START` (info).
    public static var playbackStart: PlayerNotification { PlayerNotification(code: .playbackStart) }

    /// 300001 `PLAYBACK_COMPLETE` (info).
    public static var playbackComplete: PlayerNotification { PlayerNotification(code: .playbackComplete) }

    /// 300002 `SEEK_START` (info): a seek from `from` to `to`, in seconds of virtual time.
    ///
    /// - Parameters:
    ///   - from: Where playback was.
    ///   - to: The seek target.
    public static func seekStart(from: Double, to: Double) -> PlayerNotification {
        PlayerNotification(code: .seekStart, metadata: [
            NotificationMetadataKey.fromSeconds.rawValue: EventJSON.number(from),
            NotificationMetadataKey.positionSeconds.rawValue: EventJSON.number(to),
        ])
    }

    /// 300003 `SEEK_COMPLETE` (info): a seek landed at `position` seconds of virtual time.
    ///
    /// - Parameter position: Where playback now is.
    public static func seekComplete(at position: Double) -> PlayerNotification {
        PlayerNotification(code: .seekComplete, metadata: [NotificationMetadataKey.positionSeconds.rawValue: EventJSON.number(position)])
    }

    /// 100000 `DRM_ERROR` (error).
    ///
    /// - Parameters:
    ///   - majorCode: The major DRM code.
    ///   - minorCode: The minor DRM code.
    ///   - description: What failed.
    public static func drmError(majorCode: String, minorCode: String, description: String) -> PlayerNotification {
        PlayerNotification(code: .drmError, metadata: [
            NotificationMetadataKey.majorDRMCode.rawValue: majorCode,
            NotificationMetadataKey.minorDRMCode.rawValue: minorCode,
            NotificationMetadataKey.description.rawValue: description,
        ])
    }

    /// A custom notification, as an application adds to the history (the guide's example is a
    /// warning with code 99999 and a description).
    ///
    /// - Parameters:
    ///   - type: The type (custom codes outside the ranges carry no type of their own).
    ///   - code: Any number.
    ///   - name: A name; by default `CUSTOM`.
    ///   - description: The DESCRIPTION metadata.
    public static func custom(type: NotificationType, code: Int, name: String = "CUSTOM", description: String) -> PlayerNotification {
        PlayerNotification(
            code: NotificationCode(code, name), type: type,
            metadata: [NotificationMetadataKey.description.rawValue: description])
    }
}
