import Foundation
import PlayheadNet
import PlayheadTestFixtures
import Testing

/// `playhead ad-server`: refuses bad arguments clearly; serves its demo VMAP and records beacons.
@Suite struct AdServerCommandTests {
    @Test func badArgumentsAreRefusedNamingTheOption() async {
        let document = await CLI.run(CLI.playhead, ["ad-server", "--document", "vmap.xml"])
        #expect(document.status == 2)
        #expect(document.stderr.contains("--document vmap.xml: expected PATH=FILE with PATH starting with /"))
        let missing = await CLI.run(CLI.playhead, ["ad-server", "--document", "/vmap=/nonexistent/vmap.xml"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read /nonexistent/vmap.xml"))
        let demo = await CLI.run(CLI.playhead, ["ad-server", "--demo-ad", "/ad.m3u8"])
        #expect(demo.status == 2 && demo.stderr.contains("expected PATH:SECONDS"))
        // An ad path the server would not have: refused now (it started, and the player said AD_NOT_INSERTED).
        let noMedia = await CLI.run(CLI.playhead, ["ad-server", "--demo-ad", "/nope.m3u8:10"])
        #expect(noMedia.status == 2 && noMedia.stderr.contains("is served from --media, which is not given"), "\(noMedia.stderr)")
        let absent = await CLI.run(CLI.playhead, ["ad-server", "--media", CLI.streams, "--demo-ad", "/nope.m3u8:10"])
        #expect(absent.status == 2 && absent.stderr.contains("no file \(CLI.streams)/nope.m3u8 below --media"), "\(absent.stderr)")
    }

    @Test func servesTheDemoVMAPAndRecordsBeacons() async throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["ad-server", "--port", "0", "--media", CLI.streams, "--demo-ad", "/cues/ad/master.m3u8:10"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        defer { process.terminate(); process.waitUntilExit() }
        let banner = await Self.firstLine(of: out.fileHandleForReading)
        let base = try #require(banner.components(separatedBy: "serving ads at ").last?.trimmingCharacters(in: .whitespaces))
        #expect(base.hasPrefix("http://127.0.0.1:"))

        let client = HTTPClient()
        defer { client.shutdown() }
        let vmap = String(decoding: try await client.get(base + "/vmap").body, as: UTF8.self)
        #expect(vmap.components(separatedBy: "<vmap:AdBreak ").count == 4)
        #expect(vmap.contains(base + "/vast"))
        let vast = String(decoding: try await client.get(base + "/vast").body, as: UTF8.self)
        #expect(vast.contains(base + "/cues/ad/master.m3u8"))
        _ = try await client.get(base + "/beacon/start?ad=demo-ad")
        let beacons = String(decoding: try await client.get(base + "/beacons").body, as: UTF8.self)
        #expect(beacons.contains("\"path\":\"\\/beacon\\/start\"") || beacons.contains("\"path\":\"/beacon/start\""))
        #expect(beacons.contains("\"query\":\"ad=demo-ad\""))
    }

    /// The first line the child writes, read off the cooperative pool.
    static func firstLine(of handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = ChildProcess.readSome(handle, upTo: 1)
                    if chunk.isEmpty || chunk.first == 10 { break }
                    bytes.append(contentsOf: chunk)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
