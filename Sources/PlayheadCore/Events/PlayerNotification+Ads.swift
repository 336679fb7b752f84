import Foundation

// Factories for ad notifications. Each nests the inner notifications the guide's tables name
// (AD_TIMEOUT → AD_INSERTION_FAIL → AD_NOT_INSERTED; AD_HLS_AUDIO_ONLY_MISSING → AD_NOT_INSERTED),
// every level carrying the same metadata, so a consumer that looks only at the innermost
// AD_NOT_INSERTED still learns which break, ad and URL were concerned.
extension PlayerNotification {
    /// A notification with `code` and, below it, the chain of inner notifications the catalogue
    /// names for it (``NotificationCode/innerNotificationCode``), each with the same metadata.
    ///
    /// - Parameters:
    ///   - code: The outer code.
    ///   - metadata: Metadata for every level.
    public static func nested(_ code: NotificationCode, metadata: [String: String], playerTime: Double = 0) -> PlayerNotification {
        let inner = code.innerNotificationCode.map { nested($0, metadata: metadata, playerTime: playerTime) }
        return PlayerNotification(code: code, metadata: metadata, inner: inner, playerTime: playerTime)
    }

    /// Metadata for an ad notification: the keys given, those `nil` left out.
    static func adMetadata(description: String, url: String? = nil, breakId: String? = nil, adId: String? = nil,
                           extra: [NotificationMetadataKey: String] = [:]) -> [String: String] {
        var metadata = [NotificationMetadataKey.description.rawValue: description]
        metadata[NotificationMetadataKey.url.rawValue] = url
        metadata[NotificationMetadataKey.breakId.rawValue] = breakId
        metadata[NotificationMetadataKey.adId.rawValue] = adId
        for (key, value) in extra { metadata[key.rawValue] = value }
        return metadata
    }

    /// A number for messages: at most three decimals, no trailing zeros (`30`, `0.3`, `12.5`).
    static func shortNumber(_ value: Double) -> String {
        let millis = (value * 1000).rounded()
        if millis.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int(millis / 1000)) }
        var text = String(format: "%.3f", millis / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// 170008 `AD_TIMEOUT` (inner AD_INSERTION_FAIL → AD_NOT_INSERTED): no ad answer in time.
    ///
    /// - Parameters:
    ///   - url: The ad request's URL.
    ///   - seconds: The timeout that expired.
    ///   - breakId: The break (or opportunity) it was for, if any.
    public static func adTimeout(url: String, afterSeconds seconds: Double, breakId: String? = nil) -> PlayerNotification {
        nested(.adTimeout, metadata: adMetadata(
            description: "no ad response within \(shortNumber(seconds)) s", url: url, breakId: breakId,
            extra: [.vastErrorCode: "301"]))
    }

    /// 170007 `AD_EMPTY_RESPONSE` (inner AD_INSERTION_FAIL → AD_NOT_INSERTED): the ad server answered
    /// with nothing to play.
    ///
    /// - Parameters:
    ///   - url: The ad request's URL.
    ///   - description: What was empty (an empty body, a VAST without ads, a VMAP without breaks).
    ///   - breakId: The break it was for, if any.
    public static func adEmptyResponse(url: String, description: String, breakId: String? = nil) -> PlayerNotification {
        nested(.adEmptyResponse, metadata: adMetadata(description: description, url: url, breakId: breakId,
                                                      extra: [.vastErrorCode: "303"]))
    }

    /// 104006 `AD_UNREACHABLE`: the ad server could not be reached or refused the request. The
    /// guide's table gives this code no inner notification, so it has none.
    ///
    /// - Parameters:
    ///   - url: The ad request's URL.
    ///   - internalError: The transport's error text.
    ///   - httpStatus: The HTTP status, when the server answered with an error status.
    ///   - breakId: The break it was for, if any.
    public static func adUnreachable(url: String, internalError: String, httpStatus: Int? = nil,
                                     breakId: String? = nil) -> PlayerNotification {
        var extra: [NotificationMetadataKey: String] = [.internalError: internalError, .vastErrorCode: "301"]
        extra[.httpStatus] = httpStatus.map(String.init)
        return PlayerNotification(code: .adUnreachable, metadata: adMetadata(
            description: "ad server unreachable", url: url, breakId: breakId, extra: extra))
    }

    /// 104005 `AD_INSERTION_FAIL` (inner AD_NOT_INSERTED): ad resolving failed for another reason (an
    /// unreadable response, a broken wrapper chain).
    ///
    /// - Parameters:
    ///   - description: What failed.
    ///   - url: The URL concerned, if any.
    ///   - breakId: The break, if any.
    ///   - vastErrorCode: The VAST error code for the ads' error URLs, if one applies.
    public static func adInsertionFail(description: String, url: String? = nil, breakId: String? = nil,
                                       vastErrorCode: Int? = nil) -> PlayerNotification {
        var extra: [NotificationMetadataKey: String] = [:]
        extra[.vastErrorCode] = vastErrorCode.map(String.init)
        return nested(.adInsertionFail, metadata: adMetadata(description: description, url: url, breakId: breakId, extra: extra))
    }

    /// 104001 `AD_RESOLUTION_INVALID` (inner AD_NOT_INSERTED): the ad metadata cannot be used.
    ///
    /// - Parameter description: Which field is wrong and why.
    public static func adResolutionInvalid(description: String) -> PlayerNotification {
        nested(.adResolutionInvalid, metadata: adMetadata(description: description))
    }

    /// 270001 `AD_NOT_INSERTED` (warning): one ad was left out (for example an MP4-only ad).
    ///
    /// - Parameters:
    ///   - description: Why.
    ///   - breakId: The break, if known.
    ///   - adId: The ad, if known.
    ///   - url: The ad's URL, if known.
    ///   - vastErrorCode: The VAST error code for the ad's error URLs, if one applies.
    ///   - errorURLs: The ad's VAST error URL templates, for a tracker to call (the ad is not on the
    ///     timeline, so they cannot be found there).
    public static func adNotInserted(description: String, breakId: String? = nil, adId: String? = nil,
                                     url: String? = nil, vastErrorCode: Int? = nil, errorURLs: [String] = []) -> PlayerNotification {
        var extra: [NotificationMetadataKey: String] = [:]
        extra[.vastErrorCode] = vastErrorCode.map(String.init)
        if !errorURLs.isEmpty { extra[.errorURLs] = errorURLs.joined(separator: "\n") }
        return nested(.adNotInserted, metadata: adMetadata(description: description, url: url, breakId: breakId,
                                                           adId: adId, extra: extra))
    }
}
