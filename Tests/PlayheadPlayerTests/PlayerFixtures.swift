import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures

/// Shared set-up for player tests: the generated streams served on 127.0.0.1, and runs on the
/// virtual clock over a simulated link.
enum PlayerFixtures {
    static let repoRoot = TestRepository.root

    /// The generated streams (made on first use).
    static let streams = TestRepository.streams

    /// A constant link: `megabits` Mbit/s with the literature's 80 ms round trip.
    static func link(megabits: Double) -> SimulatedLink {
        SimulatedLink(trace: BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [megabits, megabits]))
    }

    /// What a run produced: the report, the event lines without wall-clock fields, presented frames.
    struct Run {
        var report: PlaybackReport
        var events: [PlayerEvent]
        var presented: [DecodedFrame]
        var eventLines: [String] { events.map { $0.jsonLine(includeWallClock: false) } }
    }

    /// Plays `url` on the virtual clock and collects everything. With `liveUnder`, the VOD media playlists under
    /// that URL prefix play as a live window growing in session time, `initialSegments` listed at first.
    static func playVirtual(_ url: String, configure: (inout PlayerConfiguration) -> Void = { _ in },
                            link: SimulatedLink = link(megabits: 50), scheduled: [ScheduledCommand] = [],
                            maxSessionSeconds: Double? = nil, liveUnder prefix: String? = nil, initialSegments: Int = 3) async -> Run {
        MediaLog.level = .quiet
        var configuration = PlayerConfiguration()
        configure(&configuration)
        let client = HTTPClient()
        defer { client.shutdown() }
        var network: any PlayerNetwork = SimulatedNetwork(client: client, link: link)
        if let prefix { network = SimulatedLiveNetwork(inner: network, prefix: prefix, initialSegments: initialSegments) }
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: network, scheduled: scheduled)
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        player.observeFrames(streams: { _ in }, packets: { _ in }, presented: { collected.present($0) })
        let report = await player.run(maxSessionSeconds: maxSessionSeconds)
        subscription.cancel()
        return Run(report: report, events: collected.events, presented: collected.frames)
    }

    /// Ad settings whose one resolver is `map`, its URLs resolved against the item's `url`.
    static func ads(_ map: AdMap, for url: String) -> AdSettings {
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: AdMapResolver(map: try! map.resolvingURLs(against: url)))
        return AdSettings(factory: factory)
    }

    /// Demux mode from position 0, with the splice tests' ad map (resolved against `url`) as resolver:
    /// the setup of the live-ad timing tests.
    static func liveAdConfiguration(for url: String) throws -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.startSeconds = 0
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: AdMapResolver(map: try SpliceTests.adMap.resolvingURLs(against: url)))
        configuration.ads = AdSettings(factory: factory)
        return configuration
    }

    /// The hash column of `ffmpeg -i url -map 0:v -f framemd5 -`.
    static func ffmpegHashes(_ url: String) async -> [String] { await ChildProcess.ffmpegHashes(url) }

    /// `cues/ts/vod.m3u8` (15 segments of 2 s, 30 fps) with every EXTINF written as `extinf` and its segments on
    /// `origin`: content whose EXTINFs drift from its media.
    static func cueContentListed(_ extinf: Double, on origin: LoopbackHTTPServer) throws -> String {
        try String(contentsOfFile: streams + "/cues/ts/vod.m3u8", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("#EXTINF") ? "#EXTINF:\(extinf)," : line.hasPrefix("seg") ? origin.url("/cues/ts/" + line) : String(line)
            }
            .joined(separator: "\n")
    }
}

/// Events and frames gathered from a run (the bus may deliver from another task).
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var storedEvents: [PlayerEvent] = []
    private var storedFrames: [DecodedFrame] = []
    func append(_ event: PlayerEvent) { lock.withLock { storedEvents.append(event) } }
    func present(_ frame: DecodedFrame) { lock.withLock { storedFrames.append(frame) } }
    var events: [PlayerEvent] { lock.withLock { storedEvents } }
    var frames: [DecodedFrame] { lock.withLock { storedFrames } }
}
