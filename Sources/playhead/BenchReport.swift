import Foundation
import PlayheadCore

/// The benchmark's Markdown table and JSON records.
enum BenchReport {
    /// One table for a set: a row per policy, and the optimum.
    static func markdown(_ set: BenchSetResult, resamples: Int) -> String {
        let traces = set.traces
        let hasOptimum = traces.contains { !$0.optimum.isEmpty }
        let normalisable = traces.filter { ($0.optimum[.lin] ?? 0) > 0 }.count
        var text = "### \(set.name) (\(traces.count) traces"
        text += hasOptimum ? "; normalised over the \(normalisable) with a positive optimum)\n\n" : ")\n\n"
        text += "| policy | QoE_lin mean [95% CI] | median | norm. QoE_lin [95% CI] | Δ norm. playhead − policy [95% CI] "
        text += "| QoE_log mean | norm. | QoE_hd mean | norm. | bitrate kbit/s | rebuffer s | rebuffer % | switches |\n"
        text += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        let reference = set.policies.contains(ABRPolicies.defaultName) ? ABRPolicies.defaultName : nil
        for policy in set.policies + (hasOptimum ? ["optimum"] : []) {
            func record(_ index: Int) -> BenchRecord? {
                policy == "optimum" ? traces[index].optimumRecord : traces[index].records[policy]
            }
            func normalised(_ index: Int, _ metric: QoEMetric) -> Double? {
                guard let best = traces[index].optimum[metric], best > 0, let value = record(index)?.qoe[metric] else { return nil }
                return value / best
            }
            let indices = Array(traces.indices)
            func values(_ pick: (BenchRecord) -> Double) -> [Double] { indices.compactMap { record($0).map(pick) } }
            let lin = values { $0.qoe[.lin] ?? .nan }
            let linCI = BenchStatistics.bootstrap(count: traces.count, resamples: resamples) { record($0)?.qoe[.lin] }
            var row = "| \(policy) | \(f(BenchStatistics.mean(lin))) [\(f(linCI.low)), \(f(linCI.high))] | \(f(BenchStatistics.median(lin))) "
            if hasOptimum {
                let norm = indices.compactMap { normalised($0, .lin) }
                let normCI = BenchStatistics.bootstrap(count: traces.count, resamples: resamples) { normalised($0, .lin) }
                row += "| \(f(BenchStatistics.mean(norm), 3)) [\(f(normCI.low, 3)), \(f(normCI.high, 3))] "
                if let reference, policy != reference {
                    let delta: (Int) -> Double? = { index in
                        guard let mine = traces[index].normalised(reference, .lin), let theirs = normalised(index, .lin) else { return nil }
                        return mine - theirs
                    }
                    let diffs = indices.compactMap(delta)
                    let ci = BenchStatistics.bootstrap(count: traces.count, resamples: resamples, delta)
                    row += "| \(f(BenchStatistics.mean(diffs), 3)) [\(f(ci.low, 3)), \(f(ci.high, 3))] "
                } else {
                    row += "| — "
                }
            } else {
                row += "| — | — "
            }
            for metric in [QoEMetric.log, .hd] {
                row += "| \(f(BenchStatistics.mean(values { $0.qoe[metric] ?? .nan }))) "
                row += hasOptimum ? "| \(f(BenchStatistics.mean(indices.compactMap { normalised($0, metric) }), 3)) " : "| — "
            }
            row += "| \(f(BenchStatistics.mean(values(\.averageBitsPerSecond)) / 1000, 0)) "
            row += "| \(f(BenchStatistics.mean(values(\.rebufferSeconds)))) "
            row += "| \(f(BenchStatistics.mean(values(\.rebufferRatio)) * 100)) "
            row += "| \(f(BenchStatistics.mean(values { Double($0.switchCount) }), 1)) |\n"
            text += row
        }
        return text
    }

    /// All records as JSON: one per policy per trace, and one per trace for the optimum.
    static func json(_ sets: [BenchSetResult]) throws -> Data {
        struct Row: Encodable {
            var set: String
            var trace: String
            var policy: String
            var qoeLin: Double?
            var qoeLog: Double?
            var qoeHd: Double?
            var normalisedQoELin: Double?
            var normalisedQoELog: Double?
            var normalisedQoEHd: Double?
            var averageBitsPerSecond: Double
            var rebufferSeconds: Double
            var rebufferRatio: Double
            var switchCount: Int
            var rungs: [Int]
        }
        var rows: [Row] = []
        for set in sets {
            for trace in set.traces {
                let records = set.policies.compactMap { trace.records[$0] } + [trace.optimumRecord].compactMap { $0 }
                for record in records {
                    func norm(_ metric: QoEMetric) -> Double? {
                        guard let best = trace.optimum[metric], best > 0, let value = record.qoe[metric] else { return nil }
                        return value / best
                    }
                    rows.append(Row(set: set.name, trace: trace.trace, policy: record.policy, qoeLin: record.qoe[.lin],
                                    qoeLog: record.qoe[.log], qoeHd: record.qoe[.hd], normalisedQoELin: norm(.lin),
                                    normalisedQoELog: norm(.log), normalisedQoEHd: norm(.hd),
                                    averageBitsPerSecond: record.averageBitsPerSecond, rebufferSeconds: record.rebufferSeconds,
                                    rebufferRatio: record.rebufferRatio, switchCount: record.switchCount, rungs: record.rungs))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(rows)
    }

    /// A number with `digits` decimals ("nan" stays readable).
    static func f(_ value: Double, _ digits: Int = 2) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "n/a"
    }
}
