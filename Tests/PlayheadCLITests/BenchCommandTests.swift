import Foundation
import Testing

/// `playhead bench abr` and `playhead bench optimum` on a small synthetic trace set: output and exit codes.
@Suite struct BenchCommandTests {
    /// A folder with `traces/` (a steady and a stepped trace) and `sizes/` (Pensieve-style
    /// video_size_0…5, constant bitrate on Pensieve's ladder, 10 chunks to keep the solvers quick in a debug
    /// build), removed by the caller.
    static func makeFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-bench-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/traces", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/sizes", withIntermediateDirectories: true)
        let steady = (0...300).map { "\($0)\t1.5" }.joined(separator: "\n")
        let stepped = (0...300).map { "\($0)\t\($0 < 60 ? 4.0 : 0.8)" }.joined(separator: "\n")
        try steady.write(toFile: folder + "/traces/steady", atomically: true, encoding: .utf8)
        try stepped.write(toFile: folder + "/traces/stepped", atomically: true, encoding: .utf8)
        for (rung, kbps) in [300, 750, 1200, 1850, 2850, 4300].enumerated() {
            let sizes = Array(repeating: String(kbps * 1000 / 8 * 4), count: 10).joined(separator: "\n")
            try sizes.write(toFile: folder + "/sizes/video_size_\(rung)", atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func optimumPrintsBothSolversAndTheReference() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# a comment\nsteady 50.0\n".write(toFile: folder + "/reference", atomically: true, encoding: .utf8)
        let outcome = await CLI.run(CLI.playhead, ["bench", "optimum", "--traces", folder + "/traces", "--video-sizes", folder + "/sizes",
                                                   "--reference", folder + "/reference"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let rows = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("| steady") || $0.hasPrefix("| stepped") }
        #expect(rows.count == 2)
        let steady = try #require(rows.first { $0.hasPrefix("| steady") }).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        // trace, exact, grid, grid − exact, replayed, reference, grid − reference, seconds
        let exact = try #require(Double(steady[1])), grid = try #require(Double(steady[2])), replayed = try #require(Double(steady[4]))
        #expect(replayed <= exact + 1e-3, "the exact optimum is the best real sequence")
        // The difference columns are computed from the values (which the table rounds to 3 decimals).
        let percent = { (cell: String) in Double(cell.dropLast()) ?? .nan }
        #expect(abs(percent(steady[3]) - 100 * (grid - exact) / abs(exact)) < 0.05, "\(steady)")
        #expect(steady[5] == "50.000")
        #expect(abs(percent(steady[6]) - 100 * (grid - 50) / 50) < 0.05, "\(steady)")
        let stepped = try #require(rows.first { $0.hasPrefix("| stepped") })
        #expect(stepped.contains("| — | — |"), "no reference for stepped")
        #expect(outcome.stderr.contains("[2/2]"), "a progress line per trace")
    }

    @Test func optimumRefusesAnUnknownTraceAndABadReferenceLine() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unknown = await CLI.run(CLI.playhead, ["bench", "optimum", "--traces", folder + "/traces", "--video-sizes", folder + "/sizes",
                                                   "--names", "steady,nosuch"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no trace named 'nosuch'"), "\(unknown.stderr)")
        try "steady fifty\n".write(toFile: folder + "/reference", atomically: true, encoding: .utf8)
        let bad = await CLI.run(CLI.playhead, ["bench", "optimum", "--traces", folder + "/traces", "--video-sizes", folder + "/sizes",
                                               "--reference", folder + "/reference"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(folder + "/reference:1:"), "\(bad.stderr)")
    }

    @Test func abrWritesTheTableTheJSONAndThePlot() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome = await CLI.run(CLI.playhead, ["bench", "abr", "--traces", folder + "/traces", "--video-sizes", folder + "/sizes",
                                                   "--policies", "playhead,robustmpc", "--bootstrap", "50", "--out", folder + "/out"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for row in ["| playhead |", "| robustmpc |", "| optimum |"] { #expect(outcome.stdout.contains(row), "\(row)") }
        #expect(outcome.stderr.contains("traces: 1/2 traces"), "a progress line: \(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out/abr-results.json"))) as? [[String: Any]])
        #expect(Set(json.compactMap { $0["policy"] as? String }) == ["playhead", "robustmpc", "optimum"])
        #expect(json.count == 6, "3 rows for each of 2 traces")
        let svg = try String(contentsOfFile: folder + "/out/abr-cdf-traces.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("playhead") && svg.contains("robustmpc"))
        let unknown = await CLI.run(CLI.playhead, ["bench", "abr", "--traces", folder + "/traces", "--policies", "nosuch"])
        #expect(unknown.status != 0 && unknown.stderr.contains("unknown policy 'nosuch'"), "\(unknown.stderr)")
    }

    @Test func abrScoresTheLearnedRowOutOfSample() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome = await CLI.run(CLI.playhead, ["bench", "abr", "--traces", folder + "/traces", "--video-sizes", folder + "/sizes",
                                                   "--policies", "playhead,markov-dp", "--folds", "2", "--no-optimum",
                                                   "--bootstrap", "0", "--out", folder + "/out"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("| markov-dp |"), "\(outcome.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out/abr-results.json"))) as? [[String: Any]])
        let learned = json.filter { $0["policy"] as? String == "markov-dp" }
        #expect(Set(learned.compactMap { $0["trace"] as? String }) == ["steady", "stepped"], "one record per trace")
        let bad = await CLI.run(CLI.playhead, ["bench", "abr", "--traces", folder + "/traces", "--folds", "-1"])
        #expect(bad.status != 0 && bad.stderr.contains("--folds"), "\(bad.stderr)")
        let contradiction = await CLI.run(CLI.playhead, ["bench", "abr", "--traces", folder + "/traces", "--policies", "markov-dp", "--folds", "0"])
        #expect(contradiction.status != 0 && contradiction.stderr.contains("--folds 0 leaves it out"), "\(contradiction.stderr)")
    }
}
