import Foundation

/// A video as a Brightcove-style playback service describes it (F29; the PSDK's `BCOVVideo`): its ids,
/// metadata, the sources it can be played from, text tracks and cue points. A value type: parse it with
/// ``CatalogueJSON/video(from:url:)`` or build it by hand.
public struct CatalogueVideo: Sendable, Equatable, Codable {
    /// The video id (`id`).
    public var id: String
    /// The publisher's own reference id (`reference_id`), if any.
    public var referenceId: String?
    /// The account the video belongs to (`account_id`).
    public var accountId: String?
    /// Title (`name`).
    public var name: String?
    /// Short description (`description`).
    public var description: String?
    /// Long description (`long_description`).
    public var longDescription: String?
    /// Length in seconds (the API's `duration` is in milliseconds).
    public var durationSeconds: Double?
    /// The poster image (`poster`).
    public var posterURL: String?
    /// The thumbnail image (`thumbnail`).
    public var thumbnailURL: String?
    /// Every poster URL offered (`poster_sources[].src`: usually an HTTP and an HTTPS one).
    public var posterSources: [String]
    /// Every thumbnail URL offered (`thumbnail_sources[].src`).
    public var thumbnailSources: [String]
    /// The sources, in the order listed (``SourceSelectionPolicy`` picks one).
    public var sources: [CatalogueSource]
    /// Text tracks (captions, subtitles, chapters, thumbnails, metadata).
    public var textTracks: [CatalogueTextTrack]
    /// Cue points (ad cues and code cues).
    public var cuePoints: [CatalogueCuePoint]
    /// Custom fields, every value as text (`bumper_id` names a bumper video; see ``bumperId``).
    public var customFields: [String: String]
    /// Tags.
    public var tags: [String]

    /// Creates a video.
    public init(id: String, referenceId: String? = nil, accountId: String? = nil, name: String? = nil, description: String? = nil,
                longDescription: String? = nil, durationSeconds: Double? = nil, posterURL: String? = nil, thumbnailURL: String? = nil,
                posterSources: [String] = [], thumbnailSources: [String] = [], sources: [CatalogueSource] = [],
                textTracks: [CatalogueTextTrack] = [], cuePoints: [CatalogueCuePoint] = [], customFields: [String: String] = [:],
                tags: [String] = []) {
        self.id = id
        self.referenceId = referenceId
        self.accountId = accountId
        self.name = name
        self.description = description
        self.longDescription = longDescription
        self.durationSeconds = durationSeconds
        self.posterURL = posterURL
        self.thumbnailURL = thumbnailURL
        self.posterSources = posterSources
        self.thumbnailSources = thumbnailSources
        self.sources = sources
        self.textTracks = textTracks
        self.cuePoints = cuePoints
        self.customFields = customFields
        self.tags = tags
    }

    /// The bumper the video names in its custom fields (`bumper_id`), which takes precedence over one
    /// configured on the service (the PSDK's rule); nil when the field is absent or empty.
    public var bumperId: String? {
        guard let value = customFields["bumper_id"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}

/// How a source is delivered, from its `type` (MIME type) and, failing that, its URL's extension.
public enum CatalogueDelivery: String, Sendable, Equatable, Codable {
    /// HLS: `application/x-mpegURL` or `application/vnd.apple.mpegurl`, or a `.m3u8` URL.
    case hls
    /// MPEG-DASH: `application/dash+xml`, or a `.mpd` URL.
    case dash
    /// Progressive MP4: `video/mp4`, or container `MP4` without a streaming type.
    case mp4
    /// Anything else (RTMP, a source without a URL, an unknown type).
    case other
}

/// One key system (DRM) a source is protected with, as the API's `key_systems` lists it.
public struct CatalogueKeySystem: Sendable, Equatable, Codable {
    /// The key system's name, e.g. `com.widevine.alpha`, `com.apple.fps.1_0`, `com.microsoft.playready`.
    public var name: String
    /// Its license (or key) server, when given (`license_url`, else `key_request_url`).
    public var licenseURL: String?
    /// The FairPlay certificate URL, when given (`certificate_url`).
    public var certificateURL: String?

    /// Creates a key system entry.
    public init(name: String, licenseURL: String? = nil, certificateURL: String? = nil) {
        self.name = name
        self.licenseURL = licenseURL
        self.certificateURL = certificateURL
    }
}

/// One source of a video (the PSDK's `BCOVSource`): a URL and how it is delivered.
public struct CatalogueSource: Sendable, Equatable, Codable {
    /// The URL (`src`); nil for a rendition listed without one (not playable by URL).
    public var src: String?
    /// The MIME type (`type`), e.g. `application/x-mpegURL`, `application/dash+xml`, `video/mp4`.
    public var type: String?
    /// The container (`container`), e.g. `M2TS`, `MP4`.
    public var container: String?
    /// The codecs (`codecs`, else `codec`), e.g. `avc1,mp4a` or `H264`.
    public var codecs: String?
    /// The key systems (DRM) the source needs (`key_systems`), by name; empty when it is clear.
    public var keySystems: [CatalogueKeySystem]
    /// The HLS version (`ext_x_version`), if given.
    public var hlsVersion: String?
    /// Picture size and average bitrate of a single rendition (MP4), if given.
    public var width: Int?
    /// Picture height, if given.
    public var height: Int?
    /// Average bitrate in bits per second (`avg_bitrate`), if given.
    public var averageBitrate: Int?

    /// Creates a source.
    public init(src: String?, type: String? = nil, container: String? = nil, codecs: String? = nil,
                keySystems: [CatalogueKeySystem] = [], hlsVersion: String? = nil, width: Int? = nil, height: Int? = nil,
                averageBitrate: Int? = nil) {
        self.src = src
        self.type = type
        self.container = container
        self.codecs = codecs
        self.keySystems = keySystems
        self.hlsVersion = hlsVersion
        self.width = width
        self.height = height
        self.averageBitrate = averageBitrate
    }

    /// How the source is delivered (see ``CatalogueDelivery``).
    public var delivery: CatalogueDelivery {
        let type = (type ?? "").lowercased()
        if type == "application/x-mpegurl" || type == "application/vnd.apple.mpegurl" { return .hls }
        if type == "application/dash+xml" { return .dash }
        if type == "video/mp4" { return .mp4 }
        guard type.isEmpty, let src else { return .other }
        let path = src.split(separator: "?", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
        if path.hasSuffix(".m3u8") { return .hls }
        if path.hasSuffix(".mpd") { return .dash }
        if path.hasSuffix(".mp4") || container?.uppercased() == "MP4" { return .mp4 }
        return .other
    }

    /// The URL's scheme, lower-cased (`https`, `http`, `file`…), or nil without a URL.
    public var scheme: String? {
        guard let src, let colon = src.firstIndex(of: ":") else { return nil }
        let scheme = src[..<colon]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return scheme.lowercased()
    }

    /// Whether the source needs a key system (DRM) to play.
    public var isProtected: Bool { !keySystems.isEmpty }
}

/// A text track of a video (`text_tracks[]`).
public struct CatalogueTextTrack: Sendable, Equatable, Codable {
    /// Its id, if given.
    public var id: String?
    /// The WebVTT file (`src`).
    public var src: String?
    /// Every URL offered for it (`sources[].src`: HTTP and HTTPS).
    public var sources: [String]
    /// Language (`srclang`).
    public var language: String?
    /// Label shown to viewers (`label`).
    public var label: String?
    /// Kind: `captions`, `subtitles`, `chapters`, `metadata` (thumbnails).
    public var kind: String?
    /// MIME type (`mime_type`), usually `text/vtt`.
    public var mimeType: String?
    /// Whether it is the default track (`default`).
    public var isDefault: Bool

    /// Creates a text track.
    public init(id: String? = nil, src: String? = nil, sources: [String] = [], language: String? = nil, label: String? = nil,
                kind: String? = nil, mimeType: String? = nil, isDefault: Bool = false) {
        self.id = id
        self.src = src
        self.sources = sources
        self.language = language
        self.label = label
        self.kind = kind
        self.mimeType = mimeType
        self.isDefault = isDefault
    }
}

/// A cue point of a video (`cue_points[]`): an ad cue (`AD`) or a code cue (`CODE`) at a time.
public struct CatalogueCuePoint: Sendable, Equatable, Codable {
    /// Its id, if given.
    public var id: String?
    /// Name.
    public var name: String?
    /// `AD` or `CODE` (as given).
    public var type: String?
    /// Time in seconds from the video's start.
    public var timeSeconds: Double
    /// Its metadata text, if any.
    public var metadata: String?
    /// Whether playback must stop there (`force_stop`).
    public var forceStop: Bool

    /// Creates a cue point.
    public init(id: String? = nil, name: String? = nil, type: String? = nil, timeSeconds: Double, metadata: String? = nil,
                forceStop: Bool = false) {
        self.id = id
        self.name = name
        self.type = type
        self.timeSeconds = timeSeconds
        self.metadata = metadata
        self.forceStop = forceStop
    }
}

/// A playlist (the PSDK's `BCOVPlaylist`): its videos, or one page of them.
public struct CataloguePlaylist: Sendable, Equatable, Codable {
    /// Playlist id.
    public var id: String
    /// Reference id, if any.
    public var referenceId: String?
    /// Account id.
    public var accountId: String?
    /// Name.
    public var name: String?
    /// Description.
    public var description: String?
    /// Type (`EXPLICIT`, `ACTIVATED_OLDEST_TO_NEWEST`, …).
    public var type: String?
    /// The videos of this page, in playlist order (those that could not be read are in ``skipped``).
    public var videos: [CatalogueVideo]
    /// The entries of this page that are not readable videos: one malformed entry does not lose the others.
    public var skipped: [CatalogueSkippedVideo] = []
    /// How many videos the whole playlist holds, when the service says (`count`); nil otherwise.
    public var count: Int?
    /// The `limit` asked for (nil: none).
    public var limit: Int?
    /// The `offset` asked for (nil: none).
    public var offset: Int?

    /// Creates a playlist.
    public init(id: String, referenceId: String? = nil, accountId: String? = nil, name: String? = nil, description: String? = nil,
                type: String? = nil, videos: [CatalogueVideo] = [], count: Int? = nil, limit: Int? = nil, offset: Int? = nil) {
        self.id = id
        self.referenceId = referenceId
        self.accountId = accountId
        self.name = name
        self.description = description
        self.type = type
        self.videos = videos
        self.count = count
        self.limit = limit
        self.offset = offset
    }

    /// Whether videos are left after this page: the count says more than offset + videos; nil when the
    /// service gave no count.
    public var hasMore: Bool? { count.map { (offset ?? 0) + entryCount < $0 } }

    /// The entries this page held, read or skipped.
    public var entryCount: Int { videos.count + skipped.count }
}

/// An entry of a playlist's `videos` that is not a readable video (a missing id, a field of the wrong
/// kind): it is left out of ``CataloguePlaylist/videos`` and said here, so that the rest still play.
public struct CatalogueSkippedVideo: Sendable, Equatable, Codable {
    /// Its index in the playlist (from the playlist's first video, not the page's).
    public var index: Int
    /// Its id, when that much could be read.
    public var id: String?
    /// What is wrong: the URL, the entry's JSON path and the problem.
    public var reason: String

    /// Creates a skipped entry.
    public init(index: Int, id: String?, reason: String) {
        self.index = index
        self.id = id
        self.reason = reason
    }
}

/// What to look up: a video or playlist by its id, or by its reference id (`ref:` prefix on the command line).
public enum CatalogueReference: Sendable, Equatable, CustomStringConvertible {
    /// By id.
    case id(String)
    /// By reference id.
    case referenceId(String)

    /// Reads `ref:REF` as a reference id and anything else as an id; nil for an empty id.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("ref:") {
            let reference = String(trimmed.dropFirst(4))
            guard !reference.isEmpty else { return nil }
            self = .referenceId(reference)
        } else {
            guard !trimmed.isEmpty else { return nil }
            self = .id(trimmed)
        }
    }

    /// The path segment the API takes: the id, or `ref:` and the reference id.
    public var pathSegment: String {
        switch self {
        case let .id(id): id
        case let .referenceId(reference): "ref:" + reference
        }
    }

    /// `ID` or `ref:REF`.
    public var description: String { pathSegment }
}
