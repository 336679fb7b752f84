import ArgumentParser
import Foundation
import PlayheadAnalytics

/// `playhead play`'s video heartbeat options (F27): where the calls go, how often, quiet mode, the
/// debug log, custom metadata and chapters.
struct HeartbeatOptions: ParsableArguments {
    @Option(name: .customLong("heartbeat-server"),
            help: "Video heartbeats: send the track… calls and a heartbeat every --heartbeat-interval seconds of session time to this tracking server (an http(s) URL or a host), e.g. `playhead ad-server`'s collector http://127.0.0.1:PORT/hb. The report's heartbeats section lists every call.")
    var server: String?

    @Option(name: .customLong("heartbeat-interval"), parsing: .unconditional,
            help: "Heartbeats: seconds of session time between periodic calls while playing or rebuffering (default 10).")
    var interval: Double?

    @Flag(name: .customLong("heartbeat-quiet"),
          help: "Heartbeats: quiet mode: make, log and report every call, send none (no --heartbeat-server needed).")
    var quiet = false

    @Flag(name: .customLong("heartbeat-debug"),
          help: "Heartbeats: write the debug log to standard error: a #track… line per track call, and each call sent with its answer.")
    var debug = false

    @Option(name: .customLong("heartbeat-meta"), parsing: .unconditionalSingleValue,
            help: "Heartbeats: KEY=VALUE custom video metadata on every call (repeatable); ad.KEY=VALUE only on the calls inside an ad, chapter.KEY=VALUE inside a chapter.")
    var metadata: [String] = []

    @Option(name: .customLong("heartbeat-chapter"), parsing: .unconditionalSingleValue,
            help: "Heartbeats: START:LENGTH[:NAME], a chapter in seconds of content (repeatable): trackChapterStart when the playhead enters it, trackChapterComplete when it plays through its end.")
    var chapters: [String] = []

    @Option(name: .customLong("heartbeat-video-id"), help: "Heartbeats: the video's id (default: the item's URL).")
    var videoId: String?

    @Option(name: .customLong("heartbeat-video-name"), help: "Heartbeats: the video's name.")
    var videoName: String?

    @Option(name: .customLong("heartbeat-publisher"), help: "Heartbeats: the publisher's name (default: playhead).")
    var publisher: String?

    /// Whether heartbeats are on: a tracking server or quiet mode.
    var enabled: Bool { server != nil || quiet }

    func validate() throws { _ = try settings() }

    /// The settings the options give, or nil when heartbeats are off; a ValidationError names the bad option.
    func settings() throws -> HeartbeatSettings? {
        guard enabled else {
            let stray = [("--heartbeat-interval", interval != nil), ("--heartbeat-debug", debug), ("--heartbeat-meta", !metadata.isEmpty),
                         ("--heartbeat-chapter", !chapters.isEmpty), ("--heartbeat-video-id", videoId != nil),
                         ("--heartbeat-video-name", videoName != nil), ("--heartbeat-publisher", publisher != nil)]
            if let option = stray.first(where: \.1)?.0 {
                throw ValidationError("\(option) needs --heartbeat-server URL (or --heartbeat-quiet): heartbeats are off without one")
            }
            return nil
        }
        var settings = HeartbeatSettings(trackingServer: server, quiet: quiet, videoId: videoId, videoName: videoName)
        if let interval { settings.intervalSeconds = interval }
        if let publisher { settings.publisher = publisher }
        for entry in metadata {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("--heartbeat-meta takes KEY=VALUE (ad.KEY=VALUE, chapter.KEY=VALUE), got \"\(entry)\"")
            }
            var key = String(entry[..<equals])
            let value = String(entry[entry.index(after: equals)...])
            let scope = ["ad.", "chapter.", "video."].first { key.hasPrefix($0) }
            if let scope { key.removeFirst(scope.count) }
            guard !key.isEmpty else { throw ValidationError("--heartbeat-meta \"\(entry)\": the key after \(scope ?? "") is empty") }
            switch scope {
            case "ad.": settings.adMetadata[key] = value
            case "chapter.": settings.chapterMetadata[key] = value
            default: settings.videoMetadata[key] = value
            }
        }
        settings.chapters = try chapters.map { text in
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let start = Double(parts[0]), let length = Double(parts[1]) else {
                throw ValidationError("--heartbeat-chapter takes START:LENGTH[:NAME] in seconds of content, got \"\(text)\"")
            }
            return HeartbeatChapter(startSeconds: start, lengthSeconds: length, name: parts.count > 2 && !parts[2].isEmpty ? String(parts[2]) : nil)
        }
        if let problem = settings.problem {
            let option = problem.contains("interval") ? "--heartbeat-interval" : problem.contains("chapter") ? "--heartbeat-chapter" : "--heartbeat-server"
            throw ValidationError("\(option): \(problem)")
        }
        return settings
    }
}
