import Foundation
import PlayheadHLS
import PlayheadMedia

/// A headless media player: one playback session of one item at a time, with the PSDK's statuses,
/// on a real or a virtual clock (the `SessionDriver`) over a real or simulated network.
///
/// Create it, send commands (`play`, `pause`, `seek`, …) from anywhere, and `run()` it: the loop
/// runs until the item completes, the session is stopped, or an error ends it, and returns the report.
/// Every event goes on `bus`. Not re-entrant: call `run()` once.
public final class MediaPlayer: @unchecked Sendable {
    /// The session's event bus (statuses, time, buffering, seeks, notifications…).
    public let bus: EventBus
    /// Settings.
    public let configuration: PlayerConfiguration
    let driver: any SessionDriver
    let network: any PlayerNetwork
    let fetcher: SegmentFetcher
    let decoder: RenditionDecoder
    var itemURL: String

    private let inboxLock = NSLock()
    private var inbox: [PlayerCommand] = []
    /// The session time events are stamped with while the loop works at one instant.
    let eventTime: EventTime
    /// The loop, waiting for a command (``PlayerConfiguration/externallyControlled``).
    private var commandWaiter: CheckedContinuation<Void, Never>?
    private var snapshot = Snapshot()

    // Loop state: touched by the loop task only.
    var state = LoopState()
    var report: PlaybackReport
    var qos = QoSAccumulator()
    var frames = FrameQueue()
    var buffer: PlaybackBuffer
    var anchor = TimestampAnchor()
    /// The ABR controller (nil: the configured variant plays throughout).
    var abr: ABRController?
    var scheduled: [ScheduledCommand]
    /// Duration of the last video frame that had one (a stand-in for frames without).
    var lastVideoFrameSeconds = 1.0 / 30
    /// Called with each presented frame that has a hash (framemd5 output), with the segment streams first.
    var onPresentedFrame: ((DecodedFrame) -> Void)?
    var onSegmentStreams: (([StreamInfo]) -> Void)?
    var onPacket: ((Packet) -> Void)?

    /// Creates a player for `url`.
    /// - Parameters:
    ///   - url: The item: a multivariant or media playlist URL.
    ///   - configuration: Settings.
    ///   - driver: The clock: `RealTimeDriver()` or `VirtualTimeDriver()`.
    ///   - network: What fetches: `LiveNetwork` on the real clock, `SimulatedNetwork` on the virtual one.
    ///   - scheduled: Commands to run at playback positions.
    ///   - dump: A sink for decoded frames' data (Y4M/WAV), if wanted.
    public init(url: String, configuration: PlayerConfiguration = .init(), driver: any SessionDriver,
                network: any PlayerNetwork, scheduled: [ScheduledCommand] = [], dump: (any FrameDumpSink)? = nil) {
        self.itemURL = url
        self.configuration = configuration
        self.driver = driver
        self.network = network
        self.fetcher = SegmentFetcher(network: network, keyProvider: configuration.keyProvider)
        self.scheduled = scheduled.sorted { $0.atPositionSeconds < $1.atPositionSeconds }
        var options = RenditionDecoderOptions()
        options.mode = configuration.mode
        options.hashFrames = configuration.hashFrames
        options.threads = configuration.decoderThreads
        if let dump {
            options.dump = dump
            options.dumpAtPresentation = true  // only what is presented goes to the files
        }
        decoder = RenditionDecoder(options: options)
        buffer = PlaybackBuffer(backBufferSeconds: configuration.buffer.backBufferSeconds)
        report = PlaybackReport(url: url, clock: driver.isVirtual ? "virtual" : "real", mode: configuration.mode.rawValue)
        let eventTime = EventTime()
        self.eventTime = eventTime
        bus = EventBus(clock: { [driver] in eventTime.turn ?? driver.now }, wallClock: { driver.isVirtual ? nil : Date() })
        if let settings = configuration.abr, let policy = settings.customPolicy ?? ABRPolicies.make(settings.policy) {
            abr = ABRController(policy: policy, controls: settings.controls)
        }
    }

    /// Hooks for frame output (framemd5, tests): presented frames, each segment's streams and then its
    /// packets, as the segment is demuxed.
    public func observeFrames(streams: @escaping ([StreamInfo]) -> Void, packets: @escaping (Packet) -> Void,
                              presented: @escaping (DecodedFrame) -> Void) {
        onSegmentStreams = streams
        onPacket = packets
        onPresentedFrame = presented
    }

    // MARK: Commands, callable from any task.

    /// Starts or resumes playback.
    public func play() { send(.play) }
    /// Pauses playback.
    public func pause() { send(.pause) }
    /// Seeks to `seconds` on the playback timeline.
    public func seek(to seconds: Double) { send(.seek(toSeconds: seconds)) }
    /// Stops the session.
    public func stop() { send(.stop) }
    /// Sets the playback rate (≤ 0 means 1.0).
    public func setRate(_ rate: Double) { send(.setRate(rate)) }
    /// Replaces the item.
    public func replaceItem(url: String) { send(.replaceItem(url: url)) }
    /// The viewer clicked the playing ad (PSDK notifyClick): an `adClicked` event with its click-through
    /// URL (a beacon tracker on the bus fires the click tracking); nothing outside ads.
    public func notifyClick() { send(.clickAd) }
    /// Skips the server-side ad playing (VOD, 5 s into it), as the Nowtilus demo's skip button; refused with
    /// an `adSkipRefused` event otherwise.
    public func skipAd() { send(.skipAd) }
    /// Seeks to where local (content) time `seconds` plays: past the breaks before it (PSDK seekToLocalTime).
    public func seekToLocalTime(_ seconds: Double) { send(.seekToLocal(seconds: seconds)) }

    /// Plays another audio rendition of the AUDIO group (by name or language; media ahead is loaded again).
    public func selectAudio(_ choice: AudioChoice) { send(.selectAudio(choice)) }
    /// Shows another subtitle track (by name or language), or none (`.off`).
    public func selectSubtitles(_ choice: SubtitleChoice) { send(.selectSubtitles(choice)) }

    /// Queues `command` for the loop.
    public func send(_ command: PlayerCommand) {
        let waiter = inboxLock.withLock { () -> CheckedContinuation<Void, Never>? in
            inbox.append(command)
            defer { commandWaiter = nil }
            return commandWaiter
        }
        waiter?.resume()
        driver.wake()
    }

    /// True while the loop waits for a command with its clock stopped (``PlayerConfiguration/externallyControlled``).
    public var isWaitingForCommand: Bool { inboxLock.withLock { commandWaiter != nil } }

    /// Returns once a command is queued (at once when one is).
    func commandArrival() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queued = inboxLock.withLock { () -> Bool in
                if !inbox.isEmpty { return true }
                commandWaiter = continuation
                return false
            }
            if queued { continuation.resume() }
        }
    }

    func takeCommands() -> [PlayerCommand] {
        inboxLock.withLock {
            defer { inbox = [] }
            return inbox
        }
    }

    // MARK: What can be read at any moment.

    /// What outside readers see; updated by the loop.
    struct Snapshot {
        var status: PlayerStatus = .created
        var position = 0.0
        var duration: Double?
        var seekable: ClosedRange<Double>?
        var isLive = false
        var information: PlaybackInformation?
        var timeline = AdTimeline()
        var report: PlaybackReport?
    }

    func publish(_ update: (inout Snapshot) -> Void) { inboxLock.withLock { update(&snapshot) } }

    /// The PSDK status.
    public var status: PlayerStatus { inboxLock.withLock { snapshot.status } }
    /// The playback position, seconds.
    public var currentTime: Double { inboxLock.withLock { snapshot.position } }
    /// The item's duration (nil while unknown or live).
    public var duration: Double? { inboxLock.withLock { snapshot.duration } }
    /// The seekable range (the DVR window for live).
    public var seekableRange: ClosedRange<Double>? { inboxLock.withLock { snapshot.seekable } }
    /// Whether the item is live.
    public var isLive: Bool { inboxLock.withLock { snapshot.isLive } }
    /// The ad timeline: breaks placed so far, with true ad durations once loaded.
    public var timeline: AdTimeline { inboxLock.withLock { snapshot.timeline } }
    /// The report as it stands at the loop's last turn, for a session still running: every record so
    /// far, but without its QoS samples and notifications (the bus and a sample store hold those). Nil
    /// before the first turn.
    public var reportSoFar: PlaybackReport? { inboxLock.withLock { snapshot.report } }
    /// PSDK localTime: the content time at the playback position (inside a break, its cue's).
    public var localTime: Double { inboxLock.withLock { snapshot.timeline.localSeconds(atVirtual: snapshot.position) } }
    /// PSDK convertToLocalTime: the content time at playback (virtual) time `seconds`.
    public func convertToLocalTime(_ seconds: Double) -> Double { timeline.convertToLocalTime(seconds) }
    /// QoS at the last loop turn.
    public var playbackInformation: PlaybackInformation? { inboxLock.withLock { snapshot.information } }
}

/// The session time of the loop's turn: events posted during a turn carry the time the turn works at,
/// the time the report's records use (on the real clock the turn's work takes time; events were
/// stamped up to a tenth of a second later than the seek or completion the report dated).
final class EventTime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double?
    /// The turn's time, or nil between turns (the driver's clock then).
    var turn: Double? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
