import ArgumentParser
import Foundation
import PlayheadHLS

/// `playhead inspect webvtt URL|FILE [--json]`: parse a WebVTT file (a subtitle segment, a sidecar track).
struct InspectWebVTT: AsyncParsableCommand {
    /// The subcommand's name, help and exit statuses.
    static let configuration = CommandConfiguration(
        commandName: "webvtt",
        abstract: "Parse a WebVTT file and print its cues, regions and X-TIMESTAMP-MAP.",
        discussion: """
            Problems the WebVTT parser steps over (a bad timestamp, an unknown setting, a block that is \
            not a cue) are printed with their line on standard error. Exit status: 0 parsed (problems \
            allowed), 1 not a WebVTT file (no WEBVTT signature on line 1), 2 usage or I/O error.
            """
    )

    /// Where the file is.
    @Argument(help: "An http(s) or file URL, or a file path.")
    var source: String

    /// Print JSON instead of the listing.
    @Flag(help: "Print the parsed document as JSON (cues with every setting, regions, timestampMap, issues).")
    var json = false

    /// Parses and prints the file.
    func run() async throws {
        let (url, body) = try await fetchSource(source)
        let document: WebVTTDocument
        do {
            document = try WebVTTParser.parse(body)
        } catch {
            printError("\(url): \(error.description)")
            throw ExitCode(1)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(document) + Data("\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data(Self.listing(document, url: url).utf8))
        }
        for issue in document.issues { printError("\(url): \(issue)") }
    }

    /// The human listing: header, map, regions, then one block per cue.
    static func listing(_ document: WebVTTDocument, url: String) -> String {
        var lines = ["\(url): WebVTT, \(document.cues.count) cues, \(document.regions.count) regions, \(document.issues.count) problems"]
        if !document.header.isEmpty { lines.append("  header: " + document.header.replacingOccurrences(of: "\n", with: " | ")) }
        if let map = document.timestampMap {
            lines.append(String(format: "  X-TIMESTAMP-MAP: MPEGTS %lld = LOCAL %@ (cue time + %.6f s = media time)",
                                map.mpegts, timestamp(map.local), map.offsetSeconds))
        }
        for region in document.regions { lines.append("  region \(region.id)") }
        for cue in document.cues {
            lines.append("  \(timestamp(cue.startTime)) --> \(timestamp(cue.endTime))" + (cue.id.isEmpty ? "" : "  [\(cue.id)]"))
            for line in cue.plainText.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("    \(line)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `hh:mm:ss.ttt`.
    static func timestamp(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded())
        return String(format: "%02lld:%02lld:%02lld.%03lld", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }
}
