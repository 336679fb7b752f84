import Foundation
import PlayheadTestFixtures

/// Test fixtures: the generated HLS streams and the ffmpeg CLI as the reference.
enum Fixtures {
    /// The folder of generated streams; generates them on first use (a few tens of seconds).
    static let streams = URL(fileURLWithPath: TestRepository.streams)

    /// The hash column of ffmpeg's framemd5 for `input` (a playlist path or URL) and stream specifier.
    static func ffmpegHashes(_ input: String, map: String = "0:v", inputOptions: [String] = []) -> [String] {
        let outcome = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error"] + inputOptions + ["-i", input, "-map", map, "-f", "framemd5", "-"])
        precondition(outcome.status == 0, "ffmpeg on \(input) exited \(outcome.status)")
        return ChildProcess.framemd5Hashes(outcome.stdout)
    }

    /// The segment URIs of a simple generated media playlist (no byte ranges).
    static func segmentFiles(_ playlist: URL) throws -> [URL] {
        let text = try String(contentsOf: playlist, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { playlist.deletingLastPathComponent().appendingPathComponent(String($0)) }
    }
}
