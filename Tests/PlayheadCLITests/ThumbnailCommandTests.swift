import Foundation
import PlayheadOrigin
import Testing

/// `playhead thumbnail`: what it prints, the PNG it writes (checked with ffmpeg), its listing and exit statuses.
@Suite struct ThumbnailCommandTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-thumb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The I-frame source: the chosen playlist, entry, pts and md5 on standard output; the PNG is the keyframe
    /// (ffmpeg's keyframe of the segment, converted to rgb24 the same way, equals the PNG's pixels).
    @Test func writesTheIFramesPictureAsPNGAndSaysWhereItCameFrom() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await CLI.run(CLI.playhead, ["thumbnail", server.url("/thumbs/master.m3u8"), "--time", "7", "--out", folder + "/t.png"])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "source: iframe " + server.url("/thumbs/ts/iframes0.m3u8"))
        #expect(lines.contains("entry: 3 at 6.000 s, 2.000 s (for 7.000 s): \(server.url("/ts/v0/seg001.ts")) bytes \(try Self.byteRange(entry: 3))"))
        #expect(lines.contains("frame: pts 672000 (1/90000, 7.466667 s), 416x234 yuv420p"))
        let segment = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/ts/v0/seg001.ts", "-map", "0:v", "-f", "framemd5", "-"])
        let keyframe = CLI.hashes(segment.stdout)[60]
        #expect(lines.contains("md5: \(keyframe) (yuv420p)"))
        #expect(lines.last?.hasPrefix("png: \(folder)/t.png, 416x234, ") == true)
        let png = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", folder + "/t.png", "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/ts/v0/seg001.ts", "-map", "0:v",
                                                 "-vf", "select=eq(n\\,60)", "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        #expect(CLI.hashes(png.stdout).count == 1)
        #expect(CLI.hashes(png.stdout) == CLI.hashes(reference.stdout))
    }

    /// Entry `entry`'s `#EXT-X-BYTERANGE` (LENGTH@OFFSET) in the generated I-frame playlist of ts/v0 (the byte
    /// offsets depend on the encoder's output, so they are read, not written down).
    static func byteRange(entry: Int) throws -> String {
        let text = try String(contentsOfFile: CLI.streams + "/thumbs/ts/iframes0.m3u8", encoding: .utf8)
        let ranges = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.map { String($0.dropFirst(17)) }
        return try #require(ranges.indices.contains(entry) ? ranges[entry] : nil)
    }

    /// The time asked for is printed as asked: 3.9999 s is not shown as 4.000 s (which read as the wrong entry).
    @Test func theTimeAskedForIsPrintedAsAsked() async throws {
        let out = await CLI.run(CLI.playhead, ["thumbnail", CLI.streams + "/thumbs/master.m3u8", "--time", "3.9999"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("entry: 1 at 2.000 s, 2.000 s (for 3.9999 s): "), "\(out.stdout)")
    }

    @Test func listsTheIFrameEntriesAndTheTracksCues() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let out = await CLI.run(CLI.playhead, ["thumbnail", server.url("/thumbs/master.m3u8"), "--list", "--vtt", "../thumbs/sprites.vtt"])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "iframe \(server.url("/thumbs/ts/iframes0.m3u8")) (BANDWIDTH=26000,RESOLUTION=416x234): 15 entries, 30.000 s")
        #expect(lines.contains("  6.000 +2.000  \(server.url("/ts/v0/seg001.ts")) bytes \(try Self.byteRange(entry: 3))"))
        #expect(lines.contains("vtt \(server.url("/thumbs/sprites.vtt")): 15 cues"))
        #expect(lines.contains("  28.000 +2.000  \(server.url("/thumbs/sprite.jpg")) #xywh=320,270,160,90"))
        let expectedCount = 32  // a header and 15 entries, a header and 15 cues
        #expect(lines.count == expectedCount)
        // A bad cue is listed with its line.
        let broken = await CLI.run(CLI.playhead, ["thumbnail", server.url("/thumbs/master.m3u8"), "--list", "--vtt", "../thumbs/broken.vtt"])
        #expect(broken.stdout.contains("  4.000 +2.000  (line 10: bad #xywh: "), "\(broken.stdout)")
    }

    /// A WebVTT sprite written to standard output as PNG (the description then goes to standard error).
    @Test func aSpriteTileGoesToStandardOutput() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = await CLI.run("/bin/sh", ["-c", "\"$0\" thumbnail \"$1\" --time 3 --vtt \"$2\" --out - > \"$3\"", CLI.playhead,
                                            server.url("/ts/master.m3u8"), CLI.streams + "/thumbs/sprites.vtt", folder + "/tile.png"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("source: vtt file://\(CLI.streams)/thumbs/sprites.vtt"))
        #expect(out.stderr.contains("#xywh=160,0,160,90"))
        let ours = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", folder + "/tile.png", "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        let theirs = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/thumbs/sprite.jpg", "-vf", "crop=160:90:160:0",
                                              "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        #expect(!CLI.hashes(ours.stdout).isEmpty && CLI.hashes(ours.stdout) == CLI.hashes(theirs.stdout))
        #expect(out.stderr.contains("md5: \(CLI.hashes(theirs.stdout).first ?? "?") (rgb24)"))
    }

    /// Exit 1 naming the resource for input that gives no thumbnail; 2 for usage errors; nothing written.
    @Test(arguments: [
        (["--time", "45"], 1, "is outside the stream (0 to 30.000 s)"),
        (["--time", "3", "--source", "iframe", "--master", "ts"], 1, "no I-frame playlist"),
        (["--time", "1", "--vtt", "../thumbs/broken.vtt"], 1, "HTTP 404 for "),
        (["--time", "3", "--vtt", "../thumbs/broken.vtt"], 1, "/thumbs/broken.vtt:7: #xywh=600,0,160,90 is not inside"),
        (["--time", "5", "--vtt", "../thumbs/broken.vtt"], 1, "/thumbs/broken.vtt:10: bad #xywh"),
        (["--list", "--time", "3"], 2, "--list prints the entries"),
        (["--width", "5"], 2, "give --time"),
        (["--time", "3", "--source", "vtt"], 2, "--source vtt needs --vtt"),
    ])
    func badInputExitsWithItsStatusAndSaysWhy(arguments: [String], status: Int32, message: String) async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        var arguments = arguments
        var master = "/thumbs/master.m3u8"
        if let at = arguments.firstIndex(of: "--master") {
            master = "/\(arguments[at + 1])/master.m3u8"
            arguments.removeSubrange(at...(at + 1))
        }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let withOut = arguments.contains("--list") ? arguments : arguments + ["--out", folder + "/t.png"]
        let out = await CLI.run(CLI.playhead, ["thumbnail", server.url(master)] + withOut)
        #expect(out.status == status, "\(out.stderr)")
        #expect(out.stderr.contains(message), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/t.png"))
    }

    /// An output that cannot be written: exit 2 naming it, and no description of a thumbnail that went nowhere.
    @Test func anUnwritableOutputExitsWith2() async throws {
        let out = await CLI.run(CLI.playhead, ["thumbnail", CLI.streams + "/thumbs/master.m3u8", "--time", "3", "--out", "/nonexistent-playhead/t.png"])
        #expect(out.status == 2)
        #expect(out.stderr.contains("cannot write /nonexistent-playhead/t.png"))
        #expect(out.stdout.isEmpty)
    }

    /// The output is written in place, as a shell redirection writes: through a symbolic link (the link stays), and
    /// into a device (a full one is an error, exit 2, and stays a device).
    @Test func theOutputIsWrittenInPlace() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/target.png", contents: nil))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: folder + "/target.png")
        let linked = await CLI.run(CLI.playhead, ["thumbnail", CLI.streams + "/thumbs/master.m3u8", "--time", "3", "--out", folder + "/link.png"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.png")) == folder + "/target.png")
        #expect(((try? FileManager.default.attributesOfItem(atPath: folder + "/target.png"))?[.size] as? Int ?? 0) > 1000)
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let full = await CLI.run(CLI.playhead, ["thumbnail", CLI.streams + "/thumbs/master.m3u8", "--time", "3", "--out", "/dev/full"])
        #expect(full.status == 2 && full.stderr.contains("cannot write /dev/full"), "\(full.stderr)")
        #expect((try? FileManager.default.attributesOfItem(atPath: "/dev/full"))?[.type] as? FileAttributeType == .typeCharacterSpecial)
    }
}
