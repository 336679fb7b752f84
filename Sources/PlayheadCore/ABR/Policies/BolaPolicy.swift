import Foundation

/// BOLA as dash.js's `BolaRule` runs it (Spiteri et al., "From Theory to Practice", MMSys 2018):
/// utilities `ln(bitrate / lowest) + 1`; the buffer target `max(12 s, 10 s + 2 s × rungs)`; the rung
/// maximising `(Vp × (utility + gp) − buffer) / bitrate`; BOLA-O's rule that an upswitch beyond what the
/// throughput sustains stops at the sustainable rung (never below the last); and the throughput rule
/// during startup (until one segment is buffered). dash.js's placeholder buffer and idle delays are not
/// modelled (the simulator never idles by choice).
public struct BolaPolicy: ABRPolicy {
    /// Buffer below which BOLA never waits: 10 s (`MINIMUM_BUFFER_S`).
    public static let minimumBufferSeconds = 10.0
    /// Extra target buffer per rung: 2 s (`MINIMUM_BUFFER_PER_BITRATE_LEVEL_S`).
    public static let bufferPerRungSeconds = 2.0
    /// dash.js's stable buffer time: 12 s (`streaming.buffer.stableBufferTime`).
    public static let defaultStableBufferSeconds = 12.0

    /// "bola".
    public let name = "bola"
    /// dash.js's stable buffer time; the target is at least this.
    public var stableBufferSeconds = defaultStableBufferSeconds
    private var throughput = ThroughputPolicy()
    private var steady = false

    /// Creates the policy with dash.js's defaults.
    public init() {}

    /// Forgets the history and returns to startup.
    public mutating func reset() {
        throughput.reset()
        steady = false
    }

    /// The rung BOLA's score prefers at this buffer level, before BOLA-O.
    public func bufferRung(_ context: ABRContext) -> Int {
        let rates = context.ladderBitsPerSecond.map(Double.init)
        guard rates.count > 1, let lowest = rates.first, lowest > 0 else { return 0 }
        let utilities = rates.map { log($0 / lowest) + 1 }
        let targetSeconds = max(stableBufferSeconds, Self.minimumBufferSeconds + Self.bufferPerRungSeconds * Double(rates.count))
        let gp = (utilities[utilities.count - 1] - 1) / (targetSeconds / Self.minimumBufferSeconds - 1)
        let vp = Self.minimumBufferSeconds / gp
        var best = 0
        var bestScore = -Double.infinity
        for index in rates.indices {
            let score = (vp * (utilities[index] + gp) - context.bufferSeconds) / rates[index]
            if score >= bestScore { bestScore = score; best = index }
        }
        return best
    }

    /// Throughput rule in startup, BOLA-O afterwards.
    public mutating func choose(_ context: ABRContext) -> Int {
        let safe = throughput.safeThroughput(context)
        let sustainable = safe.map { context.highestIndex(atMost: $0) } ?? 0
        if !steady {
            guard context.bufferSeconds >= context.segmentSeconds, safe != nil else { return sustainable }
            steady = true
        }
        var index = bufferRung(context)
        if let last = context.lastIndex, index > last, index > sustainable {
            index = max(sustainable, last)
        }
        return index
    }
}

/// dash.js's DYNAMIC strategy: the throughput rule until 18 s are buffered, BOLA from then on until the
/// buffer falls below 9 s, and so on (hysteresis between the two thresholds).
public struct DynamicPolicy: ABRPolicy {
    /// Buffer at or above which BOLA takes over: 18 s.
    public static let defaultBolaOnSeconds = 18.0
    /// Buffer below which the throughput rule takes over again: 9 s.
    public static let defaultBolaOffSeconds = 9.0

    /// "dynamic".
    public let name = "dynamic"
    /// Buffer at or above which BOLA takes over.
    public var bolaOnSeconds = defaultBolaOnSeconds
    /// Buffer below which the throughput rule takes over.
    public var bolaOffSeconds = defaultBolaOffSeconds
    private var bola = BolaPolicy()
    private var throughput = ThroughputPolicy()
    /// Whether BOLA is in charge.
    public private(set) var usingBola = false

    /// Creates the policy with the DYNAMIC thresholds.
    public init() {}

    /// Forgets history; the throughput rule is in charge again.
    public mutating func reset() {
        bola.reset()
        throughput.reset()
        usingBola = false
    }

    /// Both rules see every decision (so their estimates stay current); the one in charge answers.
    public mutating func choose(_ context: ABRContext) -> Int {
        if usingBola, context.bufferSeconds < bolaOffSeconds { usingBola = false }
        if !usingBola, context.bufferSeconds >= bolaOnSeconds { usingBola = true }
        let byBola = bola.choose(context)
        let byThroughput = throughput.choose(context)
        return usingBola ? byBola : byThroughput
    }
}
