import ArgumentParser
import Foundation
import PlayheadOrigin

/// `playhead origin DIR`: serve a folder of HLS on 127.0.0.1.
struct Origin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a folder of HLS on 127.0.0.1 (HTTP/1.1 with Range and keep-alive) until interrupted.",
        discussion: """
        Paths are resolved below the folder: a '.' segment is dropped and a '..' drops the segment before it, \
        but a '..' that climbs above the folder is refused (403), not served from the folder's top; symbolic \
        links are followed while they stay inside it (403 otherwise); folders are not listed (404). A path \
        with a control character or a malformed percent-escape, and an HTTP/1.1 request without Host, are \
        refused (400). Responses carry an ETag and a Last-Modified date, and If-Range is honoured: a range \
        whose validator no longer matches gets the whole file (200).
        """
    )

    @Argument(help: "The folder to serve.")
    var root: String

    @Option(parsing: .unconditional, help: "Port on 127.0.0.1 (0: any free port).")
    var port: Int = 8080

    @Option(help: "Write the port listened on to this file once serving (useful with --port 0).")
    var portFile: String?

    @Option(name: .customLong("playback-api"),
            help: "ACCOUNT:POLICY_KEY[:TOKEN] — also serve a mock Brightcove-style Playback API below /playback/v1/ with a demo catalogue over the generated test streams (videos 1001 ts, 1002 fmp4, 1003 bumper, 1004 MP4 only; playlist 2001), requiring that policy key (and token).")
    var playbackAPI: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(root) is not a folder")
        }
        if let portFile, let reason = Play.unwritable(portFile) { throw ValidationError("--port-file \(portFile): \(reason)") }
        if let playbackAPI, Self.apiSettings(playbackAPI) == nil {
            throw ValidationError("--playback-api takes ACCOUNT:POLICY_KEY[:TOKEN] with a non-empty account and key, got \"\(playbackAPI)\"")
        }
    }

    static func apiSettings(_ text: String) -> (account: String, key: String, token: String?)? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1], parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil)
    }

    func run() async throws {
        let server: LoopbackHTTPServer?
        let api: PlaybackAPIServer?
        do {
            if let settings = playbackAPI.flatMap(Self.apiSettings) {
                let started = try PlaybackAPIServer(accountId: settings.account, policyKey: settings.key, authToken: settings.token,
                                                    mediaDirectory: root, port: port)
                started.registerDemoCatalogue()
                (server, api) = (nil, started)
            } else {
                (server, api) = (try LoopbackHTTPServer(root: root, port: port), nil)
            }
        } catch {
            printError("cannot listen on 127.0.0.1:\(port): \(error)")
            throw ExitCode(2)
        }
        let baseURL = server?.baseURL ?? api?.baseURL ?? ""
        try writePortFile(portFile, port: server?.port ?? api?.port ?? 0)
        let banner = OutputBuffer(fd: OutputBuffer.standardOutput)
        banner.write("serving \(root) at \(baseURL)\n")
        if let api { banner.write("playback API for account \(api.accountId) at \(baseURL)\(PlaybackAPIServer.apiPrefix)\(api.accountId)/\n") }
        banner.flush()
        // Serves until the process is interrupted or terminated; nothing is kept that needs saving.
        while true {
            try await Task.sleep(for: .seconds(3600))
            withExtendedLifetime((server, api)) {}
        }
    }
}

/// Writes the port listened on to `path` (if given), before the banner: a file that cannot be written
/// ends the command with exit status 2 and says why.
func writePortFile(_ path: String?, port: Int) throws {
    guard let path else { return }
    do {
        try String(port).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        printError("cannot write the port to \(path): \(error.localizedDescription)")
        throw ExitCode(2)
    }
}
