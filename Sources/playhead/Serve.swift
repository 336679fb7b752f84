import ArgumentParser
import Foundation
import PlayheadServer

/// `playhead serve`: the HTTP daemon (sessions, SSE events, reports, Prometheus metrics, SQLite store).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Playhead daemon: an HTTP API to create and steer playback sessions.",
        discussion: """
        The API is described in docs/openapi.yaml. Sessions, their events, QoS samples and reports are kept in \
        DIR/playhead.sqlite (WAL): after a restart past sessions are still listed, and sessions that were running \
        are marked interrupted. SIGINT or SIGTERM stop the running sessions and store their reports before exiting.
        """
    )

    @Option(help: "Address to listen on.")
    var bind = ServerSettings.defaultBindAddress

    @Option(parsing: .unconditional, help: "TCP port (0: any free port; the port is printed on standard output).")
    var port = ServerSettings.defaultPort

    @Option(help: "Require 'Authorization: Bearer TOKEN' on every request but /healthz.")
    var token: String?

    @Option(name: .customLong("data"), help: "Data directory of the store.")
    var data = ServerSettings.defaultDataDirectory

    @Option(name: .customLong("max-sessions"), parsing: .unconditional, help: "Most sessions running at once (429 past it).")
    var maxSessions = ServerSettings.defaultMaxSessions

    @Option(name: .customLong("max-body-bytes"), help: "Largest request body accepted (413 past it).")
    var maxBodyBytes = ServerSettings.defaultMaxBodyBytes

    @Option(name: .customLong("keep-alive"), help: "Seconds between the comment lines a quiet event stream sends (a client that left is noticed at the next one).")
    var keepAlive = ServerSettings.defaultEventStreamKeepAliveSeconds

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may wait without a request before it is closed.")
    var idleTimeout = ServerSettings.defaultIdleTimeoutSeconds

    func validate() throws {
        if !(idleTimeout >= 0.05 && idleTimeout <= 86_400) { throw ValidationError("--idle-timeout must be from 0.05 to 86400 seconds, got \(idleTimeout)") }
        if !(keepAlive >= 0.05 && keepAlive <= 3600) { throw ValidationError("--keep-alive must be from 0.05 to 3600 seconds, got \(keepAlive)") }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0…65535") }
        if maxSessions < 1 { throw ValidationError("--max-sessions must be at least 1") }
        if maxBodyBytes < 1 { throw ValidationError("--max-body-bytes must be at least 1") }
        if token?.isEmpty == true { throw ValidationError("--token must not be empty") }
        if let reason = Self.unusableFolder(data) { throw ValidationError("--data \(data): \(reason)") }
    }

    /// Why `path` cannot be the data folder (a file, or a missing folder whose nearest existing parent is
    /// not a writable folder), or nil.
    static func unusableFolder(_ path: String) -> String? {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            if !isFolder.boolValue { return "is a file, not a folder" }
            return files.isWritableFile(atPath: path) ? nil : "the folder is not writable"
        }
        var parent = (path as NSString).deletingLastPathComponent
        while !parent.isEmpty, !files.fileExists(atPath: parent, isDirectory: &isFolder) {
            parent = (parent as NSString).deletingLastPathComponent
        }
        if parent.isEmpty { parent = "." ; _ = files.fileExists(atPath: parent, isDirectory: &isFolder) }
        if !isFolder.boolValue { return "\(parent) is a file, not a folder" }
        return files.isWritableFile(atPath: parent) ? nil : "cannot create it: \(parent) is not writable"
    }

    func run() async throws {
        var settings = ServerSettings()
        settings.bindAddress = bind
        settings.port = port
        settings.token = token
        settings.dataDirectory = data
        settings.maxSessions = maxSessions
        settings.maxBodyBytes = maxBodyBytes
        settings.eventStreamKeepAliveSeconds = keepAlive
        settings.idleTimeoutSeconds = idleTimeout
        do {
            try await PlayheadDaemon.run(settings: settings)
        } catch {
            FileHandle.standardError.write(Data("playhead serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
