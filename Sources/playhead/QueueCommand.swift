import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// `playhead queue ITEM…`: plays several items one after another (F30), with a bumper, insertions and
/// preloading, and reports each session and the gaps between them.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Play several items one after another (auto-advance), with an optional bumper, insertions and preloading of the next item.",
        discussion: """
        An item is a playlist URL or path, bc:VIDEO_ID or bc:ref:REFERENCE_ID (a video of the playback service \
        given by --base-url, --account and --policy-key; its source chosen as `playhead catalogue` does), or \
        bc:playlist:ID (every video of that playlist). Each item plays in its own session; when one ends the \
        next starts. While an item plays, the next one's playlists are preloaded (unless --no-preload); the \
        report gives the gap between each item's last frame and the next one's first, on the queue's clock. \
        An item that fails (no such video, no HLS source, a playlist that does not load) is reported and \
        the queue goes on. \
        Exit status: 0 every item completed (or was stopped by --duration), 1 an item failed, 2 usage, \
        128 + N stopped by signal N (the outputs are still written).
        """
    )

    @Argument(help: "The items: URLs or paths of playlists, bc:VIDEO_ID, bc:ref:REF, bc:playlist:ID.")
    var items: [String] = []

    @Option(help: "A bumper played before the content: a URL, path or bc:ID (a catalogue video's custom field bumper_id takes precedence, as in the PSDK).")
    var bumper: String?

    @Flag(name: .customLong("bumper-every-item"), help: "Play the bumper before every content item, not only before the first.")
    var bumperEveryItem = false

    @Option(name: .customLong("insert-after"), parsing: .unconditionalSingleValue,
            help: "I:ITEM — insert ITEM after the item at index I of the items given (0 = the first), as the PSDK's insertVideo:afterVideoAtIndex: (repeatable; applied in order, each index counting the items as they stand).")
    var insertAfter: [String] = []

    @OptionGroup(title: "Playback service (for bc: items)")
    var service: CatalogueCommand.ServiceOptions

    @Option(help: "Session clock: real or virtual.")
    var clock: Play.ClockChoice = .virtual

    @Option(help: "Bandwidth trace for the virtual clock (as play's; the queue walks it on).")
    var trace: String?

    @Option(parsing: .unconditional, help: "Constant link bandwidth for the virtual clock without --trace, Mbit/s (default: 50).")
    var bandwidth: Double?

    @Option(help: "decode, demux or keyframes.")
    var mode: DecodeMode = .decode

    @Option(parsing: .unconditional, help: "Play this variant of each multivariant playlist (index as listed; turns ABR off).")
    var variant: Int?

    @Option(parsing: .unconditional, help: "Stop each item after this many seconds of its session.")
    var duration: Double?

    @Flag(name: .customLong("no-preload"), help: "Do not preload the next item's playlists.")
    var noPreload = false

    @Option(help: "Write events as NDJSON to FILE, or -: the queue's (sessionStarted, queueAdvanced, sessionEnded, …) and each session's, with an \"item\" field.")
    var events: String?

    @Option(help: "Write the queue report (JSON: each item's playback report, the gaps) to FILE, or -.")
    var report: String?

    @Option(help: "Write framemd5 lines of every item's presented video frames to FILE, or - (a header per item).")
    var framemd5: String?

    @Flag(help: "Do not print the summary on standard error.")
    var quiet = false

    @Option(name: .customLong("subscribe-tag"), parsing: .unconditionalSingleValue,
            help: "Report this playlist tag of every item as timed metadata (as play's; named with its #, e.g. '#EXT-X-ASSET'; repeatable).")
    var subscribedTags: [String] = []

    func validate() throws {
        if items.isEmpty { throw ValidationError("give at least one item") }
        if trace != nil, clock == .real { throw ValidationError("--trace needs --clock virtual") }
        try Play.validateLink(trace: trace, bandwidth: bandwidth, clock: clock)
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds, got \(duration)") }
        if let variant, variant < 0 { throw ValidationError("--variant must be 0 or more, got \(variant)") }
        if framemd5 != nil, mode == .demux { throw ValidationError("--framemd5 hashes decoded frames; --mode demux decodes none") }
        do { _ = try TimedMetadataScanner(tags: subscribedTags) } catch { throw ValidationError("--subscribe-tag: \(error)") }
        let toStandardOutput = [("--events", events), ("--framemd5", framemd5), ("--report", report)].filter { $0.1 == "-" }.map(\.0)
        if toStandardOutput.count > 1 { throw ValidationError("\(toStandardOutput.joined(separator: " and ")) all write to standard output; give all but one a file") }
        for entry in items + [bumper].compactMap({ $0 }) + (try insertions()).map(\.1) {
            if entry.hasPrefix("bc:") {
                guard Self.catalogueTarget(entry) != nil else { throw ValidationError("\(entry): give bc:VIDEO_ID, bc:ref:REF or bc:playlist:ID") }
                try service.validateService(for: "\(entry)")
            } else if entry.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("an item is empty")
            }
        }
        if let report, report != "-", let reason = Play.unwritable(report) { throw ValidationError("--report \(report): \(reason)") }
    }

    /// The `--insert-after` pairs.
    func insertions() throws -> [(Int, String)] {
        try insertAfter.map { text in
            guard let colon = text.firstIndex(of: ":"), let index = Int(text[..<colon]), index >= 0,
                  !text[text.index(after: colon)...].isEmpty else {
                throw ValidationError("--insert-after takes I:ITEM with an index of 0 or more, got \"\(text)\"")
            }
            return (index, String(text[text.index(after: colon)...]))
        }
    }

    enum CatalogueTarget {
        case video(CatalogueReference)
        case playlist(CatalogueReference)
    }

    static func catalogueTarget(_ entry: String) -> CatalogueTarget? {
        let rest = String(entry.dropFirst(3))
        if rest.hasPrefix("playlist:") { return CatalogueReference(parsing: String(rest.dropFirst(9))).map(CatalogueTarget.playlist) }
        return CatalogueReference(parsing: rest).map(CatalogueTarget.video)
    }

    /// The queue entries for one argument (a playlist gives several), with the videos found.
    func resolve(_ entry: String, role: QueueItem.Role, service playback: PlaybackService?, policy: SourceSelectionPolicy) async -> ([QueueItem], [CatalogueVideo]) {
        guard entry.hasPrefix("bc:"), let target = Self.catalogueTarget(entry), let playback else {
            return ([QueueItem(url: ResourceURL.fromArgument(entry), title: entry, role: role)], [])
        }
        do throws(CatalogueError) {
            switch target {
            case let .video(reference):
                let video = try await playback.findVideo(reference)
                return ([QueueItem.video(video, policy: policy, role: role)], [video])
            case let .playlist(reference):
                let playlist = try await playback.findWholePlaylist(reference)
                if playlist.entryCount == 0 { return ([.failed(title: entry, reason: "playlist \(reference) has no videos", role: role)], []) }
                // An unreadable entry stays in its place as a failed item: reported, and the queue goes on.
                var items = playlist.videos.map { QueueItem.video($0, policy: policy, role: role) }
                for skipped in playlist.skipped.sorted(by: { $0.index < $1.index }) {
                    let failed = QueueItem.failed(title: "\(entry)[\(skipped.index)]" + (skipped.id.map { " (video \($0))" } ?? ""),
                                                  reason: "not a readable video: \(skipped.reason)", role: role)
                    items.insert(failed, at: min(skipped.index, items.count))
                }
                return (items, playlist.videos)
            }
        } catch {
            return ([.failed(title: entry, reason: error.description, role: role)], [])
        }
    }

    /// Resolves the items, the insertions and the bumper (catalogue lookups). A failure is a usage error
    /// (an insertion's index past the items), said on standard error.
    func resolveAll(insertions: [(Int, String)], service playback: PlaybackService?,
                    policy: SourceSelectionPolicy) async -> Result<(content: [QueueItem], bumper: QueueItem?), ExitCode> {
        var content: [QueueItem] = []
        var videos: [CatalogueVideo] = []
        for entry in items {
            let (resolved, found) = await resolve(entry, role: .content, service: playback, policy: policy)
            content += resolved
            videos += found
        }
        for (index, entry) in insertions {
            guard index < content.count else {
                printError("--insert-after \(index):\(entry): no item \(index) (the items are 0…\(content.count - 1))")
                return .failure(ExitCode(2))
            }
            let (resolved, _) = await resolve(entry, role: .content, service: playback, policy: policy)
            content.insert(contentsOf: resolved, at: index + 1)
        }
        // The PSDK: a video's custom field bumper_id takes precedence over the bumper configured.
        var bumperItem: QueueItem?
        if let named = videos.first?.bumperId, let playback {
            if bumper != nil { printError("note: video \(videos[0].id) names bumper \(named) in its custom fields, which takes precedence over --bumper") }
            bumperItem = await resolve("bc:" + named, role: .bumper, service: playback, policy: policy).0.first
        } else if let bumper {
            bumperItem = await resolve(bumper, role: .bumper, service: playback, policy: policy).0.first
        }
        return .success((content, bumperItem))
    }

    /// The report of a queue stopped before it began (during its lookups): every item given, not played.
    func writeUnplayedReport() throws {
        var report = QueueReport(clock: clock.rawValue, preload: !noPreload)
        report.stopped = true
        report.items = items.enumerated().map { index, entry in
            QueueReport.Item.notPlayed(index: index, item: entry.hasPrefix("bc:")
                ? .failed(title: entry, reason: "not looked up: the queue was stopped first") : QueueItem(url: entry, title: entry), at: 0)
        }
        if !quiet { FileHandle.standardError.write(Data(QueueSummary.text(report).utf8)) }
        guard let path = self.report else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try Play.write(try encoder.encode(report), to: path)
    }

    func run() async throws {
        MediaLog.level = .quiet
        let client = HTTPClient()
        defer { client.shutdown() }
        let policy = try service.policy()
        let needsService = (items + insertAfter + [bumper ?? ""]).contains { $0.contains("bc:") }
        let playback = needsService ? service.service(client: client) : nil
        // The lookups may take long (a slow service, its retries): a signal meanwhile stops them, and the
        // report lists every item given as not played.
        let insertions = try insertions()
        // The signal handlers come first: a signal before the lookups' task exists cancels it as it is made.
        let canceller = TaskCanceller()
        let lookupStop = SignalStop(what: "the queue's lookups") { canceller.cancel() }
        let lookups = Task { () -> Result<(content: [QueueItem], bumper: QueueItem?), ExitCode> in
            await self.resolveAll(insertions: insertions, service: playback, policy: policy)
        }
        canceller.hold(lookups)
        let looked = await lookups.value
        let stoppedEarly = lookupStop.received
        lookupStop.cancel()
        if let signal = stoppedEarly {
            try writeUnplayedReport()
            throw ExitCode(128 + signal)
        }
        let (content, bumperItem) = try looked.get()

        var configuration = PlayerConfiguration()
        configuration.mode = mode
        configuration.hashFrames = framemd5 != nil
        configuration.subscribedTags = subscribedTags
        if let variant {
            configuration.variant = .index(variant)
            configuration.abr = nil
        }
        let queueClock: QueueSettings.Clock
        switch clock {
        case .real: queueClock = .real
        case .virtual: queueClock = .virtual(try Play.simulatedLink(trace: trace, bandwidth: bandwidth ?? Play.defaultBandwidth))
        }
        let settings = QueueSettings(clock: queueClock, configuration: configuration, preload: !noPreload, maxSessionSecondsPerItem: duration)
        let queue = PlaybackQueue(items: content, bumper: bumperItem, bumperPlacement: bumperEveryItem ? .everyItem : .once,
                                  settings: settings, client: client)
        let outputs = try QueueOutputs(events: events, framemd5: framemd5, queue: queue)
        let interruption = SignalStop(what: "the queue") { queue.stop() }
        let result = await queue.run()
        let stoppedBy = interruption.received
        interruption.cancel()
        outputs.finish()
        if !quiet { FileHandle.standardError.write(Data(QueueSummary.text(result).utf8)) }
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try Play.write(try encoder.encode(result), to: report)
        }
        if let signal = stoppedBy { throw ExitCode(128 + signal) }
        if !result.failed.isEmpty {
            for item in result.items where result.failed.contains(item.index) {
                printError("item \(item.index) \(item.item.title) failed: \(item.error ?? "error")")
            }
            throw ExitCode(1)
        }
    }
}

/// Where `queue` writes events and framemd5 lines while the items play.
final class QueueOutputs: @unchecked Sendable {
    private let eventsOut: OutputBuffer?
    private let md5Out: OutputBuffer?
    private let lock = NSLock()
    private var md5: FrameMD5Output?

    init(events: String?, framemd5: String?, queue: PlaybackQueue) throws {
        eventsOut = try SessionOutputs.open(events)
        eventsOut?.flushIntervalNanoseconds = SessionOutputs.eventsFlushNanoseconds
        md5Out = try SessionOutputs.open(framemd5)
        if let eventsOut {
            queue.bus.subscribe { [lock] event in lock.withLock { eventsOut.write(Self.line(event, item: nil)) } }
        }
        let eventsOut = self.eventsOut, md5Out = self.md5Out
        queue.observeSessions { [self] index, _, player in
            if let eventsOut {
                let start = queue.currentItemStartSeconds
                player.bus.subscribe { [lock] event in lock.withLock { eventsOut.write(Self.line(event, item: index, itemStart: start)) } }
            }
            if let md5Out {
                let output = FrameMD5Output(kinds: [.video], software: "playhead \(Playhead.version)", write: md5Out.write)
                lock.withLock {
                    md5?.finish()
                    md5 = output
                }
                player.observeFrames(streams: { output.note(streams: $0) }, packets: { output.note($0) }, presented: { output.add($0) })
            }
        }
    }

    /// The event's JSON line; a session's carries `"item": INDEX` and `"queueTime"` (its time on the queue's
    /// timeline: the item's start plus the session time) first, so that the file sorts and merges on one timeline.
    static func line(_ event: PlayerEvent, item: Int?, itemStart: Double = 0) -> String {
        let text = event.jsonLine()
        guard let item, text.hasPrefix("{") else { return text + "\n" }
        let queueTime = String(format: "%.6f", itemStart + event.playerTime)
        return "{\"item\":\(item),\"queueTime\":\(queueTime)," + text.dropFirst() + "\n"
    }

    func finish() {
        lock.withLock {
            md5?.finish()
            md5 = nil
        }
        md5Out?.flush()
        lock.withLock { eventsOut?.flush() }
    }
}

/// The human summary of a queue run.
enum QueueSummary {
    static func text(_ r: QueueReport) -> String {
        var lines = ["queue (\(r.clock) clock, preload \(r.preload ? "on" : "off")): \(r.items.count) items, \(r.failed.count) failed"
                     + (r.stopped ? ", stopped" : "") + String(format: ", %.3f s", r.totalSeconds)]
        for item in r.items {
            let frames = item.report.map { "\($0.framesPresented["video"] ?? 0) video frames" } ?? "no session"
            let first = item.firstFrameSeconds.map { String(format: ", first frame %.3f s", $0) } ?? ""
            lines.append(String(format: "  [%d] %@ %@: %@, %.3f–%.3f s%@", item.index, item.item.role.rawValue, item.item.title, item.status,
                                item.startSeconds, item.endSeconds, first) + ", \(frames)" + (item.error.map { "; \($0)" } ?? ""))
        }
        for gap in r.gaps {
            lines.append(String(format: "  gap %d→%d: %.3f s%@", gap.fromIndex, gap.toIndex, gap.seconds, gap.preloaded ? " (preloaded)" : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Cancels a task that may not exist yet: a cancellation asked for before ``hold(_:)`` cancels the task
/// as it is handed over. (For a signal handler installed before the work it stops starts.)
final class TaskCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelTask: (@Sendable () -> Void)?
    private var cancelled = false

    /// Takes the task to cancel; cancels it at once when a cancellation came first.
    func hold<Success, Failure>(_ task: Task<Success, Failure>) {
        let now = lock.withLock { () -> Bool in
            cancelTask = { task.cancel() }
            return cancelled
        }
        if now { task.cancel() }
    }

    /// Cancels the task held, or the one handed over later.
    func cancel() {
        lock.withLock { () -> (@Sendable () -> Void)? in
            cancelled = true
            return cancelTask
        }?()
    }
}
