import Foundation
import PlayheadCore

/// The video heartbeat state machine (F27): turns the player's events, in order, into the guide's
/// `track…` calls and the periodic heartbeats, with the `#track` debug lines. Pure: no I/O, no clock
/// but the events' session times, so a virtual-clock session gives the same calls every run.
///
/// | Player event | Track method (`s:event:type`) |
/// |---|---|
/// | `statusChanged` to `initialized` (the item's playlists loaded: its length is known) | `trackVideoLoad` (`load`) |
/// | `statusChanged` to `playing`, the first time | `trackSessionStart` (`start`) |
/// | `playStarted` (first frame) | `trackPlay` (`play`); the startup time is measured here |
/// | `statusChanged` `paused` → `playing` | `trackPlay` (`play`) |
/// | `statusChanged` to `paused` | `trackPause` (`pause`) |
/// | `seekStarted` / `seekCompleted` | `trackSeekStart` / `trackSeekComplete` (`seek_start` / `seek_complete`) |
/// | `bufferingStarted` / `bufferingCompleted` | `trackBufferStart` / `trackBufferComplete` (`buffer_start` / `buffer_complete`) |
/// | `adStarted` / `adCompleted` | `trackAdStart` / `trackAdComplete` (`ad_start` / `ad_complete`); an ad left by a seek (`adSkipped` during it) has no complete, as the guide allows; one left otherwise (cut short, a stop) completes where it got to |
/// | content playhead enters / plays through a chapter | `trackChapterStart` / `trackChapterComplete` (`chapter_start` / `chapter_complete`) |
/// | `bitrateChanged` after the first choice | `trackBitrateChange` (`bitrate_change`) |
/// | `error` | `trackVideoPlayerError` (`error`, `s:event:error_id` = the notification's code) |
/// | `playCompleted` | `trackComplete` (`complete`) |
/// | `statusChanged` to `stopped`, ``unload(at:)`` | `trackVideoUnload` (`unload`) |
///
/// Periodic heartbeats (method `heartbeat`) go every ``HeartbeatSettings/intervalSeconds`` of session
/// time from the last `trackPlay` while content or an ad plays (`s:event:type` `play`, asset type
/// `main` or `ad`) or while a rebuffer lasts (`buffer`); none while paused, seeking before the first
/// frame, after completion or after an error. They fall due on the clock, so a heartbeat is made at
/// the first player event at or after its due time (the player posts `timeChanged` each second of
/// playback); due times a pause or a stall without events skipped are not made up.
///
/// The guide's order rules are kept and what breaks them is logged as `WARN` (not sent): a call
/// before `trackVideoLoad` loads first; `trackPlay` before `trackSessionStart` starts the session
/// (`#trackPlay > Tracking session auto-start.`); nothing is called after `trackVideoUnload`.
public struct HeartbeatSession: Sendable {
    /// The settings.
    public let settings: HeartbeatSettings
    /// The session id every call carries.
    public let sessionId: String
    /// Session time from `trackSessionStart` to the first `trackPlay`, once measured.
    public private(set) var startupTimeSeconds: Double?

    enum Phase: Sendable { case idle, playing, paused, buffering, ended }

    private var loaded = false
    private var unloaded = false
    private var sessionStartedAt: Double?
    private var firstPlayDone = false
    private var phase = Phase.idle
    private var nextHeartbeat: Double?
    private var timeline = AdTimeline()
    private var contentSeconds = 0.0
    /// The last playback-timeline position known (ads included) and the session time it was known at.
    private var virtualSeconds = 0.0
    private var virtualAt = 0.0
    private var ad: AdEventInfo?
    /// A seek is under way (between `seekStarted` and `seekCompleted`): an ad left then needs no complete.
    private var seeking = false
    /// Session time at which `ad`'s offset was known (the ad playhead moves on from there while playing).
    private var adOffsetAt = 0.0
    private var adBreakContentSeconds = 0.0
    /// Server-side ad avails announced (`adCueTimelineAdded`): start on the stream's timeline and length.
    /// Their seconds are ads, not main content: the content playhead leaves them out.
    private var ssaiAvails: [String: (start: Double, duration: Double)] = [:]
    private var chapter: Int?
    private var bitrate: Int?
    private var videoURL = ""
    private let chapters: [HeartbeatChapter]
    private var calls: [HeartbeatCall] = []
    private var lines: [String] = []

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - settings: How tracking is set up.
    ///   - sessionId: The id of this tracking session (the settings' when given, else a random UUID).
    public init(settings: HeartbeatSettings, sessionId: String? = nil) {
        self.settings = settings
        self.sessionId = settings.sessionId ?? sessionId ?? UUID().uuidString
        chapters = settings.chapters.sorted { $0.startSeconds < $1.startSeconds }
    }

    /// Replaces the ad timeline (content playheads leave the ads out through it).
    public mutating func update(timeline: AdTimeline) { self.timeline = timeline }

    /// Handles one player event; returns the calls it makes and the debug lines it writes, in order.
    public mutating func handle(_ event: PlayerEvent, info: HeartbeatPlayerInfo) -> (calls: [HeartbeatCall], lines: [String]) {
        let now = event.playerTime
        guard !unloaded else { return ([], []) }
        advance(to: now, info: info)
        dueHeartbeat(now: now, info: info)
        switch event.kind {
        case let .itemChanged(url):
            videoURL = url
        case let .statusChanged(_, to):
            switch to {
            case .initialized where !loaded:
                loaded = true
                track("trackVideoLoad", "load", now, info)
            case .playing:
                virtualAt = now
                if sessionStartedAt == nil {
                    startSession(now, info)
                } else if phase == .paused {
                    play(now, info)
                }
            case .paused where phase == .playing || phase == .buffering:
                phase = .paused
                freeze(now)
                nextHeartbeat = nil
                track("trackPause", "pause", now, info)
            case .stopped:
                unload(now, info)
            default:
                break
            }
        case .playStarted:
            if sessionStartedAt == nil {
                log(now, "INFO", "#trackPlay > Tracking session auto-start.")
                startSession(now, info)
            }
            // Where playback starts (a start position, a seek made before play), not 0.
            if !firstPlayDone, let position = info.positionSeconds { moveContent(toVirtual: position, now, info) }
            startupTimeSeconds = now - (sessionStartedAt ?? now)
            firstPlayDone = true
            play(now, info)
        case let .timeChanged(seconds):
            moveContent(toVirtual: seconds, now, info)
        case .seekStarted:
            seeking = true
            track("trackSeekStart", "seek_start", now, info)
        case let .seekCompleted(at):
            seeking = false
            track("trackSeekComplete", "seek_complete", now, info,
                  playheadOverride: mainSeconds(atVirtual: at) ?? timeline.localSeconds(atVirtual: at))
            moveContent(toVirtual: at, now, info)
        case .bufferingStarted:
            guard phase == .playing else { break }
            phase = .buffering
            freeze(now)
            track("trackBufferStart", "buffer_start", now, info)
        case .bufferingCompleted:
            guard phase == .buffering else { break }
            phase = .playing
            virtualAt = now
            adOffsetAt = now
            track("trackBufferComplete", "buffer_complete", now, info)
        case let .adBreakStarted(_, breakIndex, _):
            adBreakContentSeconds = timeline.breaks.indices.contains(breakIndex) ? timeline.breaks[breakIndex].contentSeconds : contentSeconds
        case let .adStarted(adInfo):
            ad = adInfo
            adOffsetAt = now
            track("trackAdStart", "ad_start", now, info)
        case let .adProgress(adInfo):
            if ad?.adId == adInfo.adId, ad?.breakId == adInfo.breakId {
                ad = adInfo
                adOffsetAt = now
            }
        case let .adCompleted(adInfo):
            ad = adInfo
            adOffsetAt = now
            track("trackAdComplete", "ad_complete", now, info)
            ad = nil
        case let .adSkipped(adInfo):
            // Left early: the guide lets an ad have no complete only when the user seeks out of it. An ad the
            // player cut short (a segment that could not be loaded) or a stop inside it completes where it got to.
            if !seeking, ad != nil {
                ad = adInfo
                adOffsetAt = now
                track("trackAdComplete", "ad_complete", now, info)
            }
            ad = nil
        case let .bitrateChanged(from, to, _):
            let first = from == nil && bitrate == nil
            bitrate = to
            if !first { track("trackBitrateChange", "bitrate_change", now, info) }
        case let .error(notification):
            if !loaded, !videoURL.isEmpty {
                // The item was set and failed to load: its load call, then the error.
                loaded = true
                track("trackVideoLoad", "load", now, info)
            }
            track("trackVideoPlayerError", "error", now, info,
                  extra: [HeartbeatParameter("s:event:error_id", "\(notification.code.code) \(notification.code.name)")])
            phase = .ended
            nextHeartbeat = nil
        case let .custom(name, payload) where payload["ssai"] == "1":
            handleSSAI(name, payload, now, info)
        case .playCompleted:
            // The content ended inside a chapter: it played as far as it could.
            if chapter != nil {
                track("trackChapterComplete", "chapter_complete", now, info)
                chapter = nil
            }
            track("trackComplete", "complete", now, info)
            phase = .ended
            nextHeartbeat = nil
        default:
            break
        }
        return drain()
    }

    /// Ends the tracking session (`trackVideoUnload`) at session time `now`, once; later events are ignored.
    public mutating func unload(at now: Double, info: HeartbeatPlayerInfo) -> (calls: [HeartbeatCall], lines: [String]) {
        unload(now, info)
        return drain()
    }

    private mutating func drain() -> (calls: [HeartbeatCall], lines: [String]) {
        defer { calls = []; lines = [] }
        return (calls, lines)
    }

    private mutating func unload(_ now: Double, _ info: HeartbeatPlayerInfo) {
        guard loaded, !unloaded else { return }
        track("trackVideoUnload", "unload", now, info)
        unloaded = true
        phase = .ended
        nextHeartbeat = nil
    }

    private mutating func startSession(_ now: Double, _ info: HeartbeatPlayerInfo) {
        sessionStartedAt = now
        track("trackSessionStart", "start", now, info)
    }

    private mutating func play(_ now: Double, _ info: HeartbeatPlayerInfo) {
        phase = .playing
        adOffsetAt = now
        nextHeartbeat = now + settings.intervalSeconds
        track("trackPlay", "play", now, info)
        if ad == nil { updateChapter(now, info) }
    }

    /// The periodic heartbeat, when one is due and content or an ad plays or buffers.
    private mutating func dueHeartbeat(now: Double, info: HeartbeatPlayerInfo) {
        guard let due = nextHeartbeat, now >= due - 1e-9, phase == .playing || phase == .buffering else { return }
        if phase == .buffering {
            // A stalled player posts no events: the heartbeats that fell due during the stall are made at
            // its next event, each at its own time (the playhead stood still meanwhile).
            var slot = due
            while slot <= now + 1e-9 {
                track("heartbeat", "buffer", slot, info)
                slot += settings.intervalSeconds
            }
            nextHeartbeat = slot
            return
        }
        var next = due
        while next <= now + 1e-9 { next += settings.intervalSeconds }
        nextHeartbeat = next
        track("heartbeat", phase == .buffering ? "buffer" : "play", now, info)
    }

    /// Moves the playhead on between the player's `timeChanged` events (posted once a second): while
    /// playing, by the session time since the last known position at the player's rate.
    private mutating func advance(to now: Double, info: HeartbeatPlayerInfo) {
        guard phase == .playing, ad == nil, now > virtualAt else { return }
        let position = virtualSeconds + (now - virtualAt) * info.rate
        // A blackout is main content for heartbeats: its alternate replaces the content second for second. A
        // position past the start of a client-side break (its first event not in yet) is the content where the
        // break sits: a heartbeat due as a break started at 14 s said 13.419, the position of the event before.
        if let content = mainSeconds(atVirtual: position) {
            contentSeconds = content
        } else if case let .ad(breakIndex, _, _) = timeline.position(atVirtual: position) {
            contentSeconds = max(contentSeconds, mainSeconds(stream: timeline.breaks[breakIndex].contentSeconds))
        }
    }

    /// Keeps the extrapolated position as known at `now` (the clock stops: a pause, a stall).
    private mutating func freeze(_ now: Double) {
        if phase != .ended, now > virtualAt, ad == nil { virtualSeconds = virtualSeconds(forMain: contentSeconds) }
        virtualAt = now
        // Inside an ad: its playhead stops where it got to (it moved on since its last adProgress).
        if var current = ad {
            current.offsetSeconds = adPlayhead(at: now, rate: 1)
            ad = current
        }
        adOffsetAt = now
    }

    /// The ad's playhead at `now`: its last known offset, moved on while playing (events come once a second).
    private func adPlayhead(at now: Double, rate: Double) -> Double {
        guard let ad else { return 0 }
        let moved = phase == .playing || phase == .paused || phase == .buffering ? max(0, now - adOffsetAt) * rate : 0
        return min(ad.durationSeconds, ad.offsetSeconds + moved)
    }

    private mutating func moveContent(toVirtual seconds: Double, _ now: Double, _ info: HeartbeatPlayerInfo) {
        virtualSeconds = seconds
        virtualAt = now
        if let content = mainSeconds(atVirtual: seconds) {
            contentSeconds = content
            if ad == nil, firstPlayDone { updateChapter(now, info) }
        }
    }

    /// The main content's playhead at playback-timeline position `seconds`: client-side breaks left out, a
    /// blackout counted as content, and server-side ads (stitched into the stream) left out too.
    private func mainSeconds(atVirtual seconds: Double) -> Double? {
        guard let stream = timeline.contentSecondsCountingBlackouts(atVirtual: seconds) else { return nil }
        return mainSeconds(stream: stream)
    }

    /// The main content's playhead at stream content time `stream`: server-side ads stitched before it left out.
    private func mainSeconds(stream: Double) -> Double {
        stream - ssaiAvails.values.reduce(0) { $0 + min(max(0, stream - $1.start), $1.duration) }
    }

    /// The playback-timeline position where main content time `main` plays (before any avail that starts there).
    private func virtualSeconds(forMain main: Double) -> Double {
        var stream = main
        for avail in ssaiAvails.values.sorted(by: { $0.start < $1.start }) where avail.start < stream - 1e-9 { stream += avail.duration }
        return timeline.virtualSecondsCountingBlackouts(forContent: stream)
    }

    /// A server-side ad event (``SSAIEvent``'s payload): the avail and ad calls, as a client-side ad's.
    private mutating func handleSSAI(_ name: String, _ payload: [String: String], _ now: Double, _ info: HeartbeatPlayerInfo) {
        func number(_ key: String) -> Double? { payload[key].flatMap(Double.init) }
        let availId = payload["availId"] ?? ""
        switch name {
        case "adCueTimelineAdded":
            if let start = number("contentSeconds"), let duration = number("durationSeconds") { ssaiAvails[availId] = (start, duration) }
        case "adCueTimelineStart":
            adBreakContentSeconds = contentSeconds
        case "adStarted", "adFirstQuartile", "adMidpoint", "adThirdQuartile", "adRemainingTime", "adComplete", "adSkipped":
            guard let adId = payload["adId"], let offset = number("offsetSeconds") else { return }
            let adInfo = AdEventInfo(breakId: availId, breakIndex: 0, adId: adId, adIndex: max(0, Int(number("adNumber") ?? 1) - 1), url: "",
                                     durationSeconds: number("durationSeconds") ?? offset + (number("remainingSeconds") ?? 0),
                                     offsetSeconds: offset, pts: number("contentSeconds") ?? 0)
            switch name {
            case "adStarted":
                ad = adInfo
                adOffsetAt = now
                track("trackAdStart", "ad_start", now, info)
            case "adComplete", "adSkipped":
                guard ad?.adId == adId, ad?.breakId == availId else { return }
                ad = adInfo
                adOffsetAt = now
                track("trackAdComplete", "ad_complete", now, info)
                ad = nil
            default:
                if ad?.adId == adId, ad?.breakId == availId {
                    ad = adInfo
                    adOffsetAt = now
                }
            }
        case "adCueTimelineEnd":
            // Left by a seek: no complete (the guide's exception); the ad is over all the same.
            ad = nil
        default:
            break
        }
    }

    /// Starts and completes chapters as the content playhead enters and leaves them.
    private mutating func updateChapter(_ now: Double, _ info: HeartbeatPlayerInfo) {
        let inside = chapters.firstIndex { contentSeconds + 1e-9 >= $0.startSeconds && contentSeconds < $0.endSeconds - 1e-9 }
        guard inside != chapter else { return }
        if let index = chapter {
            // Played through its end: complete; left by a seek: no complete (the guide's exception).
            let end = chapters[index].endSeconds
            if contentSeconds + 1e-9 >= end, contentSeconds < end + 1.5 { track("trackChapterComplete", "chapter_complete", now, info) }
        }
        chapter = nil
        if let inside {
            chapter = inside
            track("trackChapterStart", "chapter_start", now, info)
        }
    }

    private mutating func track(_ method: String, _ type: String, _ now: Double, _ info: HeartbeatPlayerInfo,
                                playheadOverride: Double? = nil, extra: [HeartbeatParameter] = []) {
        if !loaded, method != "trackVideoLoad" {
            log(now, "WARN", "#\(method) before #trackVideoLoad: loading first")
            loaded = true
            track("trackVideoLoad", "load", now, info)
        }
        if method != "heartbeat" { log(now, "INFO", "#\(method)") }
        let inAd = ad != nil
        let playhead = inAd ? (phase == .playing ? adPlayhead(at: now, rate: info.rate) : ad?.offsetSeconds ?? 0) : (playheadOverride ?? contentSeconds)
        var parameters = [
            HeartbeatParameter("s:event:type", type),
            HeartbeatParameter("s:event:sid", sessionId),
            HeartbeatParameter("l:event:ts", String(Int((now * 1000).rounded()))),
            HeartbeatParameter("l:event:playhead", String(Int(max(0, playhead).rounded(.down)))),
            HeartbeatParameter("s:sp:player_name", settings.playerName),
            HeartbeatParameter("s:sp:publisher", settings.publisher),
            HeartbeatParameter("s:sp:ovp", settings.ovp),
            HeartbeatParameter("s:sp:sdk", settings.sdk),
        ]
        if !settings.channel.isEmpty { parameters.append(HeartbeatParameter("s:sp:channel", settings.channel)) }
        parameters += [
            HeartbeatParameter("s:asset:type", inAd ? "ad" : "main"),
            HeartbeatParameter("s:asset:video_id", settings.videoId ?? videoURL),
        ]
        if let name = settings.videoName { parameters.append(HeartbeatParameter("s:asset:name", name)) }
        parameters += [
            HeartbeatParameter("s:stream:type", info.isLive ? "live" : "vod"),
            HeartbeatParameter("l:asset:length", info.isLive ? "-1" : info.durationSeconds.map { String(Int($0.rounded())) } ?? "-1"),
        ]
        if let ad {
            parameters += [
                HeartbeatParameter("s:asset:pod_id", ad.breakId),
                HeartbeatParameter("l:asset:pod_position", String(ad.breakIndex + 1)),
                HeartbeatParameter("l:asset:pod_offset", String(Int(adBreakContentSeconds.rounded(.down)))),
                HeartbeatParameter("s:asset:ad_id", ad.adId),
                HeartbeatParameter("l:asset:ad_length", String(Int(ad.durationSeconds.rounded()))),
                HeartbeatParameter("l:asset:ad_position", String(ad.adIndex + 1)),
            ]
        }
        if let index = chapter {
            let value = chapters[index]
            if let name = value.name { parameters.append(HeartbeatParameter("s:stream:chapter_name", name)) }
            parameters += [
                HeartbeatParameter("l:stream:chapter_position", String(index + 1)),
                HeartbeatParameter("l:stream:chapter_offset", String(Int(value.startSeconds.rounded(.down)))),
                HeartbeatParameter("l:stream:chapter_length", String(Int(value.lengthSeconds.rounded()))),
            ]
        }
        if let bitrate { parameters.append(HeartbeatParameter("l:stream:bitrate", String(bitrate))) }
        if let startupTimeSeconds { parameters.append(HeartbeatParameter("l:stream:startup_time", String(Int((startupTimeSeconds * 1000).rounded())))) }
        parameters += extra
        parameters += Self.meta("video", settings.videoMetadata)
        if inAd { parameters += Self.meta("ad", settings.adMetadata) }
        if chapter != nil, !inAd { parameters += Self.meta("chapter", settings.chapterMetadata) }
        calls.append(HeartbeatCall(method: method, type: type, sessionSeconds: now, playheadSeconds: max(0, playhead),
                                   assetType: inAd ? "ad" : "main", parameters: parameters))
    }

    private static func meta(_ scope: String, _ values: [String: String]) -> [HeartbeatParameter] {
        values.keys.sorted().map { HeartbeatParameter("s:meta:\(scope).\($0)", values[$0] ?? "") }
    }

    private mutating func log(_ now: Double, _ level: String, _ message: String) {
        lines.append(String(format: "[%.3f s] [%@] [plugin::player] %@", now, level, message))
    }
}
