import PlayheadHLS
import PlayheadMedia

/// One ad ready to be spliced: its chosen media playlist, and the decoder and timestamp anchor that
/// place its frames on its own time line (0 at its first video frame).
final class AdAsset {
    /// The ad as the resolver gave it.
    let ad: TimelineAd
    /// The media playlist played (the rendition chosen to match the content's bitrate).
    private(set) var mediaURL: String
    /// Its segments (a VOD playlist).
    private(set) var tracker: LivePlaylistTracker
    /// The ad's multivariant playlist (nil for a media playlist ad) and every rendition of it, so the one
    /// played can match the content's rung when the break starts rather than when the ad was loaded.
    var multivariant: MultivariantPlaylist?
    /// See ``multivariant``.
    var renditions: [AdRendition] = []
    /// Decodes (or demuxes) this ad's segments; separate from the content's so codec state never mixes.
    let decoder: RenditionDecoder
    /// Maps the ad's timestamps to ad time.
    var anchor = TimestampAnchor()
    /// True end of the ad's media once its last segment is loaded, ad seconds.
    var trueEndSeconds: Double?

    init(ad: TimelineAd, mediaURL: String, tracker: LivePlaylistTracker, decoder: RenditionDecoder) {
        self.ad = ad
        self.mediaURL = mediaURL
        self.tracker = tracker
        self.decoder = decoder
    }

    /// An asset for `ad` from its fetched playlists: the media playlist chosen, and for a multivariant ad
    /// every rendition (the break's start may pick another); its own decoder with `options`.
    convenience init(ad: TimelineAd, playlists: AdPlaylists, options: RenditionDecoderOptions, loadedAt now: Double) {
        self.init(ad: ad, mediaURL: playlists.mediaURL, tracker: LivePlaylistTracker(first: playlists.media, loadedAt: now),
                  decoder: RenditionDecoder(options: options))
        if case let .multivariant(multivariant) = playlists.top { self.multivariant = multivariant }
        renditions = playlists.renditions
    }

    /// Media sequence of the ad's first segment.
    var firstSequence: Int? { tracker.segments.first?.mediaSequence }

    /// Plays the rendition chosen for content at `contentBitsPerSecond`, as at load
    /// (``MediaPlayer/chooseAdVariant(_:contentBitsPerSecond:)``); true when it changed. Called as its break starts.
    @discardableResult
    func matchRendition(contentBitsPerSecond: Int?, at now: Double) -> Bool {
        guard let multivariant, let contentBitsPerSecond else { return false }
        let chosen = MediaPlayer.chooseAdVariant(multivariant, contentBitsPerSecond: contentBitsPerSecond)
        guard let rendition = renditions.first(where: { $0.variant.uri == chosen.uri }), rendition.url != mediaURL else { return false }
        mediaURL = rendition.url
        tracker = LivePlaylistTracker(first: rendition.media, loadedAt: now)
        anchor = TimestampAnchor()
        trueEndSeconds = nil
        return true
    }
}

/// One rendition of an ad: its variant, its media playlist and where it was fetched from.
struct AdRendition: Sendable {
    /// Its variant as the multivariant playlist lists it.
    var variant: VariantStream
    /// The media playlist's URL after redirects.
    var url: String
    /// The media playlist.
    var media: MediaPlaylist
}

/// Where loading is inside an ad break.
struct AdLoadCursor: Equatable {
    /// The break's id.
    var breakId: String
    /// The ad being loaded.
    var adIndex: Int
    /// The next segment of that ad.
    var mediaSequence: Int
    /// Timeline time at which this ad starts.
    var adTimelineStart: Double
    /// Timeline time at which the break started.
    var breakTimelineStart: Double
}
