import Foundation
import PlayheadCore
import Testing

/// EXT-X-GAP (RFC 8216bis 4.4.4.7): a segment marked as a gap is not loaded, its time passes with the
/// last frame shown, and the drift line shows the missing media.
@Suite struct GapTests {
    /// /ts/v0 (eight segments, 30 s) as file URLs, its fourth segment (12–16 s) marked as a gap when
    /// `gap` is true.
    func play(gap: Bool) async throws -> PlayerFixtures.Run {
        let folder = NSTemporaryDirectory() + "playhead-gap-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = PlayerFixtures.streams + "/ts/v0"
        var lines = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for index in 0..<8 {
            lines.append("#EXTINF:\(index == 7 ? 2 : 4),")
            if index == 3, gap { lines.append("#EXT-X-GAP") }
            lines.append("file://\(rendition)/seg00\(index).ts")
        }
        lines.append("#EXT-X-ENDLIST")
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        return await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", maxSessionSeconds: 90)
    }

    @Test func aGapIsNotLoadedAndItsTimePasses() async throws {
        let run = try await play(gap: true)
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.segmentsDownloaded == 7)
        #expect(!run.eventLines.contains { $0.contains("seg003.ts\"") && $0.contains("segmentLoaded") })
        #expect(run.eventLines.contains { $0.contains("gapSkipped") && $0.contains("\"mediaSequence\":\"3\"") })
        #expect(report.framesPresented["video"] == 900 - 120)
        #expect(report.rebuffers.isEmpty)
        #expect(abs(report.positionSeconds - 30) < 0.05)
        // 30 s listed, 26 s of media: the drift line shows the 4 s gap.
        #expect(abs(report.manifestSeconds - 30) < 0.01 && abs(report.driftSeconds + 4) < 0.05, "\(report.manifestSeconds) \(report.driftSeconds)")
    }

    @Test func withoutTheGapTagEverySegmentPlays() async throws {
        let report = try await play(gap: false).report
        #expect(report.finalStatus == .completed)
        #expect(report.segmentsDownloaded == 8)
        #expect(report.framesPresented["video"] == 900)
        #expect(abs(report.driftSeconds) < 0.05)
    }
}
