import ArgumentParser
import Foundation
import PlayheadOrigin

/// `playhead ad-server`: the test ad server on 127.0.0.1 (VAST/VMAP documents, ad streams, beacon log).
struct AdServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ad-server",
        abstract: "Serve VAST and VMAP documents and ad HLS streams on 127.0.0.1, recording every beacon (GET /beacons) and heartbeat call (GET /heartbeats), until interrupted.",
        discussion: """
        Beacons are requests below /beacon/; GET /beacons lists them as JSON (path, query, wall time, status).
        The heartbeat collector is /hb (give `play --heartbeat-server http://127.0.0.1:PORT/hb`): its calls are
        requests to /hb/; GET /heartbeats lists them in the same JSON form.
        --demo-ad PATH:SECONDS registers /vmap (a pre-roll, a mid-roll at 50 % and a post-roll) and /vast (for
        per-cue requests), each with one fully tracked ad playing PATH (a file below --media, checked at start, or a
        full URL).
        """
    )

    @Option(help: "A folder of ad HLS streams served below /.")
    var media: String?

    @Option(name: .customLong("document"), help: "PATH=FILE: serve FILE at PATH (repeatable), e.g. /vmap=vmap.xml.")
    var documents: [String] = []

    @Option(help: "PATH:SECONDS: register a demo VMAP (/vmap) and VAST (/vast) playing this ad.")
    var demoAd: String?

    @Option(parsing: .unconditional, help: "Port on 127.0.0.1 (0: any free port).")
    var port: Int = 8090

    @Option(help: "Write the port listened on to this file once serving (useful with --port 0).")
    var portFile: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        var seen: Set<String> = []
        for document in documents {
            let (path, _) = try Self.document(document)
            guard seen.insert(path).inserted else { throw ValidationError("--document \(document): \(path) is given twice") }
        }
        if let demoAd {
            let (adPath, _) = try Self.demo(demoAd)
            for path in ["/vmap", "/vast"] where seen.contains(path) {
                throw ValidationError("--document \(path) is also registered by --demo-ad")
            }
            // A path the server will not have is refused now, not found by the player as AD_NOT_INSERTED.
            if !adPath.hasPrefix("http://"), !adPath.hasPrefix("https://") {
                guard let media else { throw ValidationError("--demo-ad \(demoAd): \(adPath) is served from --media, which is not given (or give a full URL)") }
                var isFolder: ObjCBool = false
                let file = URL(fileURLWithPath: media).appendingPathComponent(String(adPath.drop { $0 == "/" })).path
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else {
                    throw ValidationError("--demo-ad \(demoAd): no file \(file) below --media \(media)")
                }
            }
        }
        if let portFile, let reason = Play.unwritable(portFile) { throw ValidationError("--port-file \(portFile): \(reason)") }
    }

    func run() async throws {
        let server: AdServer
        do {
            server = try AdServer(adMediaDirectory: media, port: port)
        } catch {
            printError("cannot serve ads on 127.0.0.1:\(port): \(error)")
            throw ExitCode(2)
        }
        var paths: [String] = []
        for document in documents {
            let (path, text) = try Self.document(document)
            server.register(text, at: path)
            paths.append(path)
        }
        if let demoAd {
            let (adPath, seconds) = try Self.demo(demoAd)
            // A path below --media with or without its leading '/' (ad/v1/index.m3u8 gave http://127.0.0.1:PORTad/v1/…).
            let mediaURL = adPath.hasPrefix("http://") || adPath.hasPrefix("https://") ? adPath : server.url(adPath.hasPrefix("/") ? adPath : "/" + adPath)
            let ad = AdDocuments.tracked(id: "demo-ad", durationSeconds: seconds, mediaURL: mediaURL, server: server)
            server.register(AdDocuments.vast([ad]), at: "/vast")
            server.register(AdDocuments.vmap([
                .init(timeOffset: "start", breakId: "preroll", source: .adTagURI(server.url("/vast"))),
                .init(timeOffset: "50%", breakId: "midroll", source: .adTagURI(server.url("/vast"))),
                .init(timeOffset: "end", breakId: "postroll", source: .adTagURI(server.url("/vast"))),
            ]), at: "/vmap")
            paths += ["/vmap", "/vast"]
        }
        try writePortFile(portFile, port: server.port)
        let banner = OutputBuffer(fd: OutputBuffer.standardOutput)
        banner.write("serving ads at \(server.baseURL)\n")
        for path in paths { banner.write("  \(server.url(path))\n") }
        banner.write("  beacons: \(server.url(AdServer.beaconLogPath))\n")
        banner.write("  heartbeat collector: \(server.heartbeatServerURL) (calls listed at \(server.url(AdServer.heartbeatLogPath)))\n")
        banner.flush()
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// `PATH=FILE`, PATH starting with `/`, FILE readable.
    static func document(_ text: String) throws -> (path: String, contents: String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("/"), !parts[1].isEmpty else {
            throw ValidationError("--document \(text): expected PATH=FILE with PATH starting with /")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parts[1], isDirectory: &isFolder), !isFolder.boolValue,
              let data = FileManager.default.contents(atPath: parts[1]) else {
            throw ValidationError("--document \(text): cannot read \(parts[1])\(isFolder.boolValue ? " (a folder)" : "")")
        }
        guard let contents = String(data: data, encoding: .utf8) else {
            throw ValidationError("--document \(text): \(parts[1]) is not UTF-8 text")
        }
        return (parts[0], contents)
    }

    /// `PATH:SECONDS` with a positive duration.
    static func demo(_ text: String) throws -> (path: String, seconds: Double) {
        guard let colon = text.lastIndex(of: ":"), let seconds = Double(text[text.index(after: colon)...]), seconds > 0,
              seconds.isFinite, colon != text.startIndex else {
            throw ValidationError("--demo-ad \(text): expected PATH:SECONDS, e.g. /ad1/index.m3u8:10")
        }
        return (String(text[..<colon]), seconds)
    }
}
