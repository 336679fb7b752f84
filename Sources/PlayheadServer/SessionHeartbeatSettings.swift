import PlayheadAnalytics

/// Video heartbeat settings of a session (`heartbeats`, F27): as `playhead play --heartbeat-…`. With a
/// tracking server (or quiet mode) the session's events drive the guide's track… calls and a heartbeat
/// every `intervalSeconds` of session time; the report carries them (`heartbeats`).
public struct SessionHeartbeatSettings: Sendable, Codable, Equatable {
    /// The tracking server: an http(s) URL or a host (required unless `quiet`).
    public var trackingServer: String?
    /// Seconds of session time between heartbeats; default 10.
    public var intervalSeconds: Double?
    /// Quiet mode: calls are made and reported, none is sent.
    public var quiet: Bool?
    /// The video's id (default: the session's URL).
    public var videoId: String?
    /// The video's name.
    public var videoName: String?
    /// The publisher's name (default `playhead`).
    public var publisher: String?
    /// Custom metadata on every call (`s:meta:video.KEY`).
    public var videoMetadata: [String: String]?
    /// Custom metadata on the calls inside an ad (`s:meta:ad.KEY`).
    public var adMetadata: [String: String]?
    /// Custom metadata on the calls inside a chapter (`s:meta:chapter.KEY`).
    public var chapterMetadata: [String: String]?
    /// Chapters in content seconds.
    public var chapters: [HeartbeatChapter]?

    /// Creates settings with nothing set.
    public init() {}

    /// The tracker's settings.
    public var settings: HeartbeatSettings {
        var settings = HeartbeatSettings(trackingServer: trackingServer, quiet: quiet ?? false, videoId: videoId, videoName: videoName,
                                         videoMetadata: videoMetadata ?? [:], adMetadata: adMetadata ?? [:],
                                         chapterMetadata: chapterMetadata ?? [:],
                                         chapters: chapters ?? [])
        if let intervalSeconds { settings.intervalSeconds = intervalSeconds }
        if let publisher { settings.publisher = publisher }
        return settings
    }
}

extension SessionSpec {
    /// Reads `heartbeats` (strictly, naming the field at fault).
    static func parseHeartbeats(_ r: FieldReader) throws(APIError) -> SessionHeartbeatSettings {
        try r.rejectUnknown(["trackingServer", "intervalSeconds", "quiet", "videoId", "videoName", "publisher", "videoMetadata",
                             "adMetadata", "chapterMetadata", "chapters"])
        var result = SessionHeartbeatSettings()
        result.trackingServer = try r.string("trackingServer")
        result.intervalSeconds = try r.number("intervalSeconds", minimum: HeartbeatSettings.minimumIntervalSeconds,
                                             maximum: HeartbeatSettings.maximumIntervalSeconds)
        result.quiet = try r.bool("quiet")
        result.videoId = try r.string("videoId")
        result.videoName = try r.string("videoName")
        result.publisher = try r.string("publisher")
        func strings(_ key: String) throws(APIError) -> [String: String]? {
            guard let object = try r.object(key) else { return nil }
            var values: [String: String] = [:]
            for name in object.object.keys {
                guard !name.isEmpty else { throw .invalidField(object.path(name), "the key must not be empty") }
                values[name] = try object.string(name)
            }
            return values
        }
        result.videoMetadata = try strings("videoMetadata")
        result.adMetadata = try strings("adMetadata")
        result.chapterMetadata = try strings("chapterMetadata")
        if let chapters = try r.objectArray("chapters") {
            var parsed: [HeartbeatChapter] = []
            for chapter in chapters {
                try chapter.rejectUnknown(["startSeconds", "lengthSeconds", "name"])
                guard let start = try chapter.number("startSeconds", minimum: 0, maximum: maxSeconds) else { throw .missingField(chapter.path("startSeconds")) }
                guard let length = try chapter.number("lengthSeconds", minimum: 0.001, maximum: maxSeconds) else { throw .missingField(chapter.path("lengthSeconds")) }
                parsed.append(HeartbeatChapter(startSeconds: start, lengthSeconds: length, name: try chapter.string("name")))
            }
            result.chapters = parsed
        }
        if let problem = result.settings.problem {
            let field = problem.contains("chapter") ? "heartbeats.chapters" : "heartbeats.trackingServer"
            throw .invalidField(field, problem)
        }
        return result
    }
}
