import PlayheadMedia

/// One ad ready to be spliced: its chosen media playlist, and the decoder and timestamp anchor that
/// place its frames on its own time line (0 at its first video frame).
final class AdAsset {
    /// The ad as the resolver gave it.
    let ad: TimelineAd
    /// The media playlist played (the rendition chosen to match the content's bitrate).
    let mediaURL: String
    /// Its segments (a VOD playlist).
    let tracker: LivePlaylistTracker
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

    /// Media sequence of the ad's first segment.
    var firstSequence: Int? { tracker.segments.first?.mediaSequence }
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
