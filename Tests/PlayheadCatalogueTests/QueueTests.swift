import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// What a queue run gathered: its report, the queue's events, each item's presented video frame hashes.
final class QueueRun: @unchecked Sendable {
    private let lock = NSLock()
    private var storedEvents: [PlayerEvent] = []
    private var storedHashes: [Int: [String]] = [:]
    private var storedItemEvents: [Int: [String]] = [:]
    var report: QueueReport?
    var events: [PlayerEvent] { lock.withLock { storedEvents } }
    /// The custom events' names with their index payload, e.g. `sessionStarted 0`.
    var lifecycle: [String] {
        events.compactMap { event in
            guard case let .custom(name, payload) = event.kind else { return nil }
            if name == "queueAdvanced" { return "\(name) \(payload["from"] ?? "")→\(payload["to"] ?? "")" }
            if name.hasPrefix("preload") { return nil }
            return [name, payload["index"]].compactMap { $0 }.joined(separator: " ")
        }
    }
    func hashes(_ index: Int) -> [String] { lock.withLock { storedHashes[index] ?? [] } }
    func itemEvents(_ index: Int) -> [String] { lock.withLock { storedItemEvents[index] ?? [] } }
    func append(_ event: PlayerEvent) { lock.withLock { storedEvents.append(event) } }
    func add(_ hash: String, item: Int) { lock.withLock { storedHashes[item, default: []].append(hash) } }
    func note(_ event: PlayerEvent, item: Int) { lock.withLock { storedItemEvents[item, default: []].append(event.name) } }
}

enum QueueFixtures {
    static let streams = TestRepository.streams

    static func link(megabits: Double = 50) -> SimulatedLink {
        SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [megabits, megabits]))
    }

    /// Runs a queue of `items` (and `bumper`) on the virtual clock, gathering events and frame hashes;
    /// `during` runs with the queue once its first session starts.
    static func run(_ items: [QueueItem], bumper: QueueItem? = nil, placement: BumperPlacement = .once, preload: Bool = true,
                    mode: DecodeMode = .decode, clock: QueueSettings.Clock = .virtual(link()), perItem: Double? = nil,
                    during: (@Sendable (PlaybackQueue) -> Void)? = nil) async -> QueueRun {
        MediaLog.level = .quiet
        let client = HTTPClient()
        defer { client.shutdown() }
        var configuration = PlayerConfiguration()
        configuration.mode = mode
        configuration.hashFrames = mode != .demux
        let queue = PlaybackQueue(items: items, bumper: bumper, bumperPlacement: placement,
                                  settings: QueueSettings(clock: clock, configuration: configuration, preload: preload,
                                                          maxSessionSecondsPerItem: perItem), client: client)
        let run = QueueRun()
        let subscription = queue.bus.subscribe { run.append($0) }
        queue.observeSessions { index, _, player in
            if index == 0 { during?(queue) }
            player.bus.subscribe { run.note($0, item: index) }
            player.observeFrames(streams: { _ in }, packets: { _ in }, presented: { frame in
                if frame.kind == .video, let md5 = frame.md5 { run.add(md5, item: index) }
            })
        }
        run.report = await queue.run()
        subscription.cancel()
        return run
    }

    /// The presented video frame hashes of one play of `url` on the virtual clock.
    static func singlePlayHashes(_ url: String) async -> [String] {
        MediaLog.level = .quiet
        let client = HTTPClient()
        defer { client.shutdown() }
        var configuration = PlayerConfiguration()
        configuration.hashFrames = true
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: link()))
        let run = QueueRun()
        player.observeFrames(streams: { _ in }, packets: { _ in }, presented: { frame in
            if frame.kind == .video, let md5 = frame.md5 { run.add(md5, item: 0) }
        })
        _ = await player.run()
        return run.hashes(0)
    }
}

/// F30: items play one after another in the real player on the virtual clock, each exactly as it plays
/// alone; insertion, bumpers, failures and preloading.
@Suite struct QueueTests {
    @Test func itemsPlayInOrderEachAsItPlaysAlone() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let urls = [origin.url("/ad/v0/index.m3u8"), origin.url("/cues/ad/v1/index.m3u8"), origin.url("/ad/v0/index.m3u8")]
        let run = await QueueFixtures.run(urls.map { QueueItem(url: $0) })
        let report = try #require(run.report)
        #expect(report.items.map(\.item.url) == urls)
        #expect(report.items.map(\.status) == ["completed", "completed", "completed"])
        #expect(report.failed.isEmpty && !report.stopped)
        #expect(run.lifecycle == ["sessionStarted 0", "sessionEnded 0", "queueAdvanced 0→1", "sessionStarted 1", "sessionEnded 1",
                                  "queueAdvanced 1→2", "sessionStarted 2", "sessionEnded 2", "queueCompleted"])
        // Each session starts where the one before ended; the queue clock runs on through them.
        for (before, after) in zip(report.items, report.items.dropFirst()) { #expect(after.startSeconds == before.endSeconds) }
        #expect(report.totalSeconds == report.items.last?.endSeconds)
        #expect(report.items[0].endSeconds > 10)
        // Each item's presented frames are those of its own single play, in order.
        for (index, url) in urls.enumerated() {
            let alone = await QueueFixtures.singlePlayHashes(url)
            #expect(alone.count >= 290)
            #expect(run.hashes(index) == alone, "item \(index)")
        }
        #expect(run.hashes(1) != run.hashes(0))
        // Every session began, played and completed on its own bus.
        for index in 0..<3 { #expect(run.itemEvents(index).contains("playCompleted")) }
        #expect(report.gaps.map { "\($0.fromIndex)→\($0.toIndex)" } == ["0→1", "1→2"])
        // Queue events carry the queue clock: item 1 started at item 0's end.
        let started1 = try #require(run.events.first { if case let .custom("sessionStarted", p) = $0.kind { p["index"] == "1" } else { false } })
        #expect(started1.playerTime == report.items[0].endSeconds)
    }

    @Test func insertAfterChangesTheOrder() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let a = origin.url("/ad/v0/index.m3u8"), b = origin.url("/cues/ad/v0/index.m3u8"), c = origin.url("/ad/v1/index.m3u8")
        let d = origin.url("/cues/ad/v1/index.m3u8")
        // Before the run: c after a. While item 0 plays: d after it (so before c), and an index already
        // played is refused.
        let run = await QueueFixtures.run([QueueItem(url: a), QueueItem(url: b)], mode: .demux) { queue in
            #expect(queue.insert(QueueItem(url: d), afterIndex: 0))
            #expect(!queue.insert(QueueItem(url: d), afterIndex: 7))
        }
        #expect(run.report?.items.map(\.item.url) == [a, d, b])

        let before = await QueueFixtures.run([QueueItem(url: a), QueueItem(url: b)], mode: .demux) { queue in
            _ = queue.insert(QueueItem(url: c), afterIndex: 1)
        }
        #expect(before.report?.items.map(\.item.url) == [a, b, c])
        let names = run.events.compactMap { if case let .custom(name, _) = $0.kind { name } else { nil } }
        #expect(names.contains("videoInserted") && names.contains("videoInsertFailed"))

        // An insert naming an entry already played is refused while the queue runs.
        let late = await QueueFixtures.run([QueueItem(url: a), QueueItem(url: b), QueueItem(url: c)], mode: .demux) { queue in
            Task { await Self.insertWhenPlaying(queue, index: 1, item: QueueItem(url: d), after: 0) }
        }
        #expect(late.report?.items.map(\.item.url).contains(d) == false)
    }

    /// Inserts `item` after `after` once entry `index` is playing (it is refused: `after` was played).
    static func insertWhenPlaying(_ queue: PlaybackQueue, index: Int, item: QueueItem, after: Int) async {
        while queue.currentIndex < index { await Task.yield() }
        #expect(!queue.insert(item, afterIndex: after))
    }

    @Test func theBumperPlaysBeforeContent() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let bumper = QueueItem(url: origin.url("/cues/ad/v0/index.m3u8"), title: "bumper")
        let a = origin.url("/ad/v0/index.m3u8"), b = origin.url("/ad/v1/index.m3u8")
        let once = await QueueFixtures.run([QueueItem(url: a), QueueItem(url: b)], bumper: bumper, mode: .demux)
        #expect(once.report?.items.map(\.item.role) == [.bumper, .content, .content])
        #expect(once.report?.items.map(\.item.url) == [bumper.url, a, b])
        #expect(once.report?.items.allSatisfy { $0.status == "completed" } == true)
        let every = await QueueFixtures.run([QueueItem(url: a), QueueItem(url: b)], bumper: bumper, placement: .everyItem, mode: .demux)
        #expect(every.report?.items.map(\.item.url) == [bumper.url, a, bumper.url, b])
        #expect(once.events.contains { if case let .custom("sessionStarted", p) = $0.kind { p["role"] == "bumper" && p["index"] == "0" } else { false } })
    }

    @Test func aFailingItemIsReportedAndTheQueueGoesOn() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let a = origin.url("/ad/v0/index.m3u8"), missing = origin.url("/nope/index.m3u8")
        let items = [QueueItem(url: a), QueueItem(url: missing),
                     QueueItem.video(CatalogueVideo(id: "mp4", sources: [CatalogueSource(src: "https://x/v.mp4", type: "video/mp4")])),
                     QueueItem(url: a)]
        let run = await QueueFixtures.run(items, mode: .demux)
        let report = try #require(run.report)
        #expect(report.items.map(\.status) == ["completed", "error", "failed", "completed"])
        #expect(report.failed == [1, 2])
        #expect(report.items[1].error?.contains("404") == true, "\(report.items[1].error ?? "")")
        #expect(report.items[2].error?.contains("no HLS source") == true)
        #expect(report.items[2].report == nil && report.items[1].report != nil)
        // The gap is between the two items that played.
        #expect(report.gaps.map { "\($0.fromIndex)→\($0.toIndex)" } == ["0→3"])
        #expect(run.lifecycle.filter { $0.hasPrefix("sessionFailed") } == ["sessionFailed 1", "sessionFailed 2"])
        #expect(run.lifecycle.last == "queueCompleted")
    }

    /// The gap from one item's last frame to the next one's first is measured on the virtual clock, and
    /// preloading the next item's playlists shortens it by their transfers (two in line: the multivariant
    /// and the media playlist, each at least the link's 80 ms round trip).
    @Test func preloadingShortensTheGap() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let items = [QueueItem(url: origin.url("/cues/ad/master.m3u8")), QueueItem(url: origin.url("/ad/master.m3u8"))]
        let with = await QueueFixtures.run(items, preload: true, mode: .demux)
        let without = await QueueFixtures.run(items, preload: false, mode: .demux)
        let gapWith = try #require(with.report?.gaps.first), gapWithout = try #require(without.report?.gaps.first)
        #expect(gapWith.preloaded && !gapWithout.preloaded)
        #expect(gapWith.seconds > 0 && gapWithout.seconds > gapWith.seconds)
        let saved = gapWithout.seconds - gapWith.seconds
        #expect(saved >= 2 * SimulatedLink.defaultRoundTripSeconds && saved < 0.5, "saved \(saved) s")
        let preload = try #require(with.report?.items[1].preload)
        #expect(preload.urls.first == origin.url("/ad/master.m3u8") && preload.urls.count == 5 && preload.error == nil)
        // The multivariant playlist and the first variant's at load (an ABR switch later may take another).
        let used = try #require(with.report?.items[1].preloadedURLsUsed)
        #expect(used.count >= 2 && used.first == origin.url("/ad/master.m3u8") && used.allSatisfy(preload.urls.contains), "\(used)")
        #expect(with.report?.items[0].preload == nil)
        // What the preload saved is what the item's own first fetches cost without it: the same session otherwise.
        let ttffWith = try #require(with.report?.items[1].report?.playbackInformation?.timeToFirstFrameSeconds)
        let ttffWithout = try #require(without.report?.items[1].report?.playbackInformation?.timeToFirstFrameSeconds)
        #expect(abs((ttffWithout - ttffWith) - saved) < 1e-9)
        // Deterministic: the same queue again gives the same gaps.
        let again = await QueueFixtures.run(items, preload: true, mode: .demux)
        #expect(again.report?.gaps == with.report?.gaps)
        print("queue gap: \(String(format: "%.3f", gapWithout.seconds)) s without preload, \(String(format: "%.3f", gapWith.seconds)) s with")
    }
}

extension QueueTests {
    @Test func stopEndsTheQueueAtTheItemPlaying() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let items = [QueueItem(url: origin.url("/ad/v0/index.m3u8")), QueueItem(url: origin.url("/ad/v1/index.m3u8"))]
        let run = await QueueFixtures.run(items, mode: .demux) { queue in queue.stop() }
        let report = try #require(run.report)
        #expect(report.stopped)
        #expect(report.items.map(\.status) == ["stopped", "notPlayed"])
        #expect(report.items.map(\.index) == [0, 1] && report.items[1].report == nil && report.items[1].item.url == items[1].url)
        #expect(run.lifecycle == ["sessionStarted 0", "sessionEnded 0", "queueCompleted"])
    }
}

/// The queue on the real clock: items advance and gaps are measured in wall time.
@Suite struct QueueRealClockTests {
    @Test func itemsAdvanceOnTheRealClock() async throws {
        let origin = try LoopbackHTTPServer(root: QueueFixtures.streams)
        let items = [QueueItem(url: origin.url("/ad/v0/index.m3u8")), QueueItem(url: origin.url("/ad/v1/index.m3u8"))]
        let run = await QueueFixtures.run(items, mode: .demux, clock: .real, perItem: 1.5)
        let report = try #require(run.report)
        #expect(report.clock == "real")
        #expect(report.items.map(\.status) == ["stopped", "stopped"])
        let gap = try #require(report.gaps.first)
        #expect(gap.preloaded && gap.seconds > 0 && gap.seconds < 2, "\(gap)")
        #expect(report.items[1].startSeconds >= report.items[0].endSeconds)
        #expect(report.totalSeconds >= 3)
    }
}
