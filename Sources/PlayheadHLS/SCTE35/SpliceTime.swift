/// Ticks per second of the 90 kHz clock that PTS values and durations count in.
public let scte35TicksPerSecond: Double = 90_000

/// The modulus of 33-bit PTS arithmetic (2^33).
public let scte35PTSModulus: UInt64 = 1 << 33

/// splice_time(): an optional 33-bit PTS in 90 kHz ticks.
public struct SpliceTime: Sendable, Equatable, Codable {
    /// time_specified_flag: whether `ptsTimeTicks` is present.
    public var timeSpecifiedFlag: Bool
    /// pts_time in 90 kHz ticks (33 bits), before pts_adjustment; nil when not specified.
    public var ptsTimeTicks: UInt64?

    /// A splice time; `ptsTimeTicks` nil means "not specified" (immediate, or at the next opportunity).
    public init(ptsTimeTicks: UInt64?) {
        self.timeSpecifiedFlag = ptsTimeTicks != nil
        self.ptsTimeTicks = ptsTimeTicks
    }

    /// `ptsTimeTicks` in seconds (no adjustment applied).
    public var ptsTimeSeconds: Double? { ptsTimeTicks.map { Double($0) / scte35TicksPerSecond } }

    /// The PTS after adding `adjustmentTicks`, modulo 2^33.
    public func adjustedTicks(_ adjustmentTicks: UInt64) -> UInt64? {
        ptsTimeTicks.map { ($0 + adjustmentTicks) % scte35PTSModulus }
    }

    enum CodingKeys: String, CodingKey {
        case timeSpecifiedFlag, ptsTimeTicks = "ptsTime"
    }

    enum ExtraKeys: String, CodingKey { case ptsTimeSeconds }

    /// Encodes the flag, `ptsTime` in ticks and `ptsTimeSeconds`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeSpecifiedFlag, forKey: .timeSpecifiedFlag)
        try container.encodeIfPresent(ptsTimeTicks, forKey: .ptsTimeTicks)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encodeIfPresent(ptsTimeSeconds.map(jsonSeconds), forKey: .ptsTimeSeconds)
    }

    /// Reads `ptsTime` (ticks); the flag follows from its presence.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(ptsTimeTicks: try container.decodeIfPresent(UInt64.self, forKey: .ptsTimeTicks))
    }

    /// Reads splice_time().
    static func parse(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> SpliceTime {
        if try reader.flag("time_specified_flag") {
            try reader.skip(6)
            return SpliceTime(ptsTimeTicks: try reader.bits(33, "pts_time"))
        }
        try reader.skip(7)
        return SpliceTime(ptsTimeTicks: nil)
    }
}

/// break_duration(): how long a break lasts and whether the splicer returns by itself.
public struct BreakDuration: Sendable, Equatable, Codable {
    /// auto_return: the splicer returns to the network at the end of the break.
    public var autoReturn: Bool
    /// duration in 90 kHz ticks (33 bits).
    public var durationTicks: UInt64

    /// A break duration.
    public init(autoReturn: Bool, durationTicks: UInt64) {
        self.autoReturn = autoReturn
        self.durationTicks = durationTicks
    }

    /// `durationTicks` in seconds.
    public var durationSeconds: Double { Double(durationTicks) / scte35TicksPerSecond }

    enum CodingKeys: String, CodingKey {
        case autoReturn, durationTicks = "duration"
    }

    enum ExtraKeys: String, CodingKey { case durationSeconds }

    /// Encodes `autoReturn`, `duration` in ticks and `durationSeconds`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(autoReturn, forKey: .autoReturn)
        try container.encode(durationTicks, forKey: .durationTicks)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encode(jsonSeconds(durationSeconds), forKey: .durationSeconds)
    }

    /// Reads break_duration().
    static func parse(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> BreakDuration {
        let autoReturn = try reader.flag("auto_return")
        try reader.skip(6)
        return BreakDuration(autoReturn: autoReturn, durationTicks: try reader.bits(33, "duration"))
    }
}

/// Seconds rounded to the microsecond, as the JSON form writes them (ticks stay exact).
func jsonSeconds(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
