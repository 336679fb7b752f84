/// BBA (Huang et al., SIGCOMM 2014), as Pensieve's `test/bb.py` runs it: the lowest rung while the buffer
/// is below the reservoir (5 s), the highest above reservoir + cushion (15 s), and in between a rung
/// linear in the buffer.
public struct BufferBasedPolicy: ABRPolicy {
    /// The reservoir: 5 s (`RESEVOIR`).
    public static let defaultReservoirSeconds = 5.0
    /// The cushion: 10 s (`CUSHION`).
    public static let defaultCushionSeconds = 10.0

    /// "bba".
    public let name = "bba"
    /// Buffer below which the lowest rung is taken.
    public var reservoirSeconds = defaultReservoirSeconds
    /// Width of the linear region above the reservoir.
    public var cushionSeconds = defaultCushionSeconds

    /// Creates the policy with Pensieve's parameters.
    public init() {}

    /// The rung the buffer level maps to.
    public mutating func choose(_ context: ABRContext) -> Int {
        let top = context.ladderBitsPerSecond.count - 1
        let buffer = context.bufferSeconds
        if buffer < reservoirSeconds { return 0 }
        if buffer >= reservoirSeconds + cushionSeconds { return top }
        return min(top, Int(Double(top) * (buffer - reservoirSeconds) / cushionSeconds))
    }
}
