import ArgumentParser
import Foundation
import PlayheadCore

/// `playhead bench optimum`: the exact optimum beside the optimum of Pensieve's `dp.cc` grid model.
struct BenchOptimum: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimum",
        abstract: "Solve the offline optimum of each trace exactly (fixed_env's dynamics) and on dp.cc's 50 ms grid model, and compare them.",
        discussion: """
        Both solve dp.cc's session: 49 chunks, the first at 750 kbit/s, every chunk scored with QoE_lin. \
        The grid sequence is also replayed exactly, through the chunk simulator. With --reference FILE \
        (lines of 'TRACE VALUE', such as the first line of each of dp.cc's result logs), adds the \
        reference value and the grid model's difference from it.
        """
    )

    @Option(name: .customLong("traces"), help: "A folder of traces.")
    var traceFolder: String

    @Option(help: "Folder of Pensieve's video_size_0…5.")
    var videoSizes: String

    @Option(help: "Comma-separated trace names to solve (default: all in the folder).")
    var names: String?

    @Option(help: "A file of 'TRACE VALUE' lines to compare the grid model with.")
    var reference: String?

    @Flag(help: "Count the round trip as stall time on every chunk in the exact solver (fixed_env.py); by default only on the first, as dp.cc.")
    var roundTripStalls = false

    func run() async throws {
        let video: ChunkVideo
        var traces: [BandwidthTrace]
        var references: [String: Double] = [:]
        do {
            video = try ChunkVideo.loadPensieveSizes(directory: videoSizes)
            traces = try BandwidthTrace.loadDirectory(traceFolder)
        } catch {
            printError("\(error)")
            throw ExitCode(2)
        }
        if let names {
            let wanted = names.split(separator: ",").map(String.init)
            for name in wanted where !traces.contains(where: { $0.name == name }) {
                printError("\(traceFolder): no trace named '\(name)'")
                throw ExitCode(2)
            }
            traces = traces.filter { wanted.contains($0.name) }
        }
        if let reference {
            references = try Self.readReference(reference)
        }
        var settings = ChunkSimulationSettings()
        settings.chunkCount = GridOptimum.defaultChunkCount
        settings.unscoredLeadingChunks = 0
        settings.roundTripStalls = roundTripStalls
        print("| trace | exact (fixed_env) | grid (dp.cc model) | grid − exact | grid's rungs, replayed exactly | reference | grid − reference | seconds |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for (index, trace) in traces.enumerated() {
            let started = Date()
            let exact = OfflineOptimum().solve(trace: trace, video: video, settings: settings)
            let grid = GridOptimum().solve(trace: trace, video: video, knownRungs: exact.rungs)
            let replay = ChunkSimulator.replay(rungs: grid.rungs, trace: trace, video: video, settings: settings).qoe(.lin)
            let seconds = Date().timeIntervalSince(started)
            var row = "| \(trace.name) | \(Self.format(exact.value)) | \(Self.format(grid.value)) | \(Self.percent(grid.value, exact.value)) | \(Self.format(replay))"
            if let value = references[trace.name] {
                row += " | \(Self.format(value)) | \(Self.percent(grid.value, value))"
            } else {
                row += " | — | —"
            }
            print(row + " | \(String(format: "%.1f", seconds)) |")
            FileHandle.standardError.write(Data("[\(index + 1)/\(traces.count)] \(trace.name): \(grid.stateCount) grid states\n".utf8))
        }
    }

    /// Reads 'TRACE VALUE' lines; blank lines and lines starting with '#' are skipped.
    static func readReference(_ path: String) throws -> [String: Double] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            printError("\(path): cannot read the reference file")
            throw ExitCode(2)
        }
        var values: [String: Double] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 2, let value = Double(fields[1]) else {
                printError("\(path):\(number + 1): expected 'TRACE VALUE', found '\(line)'")
                throw ExitCode(2)
            }
            values[String(fields[0])] = value
        }
        return values
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    static func percent(_ value: Double, _ base: Double) -> String {
        String(format: "%+.2f%%", 100 * (value - base) / abs(base))
    }
}
