import Foundation
import PlayheadCore
import PlayheadTestFixtures
import Testing

/// A segment that is an image (an origin's error picture): libavformat's probe reads it as
/// `png_pipe`, so it used to play as one video frame, unreported.
@Suite struct ImageSegmentTests {
    @Test func anImageSegmentIsDamageAndTheNextSegmentsPlayWithTheirSound() async throws {
        let folder = NSTemporaryDirectory() + "playhead-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64",
                                                       "-frames:v", "1", folder + "/error.png"])
        try #require(made.status == 0)
        let rendition = "file://" + PlayerFixtures.streams + "/ts/v0"
        let text = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXTINF:4,", "error.png", "#EXTINF:4,", "\(rendition)/seg000.ts",
                    "#EXTINF:4,", "\(rendition)/seg001.ts", "#EXT-X-ENDLIST"].joined(separator: "\n")
        try text.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", maxSessionSeconds: 60)
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.damage.count == 1 && report.damage[0].contains("error.png: not a media segment")
                && report.damage[0].contains("png_pipe"), "\(report.damage)")
        #expect(run.eventLines.contains { $0.contains("HLS_SEGMENT_ERROR") && $0.contains("error.png") })
        // The two segments after it play whole, from where the playlist puts them (4–12 s), with sound:
        // the codec probe waits for the first segment that opens.
        #expect(report.framesPresented["video"] == 240, "\(report.framesPresented)")
        #expect(report.framesPresented["audio", default: 0] >= 370, "\(report.framesPresented)")
        #expect(abs(report.positionSeconds - 12) < 0.05, "\(report.positionSeconds)")
    }
}
