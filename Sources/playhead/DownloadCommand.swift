import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadNet

/// `playhead download URL --out DIR [--variant N | --bitrate BPS] [--audio LANG]… [--subtitles …]…` and
/// `playhead download --verify DIR`: offline download (F33) into a folder `playhead play DIR/master.m3u8`
/// plays from disk.
struct DownloadCommand: AsyncParsableCommand {
    /// The subcommand's name, help and exit statuses.
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a VOD stream (a variant, its audio and subtitle renditions, keys) into a folder that plays from disk.",
        discussion: """
            Keeps one variant (--variant N, or the highest at or below --bitrate, else the lowest; default the highest \
            BANDWIDTH), its AUDIO renditions (all, or those --audio names by LANGUAGE or NAME) and SUBTITLES renditions \
            (all, none, or named), and writes DIR/master.m3u8 naming only those, each media playlist rewritten to name \
            its local segments, init sections and keys; DIR/download.json lists every file with its source URL, size, \
            SHA-256 and status. Running the same command again resumes: it fetches only what is missing (nothing over a \
            complete folder); a file whose transfer was cut continues from the bytes kept (Range with If-Range), or \
            restarts when the server does not resume (said on standard error). Live playlists are refused. --verify DIR re-hashes the files and marks damaged ones for \
            the next run to fetch again. Exit status: 0 complete (or verified), 1 the stream failed (a playlist, a file \
            that kept failing, live, no such rendition; files fetched stay for the resume) or --verify found damage, \
            2 usage or folder error, 128 + N stopped by signal N (resumable).
            """
    )

    /// The stream.
    @Argument(help: "A multivariant or media playlist: http(s) or file URL, or a file path.")
    var source: String?

    /// The folder.
    @Option(help: "The folder to download into (new, empty, or this download's own to resume it).")
    var out: String?

    /// A variant by index.
    @Option(parsing: .unconditional, help: "Keep the variant at this index, as listed.")
    var variant: Int?

    /// A variant by bitrate.
    @Option(parsing: .unconditional, help: "Keep the highest variant at or below this many bits per second (else the lowest).")
    var bitrate: Int?

    /// Audio renditions.
    @Option(help: "Keep this AUDIO rendition (LANGUAGE or NAME; repeat for more; default all).")
    var audio: [String] = []

    /// Subtitle renditions.
    @Option(help: "Keep these SUBTITLES renditions: all (default), none, or a LANGUAGE or NAME (repeat for more).")
    var subtitles: [String] = []

    /// Transfers at once.
    @Option(parsing: .unconditional, help: "Transfers at once (1 to 32).")
    var concurrency = 4

    /// Retries per file.
    @Option(parsing: .unconditional, help: "Retries of a file after a transient failure (5xx, timeout, transport), 0 to 10.")
    var retries = 3

    /// The first retry's wait.
    @Option(name: .customLong("retry-delay"), parsing: .unconditional, help: "Seconds before the first retry; doubled at each next one.")
    var retryDelay = 0.5

    /// Verify instead.
    @Option(help: "Re-hash the files of this download folder against its manifest instead of downloading.")
    var verify: String?

    /// No progress line, no notices of resumed or restarted files.
    @Flag(help: "No progress line, and no notice of a file resumed or restarted, on standard error (errors still are).")
    var quiet = false

    func validate() throws {
        if verify != nil {
            if source != nil || out != nil { throw ValidationError("--verify DIR checks a folder: give no URL or --out") }
            return
        }
        guard source != nil else { throw ValidationError("give the stream's URL (or --verify DIR)") }
        guard let out else { throw ValidationError("give --out DIR, the folder to download into") }
        // An empty value (an unset shell variable) would be the working folder's root, or /.
        if out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out is empty: give the folder to download into") }
        if variant != nil, bitrate != nil { throw ValidationError("give --variant or --bitrate, not both") }
        if let variant, variant < 0 { throw ValidationError("--variant must be 0 or more") }
        if let bitrate, bitrate <= 0 { throw ValidationError("--bitrate must be a positive number of bits per second, got \(bitrate)") }
        if SubtitleSelection(arguments: subtitles) == nil { throw ValidationError("--subtitles all or none must be given alone") }
        if !(1...32).contains(concurrency) { throw ValidationError("--concurrency must be from 1 to 32, got \(concurrency)") }
        if !(0...10).contains(retries) { throw ValidationError("--retries must be from 0 to 10, got \(retries)") }
        if !(retryDelay >= 0 && retryDelay <= 60) { throw ValidationError("--retry-delay must be from 0 to 60 seconds, got \(retryDelay)") }
    }

    func run() async throws {
        if let verify { return try runVerify(verify) }
        let request = DownloadRequest(source: ResourceURL.fromArgument(source!), variantIndex: variant, bitrate: bitrate,
                                      audio: audio, subtitles: SubtitleSelection(arguments: subtitles) ?? .all)
        let folder = out!
        let settings = DownloadSettings(concurrency: concurrency, retries: retries, retryDelay: .milliseconds(Int64(retryDelay * 1000)))
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: nil, maxConnectionsPerHost: max(6, concurrency)))
        defer { client.shutdown() }
        let line = DownloadProgressLine(enabled: !quiet && isatty(2) == 1)
        let quiet = quiet
        let notices: @Sendable (String) -> Void = { text in
            guard !quiet else { return }
            line.clear()
            printError(text)
        }
        let work = Task { () async -> Result<DownloadOutcome, DownloadError> in
            do throws(DownloadError) {
                return .success(try await OfflineDownload(client: client, settings: settings, notices: notices)
                    .run(request, folder: folder) { line.show($0) })
            } catch {
                return .failure(error)
            }
        }
        let interruption = SignalStop(what: "the download") { work.cancel() }
        let result = await work.value
        interruption.cancel()
        line.clear()
        let outcome: DownloadOutcome
        switch result {
        case let .success(value):
            outcome = value
        case let .failure(error):
            printError(error.description)
            if let signal = interruption.received { throw ExitCode(128 + signal) }
            throw ExitCode(error.isUsageError ? 2 : 1)
        }
        print(Self.summary(outcome, folder: folder))
        if let failure = outcome.failure {
            if !failure.isCancellation { printError(failure.description) }
            for other in outcome.otherFailures { printError("also: " + other.description) }
            if let signal = interruption.received { throw ExitCode(128 + signal) }
            throw ExitCode(failure.isUsageError ? 2 : 1)
        }
    }

    private func runVerify(_ folder: String) throws {
        let result: DownloadVerifier.Result
        do { result = try DownloadVerifier.verify(folder: folder) } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        for problem in result.problems { print("damaged: \(problem)") }
        print("verified \(folder): \(result.intact) of \(result.checked) files intact")
        if !result.problems.isEmpty {
            printError("\(result.problems.count) file\(result.problems.count == 1 ? "" : "s") of \(folder) to fetch again: run the download into it again")
            throw ExitCode(1)
        }
    }

    /// The lines printed at the end: what was kept, what was fetched, the folder's state.
    static func summary(_ outcome: DownloadOutcome, folder: String) -> String {
        let manifest = outcome.manifest
        let chosen = manifest.chosen
        var lines = ["source: \(manifest.request.source)"]
        if let variant = chosen.variant {
            var text = "variant: \(variant.index), BANDWIDTH=\(variant.bandwidth)"
            if let resolution = variant.resolution { text += ", RESOLUTION=\(resolution)" }
            if variant.audioOnly { text += ", audio only" }
            lines.append(text + " (\(variant.reason))")
        }
        let renditions = { (list: [ChosenRendition]) in
            list.map { $0.name + ($0.language.map { " (\($0))" } ?? "") + ($0.path == nil ? " [in the variant]" : "") }.joined(separator: ", ")
        }
        if !chosen.audio.isEmpty { lines.append("audio: \(renditions(chosen.audio))") }
        if !chosen.subtitles.isEmpty { lines.append("subtitles: \(renditions(chosen.subtitles))") }
        for other in Dictionary(grouping: chosen.other, by: \.type).sorted(by: { $0.key < $1.key }) {
            lines.append("\(other.key.lowercased()): \(renditions(other.value))")
        }
        lines += chosen.notes.map { "note: \($0)" }
        let rate = outcome.seconds > 0 ? String(format: " (%.1f Mbit/s)", Double(outcome.fetchedBytes) * 8 / outcome.seconds / 1e6) : ""
        lines.append("fetched: \(outcome.fetchedFiles) file\(outcome.fetchedFiles == 1 ? "" : "s"), \(outcome.fetchedBytes) bytes in \(String(format: "%.2f", outcome.seconds)) s\(rate); "
            + "\(outcome.alreadyOnDisk) already on disk")
        let files = manifest.files.count
        let bytes = manifest.files.reduce(0) { $0 + ($1.size ?? 0) }
        if manifest.status == .complete {
            lines.append("folder: \(folder)/master.m3u8 complete, \(files) files, \(bytes) bytes")
        } else {
            let missing = manifest.pending.count
            lines.append("folder: \(folder) incomplete, \(files - missing) of \(files) files: run the same command again to resume")
        }
        return lines.joined(separator: "\n")
    }
}

/// The progress line on standard error (a terminal only): files, bytes, rate; at most 5 times a second.
final class DownloadProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lastShown = ContinuousClock.now - .seconds(1)
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: DownloadProgress) {
        guard enabled else { return }
        lock.withLock {
            guard ContinuousClock.now - lastShown >= .milliseconds(200) || progress.filesDone == progress.filesTotal else { return }
            lastShown = .now
            shown = true
            let rate = progress.seconds > 0 ? Double(progress.bytesFetched) / progress.seconds / 1e6 : 0
            let text = String(format: "\r\u{1B}[K%d/%d files, %.1f MB, %.1f MB/s", progress.filesDone, progress.filesTotal,
                              Double(progress.bytesFetched) / 1e6, rate)
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    func clear() {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
