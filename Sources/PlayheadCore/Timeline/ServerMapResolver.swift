/// A content resolver that can also answer a VOD's whole ad timeline before playback: the PSDK's
/// server map (VMAP), one request for pre-, mid- and post-rolls.
public protocol ServerMapResolver: ContentResolver {
    /// Resolves every break of the content up front. Content plays whatever happens: a failure
    /// gives fewer (or no) breaks and a notification.
    ///
    /// - Parameters:
    ///   - contentDurationSeconds: The content's duration, to place post-rolls and percentage
    ///     offsets; `nil` when unknown (such breaks are then left out with a warning).
    ///   - delegate: Told of each failure (`didFail`) and warning (`didWarn`) as they happen, with
    ///     the opportunity ``PlacementOpportunity/serverMap(url:)`` or the break's; may be `nil`.
    /// - Returns: The breaks, sorted by content time, and every notification raised.
    func resolveServerMap(contentDurationSeconds: Double?, delegate: (any ContentResolverDelegate)?) async -> ServerMapResolution
}

/// What a server-map resolution produced.
public struct ServerMapResolution: Sendable, Equatable {
    /// The breaks, sorted by content time (use them as `AdTimeline(breaks:)`).
    public var breaks: [AdBreak]
    /// The failures and warnings raised, in order (AD_TIMEOUT, AD_EMPTY_RESPONSE, AD_NOT_INSERTED…).
    public var notifications: [PlayerNotification]

    /// Creates a resolution.
    public init(breaks: [AdBreak], notifications: [PlayerNotification] = []) {
        self.breaks = breaks
        self.notifications = notifications
    }

    /// The timeline of these breaks.
    public var timeline: AdTimeline { AdTimeline(breaks: breaks) }
}

extension PlacementOpportunity {
    /// The opportunity a server-map request answers: the whole content, at content time 0
    /// (kind `serverMap`, tag `VMAP`, the request URL as its raw text).
    public static func serverMap(url: String) -> PlacementOpportunity {
        PlacementOpportunity(id: "server-map", kind: .serverMap, contentSeconds: 0, durationSeconds: nil, mediaSequence: 0,
                             tag: "VMAP", rawText: url, attributes: [:])
    }
}

/// A resolver that also answers a live stream's pre-roll request (PSDK: one request at the start of
/// a live stream, besides one per cue, unless the metadata disables it).
public protocol LivePrerollResolver: ContentResolver {
    /// Starts the pre-roll request for content time `contentSeconds` (the live join point); answers
    /// `delegate` once: the inserted break, nothing (`didResolve` with no break) when pre-rolls are
    /// off, or a failure.
    func processPreroll(atContentSeconds contentSeconds: Double, delegate: any ContentResolverDelegate)
}
