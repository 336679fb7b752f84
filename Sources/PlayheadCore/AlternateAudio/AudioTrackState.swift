import PlayheadMedia

/// The audio rendition played beside video-only variant segments: its playlist, the segments loaded
/// and the packets not yet handed to a video segment. Only the loop task touches it.
struct AudioTrackState {
    /// The rendition.
    var option: AudioOption
    /// Its media playlist.
    var tracker: LivePlaylistTracker
    /// Content seconds minus the audio playlist's seconds (live: the playlists' times start apart).
    var playlistOffset = 0.0
    /// Demuxes the rendition's segments (its own codec parameters, probed once).
    var demuxer: RenditionDecoder
    /// Segments loaded (or given up), by media sequence.
    var loaded: Set<Int> = []
    /// Loaded segments whose packets are not all handed out yet, in media-sequence order.
    var pending: [PendingAudio] = []
    /// Seconds added to the rendition's timestamps to put them on the video's (nil: not measured yet).
    var shiftSeconds: Double?
    /// The next video segment is the first since a start or seek: it takes the audio before its own start too.
    var fresh = true
    /// Failures in a row of the segment being fetched.
    var failures = 0
    /// That the live playlist stopped changing was said.
    var stuckSaid = false
    /// The live playlist's reloads that failed in a row.
    var reloadFailures = 0
    /// When the next reload may start, after a failure.
    var reloadRetryAt: Double?

    init(option: AudioOption, tracker: LivePlaylistTracker, demuxer: RenditionDecoder) {
        self.option = option
        self.tracker = tracker
        self.demuxer = demuxer
    }
}

/// An audio segment demuxed, with the packets and the timed ID3 not yet given to a video segment.
final class PendingAudio {
    let mediaSequence: Int
    let segment: DemuxedSegment
    var packets: [Packet]
    /// Its timed ID3 (``TimedID3``), reported with the video segment of its time.
    var id3: [TimedID3]

    init(mediaSequence: Int, segment: DemuxedSegment, body: [UInt8]) {
        self.mediaSequence = mediaSequence
        self.segment = segment
        packets = segment.packets.filter { $0.kind == .audio }
        id3 = TimedID3.found(in: segment, body: body, spanStart: segment.timeSpan(of: .audio)?.start ?? 0)
    }
}
