import PlayheadCore
import PlayheadMedia

/// The clock a daemon session runs on.
public enum SessionClock: String, Sendable, Codable, CaseIterable {
    /// Wall-clock time: frames are presented when they are due, as a viewer would see them.
    case real
    /// Virtual time: the session runs as fast as the CPU allows over a simulated link.
    case virtual
}

/// Variant selection and buffer sizes of a session (`abr` in the JSON spec).
public struct ABRSettings: Sendable, Codable, Equatable {
    /// Index of the variant to play in a multivariant playlist (nil: the first, or `maxBitsPerSecond`).
    public var variant: Int?
    /// Play the highest variant at most this many bits per second.
    public var maxBitsPerSecond: Int?
    /// Smallest forward-buffer target, seconds; default ``BufferPolicy/defaultMinimumSeconds``.
    public var minBufferSeconds: Double?
    /// Largest forward-buffer target, seconds; default ``BufferPolicy/defaultMaximumSeconds``.
    public var maxBufferSeconds: Double?

    /// Creates settings with every value left to the player's defaults.
    public init() {}
}

/// Ad settings of a session (`ads`): the PSDK's ad metadata for the default VAST/VMAP resolver. With
/// ads enabled and an ad server given, a VOD asks it for a VMAP before playing, a live stream for a VAST
/// per cue (and a pre-roll), and a beacon tracker fires the VAST beacons (stored as `beacon` events).
public struct SessionAdSettings: Sendable, Codable, Equatable {
    /// Whether ads are wanted.
    public var enabled = false
    /// The ad server's base URL (`/vmap` and `/vast` are asked below it).
    public var adTagURL: String?
    /// Zone id; default `1`.
    public var zoneId: String?
    /// The content's media id at the ad server; default `content`.
    public var mediaId: String?
    /// `default`, `manifestCues` or `serverMap`.
    public var signalingMode: String?
    /// Live: ask for a pre-roll at the start (default true).
    public var enableLivePreroll: Bool?

    /// Creates settings with ads off.
    public init() {}
}

/// What a session writes beyond its events (`dump`).
public struct DumpSettings: Sendable, Codable, Equatable {
    /// Post a `framePresented` event for every frame (large event logs, frame lateness chart).
    public var frameEvents = false

    /// Creates settings with nothing extra.
    public init() {}
}

/// Everything `POST /v1/sessions` is told: the JSON body, validated by ``SessionSpec/parse(_:)``.
///
/// Only `url` is required; every other field has a documented default (named statics below).
public struct SessionSpec: Sendable, Codable, Equatable {
    /// Default clock: the real one (a daemon mostly watches streams as a viewer would).
    public static let defaultClock = SessionClock.real
    /// Default decode mode: full decoding.
    public static let defaultMode = DecodeMode.decode
    /// Default playback rate: 1.
    public static let defaultRate = 1.0
    /// Default bandwidth of the simulated link on the virtual clock: 50 Mbit/s.
    public static let defaultBandwidthMegabitsPerSecond = 50.0

    /// The item: an http(s) URL of a multivariant or media playlist.
    public var url: String
    /// The session clock.
    public var clock = defaultClock
    /// decode, demux or keyframes.
    public var mode = defaultMode
    /// Variant choice and buffer sizes.
    public var abr = ABRSettings()
    /// Ad settings (see ``SessionAdSettings``).
    public var ads = SessionAdSettings()
    /// Playlist tags the client subscribes to, each named with its `#`: each becomes a `timedMetadata`
    /// event (and a report entry) the first time it is seen.
    public var subscribedTags: [String] = []
    /// The audio rendition to play: `auto`, `default` or a rendition's name or language (nil: auto).
    public var audio: AudioChoice?
    /// Resume after a failure (F25, as `play --resume-after-failure`), nil: a failure ends the session.
    public var resumeAfterFailure: ResumePolicy?
    /// Keys given up front (custom key delivery, as `play --key`), nil: none; kept with the spec in the
    /// daemon's database.
    public var keys: [SessionKey]?
    /// The subtitle track to show: `auto`, `off`, or a track's name or language (nil: auto).
    public var subtitles: SubtitleChoice?
    /// WebVTT files offered as subtitle tracks beside the item's own (nil: none).
    public var sidecarSubtitles: [SidecarSubtitle]?
    /// Blackouts: the tag that signals them and the VOD alternate content played meanwhile (nil: none).
    public var blackout: BlackoutSettings?
    /// Server-side ad tracking (nil: off).
    public var ssai: SSAISettings?
    /// Extra outputs.
    public var dump = DumpSettings()
    /// Video heartbeats (nil: none).
    public var heartbeats: SessionHeartbeatSettings?
    /// Stop after this many seconds of session time (nil: until the item ends or a stop).
    public var durationSeconds: Double?
    /// Start position, seconds (nil: the player's default).
    public var startSeconds: Double?
    /// Playback rate.
    public var rate = defaultRate
    /// Start playing as soon as ready (otherwise wait for `POST …/play`).
    public var autoplay = true
    /// Link bandwidth on the virtual clock, Mbit/s.
    public var bandwidthMegabitsPerSecond = defaultBandwidthMegabitsPerSecond

    /// Creates a spec for `url` with every other field at its default.
    public init(url: String) { self.url = url }

    /// The player configuration this spec asks for.
    public var playerConfiguration: PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.mode = mode
        configuration.variant = abr.variant.map { .index($0) } ?? abr.maxBitsPerSecond.map { .bandwidth($0) } ?? .first
        // A fixed variant turns adaptive bitrate off; otherwise the player's default ABR runs.
        if abr.variant != nil || abr.maxBitsPerSecond != nil { configuration.abr = nil }
        configuration.rate = rate
        configuration.startSeconds = startSeconds
        configuration.autoplay = autoplay
        configuration.perFrameEvents = dump.frameEvents
        configuration.subscribedTags = subscribedTags
        configuration.subtitles = subtitles ?? .automatic
        configuration.audio = audio ?? .automatic
        configuration.sidecarSubtitles = sidecarSubtitles ?? []
        configuration.blackout = blackout
        configuration.ssai = ssai
        configuration.resumeAfterFailure = resumeAfterFailure
        if let keys, !keys.isEmpty { configuration.keyProvider = try? StaticKeyProvider(entries: keys.map(\.entry)) }
        if let minimum = abr.minBufferSeconds { configuration.buffer.minimumSeconds = minimum }
        if let maximum = abr.maxBufferSeconds { configuration.buffer.maximumSeconds = maximum }
        return configuration
    }
}

/// A key a session is given up front (the spec's `keys`): the EXT-X-KEY URI it stands for, as the playlist
/// writes it or resolved, and its 16 bytes as 32 hexadecimal digits.
public struct SessionKey: Sendable, Equatable, Codable {
    /// The key's URI.
    public var uri: String
    /// Its bytes, hexadecimal (a `0x` prefix allowed).
    public var key: String
    /// As `play --key` takes it: `URI=HEX`.
    public var entry: String { uri + "=" + key }

    /// Creates an entry.
    public init(uri: String, key: String) {
        self.uri = uri
        self.key = key
    }
}
