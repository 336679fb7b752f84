import Foundation

/// The chunk simulator's state between chunks, and the one step that advances it: `fixed_env.py`'s
/// `get_video_chunk`. The simulator and the offline optimum both step through this type, so they agree
/// to the bit.
public struct PlaybackState: Sendable, Equatable {
    /// Position in the trace, in seconds of session time without the round trips (what the link reads).
    public var tracePositionSeconds = 0.0
    /// Session (wall) time in seconds: trace position plus every round trip so far.
    public var sessionSeconds = 0.0
    /// Seconds of media buffered.
    public var bufferSeconds = 0.0

    /// The empty state at session start.
    public init() {}

    /// What one chunk's download cost.
    public struct Outcome: Sendable, Equatable {
        /// Seconds from request to last byte (round trip included).
        public var downloadSeconds: Double
        /// Seconds the playhead stalled waiting for it.
        public var rebufferSeconds: Double
        /// Seconds slept afterwards because the buffer passed its cap.
        public var sleepSeconds: Double
    }

    /// Downloads a chunk of `bytes` holding `segmentSeconds` of media, as `fixed_env.py` does.
    public mutating func download(bytes: Int, segmentSeconds: Double, link: SimulatedLink,
                                  settings: ChunkSimulationSettings) -> Outcome {
        let delay = link.transferSeconds(bytes: bytes, startingAt: tracePositionSeconds)
        tracePositionSeconds += delay - link.roundTripSeconds
        let stalling = settings.roundTripStalls || sessionSeconds == 0 ? delay : delay - link.roundTripSeconds
        let rebuffer = max(stalling - bufferSeconds, 0)
        bufferSeconds = max(bufferSeconds - delay, 0) + segmentSeconds
        var sleep = 0.0
        if bufferSeconds > settings.maxBufferSeconds {
            let over = bufferSeconds - settings.maxBufferSeconds
            sleep = (over / settings.drainSleepSeconds).rounded(.up) * settings.drainSleepSeconds
            bufferSeconds -= sleep
            tracePositionSeconds += sleep
        }
        sessionSeconds += delay + sleep
        return Outcome(downloadSeconds: delay, rebufferSeconds: rebuffer, sleepSeconds: sleep)
    }
}
