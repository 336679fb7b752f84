import Foundation

/// Test fixtures: the generated HLS streams and the ffmpeg CLI as the reference.
enum Fixtures {
    /// The repository root, found from this file's path.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of generated streams; generates them on first use (a few tens of seconds).
    static let streams: URL = {
        let out = run(repoRoot.appendingPathComponent("scripts/make-test-streams").path, [])
        return URL(fileURLWithPath: out.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// Runs a program and returns its standard output; fails loudly on a non-zero exit.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try! process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "\(program) \(arguments) exited \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The hash column of ffmpeg's framemd5 for `input` (a playlist path or URL) and stream specifier.
    static func ffmpegHashes(_ input: String, map: String = "0:v", inputOptions: [String] = []) -> [String] {
        hashes(inFrameMD5: run("ffmpeg", ["-nostdin", "-loglevel", "error"] + inputOptions + ["-i", input, "-map", map, "-f", "framemd5", "-"]))
    }

    /// The hash column of a framemd5 text.
    static func hashes(inFrameMD5 text: String) -> [String] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The segment URIs of a simple generated media playlist (no byte ranges).
    static func segmentFiles(_ playlist: URL) throws -> [URL] {
        let text = try String(contentsOf: playlist, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { playlist.deletingLastPathComponent().appendingPathComponent(String($0)) }
    }
}
