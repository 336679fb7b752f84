import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// `playhead inspect`: look inside playlists, SCTE-35 cues, VAST documents and WebVTT files.
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what Playhead understands of a playlist.",
        subcommands: [InspectPlaylist.self, InspectSCTE35.self, InspectVAST.self, InspectWebVTT.self],
        defaultSubcommand: InspectPlaylist.self
    )
}

/// `playhead inspect playlist URL|FILE [--json]`.
struct InspectPlaylist: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Parse a playlist and print its model.",
        discussion: "Exit status: 0 parsed (warnings allowed), 1 parse error (the message names line and column), 2 usage or I/O error."
    )

    @Argument(help: "An http(s) or file URL, or a file path.")
    var source: String

    @Flag(help: "Print JSON (the schema is in docs/playlist-json.md).")
    var json = false

    func run() async throws {
        let (url, body) = try await fetchSource(source)
        do {
            // A URL's query is known (QUERYPARAM); a file's is not, nor the multivariant playlist (IMPORT).
            let isHTTP = url.hasPrefix("http://") || url.hasPrefix("https://")
            let parsed = try Playlist.parse(data: body, sources: isHTTP ? VariableSources(playlistURL: url) : VariableSources())
            if json {
                print(String(decoding: PlaylistReport(parsed).jsonBytes(), as: UTF8.self))
            } else {
                print(PlaylistSummary.text(parsed, url: url), terminator: "")
            }
        } catch {
            if json {
                print(String(decoding: PlaylistReport(error: error).jsonBytes(), as: UTF8.self))
            }
            printError("\(url): \(error.description)")
            throw ExitCode(1)
        }
    }
}

/// Reads `source` (an http(s) or file URL, or a file path) for the inspect commands; an I/O failure
/// prints what went wrong (URL and status) and exits with 2.
func fetchSource(_ source: String) async throws -> (url: String, body: [UInt8]) {
    let url = ResourceURL.fromArgument(source)
    let client = HTTPClient()
    defer { client.shutdown() }
    do {
        return (url, try await client.get(url).body)
    } catch {
        printError(error.description)
        throw ExitCode(2)
    }
}
