import Foundation
import PlayheadCore
import Testing

/// Across an EXT-X-DISCONTINUITY whose timestamps go back, the frames the decoder still holds from
/// the segment before (B-frame reordering) are placed by that segment's anchor, not the next one's.
@Suite struct DiscontinuityDrainTests {
    @Test func timestampsGoingBackAcrossADiscontinuityPlayInOrder() async throws {
        // seg003 (media 13.5–17.5 s), then seg000 and seg001 (media 1.5–9.5 s) after a discontinuity.
        let folder = NSTemporaryDirectory() + "playhead-disc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = "file://" + PlayerFixtures.streams + "/ts/v0"
        let text = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
                    "#EXTINF:4,", "\(rendition)/seg003.ts", "#EXT-X-DISCONTINUITY", "#EXTINF:4,", "\(rendition)/seg000.ts",
                    "#EXTINF:4,", "\(rendition)/seg001.ts", "#EXT-X-ENDLIST"].joined(separator: "\n")
        try text.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.perFrameEvents = true },
                                                   maxSessionSeconds: 60)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let frames = run.events.compactMap { event -> (time: Double, pts: Double)? in
            if case let .framePresented(pts, _) = event.kind { return (event.playerTime, pts) } else { return nil }
        }
        #expect(frames.count == 360)
        // Before, seg003's last frame came out of the decoder after seg000's first packet went in and
        // was placed by seg000's anchor at 19.93 s; the player waited for it, then showed all of
        // seg000 and seg001 at one instant, 8 s late.
        for (index, pair) in zip(frames, frames.dropFirst()).enumerated() {
            #expect(abs(pair.1.pts - pair.0.pts - 1.0 / 30) < 1e-3 && abs(pair.1.time - pair.0.time - 1.0 / 30) < 1e-3,
                    "frame \(index + 1): \(pair.0) then \(pair.1)")
        }
        #expect(abs(run.report.positionSeconds - 12) < 0.05, "\(run.report.positionSeconds)")
    }
}
