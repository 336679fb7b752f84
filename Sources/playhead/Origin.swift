import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadOrigin

/// `playhead origin DIR`: serve a folder of HLS on 127.0.0.1.
struct Origin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a folder of HLS on 127.0.0.1 (HTTP/1.1 with Range and keep-alive) until interrupted.",
        discussion: """
        Paths are resolved below the folder: a '.' segment is dropped and a '..' drops the segment before it, \
        but a '..' that climbs above the folder is refused (403), not served from the folder's top; symbolic \
        links are followed while they stay inside it (403 otherwise); folders are not listed (404). A path \
        with a control character or a malformed percent-escape, and an HTTP/1.1 request without Host, are \
        refused (400). Responses carry an ETag and a Last-Modified date, and If-Range is honoured: a range \
        whose validator no longer matches gets the whole file (200).

        --live serves every VOD media playlist (one with EXTINF and EXT-X-ENDLIST) as a live sliding window \
        advancing in real time from the moment the origin started, one segment per EXTINF duration: --start \
        segments are listed at first, at most --window are kept, EXT-X-MEDIA-SEQUENCE (and \
        EXT-X-DISCONTINUITY-SEQUENCE as discontinuities slide out) moves, and EXT-X-ENDLIST comes once every \
        segment is out; --loop wraps around for ever instead, with a discontinuity at each wrap and the \
        media sequence still increasing. Multivariant playlists pass through unchanged, and every rendition \
        follows the same clock, so they stay aligned.

        --fault PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P] (repeatable) misbehaves on purpose for the requests \
        whose decoded URL path matches: a path (/ts/v1/seg003.ts) or a glob (*, ?, [3-5]; * also matches \
        '/', so *.ts is every TS segment). KIND is one of status:CODE (that status instead of the file), \
        delay:SECONDS (wait before answering), truncate:BYTES (announce the whole length, send that many \
        body bytes, close), corrupt[:SEED] (flip about one byte per KiB; SEED defaults to --seed), \
        stall:BYTES (send that many body bytes, then nothing), ignore-range (200 with the whole file), ignore-if-range (a 206 even for another version), close \
        (close without answering) and redirect:LOCATION (302). times=N applies it to the first N matching \
        requests only; p=P to a random share P of them, drawn from --seed, so the same requests in the same \
        order get the same faults (with both, the first N that draw it). The first rule that matches (and \
        draws) applies. Each faulted request is written to standard error, naming the fault and its \
        --fault, unless --quiet.

        --bandwidth MBPS or --trace FILE paces every response body as one bottleneck link shared by all \
        connections, its time counted from the origin's start; a trace is read as `playhead play --trace` \
        reads one (time_s Mbit/s lines, each giving the rate up to its own time) and wraps at its end.
        """
    )

    @Argument(help: "The folder to serve.")
    var root: String

    @Option(parsing: .unconditional, help: "Port on 127.0.0.1 (0: any free port).")
    var port: Int = 8080

    @Option(help: "Write the port listened on to this file once serving (useful with --port 0).")
    var portFile: String?

    @Option(name: .customLong("playback-api"),
            help: "ACCOUNT:POLICY_KEY[:TOKEN] — also serve a mock Brightcove-style Playback API below /playback/v1/ with a demo catalogue over the generated test streams (videos 1001 ts, 1002 fmp4, 1003 bumper, 1004 MP4 only; playlist 2001), requiring that policy key (and token).")
    var playbackAPI: String?

    @Flag(help: "Serve every VOD media playlist as a live sliding window moving in real time.")
    var live = false

    @Option(parsing: .unconditional, help: "With --live: segments kept in the window (default: 6).")
    var window: Int?

    @Option(parsing: .unconditional, help: "With --live: segments listed when the origin starts (default: 3).")
    var start: Int?

    @Flag(help: "With --live: wrap around to the first segment for ever instead of ending.")
    var loop = false

    @Option(help: "PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P] — inject a fault (repeatable; see above).")
    var fault: [String] = []

    @Option(parsing: .unconditional, help: "Seed of the --fault p= draws and of corrupt's default seed.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Pace response bodies at this many Mbit/s, shared by every connection.")
    var bandwidth: Double?

    @Option(help: "Pace response bodies by this bandwidth trace (as `playhead play --trace`), wrapping at its end.")
    var trace: String?

    @Flag(help: "Do not write a line to standard error for each faulted request.")
    var quiet = false

    /// Segments in the live window without --window.
    static let defaultWindow = 6
    /// Segments listed at the start without --start.
    static let defaultStart = 3

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        if !live {
            for (name, given) in [("--window", window != nil), ("--start", start != nil), ("--loop", loop)] where given {
                throw ValidationError("\(name) needs --live")
            }
        }
        if let window, window < 1 { throw ValidationError("--window must be at least 1 segment, got \(window)") }
        if let start, start < 1 { throw ValidationError("--start must be at least 1 segment, got \(start)") }
        if bandwidth != nil, trace != nil { throw ValidationError("give --bandwidth or --trace, not both") }
        if let bandwidth, !(bandwidth > 0 && bandwidth.isFinite) {
            throw ValidationError("--bandwidth must be a positive number of Mbit/s, got \(bandwidth)")
        }
        for (index, spec) in fault.enumerated() {
            if case .failure(let error) = OriginFaultSpec.parse(spec, index: index, seed: seed) { throw ValidationError(error.description) }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(root) is not a folder")
        }
        if let portFile, let reason = Play.unwritable(portFile) { throw ValidationError("--port-file \(portFile): \(reason)") }
        if let playbackAPI, Self.apiSettings(playbackAPI) == nil {
            throw ValidationError("--playback-api takes ACCOUNT:POLICY_KEY[:TOKEN] with a non-empty account and key, got \"\(playbackAPI)\"")
        }
    }

    /// Puts the live windows, fault rules, link and fault log on the server; returns a line for each, for
    /// the banner.
    func configure(_ server: LoopbackHTTPServer, schedule: BandwidthSchedule?) -> [String] {
        var notes: [String] = []
        if live {
            let liveWindow = LiveWindow(initialSegments: start ?? Self.defaultStart, windowSegments: window ?? Self.defaultWindow, loops: loop)
            server.setBodyTransformer { _, body, seconds in Self.liveBody(body, window: liveWindow, at: seconds) }
            notes.append("live: VOD media playlists as a window of \(liveWindow.windowSegments ?? 0) segments, \(liveWindow.initialSegments) at the start"
                         + (loop ? ", looping" : ", ending after the last segment"))
        }
        for (index, spec) in fault.enumerated() {
            if case .success(let rule) = OriginFaultSpec.parse(spec, index: index, seed: seed) {
                server.addFaultRule(rule)
                notes.append("fault: \(spec)")
            }
        }
        if !quiet, !fault.isEmpty {
            server.setRequestObserver { record in
                guard let fault = record.fault else { return }
                let rule = record.faultRule.map { " (--fault \($0))" } ?? ""
                FileHandle.standardError.write(Data("playhead: fault \(fault) on \(record.method) \(record.path)\(rule)\n".utf8))
            }
        }
        if let schedule {
            server.setBandwidth(schedule)
            notes.append(bandwidth.map { "link: \($0) Mbit/s" } ?? "link: trace \(trace ?? "")")
        }
        return notes
    }

    /// The live window of a served file, if it is a VOD media playlist (nil leaves it as it is).
    static func liveBody(_ body: [UInt8], window: LiveWindow, at seconds: Double) -> [UInt8]? {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = body.starts(with: bom) ? body.dropFirst(3) : body[...]
        guard text.starts(with: "#EXTM3U".utf8), let playlist = String(bytes: text, encoding: .utf8),
              LiveWindow.isVODMediaPlaylist(playlist) else { return nil }
        return Array(window.playlist(from: playlist, at: seconds).utf8)
    }

    /// The link's schedule from --bandwidth or --trace (nil: no shaping). A trace that does not load exits
    /// 2, its error naming the path given.
    func linkSchedule() throws -> BandwidthSchedule? {
        if let bandwidth { return .constant(bitsPerSecond: bandwidth * BandwidthTrace.bitsPerMegabit) }
        guard let trace else { return nil }
        let loaded: BandwidthTrace
        do {
            loaded = try BandwidthTrace.load(path: trace)
        } catch {
            let text = "\(error)", name = (trace as NSString).lastPathComponent
            printError(text.hasPrefix(name + ":") ? trace + text.dropFirst(name.count) : text)
            throw ExitCode(2)
        }
        // Sample i's rate holds from sample i-1's time to its own (the first sample's rate is never used).
        let origin = loaded.times[0]
        let schedule = BandwidthSchedule(startSeconds: loaded.times.dropLast().map { $0 - origin },
                                         bitsPerSecond: loaded.megabitsPerSecond.dropFirst().map { $0 * BandwidthTrace.bitsPerMegabit },
                                         periodSeconds: loaded.durationSeconds)
        if let problem = schedule.problem {
            printError("--trace \(trace): \(problem)")
            throw ExitCode(2)
        }
        return schedule
    }

    static func apiSettings(_ text: String) -> (account: String, key: String, token: String?)? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1], parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil)
    }

    func run() async throws {
        let server: LoopbackHTTPServer?
        let api: PlaybackAPIServer?
        do {
            if let settings = playbackAPI.flatMap(Self.apiSettings) {
                let started = try PlaybackAPIServer(accountId: settings.account, policyKey: settings.key, authToken: settings.token,
                                                    mediaDirectory: root, port: port)
                started.registerDemoCatalogue()
                (server, api) = (nil, started)
            } else {
                (server, api) = (try LoopbackHTTPServer(root: root, port: port), nil)
            }
        } catch {
            printError("cannot listen on 127.0.0.1:\(port): \(error)")
            throw ExitCode(2)
        }
        guard let http = server ?? api?.httpServer else { throw ExitCode(2) }
        let schedule = try linkSchedule()
        let notes = configure(http, schedule: schedule)
        let baseURL = http.baseURL
        try writePortFile(portFile, port: http.port)
        let banner = OutputBuffer(fd: OutputBuffer.standardOutput)
        banner.write("serving \(root) at \(baseURL)\n")
        if let api { banner.write("playback API for account \(api.accountId) at \(baseURL)\(PlaybackAPIServer.apiPrefix)\(api.accountId)/\n") }
        notes.forEach { banner.write($0 + "\n") }
        banner.flush()
        // Serves until the process is interrupted or terminated; nothing is kept that needs saving.
        while true {
            try await Task.sleep(for: .seconds(3600))
            withExtendedLifetime((server, api)) {}
        }
    }
}

/// Writes the port listened on to `path` (if given), before the banner: a file that cannot be written
/// ends the command with exit status 2 and says why.
func writePortFile(_ path: String?, port: Int) throws {
    guard let path else { return }
    do {
        try String(port).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        printError("cannot write the port to \(path): \(error.localizedDescription)")
        throw ExitCode(2)
    }
}
