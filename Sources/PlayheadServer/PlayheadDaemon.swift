import Foundation
import Hummingbird
import Logging
import PlayheadCore
import PlayheadMedia
import ServiceLifecycle

/// `playhead serve`: the HTTP daemon.
public enum PlayheadDaemon {
    /// The version written in session reports.
    public static let version = "0.1.0"

    /// Runs the daemon until SIGINT or SIGTERM, then stops the running sessions and stores their reports.
    /// Prints `playhead serve: listening on http://HOST:PORT` on standard output once it accepts requests
    /// (the port the kernel chose when `settings.port` is 0).
    /// - Parameter settings: Address, token, data directory and limits.
    /// - Throws: ``DaemonError`` when another daemon uses the data folder; when the store cannot be opened or
    ///   the address cannot be bound.
    public static func run(settings: ServerSettings) async throws {
        MediaLog.level = .quiet
        // One daemon per data folder: a second would mark the first one's running sessions interrupted.
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        let folderLock: DirectoryLock
        do {
            folderLock = try DirectoryLock(path: settings.dataDirectory)
        } catch {
            switch error {
            case .busy: throw DaemonError.dataFolderInUse(settings.dataDirectory)
            case let .system(reason): throw DaemonError.dataFolder(settings.dataDirectory, reason)
            }
        }
        defer { withExtendedLifetime(folderLock) {} }
        let manager = try SessionManager(dataDirectory: settings.dataDirectory, maxSessions: settings.maxSessions,
                                         flushIntervalSeconds: settings.flushIntervalSeconds)
        let metrics = ServerMetrics(manager: manager)
        let responder = APIRoutes.responder(manager: manager, metrics: metrics, settings: settings)
        var logger = Logger(label: "playhead.serve")
        logger.logLevel = .warning
        let bind = settings.bindAddress
        let app = Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: .milliseconds(Int64(settings.idleTimeoutSeconds * 1000)))),
            configuration: .init(address: .hostname(bind, port: settings.port), serverName: "playhead"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                FileHandle.standardOutput.write(Data("playhead serve: listening on http://\(bind):\(port)\n".utf8))
            },
            logger: logger
        )
        // Long-running: hand the allocator's free memory back every 10 s, so memory freed by ended
        // sessions and dropped segments does not stay cached in malloc's arenas.
        let trimmer = Task.detached(priority: .background) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                ProcessStats.releaseFreeMemory()
            }
        }
        defer { trimmer.cancel() }
        // Services shut down in reverse order: the sessions stop first, which ends their event streams,
        // so the HTTP server's graceful shutdown does not wait on an SSE client for ever.
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: app), .init(service: SessionStopper(manager: manager))],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await manager.shutdown()
            throw error
        }
        await manager.shutdown()
    }
}

/// Stops the running sessions (and refuses new ones) as soon as a graceful shutdown begins.
struct SessionStopper: Service {
    let manager: SessionManager

    func run() async throws {
        try? await gracefulShutdown()
        await manager.stopSessions()
    }
}

/// Why the daemon could not start on its data folder.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another `playhead serve` holds the data folder.
    case dataFolderInUse(String)
    /// The data folder could not be opened or locked: the path and the system's words.
    case dataFolder(String, String)

    /// One line naming the folder.
    public var description: String {
        switch self {
        case let .dataFolderInUse(path): "the data folder \(path) is in use by another playhead serve: give another --data or stop that one"
        case let .dataFolder(path, reason): "the data folder \(path): \(reason)"
        }
    }
}
