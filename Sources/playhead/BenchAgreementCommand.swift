import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// `playhead bench agreement URL`: the player and the chunk simulator, same policy and trace, compared segment by segment.
struct BenchAgreement: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agreement",
        abstract: "Play a ladder through the player (virtual clock) and the chunk simulator with the same policies and traces; report how often they choose the same rung."
    )

    @Argument(help: "A multivariant playlist (http, file URL or path), e.g. the generated ts/master.m3u8.")
    var source: String

    @Option(help: "A folder of traces.")
    var traces: String

    @Option(parsing: .unconditional, help: "How many traces (the first, by name).")
    var count: Int = 5

    @Option(help: "Comma-separated policy names (default: all).")
    var policies: String?

    func run() async throws {
        MediaLog.level = .quiet
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = ResourceURL.fromArgument(source)
        let names = policies.map { $0.split(separator: ",").map(String.init) } ?? ABRPolicies.names
        for name in names where ABRPolicies.make(name) == nil { throw ValidationError("unknown policy \(name)") }
        let set: [BandwidthTrace]
        do { set = Array(try BandwidthTrace.loadDirectory(traces).prefix(count)) } catch {
            printError("\(traces): \(error)")
            throw ExitCode(2)
        }
        let video: ChunkVideo
        do { video = try await ABRAgreement.video(masterURL: url, client: client) } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        print("| policy | trace | agreement | player rungs | simulator rungs |")
        print("|---|---|---:|---|---|")
        var total = 0, agreeing = 0
        for name in names {
            for trace in set {
                let result = await ABRAgreement.compare(masterURL: url, video: video, trace: trace, policy: name, client: client)
                total += max(result.playerRungs.count, result.simulatorRungs.count)
                agreeing += result.agreeing
                print("| \(name) | \(trace.name) | \(String(format: "%.2f", result.agreement)) | \(result.playerRungs.map(String.init).joined(separator: " ")) | \(result.simulatorRungs.map(String.init).joined(separator: " ")) |")
            }
        }
        print(String(format: "\nsegments in agreement: %d of %d (%.1f%%)", agreeing, total, total > 0 ? 100 * Double(agreeing) / Double(total) : 0))
    }
}
