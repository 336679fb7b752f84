import ArgumentParser
import Foundation
import PlayheadAdInsertion
import PlayheadAnalytics
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadReport

/// `playhead play URL`: one playback session, on the real or the virtual clock.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play an HLS stream headless: real fetches and decoding, true frame timing, events and a report.",
        discussion: """
        On the virtual clock (the default) the session runs as fast as the CPU allows and is deterministic: \
        transfers take the time the simulated link charges (a --trace, or a constant --bandwidth). On the \
        real clock frames are presented at wall-clock time and late frames are dropped. \
        Exit status: 0 when playback completed or was stopped as asked, 1 when the session ended in error, 2 on usage errors, \
        128 + N when signal N (SIGINT, SIGTERM) stopped it (the report and outputs are still written).
        """
    )

    /// The session clock.
    enum ClockChoice: String, ExpressibleByArgument, CaseIterable { case real, virtual }

    @Argument(help: "A multivariant or media playlist: http(s) or file URL, or a file path.")
    var source: String

    @Option(help: "Session clock: real or virtual.")
    var clock: ClockChoice = .virtual

    @Option(help: "Bandwidth trace for the virtual clock: lines of time_s<TAB>Mbit/s, where each line gives the bandwidth from the previous line's time up to its own (Pensieve's convention: the first line's Mbit/s is never used; the trace wraps at its end).")
    var trace: String?

    @Option(parsing: .unconditional, help: "Constant link bandwidth for the virtual clock without --trace, Mbit/s (default: 50).")
    var bandwidth: Double?

    /// The virtual clock's constant link without `--bandwidth`, Mbit/s.
    static let defaultBandwidth = 50.0

    @Option(help: "decode, demux or keyframes.")
    var mode: DecodeMode = .decode

    @Option(parsing: .unconditional, help: "Play this variant of a multivariant playlist throughout (index as listed; turns ABR off).")
    var variant: Int?

    @Option(name: .customLong("max-bandwidth"), parsing: .unconditional, help: "Play the highest variant at most this many bits per second throughout (turns ABR off).")
    var maxBandwidth: Int?

    @Option(help: "ABR policy: \(ABRPolicies.names.joined(separator: ", ")) (default: \(ABRPolicies.defaultName)).")
    var abr: String?

    @Option(parsing: .unconditional, help: "ABR: lowest bitrate allowed, bits per second.")
    var minBitrate: Int?

    @Option(parsing: .unconditional, help: "ABR: highest bitrate allowed, bits per second.")
    var maxBitrate: Int?

    @Option(parsing: .unconditional, help: "ABR: bitrate of the first segment (the variant closest to it, at or below), bits per second.")
    var initialBitrate: Int?

    @Option(parsing: .unconditional, help: "ABR: preferred peak bitrate (Brightcove), bits per second; 0 = automatic (the default).")
    var peakBitrate: Int?

    @Option(parsing: .unconditional, help: "ABR: lock to this rung of the ladder (0 = lowest bandwidth; a rung past the top locks the top).")
    var lockRung: Int?

    @Option(parsing: .unconditional, help: "Stop after this many seconds of session time.")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Start position, seconds of content (ads not counted; the breaks before it are not played). --seek and --pause count on the playback timeline, ads included.")
    var start: Double?

    @Option(parsing: .unconditionalSingleValue, help: "AT:TO — when the playhead reaches AT seconds by playing, seek to TO (repeatable; an AT that the start position or a seek jumps over waits until the playhead plays through it).")
    var seek: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "AT:FOR — when the playhead reaches AT seconds by playing, pause for FOR seconds (repeatable; as for --seek).")
    var pause: [String] = []

    @Option(name: .customLong("resume-after-failure"), parsing: .unconditional,
            help: "N[:DELAY] — when the session fails after it started playing (retries spent), post failedToPlayToEnd, wait DELAY seconds (default 5) and resume where it failed (resumeBegin, then resumeComplete or resumeFail), up to N times; then the failure ends it.")
    var resumeAfterFailure: String?

    @Option(parsing: .unconditional, help: "Playback rate, 0.01 to 100 (≤ 0 means 1.0).")
    var rate: Double = 1.0

    @Option(help: "Write events as NDJSON (one a line) to FILE, or - for standard output.")
    var events: String?

    @Option(help: "Write the JSON report to FILE, or - for standard output.")
    var report: String?

    @Option(help: "Write the HTML report (charts and tables, one self-contained page) to FILE.")
    var reportHtml: String?

    @Option(help: "Write presented frames as Y4M video (video.y4m; after a switch to another picture size, video.1.y4m, …) and WAV audio (audio.wav) into DIR.")
    var dump: String?

    @Flag(help: "With --dump, write each presented picture as a PNG file (DIR/frames/000001.png, …, rgb24) instead of video.y4m.")
    var dumpPng = false

    @Option(help: "Write framemd5 lines of presented video frames to FILE, or -.")
    var framemd5: String?

    @Option(help: "Play ads from this ad map (JSON: breaks by cue time or cue id → ad playlist URLs; relative URLs against the item).")
    var adMap: String?

    @Option(help: "Ads from an ad server (the default VAST/VMAP resolver, PSDK ad metadata): its base URL or host.")
    var adDomain: String?

    @Option(parsing: .unconditional, help: "Ad server: zone id (any text, \"-1\" included).")
    var adZone: String = "1"

    @Option(parsing: .unconditional, help: "Ad server: the content's media id (any text).")
    var adMediaId: String = "content"

    @Flag(help: "Ad server, live: no pre-roll request at the start.")
    var noLivePreroll = false

    @Option(help: "Ad signalling mode: default, manifestCues or serverMap.")
    var adSignalingMode: String = "default"

    @Option(name: .customLong("subscribe-tag"), parsing: .unconditionalSingleValue,
            help: "Report this playlist tag as timed metadata (a timedMetadata event and a report entry the first time each is seen), named with its # and quoted for the shell, e.g. '#EXT-X-ASSET' (repeatable).")
    var subscribedTags: [String] = []

    @Option(help: "Audio rendition to play when the variants name an AUDIO group: auto (DEFAULT=YES, else the first), default (the main audio: the rendition without URI, else the variant's own) or a rendition's NAME or LANGUAGE. A rendition with its own playlist is loaded beside the video and joined to it.")
    var audio: String = "auto"

    @Option(name: .customLong("switch-audio"), parsing: .unconditionalSingleValue,
            help: "AT:TRACK — when the playhead reaches AT seconds by playing, play audio rendition TRACK (name or language, auto or default) from there (repeatable).")
    var switchAudio: [String] = []

    @Option(name: .customLong("switch-subtitles"), parsing: .unconditionalSingleValue,
            help: "AT:TRACK — when the playhead reaches AT seconds by playing, show subtitle track TRACK (name, language or off) (repeatable).")
    var switchSubtitles: [String] = []

    @Option(help: "Subtitle track to show: auto (the DEFAULT=YES track, else a FORCED=YES one), off, or a track's NAME or LANGUAGE (en matches en-US). Each cue is a subtitleCueStarted/Ended event and a report entry.")
    var subtitles: String = "auto"

    @Option(name: .customLong("sidecar-vtt"), parsing: .unconditionalSingleValue,
            help: "URL[,LANGUAGE[,NAME]] — a WebVTT file offered as a subtitle track beside the item's own, its times in content seconds (repeatable; choose it with --subtitles).")
    var sidecarSubtitles: [String] = []

    @Option(name: .customLong("blackout-tag"),
            help: "The playlist tag that signals blackouts, with its # and quoted for the shell, e.g. '#EXT-X-BLACKOUT' (value START or END, alone or as TYPE=) or '#EXT-OATCLS-SCTE35' (an SCTE-35 cue restricting web delivery starts one). Needs --blackout-alternate.")
    var blackoutTag: String?

    @Option(name: .customLong("blackout-alternate"),
            help: "VOD playlist (URL or path; relative to the item's URL) played, looped, in place of the content during a blackout; the content's playlist is reloaded meanwhile, and playback returns to it at the end tag.")
    var blackoutAlternate: String?

    @Flag(help: "Virtual clock: play a VOD media playlist as a live window that grows with session time.")
    var simulateLive = false

    @Flag(help: "For CI: exit 3 when the session completed but media was damaged or lost on the way (the report's damage list is not empty: a segment that could not be read, frames decoded with errors).")
    var strict = false

    @Flag(help: "Do not print the summary on standard error.")
    var quiet = false

    @Flag(help: "Post an event for every presented frame.")
    var frameEvents = false

    @OptionGroup(title: "Video heartbeats")
    var heartbeats: HeartbeatOptions

    @OptionGroup(title: "Server-side ads")
    var ssai: SSAIOptions

    @OptionGroup(title: "Keys")
    var keyOptions: KeyOptions

    func validate() throws {
        if trace != nil, clock == .real { throw ValidationError("--trace needs --clock virtual") }
        // Demux mode decodes nothing: the framemd5 file would hold a header and no frame.
        if framemd5 != nil, mode == .demux { throw ValidationError("--framemd5 hashes decoded frames; --mode demux decodes none (use decode or keyframes)") }
        if variant != nil, maxBandwidth != nil { throw ValidationError("give --variant or --max-bandwidth, not both") }
        if let resumeAfterFailure {
            do { _ = try ResumePolicy.parse(resumeAfterFailure) } catch { throw ValidationError("--resume-after-failure \(error)") }
        }
        do { _ = try TimedMetadataScanner(tags: subscribedTags) } catch { throw ValidationError("--subscribe-tag: \(error)") }
        if (blackoutTag == nil) != (blackoutAlternate == nil) {
            throw ValidationError("--blackout-tag and --blackout-alternate go together: the tag that signals a blackout, and what plays during it")
        }
        if let blackoutTag, let blackoutAlternate {
            do { try BlackoutSettings(tag: blackoutTag, alternateURL: blackoutAlternate).validate() } catch {
                throw ValidationError("\(error == .noAlternate ? "--blackout-alternate" : "--blackout-tag"): \(error)")
            }
        }
        for (option, value) in [("--audio", audio), ("--subtitles", subtitles)] where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("\(option) needs auto\(option == "--subtitles" ? ", off" : ""), or a track's name or language")
        }
        if audio.lowercased() == "off" { throw ValidationError("--audio has no off: give a rendition's name or language, or auto") }
        for sidecar in sidecarSubtitles where sidecar.split(separator: ",", omittingEmptySubsequences: false).first?.isEmpty ?? true {
            throw ValidationError("--sidecar-vtt: give URL[,LANGUAGE[,NAME]], got \"\(sidecar)\"")
        }
        if let variant, variant < 0 { throw ValidationError("--variant must be 0 or more, got \(variant)") }
        if let lockRung, lockRung < 0 { throw ValidationError("--lock-rung must be 0 or more, got \(lockRung)") }
        for (option, value) in [("--max-bandwidth", maxBandwidth), ("--min-bitrate", minBitrate), ("--max-bitrate", maxBitrate),
                                ("--initial-bitrate", initialBitrate), ("--peak-bitrate", peakBitrate)] {
            if let value, value < 0 { throw ValidationError("\(option) must be 0 or more bits per second, got \(value)") }
        }
        if let minBitrate, let maxBitrate, minBitrate > maxBitrate {
            throw ValidationError("--min-bitrate \(minBitrate) is above --max-bitrate \(maxBitrate): give a minimum at or below the maximum")
        }
        if let abrOff = variant != nil ? "--variant" : maxBandwidth != nil ? "--max-bandwidth" : nil {
            let given = [("--abr", abr != nil), ("--min-bitrate", minBitrate != nil), ("--max-bitrate", maxBitrate != nil),
                         ("--initial-bitrate", initialBitrate != nil), ("--peak-bitrate", peakBitrate != nil),
                         ("--lock-rung", lockRung != nil)]
            if let option = given.first(where: \.1)?.0 {
                throw ValidationError("\(option) has no effect with \(abrOff), which plays one variant throughout (ABR off); give one or the other")
            }
        }
        try Self.validateLink(trace: trace, bandwidth: bandwidth, clock: clock)
        if !rate.isFinite || (rate > 0 && !(PlayerConfiguration.rateRange ~= rate)) {
            throw ValidationError("--rate must be from \(PlayerConfiguration.rateRange.lowerBound) to \(PlayerConfiguration.rateRange.upperBound) (or ≤ 0 for 1.0), got \(rate)")
        }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds, got \(duration)") }
        if let start, !(start >= 0 && start.isFinite) { throw ValidationError("--start must be 0 or more seconds, got \(start)") }
        if adMap != nil, adDomain != nil { throw ValidationError("give --ad-map or --ad-domain, not both") }
        if ssai.isOn, let option = adMap != nil ? "--ad-map" : adDomain != nil ? "--ad-domain" : nil {
            throw ValidationError("\(option) inserts ads at the cues that --ssai tracks as ads already in the stream; give one or the other")
        }
        if dumpPng, dump == nil { throw ValidationError("--dump-png needs --dump DIR") }
        if dump != nil, mode == .demux { throw ValidationError("--dump writes decoded frames: not with --mode demux") }
        let toStandardOutput = [("--events", events), ("--framemd5", framemd5), ("--report", report)].filter { $0.1 == "-" }.map(\.0)
        if toStandardOutput.count > 1 {
            throw ValidationError("\(toStandardOutput.joined(separator: " and ")) all write to standard output; give all but one a file")
        }
        // Two outputs to one file: the one written last would replace the other (/dev/null may take any number).
        let files = [("--events", events), ("--framemd5", framemd5), ("--report", report), ("--report-html", reportHtml)]
            .compactMap { option, path in path.flatMap { $0 == "-" ? nil : (option, Self.standardized($0)) } }
        for (index, (option, path)) in files.enumerated() where path != "/dev/null" {
            if let earlier = files[..<index].first(where: { $0.1 == path }) {
                throw ValidationError("\(earlier.0) and \(option) both write to \(path); give each its own file")
            }
        }
        if simulateLive, clock == .real { throw ValidationError("--simulate-live needs --clock virtual") }
        if AdSignalingMode(rawValue: adSignalingMode) == nil {
            throw ValidationError("unknown --ad-signaling-mode \"\(adSignalingMode)\"; one of \(AdSignalingMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let abr, ABRPolicies.make(abr) == nil { throw ValidationError("unknown --abr policy \"\(abr)\"; one of \(ABRPolicies.names.joined(separator: ", "))") }
        _ = try scheduledCommands()
        // The reports are written after playback: a path that cannot be written is refused now, not
        // after a long session.
        for (option, path) in [("--report", report), ("--report-html", reportHtml)] {
            guard let path, path != "-" else { continue }
            if let reason = Self.unwritable(path) { throw ValidationError("\(option) \(path): \(reason)") }
        }
    }

    /// `path` made absolute (against the working folder) with `.` and `..` segments and symbolic links
    /// resolved, so that two spellings of one file compare equal.
    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Why the file at `path` could not be written (its folder missing or read-only, or it is a folder), or nil.
    static func unwritable(_ path: String) -> String? {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "is a folder" }
            return files.isWritableFile(atPath: path) ? nil : "the file is not writable"
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return "no folder \(folder)" }
        return files.isWritableFile(atPath: folder) ? nil : "the folder \(folder) is not writable"
    }

    func scheduledCommands() throws -> [ScheduledCommand] {
        func pair(_ text: String, _ option: String) throws -> (Double, Double) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a >= 0, b >= 0, a.isFinite, b.isFinite else {
                throw ValidationError("--\(option) takes AT:SECONDS with two finite non-negative numbers, got \"\(text)\"")
            }
            return (a, b)
        }
        let seeks = try seek.map { try pair($0, "seek") }.map { ScheduledCommand(atPositionSeconds: $0.0, action: .seek(toSeconds: $0.1)) }
        let pauses = try pause.map { try pair($0, "pause") }.map { ScheduledCommand(atPositionSeconds: $0.0, action: .pause(forSeconds: $0.1)) }
        func track(_ text: String, _ option: String) throws -> (Double, String) {
            guard let colon = text.firstIndex(of: ":"), let at = Double(text[..<colon]), at >= 0, at.isFinite,
                  !text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--\(option) takes AT:TRACK with a finite non-negative number and a track's name or language, got \"\(text)\"")
            }
            return (at, String(text[text.index(after: colon)...]))
        }
        let audio = try switchAudio.map { try track($0, "switch-audio") }
            .map { ScheduledCommand(atPositionSeconds: $0.0, action: .selectAudio(AudioChoice($0.1))) }
        let subtitles = try switchSubtitles.map { try track($0, "switch-subtitles") }
            .map { ScheduledCommand(atPositionSeconds: $0.0, action: .selectSubtitles(SubtitleChoice($0.1))) }
        return seeks + pauses + audio + subtitles + ssai.scheduled
    }

    func run() async throws {
        MediaLog.level = .quiet
        var url = ResourceURL.fromArgument(source)
        let client = HTTPClient()
        defer { client.shutdown() }
        var ssaiTracking = ssai.tracking.map { argumentURL($0, against: url) }
        if ssai.isOn {
            do throws(SSAIError) {
                let entry = try await SSAIEntry.resolve(url, client: client)
                if entry.kind == .resolver {
                    printError("ssai: resolver \(url) → playlist \(entry.playlistURL)\(entry.trackingURL.map { ", tracking \($0)" } ?? "")")
                }
                url = entry.playlistURL
                ssaiTracking = ssaiTracking ?? entry.trackingURL
            } catch {
                // Not a usage error: the session could not begin (as a playlist that cannot be loaded).
                printError("\(error)")
                throw ExitCode(1)
            }
        }

        var configuration = PlayerConfiguration()
        configuration.mode = mode
        configuration.variant = variant.map { .index($0) } ?? maxBandwidth.map { .bandwidth($0) } ?? .first
        if variant != nil || maxBandwidth != nil {
            configuration.abr = nil
        } else {
            var settings = ABRSettings()
            settings.policy = abr ?? ABRPolicies.defaultName
            settings.controls = ABRControls(minimumBitsPerSecond: minBitrate, maximumBitsPerSecond: maxBitrate,
                                            initialBitsPerSecond: initialBitrate, preferredPeakBitsPerSecond: peakBitrate ?? 0,
                                            lockedIndex: lockRung)
            configuration.abr = settings
        }
        configuration.rate = rate
        configuration.startSeconds = start
        configuration.hashFrames = framemd5 != nil
        configuration.perFrameEvents = frameEvents
        configuration.subscribedTags = subscribedTags
        if let blackoutTag, let blackoutAlternate {
            let alternate = argumentURL(blackoutAlternate, against: url)
            configuration.blackout = BlackoutSettings(tag: blackoutTag, alternateURL: alternate)
        }
        if ssai.isOn { configuration.ssai = SSAISettings(trackingURL: ssaiTracking) }
        configuration.subtitles = SubtitleChoice(subtitles)
        configuration.audio = AudioChoice(audio)
        configuration.keyProvider = keyOptions.provider
        configuration.resumeAfterFailure = resumeAfterFailure.flatMap { try? ResumePolicy.parse($0) }
        configuration.sidecarSubtitles = sidecarSubtitles.map { text in
            let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            // A URL, a file path, or a URL relative to the item's.
            return SidecarSubtitle(url: argumentURL(parts[0], against: url), language: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil,
                                   name: parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil)
        }
        var tracksBeacons = ssai.isOn
        if let adDomain {
            do {
                let mode = AdSignalingMode(rawValue: adSignalingMode) ?? .default
                let metadata = AdMetadata(zoneId: adZone, domain: adDomain, mediaId: adMediaId, signalingMode: mode,
                                          enableLivePreroll: !noLivePreroll)
                let factory = MediaPlayerClientFactory()
                // The player tells the resolver whether the item is live once it has loaded it.
                factory.register(resolver: try DefaultAdResolver(metadata: metadata, isLive: false))
                configuration.ads = AdSettings(factory: factory, signalingMode: mode)
                tracksBeacons = true
            } catch {
                printError("ad metadata: \(error)")
                throw ExitCode(2)
            }
        }
        if let adMap {
            do {
                let map = try AdMap.load(path: adMap).resolvingURLs(against: url)
                let factory = MediaPlayerClientFactory()
                factory.register(resolver: AdMapResolver(map: map))
                configuration.ads = AdSettings(factory: factory, signalingMode: AdSignalingMode(rawValue: adSignalingMode) ?? .default)
            } catch let error as AdMapError {
                printError("\(error)")
                throw ExitCode(2)
            } catch {
                printError("\(adMap): \(error)")
                throw ExitCode(2)
            }
        }

        let driver: any SessionDriver
        let network: any PlayerNetwork
        switch clock {
        case .real:
            driver = RealTimeDriver()
            network = LiveNetwork(client: client)
        case .virtual:
            driver = VirtualTimeDriver()
            let simulated = SimulatedNetwork(client: client, link: try Self.simulatedLink(trace: trace, bandwidth: bandwidth ?? Self.defaultBandwidth))
            network = simulateLive ? SimulatedLiveNetwork(inner: simulated, prefix: Self.directory(of: url)) : simulated
        }

        let dumpSink: DirectoryDump?
        if let dump {
            do { dumpSink = try DirectoryDump(directory: dump, pictures: dumpPng ? .png : .y4m) } catch {
                printError("cannot write dumps into \(dump): \(error)")
                throw ExitCode(2)
            }
        } else {
            dumpSink = nil
        }

        let player = MediaPlayer(url: url, configuration: configuration, driver: driver, network: network,
                                 scheduled: try scheduledCommands(), dump: dumpSink)
        // Each beacon is also a `beacon` event in the session's events, as the daemon's are.
        let tracker = tracksBeacons ? BeaconTracker(client: client, bus: player.bus) : nil
        var heartbeatLog: (@Sendable (String) -> Void)?
        if heartbeats.debug { heartbeatLog = { @Sendable line in FileHandle.standardError.write(Data((line + "\n").utf8)) } }
        let heartbeatTracker = try heartbeats.settings().map { HeartbeatTracker(settings: $0, client: client, debugLog: heartbeatLog) }
        let heartbeatSubscription = heartbeatTracker?.attach(to: player)
        let trackerSubscriptions = tracker.map { tracker in
            [tracker.attach(to: player.bus),
             player.bus.subscribe { event in if case .timelineChanged = event.kind { tracker.update(timeline: player.timeline) } }]
        } ?? []
        let outputs = try SessionOutputs(events: events, framemd5: framemd5, keepEvents: reportHtml != nil, player: player)
        if framemd5 != nil, (start ?? 0) > 0 {
            do throws(PlayheadError) {
                if let first = try await Self.firstSegment(url, choice: configuration.variant, client: client) { outputs.primeFrameMD5(with: first) }
            } catch {
                printError("warning: framemd5 timestamps count from the first segment played, not from the rendition's start as ffmpeg's: \(error)")
            }
        }
        let progress = isatty(2) != 0 ? ProgressLine(player: player) : nil
        progress?.start()
        let interruption = SignalStop(player: player)
        let result = await player.run(maxSessionSeconds: duration)
        // The signal that stopped the session, if one did: a signal after it ended (while the last answers
        // come in) stops nothing, lets the outputs be written, and leaves the exit status the session's.
        let stoppedBy = interruption.received
        defer { interruption.cancel() }
        progress?.stop()
        var final = result
        trackerSubscriptions.forEach { $0.cancel() }
        heartbeatSubscription?.cancel()
        if let heartbeatTracker {
            // The session ended: its unload (after trackComplete when it completed), then every answer.
            heartbeatTracker.unload(at: final.sessionSeconds)
            // A slow or dead tracking server holds the end up by at most this much.
            _ = await heartbeatTracker.flush(within: HeartbeatTracker.endGraceSeconds)
            final.heartbeats = heartbeatTracker.report()
        }
        if let tracker {
            // Before the events file closes: the beacons still under way land in it.
            await tracker.flush()
            final.beacons = tracker.records
        }
        outputs.finish()
        if let dumpSink {
            do { try dumpSink.close() } catch { printError("dump: \(error)") }
        }
        if let maxBandwidth, let chosen = final.variantBandwidth, chosen > maxBandwidth {
            printError("warning: no variant is at most \(maxBandwidth) bit/s: played the lowest, \(chosen) bit/s")
        }
        // The ABR maximum likewise: a cap below every rung plays the lowest (the PSDK's rule), said.
        if let maxBitrate, let lowest = final.bitrateSwitches.filter({ $0.reason == "max" }).map(\.toBitsPerSecond).min(), lowest > maxBitrate {
            printError("warning: no rung is at most \(maxBitrate) bit/s (--max-bitrate): played the lowest, \(lowest) bit/s")
        }
        final.device = DeviceInformation.current(playheadVersion: Playhead.version, ffmpegVersion: nil, curlVersion: HTTPClient.curlVersion)
        try writeReport(final)
        if let reportHtml {
            let page = PlaybackReportHTML.render(report: final, events: outputs.keptEvents)
            do { try page.write(toFile: reportHtml, atomically: true, encoding: .utf8) } catch {
                printError("cannot write \(reportHtml): \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        if let signal = stoppedBy { throw ExitCode(128 + signal) }
        if final.finalStatus == .error {
            printError(final.error ?? "playback failed")
            throw ExitCode(1)
        }
        if strict, let first = final.damage.first {
            printError("--strict: \(final.damage.count) damage report(s) in a session that \(final.finalStatus.rawValue); the first: \(first)")
            throw ExitCode(3)
        }
    }

    /// The first segment of the rendition `choice` picks, demuxed, for a VOD; nil for live (a live
    /// session, as ffmpeg, starts from the segments it is given).
    static func firstSegment(_ url: String, choice: VariantChoice, client: HTTPClient) async throws(PlayheadError) -> DemuxedSegment? {
        let loaded = try await PlaylistLoader(client: client).loadMedia(url, choice: choice)
        guard loaded.playlist.endList else { return nil }
        return try await RenditionReader(client: client, playlist: loaded.playlist, baseURL: loaded.media.effectiveURL).demuxFirstSegment()
    }

    /// Checks `--bandwidth` against the clock and `--trace` (play's and queue's options alike).
    static func validateLink(trace: String?, bandwidth: Double?, clock: ClockChoice) throws {
        guard let bandwidth else { return }
        if !(bandwidth > 0 && bandwidth.isFinite) { throw ValidationError("--bandwidth must be a positive number of Mbit/s, got \(bandwidth)") }
        if trace != nil { throw ValidationError("give --trace or --bandwidth, not both") }
        if clock == .real {
            throw ValidationError("--bandwidth needs --clock virtual (the real clock takes the network as it is; `playhead origin --bandwidth` shapes a served one)")
        }
    }

    /// The virtual clock's link: the `--trace` file's, else a constant `--bandwidth`. A trace that does not
    /// load exits 2, its error naming the path given.
    static func simulatedLink(trace: String?, bandwidth: Double) throws -> SimulatedLink {
        guard let trace else { return SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: bandwidth)) }
        do {
            return SimulatedLink(trace: try BandwidthTrace.load(path: trace))
        } catch {
            // The error names the trace by its file name: name it by the path given instead.
            let text = "\(error)", name = (trace as NSString).lastPathComponent
            printError(text.hasPrefix(name + ":") ? trace + text.dropFirst(name.count) : text)
            throw ExitCode(2)
        }
    }

    /// The URL up to its last `/`: live simulation windows the playlists under it.
    static func directory(of url: String) -> String {
        url.range(of: "/", options: .backwards).map { String(url[..<$0.upperBound]) } ?? url
    }

    private func writeReport(_ result: PlaybackReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(result)
        if report != "-", !quiet { FileHandle.standardError.write(Data(PlaySummary.text(result).utf8)) }
        if let report { try Self.write(data, to: report) }
    }

    /// Writes a report's JSON to `target`: standard output for `-` (with a final newline), else the file;
    /// exit 2 naming it when it cannot be written.
    static func write(_ data: Data, to target: String) throws {
        if target == "-" {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
            return
        }
        do { try data.write(to: URL(fileURLWithPath: target)) } catch {
            printError("cannot write \(target): \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
