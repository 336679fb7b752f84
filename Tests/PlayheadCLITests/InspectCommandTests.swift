import Foundation
import PlayheadOrigin
import Testing

/// `playhead inspect playlist`: output, JSON interface and exit codes.
@Suite struct InspectCommandTests {
    /// Writes `text` to a temporary .m3u8 and returns its path.
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "playhead-inspect-\(UUID().uuidString).m3u8"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func jsonOfAGeneratedMediaPlaylistOverHTTP() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["inspect", "playlist", "\(server.baseURL)/byterange/index.m3u8", "--json"])
        #expect(outcome.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "media")
        #expect(json["targetDuration"] as? Int == 4)
        #expect(json["endList"] as? Bool == true)
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 8)
        let second = try #require(segments[1]["byteRange"] as? [String: Int])
        let first = try #require(segments[0]["byteRange"] as? [String: Int])
        #expect(second["offset"] == first["length"], "implicit offsets are resolved")
        #expect((json["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonOfAMultivariantPlaylist() async throws {
        let outcome = await CLI.run(CLI.playhead, ["inspect", "playlist", CLI.streams + "/fmp4/master.m3u8", "--json"])
        #expect(outcome.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "multivariant")
        let variants = try #require(json["variants"] as? [[String: Any]])
        #expect(variants.map { $0["bandwidth"] as? Int } == [510400, 950400, 1830400, 3370400])
        #expect((variants[3]["resolution"] as? [String: Int]) == ["width": 1280, "height": 720])
    }

    /// The summary says how the segments are encrypted, and whether Playhead decrypts each kind of key.
    @Test func encryptionIsSaidByMethodAndKeyFormat() async throws {
        let path = try write("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\"\n#EXTINF:4,\na.ts\n"
            + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k2.bin\"\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"\n"
            + "#EXT-X-VERSION:5\n#EXTINF:4,\nb.ts\n#EXTINF:4,\nc.ts\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:4,\nd.ts\n#EXT-X-ENDLIST\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = await CLI.run(CLI.playhead, ["inspect", "playlist", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("  encrypted: 1 of 4 segments, METHOD=AES-128, identity key\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  encrypted: 2 of 4 segments, METHOD=SAMPLE-AES, identity key\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  encrypted: 2 of 4 segments, METHOD=SAMPLE-AES, KEYFORMAT \"com.apple.streamingkeydelivery\" (not decrypted here)\n"),
                "\(text.stdout)")
    }

    @Test func parseErrorIsExitOneNamingLineAndColumn() async throws {
        let path = try write("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\n#EXTINF:4,\na.ts\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = await CLI.run(CLI.playhead, ["inspect", "playlist", path])
        #expect(text.status == 1)
        #expect(text.stderr.contains("line 3"), "\(text.stderr)")
        #expect(text.stderr.contains("column"))
        let json = await CLI.run(CLI.playhead, ["inspect", "playlist", path, "--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.first?["line"] as? Int == 3)
    }

    @Test func warningsDoNotFail() async throws {
        let path = try write("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:100@0\n#EXTINF:4.5,\na.ts\n#EXT-X-ENDLIST\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(CLI.playhead, ["inspect", "playlist", path, "--json"])
        #expect(outcome.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let codes = (json["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("version-too-low"), "\(codes)")
    }

    @Test func missingFileAndBadUsageAreExitTwo() async {
        let missing = await CLI.run(CLI.playhead, ["inspect", "playlist", "/nonexistent/playlist.m3u8"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/playlist.m3u8"))
        #expect(await CLI.run(CLI.playhead, ["inspect", "playlist"]).status == 2)
        #expect(await CLI.run(CLI.playhead, ["inspect", "playlist", "x", "--bogus"]).status == 2)
    }

    @Test func notFoundOverHTTPIsExitTwoWithURLAndStatus() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let outcome = await CLI.run(CLI.playhead, ["inspect", "playlist", "\(server.baseURL)/missing.m3u8"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(server.baseURL)/missing.m3u8") && outcome.stderr.contains("404"))
    }
}
