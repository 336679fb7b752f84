/// The literature's link model (Pensieve `test/fixed_env.py` conventions): a transfer of N bytes started
/// at trace time t costs RTT + the time to push N bytes through the trace's throughput × payload factor,
/// walking the trace's piecewise-constant intervals (and wrapping around at its end).
///
/// How `fixed_env.py` does it, and what this type matches:
/// - Throughput of the interval ending at `cooked_time[ptr]` is `cooked_bw[ptr] * B_IN_MB / 8` bytes per
///   second (`B_IN_MB = 1_000_000`); an interval of `duration` seconds carries
///   `throughput * duration * PACKET_PAYLOAD_PORTION` bytes (0.95). The walk moves interval by interval
///   until the chunk fits, then adds the fraction `(size - sent) / throughput / 0.95` of the last one.
///   This type does the same arithmetic in the same order, so results agree to the last bits or so.
/// - `LINK_RTT` (80 ms) is added once per chunk, after the walk, and does not move the trace: the trace
///   position advances by the transfer's data time only. This type is stateless (the caller says where in
///   session time a transfer starts); to reproduce `fixed_env.py` exactly, start each transfer at the
///   session time `fixed_env.py` would be at, that is without the round trips of earlier transfers.
/// - The walk starts at `cooked_time[0]` (`mahimahi_ptr = 1`). When it passes the last sample it goes back
///   to `ptr = 1` with `last_mahimahi_time = 0`, not `cooked_time[0]`: for traces that do not start at
///   0 (the FCC set starts at 180 s, 360 s, …) every pass after the first begins with a long interval at
///   sample 1's throughput. ``WrapRule/restartAtZero`` (the default) keeps that quirk so benchmark
///   figures stay comparable with published ones; ``WrapRule/restartAtFirstSample`` is the plain period.
public struct SimulatedLink: Sendable {
    /// Where the walk resumes after passing the trace's last sample.
    public enum WrapRule: Sendable, Equatable {
        /// At trace time 0, with sample 1's throughput until sample 1's time (as `fixed_env.py`).
        case restartAtZero
        /// At the first sample's time: the trace simply repeats with period ``BandwidthTrace/durationSeconds``.
        case restartAtFirstSample
    }

    /// Round-trip time added once to each transfer: 0.08 s (`fixed_env.py`'s `LINK_RTT = 80` ms).
    public static let defaultRoundTripSeconds = 0.08
    /// Share of the trace's throughput that carries payload: 0.95 (`PACKET_PAYLOAD_PORTION`).
    public static let defaultPayloadFactor = 0.95
    /// Wrap rule: ``WrapRule/restartAtZero``, as `fixed_env.py`.
    public static let defaultWrapRule = WrapRule.restartAtZero

    /// The trace walked. Must be valid (as ``BandwidthTrace/parse(_:name:)`` makes).
    public let trace: BandwidthTrace
    /// Seconds added to each transfer for the round trip.
    public let roundTripSeconds: Double
    /// Share of the trace's throughput that carries payload.
    public let payloadFactor: Double
    /// Seconds after the trace's first sample at which session time 0 falls.
    public let startOffsetSeconds: Double
    /// Where the walk resumes after the trace's last sample.
    public let wrapRule: WrapRule
    /// Payload bytes one full pass after a wrap carries.
    private let bytesPerWrappedPass: Double

    /// Creates a link over `trace`.
    /// - Parameters:
    ///   - trace: A valid trace (at least two samples, increasing times).
    ///   - roundTripSeconds: Added once per transfer. Default ``defaultRoundTripSeconds``.
    ///   - payloadFactor: Share of throughput carrying payload. Default ``defaultPayloadFactor``.
    ///   - startOffsetSeconds: Session time 0 is this many seconds after the first sample. Default 0
    ///     (`fixed_env.py` starts at the first sample).
    ///   - wrapRule: Where the walk resumes after the last sample. Default ``defaultWrapRule``.
    public init(trace: BandwidthTrace, roundTripSeconds: Double = defaultRoundTripSeconds,
                payloadFactor: Double = defaultPayloadFactor, startOffsetSeconds: Double = 0,
                wrapRule: WrapRule = defaultWrapRule) {
        precondition(trace.times.count >= 2 && trace.times.count == trace.megabitsPerSecond.count,
                     "SimulatedLink needs a valid trace; \(trace.name) has \(trace.times.count) times")
        self.trace = trace
        self.roundTripSeconds = roundTripSeconds
        self.payloadFactor = payloadFactor
        self.startOffsetSeconds = startOffsetSeconds
        self.wrapRule = wrapRule
        var cursor = Cursor(index: 1, time: wrapRule == .restartAtZero ? 0 : trace.times[0])
        var bytes = 0.0
        for _ in 1..<trace.times.count {
            bytes += cursor.bytesPerSecond(trace) * cursor.span(trace) * payloadFactor
            cursor.next(trace, wrapRule)
        }
        bytesPerWrappedPass = bytes
    }

    /// Seconds a transfer of `bytes` takes when started at `startSeconds` of session time (session time
    /// 0 = trace offset): the round trip plus the data time. `bytes <= 0` costs the round trip only; a
    /// trace with no throughput at all makes any other transfer cost `.infinity`.
    public func transferSeconds(bytes: Int, startingAt startSeconds: Double) -> Double {
        guard bytes > 0 else { return roundTripSeconds }
        guard bytesPerWrappedPass > 0 else { return .infinity }
        let size = Double(bytes)
        var cursor = locate(startSeconds)
        var sent = 0.0
        var delay = 0.0
        while true {
            let throughput = cursor.bytesPerSecond(trace)
            let duration = cursor.span(trace)
            let payload = throughput * duration * payloadFactor
            if sent + payload > size {
                delay += (size - sent) / throughput / payloadFactor
                break
            }
            sent += payload
            delay += duration
            cursor.next(trace, wrapRule)
            if cursor.isAtWrapStart(trace, wrapRule), size - sent > 2 * bytesPerWrappedPass {
                let passes = ((size - sent) / bytesPerWrappedPass).rounded(.down) - 1
                sent += passes * bytesPerWrappedPass
                delay += passes * wrappedPassSeconds
            }
        }
        return delay + roundTripSeconds
    }

    /// Mean of the trace's throughput (bits per second, without the payload factor) over session time
    /// `[from, to)`; the throughput at `from` when the span is empty or reversed.
    public func averageThroughputBitsPerSecond(from: Double, to: Double) -> Double {
        var cursor = locate(from)
        guard to > from else { return cursor.bytesPerSecond(trace) * 8 }
        var left = to - from
        var bytes = 0.0
        while left > 0 {
            let duration = min(cursor.span(trace), left)
            bytes += cursor.bytesPerSecond(trace) * duration
            left -= duration
            cursor.next(trace, wrapRule)
            if cursor.isAtWrapStart(trace, wrapRule), left > 2 * wrappedPassSeconds {  // whole passes at once
                let passes = (left / wrappedPassSeconds).rounded(.down) - 1
                bytes += passes * bytesPerWrappedPass / payloadFactor
                left -= passes * wrappedPassSeconds
            }
        }
        return bytes * 8 / (to - from)
    }

    /// Seconds of one full pass after a wrap.
    private var wrappedPassSeconds: Double {
        trace.times[trace.times.count - 1] - (wrapRule == .restartAtZero ? 0 : trace.times[0])
    }

    /// The walk's position at session time `seconds` (negative times count as 0).
    private func locate(_ seconds: Double) -> Cursor {
        let times = trace.times
        let elapsed = max(0, startOffsetSeconds + seconds)
        let firstPass = times[times.count - 1] - times[0]
        guard elapsed >= firstPass else {
            let time = times[0] + elapsed
            return Cursor(index: trace.intervalIndex(containing: time), time: time)
        }
        let base = wrapRule == .restartAtZero ? 0 : times[0]
        let time = base + (elapsed - firstPass).truncatingRemainder(dividingBy: wrappedPassSeconds)
        return Cursor(index: trace.intervalIndex(containing: time), time: time)
    }

    /// A position in the walk: inside the interval ending at sample `index`, at trace time `time`.
    private struct Cursor {
        var index: Int
        var time: Double

        func bytesPerSecond(_ trace: BandwidthTrace) -> Double {
            trace.megabitsPerSecond[index] * BandwidthTrace.bitsPerMegabit / 8
        }

        /// Seconds left in the current interval.
        func span(_ trace: BandwidthTrace) -> Double { trace.times[index] - time }

        mutating func next(_ trace: BandwidthTrace, _ rule: WrapRule) {
            time = trace.times[index]
            index += 1
            if index == trace.times.count {
                index = 1
                time = rule == .restartAtZero ? 0 : trace.times[0]
            }
        }

        func isAtWrapStart(_ trace: BandwidthTrace, _ rule: WrapRule) -> Bool {
            index == 1 && time == (rule == .restartAtZero ? 0 : trace.times[0])
        }
    }
}
