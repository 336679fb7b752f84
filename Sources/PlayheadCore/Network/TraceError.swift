/// Why a bandwidth trace could not be read. Every case names the trace (its file name or the name given
/// to ``BandwidthTrace/parse(_:name:)``) and, for content errors, the 1-based line.
public enum TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line does not hold exactly two fields (`time_seconds` and `throughput_Mbit/s`).
    case malformedLine(trace: String, line: Int, text: String)
    /// A field is not a finite decimal number.
    case badNumber(trace: String, line: Int, text: String)
    /// A sample's time is not after the previous sample's time.
    case nonIncreasingTime(trace: String, line: Int, seconds: Double, previousSeconds: Double)
    /// A sample's throughput is below zero.
    case negativeThroughput(trace: String, line: Int, megabitsPerSecond: Double)
    /// The trace has fewer than two samples, so no interval to walk.
    case tooFewSamples(trace: String, count: Int)
    /// Every throughput the walk uses (samples after the first) is 0: no transfer could ever end.
    case carriesNoData(trace: String)
    /// The file or folder could not be read.
    case unreadable(path: String, reason: String)

    /// The 1-based line the error is about, when it is about one.
    public var line: Int? {
        switch self {
        case .malformedLine(_, let line, _), .badNumber(_, let line, _),
             .nonIncreasingTime(_, let line, _, _), .negativeThroughput(_, let line, _):
            line
        case .tooFewSamples, .carriesNoData, .unreadable:
            nil
        }
    }

    /// Longest text of a line an error's description echoes, in characters.
    static let maxEchoedCharacters = 80

    /// `text` as a description echoes it: over ``maxEchoedCharacters``, cut to one less and an ellipsis.
    static func excerpt(_ text: String) -> String {
        text.count > maxEchoedCharacters ? text.prefix(maxEchoedCharacters - 1) + "…" : text
    }

    /// One line naming the trace, the line and what is wrong, e.g. `bus_1:7: time 3.0 s is not after 3.5 s`;
    /// a line's text is echoed up to ``maxEchoedCharacters``.
    public var description: String {
        switch self {
        case let .malformedLine(trace, line, text):
            return "\(trace):\(line): expected `time_seconds throughput_Mbit/s`, found \"\(Self.excerpt(text))\""
        case let .badNumber(trace, line, text):
            return "\(trace):\(line): \"\(Self.excerpt(text))\" is not a finite number"
        case let .nonIncreasingTime(trace, line, seconds, previous):
            return "\(trace):\(line): time \(seconds) s is not after the previous sample's \(previous) s"
        case let .negativeThroughput(trace, line, rate):
            return "\(trace):\(line): negative throughput \(rate) Mbit/s"
        case let .tooFewSamples(trace, count):
            return "\(trace): \(count) sample\(count == 1 ? "" : "s"); a trace needs at least 2"
        case let .carriesNoData(trace):
            return "\(trace): every throughput after the first sample is 0 Mbit/s, so the link never carries a byte "
                + "(a sample's throughput holds over the interval that ends at its time; the first sample's is not used)"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        }
    }
}
