import ArgumentParser
import Foundation
import PlayheadCore

/// `playhead bench`: benchmarks that need no network.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Offline benchmarks.",
        subcommands: [BenchABR.self, BenchAgreement.self, BenchOptimum.self]
    )
}

/// `playhead bench abr`: chunk-level trace-driven ABR benchmark against the offline optimum.
struct BenchABR: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abr",
        abstract: "Run ABR policies over bandwidth traces (Pensieve's conventions) and compare them with the offline optimum.",
        discussion: """
        Each --traces folder is one trace set (one trace a file: time_seconds, throughput_Mbit/s). Every policy \
        plays the video over every trace through the player's own ABRController; the offline optimum is solved \
        per trace and per QoE metric. Prints a Markdown table per set; with --out, also writes abr-results.json \
        (one record per policy per trace, and the optimum) and abr-cdf-SET.svg (CDF of normalised QoE_lin).
        """
    )

    @Option(name: .customLong("traces"), help: "A folder of traces: one trace set (repeatable).")
    var traceFolders: [String]

    @Option(help: "Folder of Pensieve's video_size_0…5 (default: constant-bitrate chunks on Pensieve's ladder).")
    var videoSizes: String?

    @Option(help: "Comma-separated policy names (default: all). Known: \(ABRPolicies.names.joined(separator: ", ")); references, not causal: foresight (Playhead's plan on the trace's true future), oracle-mean (its planner fed the true mean throughput of the next 5 chunks); learned, scored out of sample: markov-dp (see --folds).")
    var policies: String?

    @Option(help: "Folder for the JSON records and SVG plots.")
    var out: String?

    @Option(parsing: .unconditional, help: "Bootstrap resamples for the 95% intervals.")
    var bootstrap: Int = 2000

    @Option(parsing: .unconditional, help: "Parallel workers (default: the number of cores).")
    var jobs: Int?

    @Option(parsing: .unconditional, help: "Optimum solver bin width in seconds, for trace position and buffer.")
    var optimumBin: Double = OfflineOptimum.defaultPositionBinSeconds

    @Option(parsing: .unconditional, help: "Chunks played per session (Pensieve's fixed_env: 48; dp.cc: 49).")
    var chunks: Int = ChunkSimulationSettings.defaultChunkCount

    @Option(parsing: .unconditional, help: "Leading chunks left out of the QoE sums (Pensieve's plot_results: 1; dp.cc: 0).")
    var unscoredChunks: Int = ChunkSimulationSettings.defaultUnscoredLeadingChunks

    @Flag(help: "Do not count the round trip as stall time after the first chunk (Pensieve's dp.cc convention).")
    var noRoundTripStalls = false

    @Flag(help: "Skip the offline optimum (no normalised QoE).")
    var noOptimum = false

    @Option(parsing: .unconditional, help: "Folds of the learned row markov-dp (a stochastic DP on a Markov throughput model, fitted on the other folds of the set and scored on the one left out); 1 fits it on the whole set (in sample); 0 leaves the row out.")
    var folds: Int = 5

    func validate() throws {
        if let policies {
            let known = ABRPolicies.names + BenchReferences.names + [BenchCrossValidation.name]
            for name in policies.split(separator: ",") where !known.contains(name.lowercased()) {
                throw ValidationError("unknown policy '\(name)'; known: \(known.joined(separator: ", "))")
            }
        }
        guard bootstrap >= 0, optimumBin > 0, chunks > 1, unscoredChunks >= 0 else { throw ValidationError("--bootstrap, --optimum-bin, --chunks (> 1) and --unscored-chunks must be positive") }
        guard folds >= 0 else { throw ValidationError("--folds must be 0 (no learned row), 1 (in sample) or more") }
        if folds == 0, let policies, policies.split(separator: ",").contains(where: { $0.lowercased() == BenchCrossValidation.name }) {
            throw ValidationError("--policies names \(BenchCrossValidation.name) but --folds 0 leaves it out")
        }
    }

    func run() async throws {
        var names = policies.map { $0.split(separator: ",").map { String($0).lowercased() } }
            ?? ABRPolicies.names + BenchReferences.names + [BenchCrossValidation.name]
        let learned = names.contains(BenchCrossValidation.name) && folds > 0
        names.removeAll { $0 == BenchCrossValidation.name }
        if learned { names.append(BenchCrossValidation.name) }
        var settings = ChunkSimulationSettings()
        settings.chunkCount = chunks
        settings.unscoredLeadingChunks = unscoredChunks
        settings.roundTripStalls = !noRoundTripStalls
        let video: ChunkVideo
        if let videoSizes {
            video = try ChunkVideo.loadPensieveSizes(directory: videoSizes)
        } else {
            video = .constantBitrate(chunkCount: settings.chunkCount)
        }
        let solver = noOptimum ? nil : OfflineOptimum(positionBinSeconds: optimumBin, bufferBinSeconds: optimumBin)
        let workers = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var sets: [BenchSetResult] = []
        for folder in traceFolders {
            let traces = try BandwidthTrace.loadDirectory(folder)
            let name = (folder as NSString).lastPathComponent
            let started = Date()
            let progress = BenchProgress(name: name, total: traces.count)
            var results = await BenchRunner.run(traces: traces, video: video, settings: settings, policies: names,
                                                solver: solver, workers: workers, progress: progress.traceDone)
            if learned {
                let records = await BenchCrossValidation.markovDP(traces: traces, video: video, settings: settings,
                                                                  folds: min(folds, traces.count), workers: workers)
                for (index, record) in records { results[index].records[BenchCrossValidation.name] = record }
            }
            let seconds = Date().timeIntervalSince(started)
            FileHandle.standardError.write(Data("\(name): \(traces.count) traces in \(String(format: "%.1f", seconds)) s (\(workers) workers)\n".utf8))
            sets.append(BenchSetResult(name: name, traces: results, policies: names))
        }
        var output = ""
        for set in sets {
            output += BenchReport.markdown(set, resamples: bootstrap) + "\n"
        }
        print(output, terminator: "")
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try BenchReport.json(sets).write(to: URL(fileURLWithPath: (out as NSString).appendingPathComponent("abr-results.json")))
            for set in sets where solver != nil {
                let path = (out as NSString).appendingPathComponent("abr-cdf-\(set.name).svg")
                try Data(BenchPlot.cdf(set).utf8).write(to: URL(fileURLWithPath: path))
            }
        }
    }
}
