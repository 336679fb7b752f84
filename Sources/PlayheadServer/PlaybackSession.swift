import Foundation
import PlayheadAdInsertion
import PlayheadAnalytics
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// One running session of the daemon: a ``MediaPlayer`` run in its own task, its events recorded from a
/// bus subscription, its QoS sampled once a second while it runs.
final class PlaybackSession: Sendable {
    /// Interval between two live QoS samples: 1 s of wall-clock time.
    static let sampleIntervalSeconds = 1.0

    let id: String
    let spec: SessionSpec
    let player: MediaPlayer
    private let finished = Mutex<PlaybackReport?>(nil)
    /// Stalls and beacon events seen so far (for `/metrics` while the session runs).
    let counts = Mutex(SessionCounts())
    private let runTask = Mutex<Task<PlaybackReport, Never>?>(nil)

    /// Fires the VAST beacons of the session's ads (nil without ads).
    let tracker: BeaconTracker?
    /// Makes the session's video heartbeat calls (nil without `heartbeats`).
    let heartbeats: HeartbeatTracker?

    /// Creates the player for `spec` (it does not run until ``start(writer:onEnd:)``).
    init(id: String, spec: SessionSpec, client: HTTPClient) {
        self.id = id
        self.spec = spec
        let driver: any SessionDriver
        let network: any PlayerNetwork
        switch spec.clock {
        case .real:
            driver = RealTimeDriver()
            network = LiveNetwork(client: client)
        case .virtual:
            driver = VirtualTimeDriver()
            let mbps = spec.bandwidthMegabitsPerSecond
            let link = SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: mbps))
            network = SimulatedNetwork(client: client, link: link)
        }
        var configuration = spec.playerConfiguration
        // The API sends pause, play, seek and stop: a paused virtual session waits for them, clock stopped.
        configuration.externallyControlled = true
        var resolver: DefaultAdResolver?
        if spec.ads.enabled, let domain = spec.ads.adTagURL {
            let mode = spec.ads.signalingMode.flatMap(AdSignalingMode.init(rawValue:)) ?? .default
            let metadata = AdMetadata(zoneId: spec.ads.zoneId ?? "1", domain: domain, mediaId: spec.ads.mediaId ?? "content",
                                      signalingMode: mode, enableLivePreroll: spec.ads.enableLivePreroll ?? true)
            // Validated when the spec was read; the player tells it live or VOD once loaded.
            resolver = try? DefaultAdResolver(metadata: metadata, isLive: false, client: client)
            if let resolver {
                let factory = MediaPlayerClientFactory()
                factory.register(resolver: resolver)
                configuration.ads = AdSettings(factory: factory, signalingMode: mode)
            }
        }
        let made = MediaPlayer(url: spec.url, configuration: configuration, driver: driver, network: network)
        player = made
        // Beacons fire at the presented ad frames; each is posted as a `beacon` event (and stored).
        tracker = resolver != nil || spec.ssai != nil ? BeaconTracker(client: client, bus: made.bus) : nil
        // Validated when the spec was read.
        heartbeats = spec.heartbeats.map { HeartbeatTracker(settings: $0.settings, client: client) }
    }

    /// Starts recording and playing. `onEnd` is called once with the final report, after it is stored.
    func start(writer: StoreWriter, onEnd: @escaping @Sendable (PlaybackReport) -> Void) {
        let id = id
        let counts = counts
        let tracker = tracker, player = player
        let trackerSubscription = tracker?.attach(to: player.bus)
        let heartbeats = heartbeats
        let heartbeatSubscription = heartbeats?.attach(to: player)
        let subscription = player.bus.subscribe { event in
            if case .timelineChanged = event.kind { tracker?.update(timeline: player.timeline) }
            writer.enqueue(.event(sessionID: id, event))
            switch event.kind {
            case let .statusChanged(_, to): writer.enqueue(.status(sessionID: id, to.rawValue))
            case .stalled: counts.withLock { $0.stalls += 1 }
            case let .custom(name, _) where name == StoreWriter.beaconEventName: counts.withLock { $0.beacons += 1 }
            default: break
            }
        }
        // Samples are enqueued under this gate, closed before the final report: none lands after the
        // report (or after a DELETE that waited for it).
        let samplingOpen = Mutex(true)
        let sampler = Task.detached { [player] in
            var lastTime = -1.0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(Self.sampleIntervalSeconds))
                if let info = player.playbackInformation, info.playerTime != lastTime {
                    lastTime = info.playerTime
                    samplingOpen.withLock { open in if open { writer.enqueue(.sample(sessionID: id, info)) } }
                }
            }
        }
        let task = Task.detached { [player, spec, finished] () -> PlaybackReport in
            var report = await player.run(maxSessionSeconds: spec.durationSeconds)
            samplingOpen.withLock { $0 = false }
            sampler.cancel()
            if let tracker {
                await tracker.flush()
                report.beacons = tracker.records
            }
            trackerSubscription?.cancel()
            heartbeatSubscription?.cancel()
            if let heartbeats {
                heartbeats.unload(at: report.sessionSeconds)
                _ = await heartbeats.flush(within: HeartbeatTracker.endGraceSeconds)
                report.heartbeats = heartbeats.report()
            }
            subscription.cancel()
            report.device = DeviceInformation.current(playheadVersion: PlayheadDaemon.version, ffmpegVersion: nil,
                                                      curlVersion: HTTPClient.curlVersion)
            writer.enqueue(.finish(sessionID: id, report))
            writer.flush()
            finished.withLock { $0 = report }
            player.bus.finish()
            onEnd(report)
            return report
        }
        runTask.withLock { $0 = task }
    }

    /// The final report once the session ended.
    var report: PlaybackReport? { finished.withLock { $0 } }

    /// Waits for the session to end.
    func wait() async -> PlaybackReport? {
        guard let task = runTask.withLock({ $0 }) else { return nil }
        return await task.value
    }

    /// What `GET /v1/sessions/{id}` adds for a running session.
    var live: LiveFigures {
        let seekable = player.seekableRange
        return LiveFigures(status: player.status.rawValue, positionSeconds: player.currentTime, durationSeconds: player.duration,
                           isLive: player.isLive, playbackInformation: player.playbackInformation,
                           lastSequence: player.bus.lastSequence, rebufferCount: counts.withLock { $0.stalls },
                           localSeconds: player.localTime, seekableStartSeconds: seekable?.lowerBound, seekableEndSeconds: seekable?.upperBound)
    }
}

/// Counts kept from a running session's events.
struct SessionCounts: Sendable {
    /// `stalled` events (rebuffers).
    var stalls = 0
    /// Beacon events.
    var beacons = 0
}

/// Figures of a running session, read from its player at the moment of the request.
public struct LiveFigures: Sendable, Codable, Equatable {
    /// The player status.
    public var status: String
    /// The playback position, seconds.
    public var positionSeconds: Double
    /// The item's duration, seconds (nil while unknown or live).
    public var durationSeconds: Double?
    /// Whether the item is live.
    public var isLive: Bool
    /// QoS at the player's last loop turn.
    public var playbackInformation: PlaybackInformation?
    /// The sequence number of the last event posted.
    public var lastSequence: Int
    /// Rebuffers (stalls after playback started) so far.
    public var rebufferCount: Int
    /// The position in local (content) time: ads not counted (PSDK localTime).
    public var localSeconds: Double? = nil
    /// The seekable range's start, timeline seconds (nil while unknown).
    public var seekableStartSeconds: Double? = nil
    /// The seekable range's end, timeline seconds (nil while unknown).
    public var seekableEndSeconds: Double? = nil
}
