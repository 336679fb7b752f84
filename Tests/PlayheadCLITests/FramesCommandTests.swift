import Foundation
import PlayheadOrigin
import Testing

/// `playhead frames --framemd5 -` against `ffmpeg -f framemd5` on the same URL, over HTTP on 127.0.0.1.
@Suite(.serialized) struct FramesCommandTests {
    static let renditions = [
        "ts/v0/index.m3u8", "ts/v1/index.m3u8", "ts/v2/index.m3u8", "ts/v3/index.m3u8",
        "fmp4/v0/index.m3u8", "fmp4/v1/index.m3u8", "fmp4/v2/index.m3u8", "fmp4/v3/index.m3u8",
        "fps25/index.m3u8", "fps2997/index.m3u8", "byterange/index.m3u8", "aes/index.m3u8",
        "ad/v0/index.m3u8",
    ]

    @Test(arguments: renditions)
    func videoHashesEqualFFmpegLineForLine(rendition: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(rendition)"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--framemd5", "-"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-f", "framemd5", "-"])
        #expect(reference.status == 0)
        let expected = CLI.hashes(reference.stdout)
        #expect(expected.count >= 299, "the reference decoded a whole rendition")
        #expect(CLI.hashes(ours.stdout) == expected)
    }

    @Test func timestampColumnsFollowFFmpegToo() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/fps2997/index.m3u8"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--framemd5", "-"]).stdout
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-f", "framemd5", "-"]).stdout
        let strip: (String) -> [String] = { $0.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        #expect(strip(ours) == strip(reference))
    }

    @Test func audioHashesEqualFFmpeg() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let url = "\(server.baseURL)/fmp4/v1/index.m3u8"
        let ours = await CLI.run(CLI.playhead, ["frames", url, "--stream", "audio", "--framemd5", "-"])
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:a", "-f", "framemd5", "-"])
        #expect(CLI.hashes(reference.stdout).count > 1000)
        #expect(CLI.hashes(ours.stdout) == CLI.hashes(reference.stdout))
    }

    @Test func missingSegmentNamesURLAndStatus() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts")
        let outcome = await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/ts/v0/index.m3u8", "--framemd5", "-"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(server.baseURL)/ts/v0/seg003.ts"))
        #expect(outcome.stderr.contains("404"))
        #expect(CLI.hashes(outcome.stdout).count >= 300, "the frames of the first three segments were written")
    }

    @Test func missingPlaylistIsExitOneWithURL() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["frames", "\(server.baseURL)/nope.m3u8"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("/nope.m3u8") && outcome.stderr.contains("404"))
    }

    @Test func badArgumentsExitTwo() async {
        #expect(await CLI.run(CLI.playhead, ["frames"]).status == 2)
        #expect(await CLI.run(CLI.playhead, ["frames", "x", "--variant", "1", "--bandwidth", "5"]).status == 2)
    }
}
