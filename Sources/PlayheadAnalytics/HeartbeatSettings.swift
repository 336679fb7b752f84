import Foundation

/// How video heartbeat tracking is set up (F27): the Adobe guide's `AdobeHeartbeatPluginConfig`
/// (tracking server, publisher, ovp, sdk, debug logging, quiet mode), its `VideoPlayerPluginConfig`
/// and the video, ad and chapter custom metadata of its `AdobeAnalyticsPlugin`.
public struct HeartbeatSettings: Sendable, Equatable {
    /// The shortest interval honoured: heartbeats are made at the player's events, which come once a second.
    public static let minimumIntervalSeconds = 1.0
    /// The longest interval accepted (as the daemon's other times).
    public static let maximumIntervalSeconds = 1e9
    /// The default heartbeat interval: 10 s of session time.
    public static let defaultIntervalSeconds = 10.0

    /// The base URL every call goes to (the guide's `trackingServer`); a bare host means `http://host`.
    /// May be nil only in ``quiet`` mode.
    public var trackingServer: String?
    /// The publisher's name (the guide's `publisher`).
    public var publisher: String
    /// The online video platform (`ovp`; the guide's default `unknown`).
    public var ovp: String
    /// The player app or SDK version (`sdk`; the guide's default `unknown`).
    public var sdk: String
    /// The syndication channel (the Analytics plugin's `channel`; empty by default).
    public var channel: String
    /// The player's name in every call (`playerName`).
    public var playerName: String
    /// Seconds of session time between periodic heartbeats while content or an ad plays or buffers.
    public var intervalSeconds: Double
    /// Quiet mode: every call is decided, logged and recorded, none is sent.
    public var quiet: Bool
    /// The video's id (the guide's `VideoInfo.id`; the item URL when nil).
    public var videoId: String?
    /// The video's name (`VideoInfo.name`, optional).
    public var videoName: String?
    /// The tracking session's id, `s:event:sid` in every call (a random UUID when nil).
    public var sessionId: String?
    /// Custom video metadata: on every call, as `s:meta:video.KEY`.
    public var videoMetadata: [String: String]
    /// Custom ad metadata: on the calls made inside an ad, as `s:meta:ad.KEY`.
    public var adMetadata: [String: String]
    /// Custom chapter metadata: on the calls made inside a chapter, as `s:meta:chapter.KEY`.
    public var chapterMetadata: [String: String]
    /// The chapters of the content, in content seconds; empty when chapters are not tracked.
    public var chapters: [HeartbeatChapter]

    /// Creates settings; the defaults are the guide's.
    public init(trackingServer: String?, publisher: String = "playhead", ovp: String = "unknown", sdk: String = "unknown",
                channel: String = "", playerName: String = "Playhead", intervalSeconds: Double = defaultIntervalSeconds,
                quiet: Bool = false, videoId: String? = nil, videoName: String? = nil, sessionId: String? = nil,
                videoMetadata: [String: String] = [:], adMetadata: [String: String] = [:],
                chapterMetadata: [String: String] = [:], chapters: [HeartbeatChapter] = []) {
        self.trackingServer = trackingServer
        self.publisher = publisher
        self.ovp = ovp
        self.sdk = sdk
        self.channel = channel
        self.playerName = playerName
        self.intervalSeconds = intervalSeconds
        self.quiet = quiet
        self.videoId = videoId
        self.videoName = videoName
        self.sessionId = sessionId
        self.videoMetadata = videoMetadata
        self.adMetadata = adMetadata
        self.chapterMetadata = chapterMetadata
        self.chapters = chapters
    }

    /// What is wrong with the settings, or nil: a tracking server that is not an http(s) URL or host,
    /// none outside quiet mode, an interval that is not a positive finite number, chapters that are
    /// empty, negative or overlap.
    public var problem: String? {
        if let trackingServer {
            guard HeartbeatURL.base(trackingServer) != nil else {
                return HeartbeatURL.hasQueryOrFragment(trackingServer)
                    ? "tracking server \"\(trackingServer)\" has a query or fragment: give the base URL alone (each call adds its own query)"
                    : "tracking server \"\(trackingServer)\" is not an http(s) URL or a host name"
            }
        } else if !quiet {
            return "a tracking server is needed (or quiet mode, which sends nothing)"
        }
        if !(intervalSeconds >= Self.minimumIntervalSeconds && intervalSeconds <= Self.maximumIntervalSeconds) {
            return "the heartbeat interval must be from \(Int(Self.minimumIntervalSeconds)) to \(Int(Self.maximumIntervalSeconds)) seconds (the player's time events come once a second), got \(intervalSeconds)"
        }
        var end = 0.0
        for (index, chapter) in chapters.sorted(by: { $0.startSeconds < $1.startSeconds }).enumerated() {
            guard chapter.startSeconds >= 0, chapter.startSeconds.isFinite, chapter.lengthSeconds > 0, chapter.lengthSeconds.isFinite else {
                return "chapter \(chapter.startSeconds):\(chapter.lengthSeconds) needs a start ≥ 0 and a length > 0"
            }
            if index > 0, chapter.startSeconds < end - 1e-9 {
                return "chapter at \(chapter.startSeconds) s starts before the chapter before it ends (\(end) s)"
            }
            end = chapter.startSeconds + chapter.lengthSeconds
        }
        return nil
    }
}

/// A chapter of the content (the guide's `ChapterInfo`): where it starts and how long it is, in
/// seconds of content (ads not counted), and its optional name. Its position is its rank by start, from 1.
public struct HeartbeatChapter: Sendable, Equatable, Codable {
    /// The offset in the content where the chapter starts, seconds.
    public var startSeconds: Double
    /// Its duration, seconds.
    public var lengthSeconds: Double
    /// Its name (opaque), if any.
    public var name: String?

    /// Creates a chapter.
    public init(startSeconds: Double, lengthSeconds: Double, name: String? = nil) {
        self.startSeconds = startSeconds
        self.lengthSeconds = lengthSeconds
        self.name = name
    }

    /// Where it ends, seconds of content.
    public var endSeconds: Double { startSeconds + lengthSeconds }
}
