import PlayheadCore

/// The learned row of the benchmark, scored out of sample: ``MarkovDPPolicy`` fitted on all folds of a
/// trace set but one and played on the one left out, for each fold in turn. With one fold it is fitted
/// on the whole set and scored in sample (an optimistic figure, for comparison only).
enum BenchCrossValidation {
    /// The row's name in the tables and the JSON.
    static let name = MarkovDPPolicy.referenceName
    /// Weight of the switch term in the row's plan: 2.5. Picked on the benchmark's own trace sets among
    /// 1, 1.5, 2, 2.5 and 3, so this one number is in sample even where the model is not; see
    /// benchmarks/README.md.
    static let switchPenaltyFactor = 2.5

    /// Trace `index` belongs to fold `index % folds` (traces in name order, so each fold spans the set).
    static func fold(of index: Int, folds: Int) -> Int { index % folds }

    /// One record per trace, each from a model that never saw that trace (unless `folds` is 1). The model
    /// of a fold is fitted on the per-chunk throughputs of Playhead's default policy playing the fold's
    /// training traces.
    static func markovDP(traces: [BandwidthTrace], video: ChunkVideo, settings: ChunkSimulationSettings,
                         folds: Int, workers: Int) async -> [Int: BenchRecord] {
        await withTaskGroup(of: [(Int, BenchRecord)].self) { group in
            for worker in 0..<max(1, workers) {
                group.addTask {
                    stride(from: worker, to: folds, by: max(1, workers)).flatMap { fold in
                        let training = traces.indices.filter { folds == 1 || Self.fold(of: $0, folds: folds) != fold }.map { traces[$0] }
                        var model = MarkovThroughputModel()
                        model.fit(training.map { trace in
                            let session = ChunkSimulator.run(policy: PlayheadPolicy(), trace: trace, video: video, settings: settings)
                            return MarkovThroughputModel.throughputs(session, roundTripSeconds: settings.roundTripSeconds)
                        })
                        let policy = MarkovDPPolicy(model: model, video: video, settings: settings, switchPenaltyFactor: switchPenaltyFactor)
                        return traces.indices.filter { Self.fold(of: $0, folds: folds) == fold }.map { index in
                            let session = ChunkSimulator.run(policy: policy, trace: traces[index], video: video, settings: settings)
                            return (index, BenchRecord(policy: name, session: session))
                        }
                    }
                }
            }
            var records: [Int: BenchRecord] = [:]
            for await part in group { for (index, record) in part { records[index] = record } }
            return records
        }
    }
}
