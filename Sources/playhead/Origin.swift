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

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(root) is not a folder")
        }
        if let portFile, let reason = Play.unwritable(portFile) { throw ValidationError("--port-file \(portFile): \(reason)") }
    }

    func run() async throws {
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer(root: root, port: port)
        } catch {
            printError("cannot listen on 127.0.0.1:\(port): \(error)")
            throw ExitCode(2)
        }
        try writePortFile(portFile, port: server.port)
        let banner = OutputBuffer(fd: OutputBuffer.standardOutput)
        banner.write("serving \(root) at \(server.baseURL)\n")
        banner.flush()
        // Serves until the process is interrupted or terminated; nothing is kept that needs saving.
        while true { try await Task.sleep(for: .seconds(3600)) }
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
