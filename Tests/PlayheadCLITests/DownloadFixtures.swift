import Foundation
import PlayheadOrigin
import PlayheadTestFixtures

/// Shared steps of the `playhead download` tests: folders, runs, the manifest, hashes of what plays.
enum Download {
    /// A new folder path (not created) under the temporary folder.
    static func folder() -> String {
        NSTemporaryDirectory() + "playhead-offline-\(UUID().uuidString)"
    }

    /// `playhead download ARGS…`.
    static func run(_ arguments: [String]) async -> ChildProcess.Outcome {
        await CLI.run(CLI.playhead, ["download"] + arguments + ["--quiet"])
    }

    /// The files of `folder`, relative, sorted (folders not listed).
    static func files(_ folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue { files.append(path) }
        }
        return files.sorted()
    }

    /// The manifest's `files`, each a dictionary.
    static func manifestFiles(_ folder: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/download.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["files"] as? [[String: Any]] ?? []
    }

    /// The manifest's top-level `status`.
    static func manifestStatus(_ folder: String) throws -> String? {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/download.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["status"] as? String
    }

    /// The text of a file of the folder.
    static func text(_ folder: String, _ path: String) throws -> String {
        try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
    }

    /// Hashes of the video frames `playhead play ITEM` presents (virtual clock), and its report.
    static func play(_ item: String, _ extra: [String] = []) async -> (status: Int32, hashes: [String], stderr: String) {
        let out = await CLI.run(CLI.playhead, ["play", item, "--clock", "virtual", "--framemd5", "-", "--quiet"] + extra)
        return (out.status, CLI.hashes(out.stdout), out.stderr)
    }

    /// The report `playhead play ITEM --report -` writes, parsed.
    static func report(_ item: String, _ extra: [String] = []) async throws -> [String: Any] {
        let out = await CLI.run(CLI.playhead, ["play", item, "--clock", "virtual", "--report", "-", "--quiet"] + extra)
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// `playhead frames PLAYLIST --stream S --framemd5 -` hashes.
    static func frames(_ playlist: String, stream: String) async -> [String] {
        let out = await CLI.run(CLI.playhead, ["frames", playlist, "--stream", stream, "--framemd5", "-"])
        return CLI.hashes(out.stdout)
    }

    /// The paths the server was asked for, in order.
    static func requested(_ server: LoopbackHTTPServer) -> [String] { server.requestLog.map(\.path) }
}
