import Foundation
import PlayheadCore
import Synchronization

/// One policy's (or the optimum's) outcome on one trace.
struct BenchRecord: Sendable, Codable {
    var policy: String
    var qoe: [QoEMetric: Double]
    var averageBitsPerSecond: Double
    var rebufferSeconds: Double
    var rebufferRatio: Double
    var switchCount: Int
    var rungs: [Int]

    init(policy: String, session: ChunkSession) {
        self.policy = policy
        qoe = Dictionary(uniqueKeysWithValues: QoEMetric.allCases.map { ($0, session.qoe($0)) })
        averageBitsPerSecond = session.averageBitsPerSecond
        rebufferSeconds = session.rebufferSeconds
        rebufferRatio = session.rebufferRatio
        switchCount = session.switchCount
        rungs = session.records.map(\.rung)
    }
}

/// Every record for one trace.
struct BenchTraceResult: Sendable {
    var trace: String
    var records: [String: BenchRecord]
    /// The optimum per metric; empty when it was not solved.
    var optimum: [QoEMetric: Double]
    /// The optimum's record (its QoE per metric from each metric's own solve; the rest from QoE_lin's).
    var optimumRecord: BenchRecord?

    /// `policy`'s QoE over the optimum's; nil without an optimum or when the optimum is not positive.
    func normalised(_ policy: String, _ metric: QoEMetric) -> Double? {
        guard let best = optimum[metric], best > 0, let value = records[policy]?.qoe[metric] else { return nil }
        return value / best
    }
}

/// A trace set's results.
struct BenchSetResult: Sendable {
    var name: String
    var traces: [BenchTraceResult]
    var policies: [String]
}

/// Runs policies and the optimum over traces on a few workers.
enum BenchRunner {
    /// - Parameter progress: called after each trace (from any worker).
    static func run(traces: [BandwidthTrace], video: ChunkVideo, settings: ChunkSimulationSettings, policies: [String],
                    solver: OfflineOptimum?, workers: Int, progress: (@Sendable () -> Void)? = nil) async -> [BenchTraceResult] {
        await withTaskGroup(of: [(Int, BenchTraceResult)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    stride(from: worker, to: traces.count, by: workers).map { index in
                        let result = evaluate(traces[index], video: video, settings: settings, policies: policies, solver: solver)
                        progress?()
                        return (index, result)
                    }
                }
            }
            var results: [(Int, BenchTraceResult)] = []
            for await part in group { results += part }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    static func evaluate(_ trace: BandwidthTrace, video: ChunkVideo, settings: ChunkSimulationSettings, policies: [String],
                         solver: OfflineOptimum?) -> BenchTraceResult {
        var records: [String: BenchRecord] = [:]
        for name in policies {
            guard let policy = ABRPolicies.make(name) ?? BenchReferences.make(name, trace: trace, settings: settings) else { continue }
            let session = ChunkSimulator.run(policy: policy, trace: trace, video: video, settings: settings)
            records[name] = BenchRecord(policy: name, session: session)
        }
        var result = BenchTraceResult(trace: trace.name, records: records, optimum: [:], optimumRecord: nil)
        guard let solver else { return result }
        for metric in QoEMetric.allCases {
            let solution = solver.solve(trace: trace, video: video, settings: settings, metric: metric)
            guard !solution.rungs.isEmpty else { continue }
            let replay = ChunkSimulator.replay(rungs: solution.rungs, trace: trace, video: video, settings: settings)
            result.optimum[metric] = replay.qoe(metric)
            if metric == .lin { result.optimumRecord = BenchRecord(policy: "optimum", session: replay) }
        }
        for metric in QoEMetric.allCases { result.optimumRecord?.qoe[metric] = result.optimum[metric] }
        return result
    }
}

/// Non-causal reference rows: policies that read the trace's future, so only the benchmark can run them.
enum BenchReferences {
    /// Their names, reported after the causal policies.
    static let names = [ForesightPolicy.referenceName, MeanOraclePolicy.referenceName]

    /// The reference called `name` for a session over `trace`; nil for a name it does not know.
    static func make(_ name: String, trace: BandwidthTrace, settings: ChunkSimulationSettings) -> (any ABRPolicy)? {
        switch name.lowercased() {
        case ForesightPolicy.referenceName: ForesightPolicy(trace: trace, settings: settings)
        case MeanOraclePolicy.referenceName: MeanOraclePolicy(trace: trace, settings: settings)
        default: nil
        }
    }
}

/// A progress line on standard error every tenth or so of a set's traces: how many are done and how long it took.
/// Printed under the lock, so the lines come in order.
final class BenchProgress: Sendable {
    private let name: String
    private let total: Int
    private let every: Int
    private let started = Date()
    private let done = Mutex(0)

    /// A progress line for a set of `total` traces, about ten lines in all.
    init(name: String, total: Int) {
        self.name = name
        self.total = total
        every = max(1, total / 10)
    }

    /// Counts one trace; prints on every `every`-th but the last (the set's summary line follows it).
    func traceDone() {
        done.withLock { count in
            count += 1
            guard count % every == 0, count < total else { return }
            let line = String(format: "%@: %d/%d traces, %.1f s\n", name, count, total, Date().timeIntervalSince(started))
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
