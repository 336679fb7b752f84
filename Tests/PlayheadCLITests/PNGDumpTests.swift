import Foundation
import PlayheadOrigin
import Testing

/// `play --dump DIR --dump-png` (F37): every presented picture as a PNG file, pixel for pixel what ffmpeg
/// gives for that frame in rgb24.
@Suite struct PNGDumpTests {
    @Test func eachPresentedPictureIsAPNGOfFFmpegsRGB24() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-dump-png-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/ts/v0/index.m3u8")
        let ours = await CLI.run(CLI.playhead, ["play", url, "--start", "7.5", "--duration", "1", "--dump", folder, "--dump-png",
                                                "--framemd5", folder + "/presented.md5", "--report", "/dev/null"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let presented = CLI.hashes(try String(contentsOfFile: folder + "/presented.md5", encoding: .utf8)).count
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(presented > 20 && files.count == presented, "\(files.count) PNG files, \(presented) frames presented")
        #expect(files.first == "000001.png")
        #expect(!FileManager.default.fileExists(atPath: folder + "/video.y4m"))
        let dumped = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", folder + "/frames/%06d.png", "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url, "-map", "0:v", "-frames:v", "300",
                                                 "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        // 7.5 s is frame 225.
        let expected = CLI.hashes(reference.stdout)
        #expect(CLI.hashes(dumped.stdout) == Array(expected[225..<min(expected.count, 225 + files.count)]))
        // A shorter run into the same folder leaves only its own pictures (and a file of another name alone).
        #expect(FileManager.default.createFile(atPath: folder + "/frames/notes.txt", contents: Data("mine".utf8)))
        let again = await CLI.run(CLI.playhead, ["play", url, "--start", "7.5", "--duration", "0.5", "--dump", folder, "--dump-png", "--report", "/dev/null"])
        #expect(again.status == 0, "\(again.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").filter { $0.hasSuffix(".png") }
        #expect(left.count < files.count && left.count > 5, "\(left.count) PNG files after the shorter run")
        #expect(FileManager.default.fileExists(atPath: folder + "/frames/notes.txt"))
    }

    @Test func dumpPNGNeedsADumpFolder() async {
        let out = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/x.m3u8", "--dump-png"])
        #expect(out.status == 2)
        #expect(out.stderr.contains("--dump-png needs --dump DIR"))
    }
}
