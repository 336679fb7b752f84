import Foundation
import PlayheadCore
import Testing

/// A byte range that runs past the end of its resource reads short: what came plays, and the segment is
/// reported as damaged (it was accepted silently).
@Suite struct ShortByteRangeTests {
    func play(extraBytes: Int) async throws -> PlaybackReport {
        let folder = NSTemporaryDirectory() + "playhead-short-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let segment = PlayerFixtures.streams + "/ts/v0/seg000.ts"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
        let text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\n"
            + "#EXT-X-BYTERANGE:\(size + extraBytes)@0\nfile://\(segment)\n#EXT-X-ENDLIST\n"
        try text.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        return await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", maxSessionSeconds: 60).report
    }

    @Test func aRangePastTheEndPlaysWhatCameAndIsDamage() async throws {
        let report = try await play(extraBytes: 5000)
        #expect(report.finalStatus == .completed)
        #expect(report.framesPresented["video"] == 120)
        #expect(report.damage.count == 1 && report.damage[0].contains("read short"), "\(report.damage)")
        #expect(report.notifications.contains { $0.name == "HLS_SEGMENT_ERROR" }, "\(report.notifications.map(\.name))")
    }

    @Test func anExactRangeIsNotDamage() async throws {
        let report = try await play(extraBytes: 0)
        #expect(report.finalStatus == .completed)
        #expect(report.damage.isEmpty)
    }
}
