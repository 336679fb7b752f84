import PlayheadHLS

/// The guide's "Advertising requirements", checked on an ad's playlists against the content's.
/// Each failed requirement gives its notification, nested as the guide's tables say:
///
/// | Requirement | Code | Nesting |
/// |---|---|---|
/// | the ad's HLS version is not above the content's (media playlists compared, and multivariant playlists when both have one) | 170000 `AD_VERSION_INCOMPATIBLE` | → AD_INSERTION_FAIL → AD_NOT_INSERTED |
/// | the ad's target duration (and every ad segment) is not above the content's target duration | 170011 `AD_TARGET_DURATION_TOO_LONG` | → AD_INSERTION_FAIL → AD_NOT_INSERTED |
/// | the ad has an audio-only stream where one is required | 270002 `AD_HLS_AUDIO_ONLY_MISSING` | → AD_NOT_INSERTED |
/// | an ad variant matches the content's current bitrate | 270003 `AD_HLS_MATCHING_BITRATE_MISSING` | → AD_NOT_INSERTED |
///
/// **Audio-only required** when the content has an audio-only variant or alternate audio tracks
/// (the guide's two specific rules), or always with ``Options/alwaysRequireAudioOnly`` (its general
/// "ads must also contain an audio-only rendition"). An ad satisfies it with an audio-only variant
/// (all `CODECS` audio) or an `EXT-X-MEDIA TYPE=AUDIO` rendition with a URI.
///
/// **Matching bitrate**: an ad video variant *matches* the content's current bitrate `c` (the
/// `BANDWIDTH` of the content variant playing) when its `BANDWIDTH` `a` satisfies
/// `|a − c| ≤ tolerance × c` (``Options/bitrateTolerance``, 10 % by default). An ad that is a
/// single media playlist (no `BANDWIDTH`) matches only content that is not multi-bitrate.
public enum AdRequirements {
    /// Settings of the checks.
    public struct Options: Sendable, Equatable {
        /// Default of ``bitrateTolerance``: 0.10 (10 %).
        public static let defaultBitrateTolerance = 0.10

        /// How far (as a share of the content's bitrate) an ad variant's bitrate may be and still match.
        public var bitrateTolerance: Double
        /// Require an audio-only ad stream even when the content has neither an audio-only variant
        /// nor alternate audio.
        public var alwaysRequireAudioOnly: Bool

        /// Creates settings; defaults as documented.
        public init(bitrateTolerance: Double = defaultBitrateTolerance, alwaysRequireAudioOnly: Bool = false) {
            self.bitrateTolerance = bitrateTolerance
            self.alwaysRequireAudioOnly = alwaysRequireAudioOnly
        }
    }

    /// The outcome of the checks for one ad.
    public struct Result: Sendable, Equatable {
        /// One notification per failed requirement, in the table's order; empty when the ad may play.
        public var notifications: [PlayerNotification]
        /// The ad variant matching the content's bitrate (``matchingVariant(ad:contentBitsPerSecond:tolerance:)``), if any.
        public var matchingVariant: VariantStream?

        /// Whether the ad may be inserted (no requirement failed).
        public var canInsert: Bool { notifications.isEmpty }
        /// The outer codes of ``notifications``.
        public var codes: [NotificationCode] { notifications.map(\.code) }
    }

    /// VAST error code put in the notifications' metadata: 403, "couldn't find a media file the
    /// player supports".
    public static let vastErrorCode = 403

    /// Checks `ad` against `content`.
    ///
    /// - Parameters:
    ///   - ad: The ad's playlists (its multivariant playlist and the media playlists loaded).
    ///   - content: The content's playlists (multivariant and at least the media playlist playing).
    ///   - contentBitsPerSecond: The `BANDWIDTH` of the content variant playing; `nil` skips the bitrate check.
    ///   - breakId: The break, for the notifications' metadata.
    ///   - adId: The ad, for the notifications' metadata.
    ///   - options: Tolerance and the audio-only rule.
    public static func check(ad: HLSStreamProfile, content: HLSStreamProfile, contentBitsPerSecond: Int?,
                             breakId: String? = nil, adId: String? = nil, options: Options = .init()) -> Result {
        var notifications: [PlayerNotification] = []
        func raise(_ code: NotificationCode, _ description: String) {
            notifications.append(.nested(code, metadata: PlayerNotification.adMetadata(
                description: description, url: ad.url, breakId: breakId, adId: adId, extra: [.vastErrorCode: String(vastErrorCode)])))
        }
        // Like with like: media playlist with media playlist, and multivariant with multivariant when both
        // have one (a content played from its media playlist rejected every ad whose multivariant said 6).
        if ad.mediaVersion > content.mediaVersion {
            raise(.adVersionIncompatible, "ad HLS version \(ad.mediaVersion) is above the content's \(content.mediaVersion)")
        } else if let adTop = ad.multivariant?.version, let contentTop = content.multivariant?.version, adTop > contentTop {
            raise(.adVersionIncompatible, "ad multivariant playlist version \(adTop) is above the content's \(contentTop)")
        }
        if let contentTarget = content.targetDurationSeconds {
            if let adTarget = ad.targetDurationSeconds, adTarget > contentTarget {
                raise(.adTargetDurationTooLong, "ad target duration \(adTarget) s is above the content's \(contentTarget) s")
            } else if let longest = ad.longestSegmentSeconds, longest.rounded() > Double(contentTarget) {
                raise(.adTargetDurationTooLong,
                      "ad segment of \(PlayerNotification.shortNumber(longest)) s is above the content's target duration \(contentTarget) s")
            }
        }
        let audioOnlyRequired = options.alwaysRequireAudioOnly || content.hasAudioOnlyVariant || content.hasAlternateAudio
        if audioOnlyRequired, !ad.hasAudioOnlyVariant, !ad.hasAlternateAudio {
            let why = options.alwaysRequireAudioOnly ? "always required" :
                (content.hasAudioOnlyVariant ? "the content has an audio-only stream" : "the content has alternate audio")
            raise(.adHlsAudioOnlyMissing, "ad has no audio-only stream (\(why))")
        }
        var match: VariantStream?
        if let contentBitsPerSecond {
            match = matchingVariant(ad: ad, contentBitsPerSecond: contentBitsPerSecond, tolerance: options.bitrateTolerance)
            let singlePlaylistMatches = ad.multivariant == nil && !content.isMultiBitrate
            if match == nil, !singlePlaylistMatches {
                let offered = ad.videoVariants.map { String($0.bandwidth) }.joined(separator: ", ")
                raise(.adHlsMatchingBitrateMissing,
                      "no ad variant within \(PlayerNotification.shortNumber(options.bitrateTolerance * 100)) % of the content's \(contentBitsPerSecond) bit/s"
                        + " (ad offers \(offered.isEmpty ? "no variant" : offered))")
            }
        }
        return Result(notifications: notifications, matchingVariant: match)
    }

    /// The ad rendition to play at the content's current bitrate: among the ad's video variants
    /// whose `BANDWIDTH` is within `tolerance` × `contentBitsPerSecond` of it, the closest (the
    /// lower on a tie); `nil` when none is that close (or the ad has no multivariant playlist).
    public static func matchingVariant(ad: HLSStreamProfile, contentBitsPerSecond: Int,
                                       tolerance: Double = Options.defaultBitrateTolerance) -> VariantStream? {
        let limit = tolerance * Double(contentBitsPerSecond)
        return ad.videoVariants
            .filter { abs(Double($0.bandwidth - contentBitsPerSecond)) <= limit }
            .min { lhs, rhs in
                let l = abs(lhs.bandwidth - contentBitsPerSecond), r = abs(rhs.bandwidth - contentBitsPerSecond)
                return l != r ? l < r : lhs.bandwidth < rhs.bandwidth
            }
    }
}
