/// A session's trace as the simulator plays it, for the benchmark's non-causal reference rows: where a
/// decision stands on it, and what a chunk downloaded from there would meet.
struct TrueFuture: Sendable {
    /// The session's link over its trace.
    let link: SimulatedLink
    /// The simulator's conventions.
    let settings: ChunkSimulationSettings

    /// The future of a session over `trace` played with `settings`.
    init(trace: BandwidthTrace, settings: ChunkSimulationSettings) {
        link = settings.link(trace)
        self.settings = settings
    }

    /// The simulator's playback state at the decision `context` describes.
    func state(at context: ABRContext) -> PlaybackState {
        var state = PlaybackState()
        state.sessionSeconds = context.sessionSeconds
        // The simulator's trace position runs behind session time by one round trip per chunk so far.
        state.tracePositionSeconds = context.sessionSeconds - link.roundTripSeconds * Double(context.segmentIndex)
        state.bufferSeconds = context.bufferSeconds
        return state
    }

    /// Downloads `bytes` of `segmentSeconds` of media from `state`, as the simulator would.
    func download(_ bytes: Int, segmentSeconds: Double, from state: inout PlaybackState) -> PlaybackState.Outcome {
        state.download(bytes: bytes, segmentSeconds: segmentSeconds, link: link, settings: settings)
    }
}
