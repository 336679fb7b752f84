import ArgumentParser
import Foundation
import PlayheadServer

/// `playhead soak`: many real-clock sessions at once, watched for rebuffers, errors, CPU and memory.
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run many playback sessions at once on the real clock and report rebuffers, errors, CPU and RSS.",
        discussion: """
        Prints a summary line every --interval seconds (for a live stream with how far the sessions play behind \
        the live edge, the end of the last segment listed), then a report of every sample, each session's figures \
        and flags: RSS growing by --memory-growth-limit percent or more after warm-up (the median of the last third of the samples against that of the first), sessions that stalled (each \
        stall with the fetches retried in the 30 s before it and while it lasted), sessions that failed. SIGINT or SIGTERM stops the sessions and still prints and writes the report, which \
        says so. Exit status 0 when nothing was flagged, 1 otherwise, 2 usage, 128 + N stopped by signal N.
        """
    )

    @Argument(help: "The stream every session plays (http or https URL).")
    var url: String

    @Option(parsing: .unconditional, help: "Sessions at once.")
    var sessions = 10

    @Option(parsing: .unconditional, help: "Seconds each session plays.")
    var duration = 60.0

    @Option(help: "decode, demux or keyframes.")
    var mode = "demux"

    @Option(help: "Run the sessions in this daemon (http://HOST:PORT) instead of in process.")
    var server: String?

    @Option(help: "The daemon's bearer token.")
    var token: String?

    @Option(parsing: .unconditional, help: "Seconds between two summary lines.")
    var interval = SoakSettings.defaultSummaryIntervalSeconds

    @Option(name: .customLong("warm-up"), parsing: .unconditional, help: "Seconds of warm-up before RSS growth is measured (default: 60, the time the buffers take to fill).")
    var warmUp: Double?

    @Option(name: .customLong("memory-growth-limit"), parsing: .unconditional, help: "RSS growth after warm-up that is flagged, percent.")
    var memoryGrowthLimit = SoakSettings.defaultMemoryGrowthLimitPercent

    @Option(help: "Also write the report as JSON to FILE.")
    var report: String?

    /// The settings these options make.
    var settings: SoakSettings {
        var settings = SoakSettings(url: url, sessions: sessions, durationSeconds: duration)
        settings.mode = mode
        settings.server = server
        settings.token = token
        settings.summaryIntervalSeconds = interval
        if let warmUp { settings.warmUpSeconds = warmUp }
        settings.memoryGrowthLimitPercent = memoryGrowthLimit
        return settings
    }

    func validate() throws {
        if let problem = settings.problems.first { throw ValidationError(problem) }
        // The report is written at the end: a path that cannot be written is refused now, not after the run.
        if let report, let reason = Play.unwritable(report) { throw ValidationError("--report \(report): \(reason)") }
    }

    func run() async throws {
        let settings = settings
        // A signal ends the soak early with its report (every sample so far), exit 128 + the signal.
        let work = Task { () async -> Result<SoakReport, any Error> in
            do { return .success(try await SoakRunner.run(settings) { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }) } catch { return .failure(error) }
        }
        let interruption = SignalStop(what: "the soak") { work.cancel() }
        let outcome = await work.value
        interruption.cancel()
        var result: SoakReport
        switch outcome {
        case let .success(report): result = report
        case let .failure(error):
            FileHandle.standardError.write(Data("playhead soak: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if let signal = interruption.received { result.markStopped(bySignal: Int32(signal)) }
        FileHandle.standardOutput.write(Data(result.text.utf8))
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(result).write(to: URL(fileURLWithPath: report))
            } catch {
                FileHandle.standardError.write(Data("playhead soak: could not write the report to \(report): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        if let signal = interruption.received { throw ExitCode(128 + signal) }
        if !result.flags.isEmpty { throw ExitCode(1) }
    }
}
