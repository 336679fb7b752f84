import PlayheadHLS

/// A key the session's playlists name (EXT-X-KEY of the content's media playlists, EXT-X-SESSION-KEY of its
/// multivariant playlist): the PSDK's DRM metadata, posted as a `drmMetadataChanged` event the first time each
/// is met and listed in the report.
public struct KeyMetadata: Sendable, Equatable, Codable {
    /// METHOD (`AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`, …).
    public var method: String
    /// URI as written (variables substituted).
    public var uri: String?
    /// KEYFORMAT, nil when none is given (identity).
    public var keyFormat: String?
    /// KEYFORMATVERSIONS, nil when none is given.
    public var keyFormatVersions: String?
    /// Whether an EXT-X-SESSION-KEY named it (before any media playlist loaded).
    public var session: Bool
    /// The playlist that named it.
    public var playlistURL: String
    /// The media sequence of the first segment it applies to (nil for a session key).
    public var mediaSequence: Int?

    /// Creates an entry.
    public init(method: String, uri: String?, keyFormat: String?, keyFormatVersions: String?, session: Bool,
                playlistURL: String, mediaSequence: Int?) {
        self.method = method
        self.uri = uri
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.session = session
        self.playlistURL = playlistURL
        self.mediaSequence = mediaSequence
    }

    /// What tells one key from another: method, URI, KEYFORMAT and its versions.
    var identity: String { [method, uri ?? "", keyFormat ?? "", keyFormatVersions ?? ""].joined(separator: "\u{1F}") }
}

extension MediaPlayer {
    /// Posts each key of `keys` not met before in the session (METHOD=NONE is no key) as `drmMetadataChanged`
    /// and adds it to the report's `keys`.
    func reportKeys(_ keys: [(key: SegmentKey, mediaSequence: Int?)], session: Bool, playlistURL: String) {
        for (key, mediaSequence) in keys where key.method != .none {
            let metadata = KeyMetadata(method: key.method.text, uri: key.uri, keyFormat: key.keyFormat, keyFormatVersions: key.keyFormatVersions,
                                       session: session, playlistURL: playlistURL, mediaSequence: mediaSequence)
            guard state.keysSeen.insert(metadata.identity).inserted else { continue }
            report.keys = (report.keys ?? []) + [metadata]
            var payload = ["method": metadata.method, "session": session ? "1" : "0", "playlist": playlistURL]
            payload["uri"] = metadata.uri
            payload["keyFormat"] = metadata.keyFormat
            payload["keyFormatVersions"] = metadata.keyFormatVersions
            payload["mediaSequence"] = mediaSequence.map(String.init)
            bus.post(.custom(name: "drmMetadataChanged", payload: payload))
        }
    }

    /// The keys of the last `listed` segments `tracker` lists (each segment's keys in force, its init section's
    /// too), as ``reportKeys(_:session:playlistURL:)`` takes them.
    func reportKeys(of tracker: LivePlaylistTracker, listed: Int, playlistURL: String) {
        var keys: [(key: SegmentKey, mediaSequence: Int?)] = []
        for tracked in tracker.segments.suffix(listed) {
            let segment = tracked.segment
            for key in (segment.key.map { [$0] } ?? []) + segment.otherKeys + (segment.map?.keys ?? []) {
                keys.append((key, tracked.mediaSequence))
            }
        }
        reportKeys(keys, session: false, playlistURL: playlistURL)
    }
}
