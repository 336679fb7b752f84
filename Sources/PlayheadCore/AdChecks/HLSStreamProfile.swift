import PlayheadHLS

/// What the ad checks need to know of an HLS stream (content or ad): its multivariant playlist, if
/// it has one, and the media playlists loaded so far.
public struct HLSStreamProfile: Sendable, Equatable {
    /// The multivariant playlist; `nil` for a stream that is a single media playlist.
    public var multivariant: MultivariantPlaylist?
    /// The media playlists loaded (at least the one playing, for content).
    public var mediaPlaylists: [MediaPlaylist]
    /// The stream's URL, for notifications.
    public var url: String?

    /// Creates a profile.
    public init(multivariant: MultivariantPlaylist?, mediaPlaylists: [MediaPlaylist], url: String? = nil) {
        self.multivariant = multivariant
        self.mediaPlaylists = mediaPlaylists
        self.url = url
    }

    /// A profile from a parsed top-level playlist and the media playlists loaded from it (a media
    /// playlist given as `playlist` is counted once).
    public init(playlist: Playlist, mediaPlaylists: [MediaPlaylist] = [], url: String? = nil) {
        switch playlist {
        case let .multivariant(multivariant): self.init(multivariant: multivariant, mediaPlaylists: mediaPlaylists, url: url)
        case let .media(media): self.init(multivariant: nil, mediaPlaylists: [media] + mediaPlaylists, url: url)
        }
    }

    /// The HLS version: the highest `EXT-X-VERSION` of its playlists (1 when none says).
    public var hlsVersion: Int {
        ([multivariant?.version] + mediaPlaylists.map(\.version)).compactMap { $0 }.max() ?? 1
    }

    /// The highest `EXT-X-VERSION` of its media playlists (1 when none says): the version of what plays.
    public var mediaVersion: Int { mediaPlaylists.compactMap(\.version).max() ?? 1 }

    /// The highest `EXT-X-TARGETDURATION` of the media playlists, seconds; `nil` when none is loaded.
    public var targetDurationSeconds: Int? { mediaPlaylists.compactMap(\.targetDuration).max() }

    /// The longest segment of the media playlists, seconds; `nil` without segments.
    public var longestSegmentSeconds: Double? { mediaPlaylists.flatMap(\.segments).map(\.duration).max() }

    /// The variants that carry video (or whose codecs are unknown), i.e. not audio-only.
    public var videoVariants: [VariantStream] { (multivariant?.variants ?? []).filter { !Self.isAudioOnly($0) } }

    /// Whether a variant is audio-only (every codec of `CODECS` is an audio codec).
    public var hasAudioOnlyVariant: Bool { (multivariant?.variants ?? []).contains(where: Self.isAudioOnly) }

    /// Whether the stream has alternate audio: an `EXT-X-MEDIA` of `TYPE=AUDIO` with its own `URI`.
    public var hasAlternateAudio: Bool { (multivariant?.media ?? []).contains { $0.type == .audio && $0.uri != nil } }

    /// Whether the stream offers more than one video bitrate.
    public var isMultiBitrate: Bool { Set(videoVariants.map(\.bandwidth)).count > 1 }

    /// Codec prefixes (RFC 6381) that are audio.
    static let audioCodecPrefixes = ["mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "mp3", ".mp3"]

    /// Whether `variant` is audio-only: it lists codecs and all of them are audio.
    public static func isAudioOnly(_ variant: VariantStream) -> Bool {
        guard let codecs = variant.codecs else { return false }
        let list = codecs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return !list.isEmpty && list.allSatisfy { codec in audioCodecPrefixes.contains { codec.hasPrefix($0) } }
    }
}
