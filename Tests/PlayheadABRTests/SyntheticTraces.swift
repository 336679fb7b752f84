import PlayheadCore

/// Synthetic traces and a constant-bitrate video on Pensieve's ladder, for the policy tests.
enum Synthetic {
    /// A trace with one sample a second; `rate(t)` gives the Mbit/s of the second ending at t.
    static func trace(_ name: String, seconds: Int = 600, rate: (Int) -> Double) -> BandwidthTrace {
        BandwidthTrace(name: name, times: (0...seconds).map(Double.init),
                       megabitsPerSecond: (0...seconds).map { rate($0) })
    }

    /// 5 Mbit/s for 80 s, then 1 Mbit/s.
    static let stepDown = trace("step-down") { $0 <= 80 ? 5 : 1 }
    /// 1 Mbit/s for 80 s, then 8 Mbit/s.
    static let stepUp = trace("step-up") { $0 <= 80 ? 1 : 8 }
    /// 1 and 4 Mbit/s alternating every 5 s.
    static let oscillating = trace("oscillating") { ($0 / 5) % 2 == 0 ? 1 : 4 }
    /// 3 Mbit/s, with 0.05 Mbit/s from 60 s to 100 s.
    static let outage = trace("outage") { $0 > 60 && $0 <= 100 ? 0.05 : 3 }

    /// 48 chunks of exactly bitrate × 4 s.
    static let video = ChunkVideo.constantBitrate(chunkCount: 48)

    /// One policy's session over a trace, with the literature's settings.
    static func play(_ name: String, _ trace: BandwidthTrace) -> ChunkSession {
        ChunkSimulator.run(policy: ABRPolicies.make(name)!, trace: trace, video: video)
    }

    /// Rungs of chunks whose download started at or after `seconds` of session time.
    static func rungs(_ session: ChunkSession, after seconds: Double) -> [Int] {
        var clock = 0.0
        var rungs: [Int] = []
        for record in session.records {
            if clock >= seconds { rungs.append(record.rung) }
            clock += record.downloadSeconds + record.sleepSeconds
        }
        return rungs
    }
}
