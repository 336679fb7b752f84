import Foundation
import Testing

/// `queue --subscribe-tag` (F19): every item's subscribed tags are timed metadata, as `play`'s are; a name
/// without its '#' is a usage error.
@Suite struct QueueTagTests {
    @Test func everyItemReportsItsSubscribedTags() async throws {
        let folder = NSTemporaryDirectory() + "playhead-queue-tags-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let playlist = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-FOO:A=1",
                        "#EXTINF:4,", "file://\(CLI.streams)/ts/v0/seg000.ts", "#EXT-X-ENDLIST"].joined(separator: "\n")
        try playlist.write(toFile: folder + "/a.m3u8", atomically: true, encoding: .utf8)
        let run = await CLI.run(CLI.playhead, ["queue", folder + "/a.m3u8", folder + "/a.m3u8", "--clock", "virtual", "--mode", "demux",
                                               "--subscribe-tag", "#EXT-X-FOO", "--events", "-", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let tags = run.stdout.split(separator: "\n").filter { $0.contains("\"timedMetadata\"") && $0.contains("EXT-X-FOO") }
        #expect(tags.count == 2, "one per item: \(tags)")
        let bad = await CLI.run(CLI.playhead, ["queue", folder + "/a.m3u8", "--subscribe-tag", "EXT-X-FOO"])
        #expect(bad.status == 2 && bad.stderr.contains("--subscribe-tag: a subscribed tag starts with '#'"), "\(bad.stderr)")
    }
}
