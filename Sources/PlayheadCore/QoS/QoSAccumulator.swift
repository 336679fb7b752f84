import Foundation

/// Accumulates what the player reports (transfers, frames, buffering, errors) and produces
/// ``PlaybackInformation`` at any moment, and a sample once a second of player time.
///
/// A plain value: the session owns one and feeds it, either call by call or with every bus event
/// through ``record(_:)``. All times are seconds on the session clock.
public struct QoSAccumulator: Sendable {
    /// How many of the latest transfers the observed bitrate and the recent time to first byte are
    /// measured over: 5.
    public static let defaultTransferWindow = 5
    /// How many samples ``samples`` keeps: 3,600 (an hour at one a second); older ones are dropped.
    public static let defaultSampleCapacity = 3_600
    /// The span frame rate is measured over: the last 1 second of player time.
    public static let frameRateWindowSeconds = 1.0
    /// Rounding slack of frame times at the window's edges (frame times are sums of fractions).
    static let frameTimeSlack = 1e-9

    private struct Transfer: Sendable {
        var bytes: Int
        var seconds: Double
        var firstByteSeconds: Double?
    }

    private var transfers: EventRing<Transfer>
    private var sampleRing: EventRing<PlaybackInformation>
    private var recentFrameTimes: [Double] = []
    private var presentedFrameCount = 0
    private var droppedFrameCount = 0
    private var loadStartTime = 0.0
    private var firstFrameTime: Double?
    private var firstSegmentFirstByteSeconds: Double?
    private var bufferingStart: Double?
    private var bufferingCount = 0
    private var completedBufferingSeconds = 0.0
    private var bufferLengthSeconds = 0.0
    private var videoBufferSeconds: Double?
    private var audioBufferSeconds: Double?
    private var profileBitrate: Int?
    private var bytesDownloaded = 0
    private var segmentsDownloaded = 0
    private var errorCount = 0
    private var nextSampleTime = 0.0

    /// Makes an empty accumulator.
    ///
    /// - Parameters:
    ///   - transferWindow: How many latest transfers to measure throughput over; by default
    ///     ``defaultTransferWindow``.
    ///   - sampleCapacity: How many samples to keep; by default ``defaultSampleCapacity``.
    public init(transferWindow: Int = QoSAccumulator.defaultTransferWindow, sampleCapacity: Int = QoSAccumulator.defaultSampleCapacity) {
        transfers = EventRing(capacity: transferWindow)
        sampleRing = EventRing(capacity: sampleCapacity)
    }

    /// The samples taken by ``sampleIfDue(at:)``, oldest first, at most `sampleCapacity`.
    public var samples: [PlaybackInformation] { sampleRing.elements }

    // MARK: Recording

    /// Notes that loading began (the origin of time to first frame); by default 0.
    public mutating func recordLoadStarted(at playerTime: Double) { loadStartTime = playerTime }

    /// Notes a finished transfer.
    ///
    /// - Parameters:
    ///   - bytes: Bytes received.
    ///   - seconds: Transfer time, request to last byte.
    ///   - firstByteSeconds: Time from request to first byte, if measured.
    ///   - isSegment: Whether it was a media segment (counted in `segmentsDownloaded`); playlists
    ///     and keys pass `false`.
    public mutating func recordTransfer(bytes: Int, seconds: Double, firstByteSeconds: Double? = nil, isSegment: Bool = true) {
        transfers.append(Transfer(bytes: bytes, seconds: seconds, firstByteSeconds: firstByteSeconds))
        bytesDownloaded += bytes
        if isSegment {
            if segmentsDownloaded == 0 { firstSegmentFirstByteSeconds = firstByteSeconds }
            segmentsDownloaded += 1
        }
    }

    /// Notes a presented frame; the first one also sets time to first frame.
    public mutating func recordFramePresented(at playerTime: Double) {
        presentedFrameCount += 1
        if firstFrameTime == nil { firstFrameTime = playerTime }
        recentFrameTimes.append(playerTime)
        let horizon = playerTime - Self.frameRateWindowSeconds - Self.frameTimeSlack
        if let keep = recentFrameTimes.firstIndex(where: { $0 >= horizon }), keep > 0 {
            recentFrameTimes.removeFirst(keep)
        }
    }

    /// Notes `count` dropped frames.
    public mutating func recordFramesDropped(_ count: Int) { droppedFrameCount += max(0, count) }

    /// Notes the first presented frame, if none was noted yet.
    public mutating func recordFirstFrame(at playerTime: Double) {
        if firstFrameTime == nil { firstFrameTime = playerTime }
    }

    /// Notes that playback began waiting for data; ignored while already waiting.
    public mutating func recordBufferingStarted(at playerTime: Double) {
        guard bufferingStart == nil else { return }
        bufferingStart = playerTime
        bufferingCount += 1
    }

    /// Notes that the wait ended; ignored when not waiting.
    public mutating func recordBufferingEnded(at playerTime: Double) {
        guard let start = bufferingStart else { return }
        completedBufferingSeconds += max(0, playerTime - start)
        bufferingStart = nil
    }

    /// Notes an error.
    public mutating func recordError() { errorCount += 1 }

    /// Sets the current variant's declared bitrate in bits per second.
    public mutating func setProfileBitrate(_ bitsPerSecond: Int?) { profileBitrate = bitsPerSecond }

    /// Sets the media buffered ahead of the playhead, in seconds, and per track (video, audio; nil for none).
    public mutating func setBufferLength(_ seconds: Double, video: Double? = nil, audio: Double? = nil) {
        bufferLengthSeconds = seconds
        videoBufferSeconds = video
        audioBufferSeconds = audio
    }

    // MARK: Reading

    /// The figures as of `playerTime`; a wait under way counts up to `playerTime`.
    public func information(at playerTime: Double) -> PlaybackInformation {
        let window = transfers.elements
        let windowBytes = window.reduce(0) { $0 + $1.bytes }
        let windowSeconds = window.reduce(0.0) { $0 + $1.seconds }
        let firstBytes = window.compactMap(\.firstByteSeconds)
        // The window is [t − 1 s, t): a frame shown at t itself counts in the next second. At the end of a
        // 30 fps item (t = the last frame's end) that gives 30, where (t − 1 s, t] gave 29.
        let horizon = playerTime - Self.frameRateWindowSeconds - Self.frameTimeSlack
        let inWindow = recentFrameTimes.filter { $0 >= horizon && $0 < playerTime - Self.frameTimeSlack }
        var frameRate = Double(inWindow.count) / Self.frameRateWindowSeconds
        if let first = inWindow.first, let last = inWindow.last, inWindow.count > 2, last > first {
            // Frames that fill the window evenly give their own rate (23.976 fps read 23 or 24 frames a
            // second), to a thousandth; a window with a stall or a start in it keeps the count.
            let interval = (last - first) / Double(inWindow.count - 1)
            if first - horizon < 2 * interval, playerTime - last < 2 * interval { frameRate = (1000 / interval).rounded() / 1000 }
        }
        let ongoing = bufferingStart.map { max(0, playerTime - $0) } ?? 0
        return PlaybackInformation(
            observedBitrate: windowSeconds > 0 ? Double(windowBytes) * 8 / windowSeconds : nil,
            profileBitrate: profileBitrate,
            frameRate: frameRate,
            droppedFrameCount: droppedFrameCount,
            presentedFrameCount: presentedFrameCount,
            timeToFirstByteSeconds: firstSegmentFirstByteSeconds,
            timeToFirstFrameSeconds: firstFrameTime.map { $0 - loadStartTime },
            bufferingCount: bufferingCount,
            totalBufferingSeconds: completedBufferingSeconds + ongoing,
            bufferLengthSeconds: bufferLengthSeconds,
            bytesDownloaded: bytesDownloaded,
            segmentsDownloaded: segmentsDownloaded,
            errorCount: errorCount,
            recentTimeToFirstByteSeconds: firstBytes.isEmpty ? nil : firstBytes.reduce(0, +) / Double(firstBytes.count),
            playerTime: playerTime, videoBufferSeconds: videoBufferSeconds, audioBufferSeconds: audioBufferSeconds)
    }

    /// Takes a sample when `playerTime` has reached the next whole second (0, 1, 2, …): at most
    /// one sample per whole second, and one (not several) after a jump over many seconds.
    ///
    /// - Parameter playerTime: The current player time.
    /// - Returns: The sample taken, or `nil` when none was due.
    public mutating func sampleIfDue(at playerTime: Double) -> PlaybackInformation? {
        guard playerTime >= nextSampleTime else { return nil }
        let sample = information(at: playerTime)
        sampleRing.append(sample)
        nextSampleTime = playerTime.rounded(.down) + 1
        return sample
    }
}
