import Foundation
import PlayheadCore
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Custom key delivery (F26): `--key URI=HEX` gives a key instead of fetching its URI (``StaticKeyProvider``,
/// the PSDK's key-provider hook), and opens SAMPLE-AES whose KEYFORMAT is a DRM system's; every key the
/// playlists name is a `drmMetadataChanged` event and a report entry.
@Suite struct KeyProviderTests {
    /// The generated AES-128 rendition with its key URI pointing at nothing (`gone.key`): the key must come
    /// from `--key`. Frame for frame FFmpeg's of the original.
    @Test func aKeyGivenOnTheCommandLineDecryptsWhereItsURIFails() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "playhead-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLI.streams + "/aes/key.bin")))
        let hex = key.map { String(format: "%02x", $0) }.joined()
        let playlist = try String(contentsOfFile: CLI.streams + "/aes/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"\(server.url("/aes/gone.key"))\"")
            .split(separator: "\n").map { $0.hasSuffix(".ts") ? server.url("/aes/\($0)") : String($0) }
        try playlist.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)

        let without = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--framemd5", "-"])
        #expect(without.status == 1 && without.stderr.contains("gone.key"), "\(without.stderr)")
        let expected = await ChildProcess.ffmpegHashes(server.url("/aes/index.m3u8"))
        try #require(expected.count >= 299)
        server.clearRequestLog()
        let with = await CLI.run(CLI.playhead, ["frames", folder + "/index.m3u8", "--framemd5", "-", "--key", "\(server.url("/aes/gone.key"))=\(hex)"])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(CLI.hashes(with.stdout) == expected)
        #expect(!server.requestLog.contains { $0.path == "/aes/gone.key" }, "the key given is not fetched")

        // `play` too; the key is a drmMetadataChanged event and a report entry, named as the playlist writes it.
        let play = await CLI.run(CLI.playhead, ["play", folder + "/index.m3u8", "--mode", "demux", "--report", folder + "/r.json",
                                                "--events", folder + "/e.ndjson", "--key", "\(server.url("/aes/gone.key"))=0x\(hex.uppercased())"])
        #expect(play.status == 0, "\(play.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/r.json"))) as? [String: Any]
        let keys = report?["keys"] as? [[String: Any]]
        #expect(keys?.count == 1 && keys?.first?["method"] as? String == "AES-128" && keys?.first?["uri"] as? String == server.url("/aes/gone.key"))
        #expect(keys?.first?["mediaSequence"] as? Int == 0 && keys?.first?["session"] as? Bool == false)
        #expect(report?["finalStatus"] as? String == "completed")
        let events = try String(contentsOfFile: folder + "/e.ndjson", encoding: .utf8)
        #expect(events.split(separator: "\n").filter { $0.contains("\"drmMetadataChanged\"") }.count == 1)
    }

    /// SAMPLE-AES under FairPlay's KEYFORMAT (`skd://` URI): not decrypted without a key; with `--key skd://…=HEX`
    /// the samples are decrypted as with an identity key, every frame FFmpeg's of the clear rendition.
    @Test func aGivenKeyOpensSampleAESUnderADRMKeyFormat() async throws {
        let folder = try await SampleAESTests.makeStream()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let playlist = try String(contentsOfFile: folder + "/enc/index.m3u8", encoding: .utf8)
            .replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"skd://asset-1\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"")
        try playlist.write(toFile: folder + "/enc/index.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let without = await CLI.run(CLI.playhead, ["frames", server.url("/enc/index.m3u8"), "--framemd5", "-"])
        #expect(without.status == 1 && without.stderr.contains("KEYFORMAT \"com.apple.streamingkeydelivery\""), "\(without.stderr)")
        let hex = SampleAESTests.key.map { String(format: "%02x", $0) }.joined()
        let with = await CLI.run(CLI.playhead, ["frames", server.url("/enc/index.m3u8"), "--framemd5", "-", "--key", "skd://asset-1=\(hex)"])
        #expect(with.status == 0, "\(with.stderr)")
        let expected = await ChildProcess.ffmpegHashes(server.url("/clear/index.m3u8"))
        #expect(expected.count >= 240 && CLI.hashes(with.stdout) == expected)
    }

    @Test(arguments: [
        ("key.bin", "expected URI=HEX"),
        ("key.bin=00112233", "the key has 8 hexadecimal digits; an AES-128 key has 32 (16 bytes)"),
        ("key.bin=zz112233445566778899aabbccddeeff", "'zz' is not hexadecimal"),
        ("=00112233445566778899aabbccddeeff", "expected URI=HEX"),
    ])
    func aBadKeyEntryIsAUsageError(entry: String, message: String) async {
        let outcome = await CLI.run(CLI.playhead, ["frames", "http://127.0.0.1:9/x.m3u8", "--key", entry])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--key: key entry '\(entry)': \(message)"), "\(outcome.stderr)")
    }
}
