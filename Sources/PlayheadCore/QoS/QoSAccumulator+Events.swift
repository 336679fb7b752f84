extension QoSAccumulator {
    /// Feeds one bus event, so a session can keep its QoS with one subscriber:
    /// - `segmentLoaded` is a segment transfer, `playlistLoaded` is not counted (it has no size);
    /// - `framePresented` and `framesDropped` count frames;
    /// - `bufferingStarted` and `bufferingCompleted` bound a wait, at the events' player times
    ///   (`stalled`/`recovered` are not counted again: a stall is reported as buffering too);
    /// - `bitrateChanged` sets the profile bitrate;
    /// - `error` events and `notification`s of type ERROR count as errors (post each error once).
    ///
    /// - Parameter event: A bus event.
    public mutating func record(_ event: PlayerEvent) {
        switch event.kind {
        case let .segmentLoaded(_, _, bytes, seconds, _):
            recordTransfer(bytes: bytes, seconds: seconds)
        case .framePresented:
            recordFramePresented(at: event.playerTime)
        case let .framesDropped(count, _, _):
            recordFramesDropped(count)
        case .bufferingStarted:
            recordBufferingStarted(at: event.playerTime)
        case .bufferingCompleted:
            recordBufferingEnded(at: event.playerTime)
        case let .bitrateChanged(_, to, _):
            setProfileBitrate(to)
        case .error:
            recordError()
        case let .notification(notification) where notification.type == .error:
            recordError()
        default:
            break
        }
    }
}
