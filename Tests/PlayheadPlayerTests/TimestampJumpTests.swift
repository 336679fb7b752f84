import Foundation
import PlayheadCore
import Testing

/// Timestamps that go back between two segments: seg003 (media 13.5–17.5 s), then seg000 and seg001
/// (media 1.5–9.5 s), with or without EXT-X-DISCONTINUITY between them.
@Suite struct TimestampJumpTests {
    func play(declared: Bool, scheduled: [ScheduledCommand] = []) async throws -> PlayerFixtures.Run {
        let folder = NSTemporaryDirectory() + "playhead-jump-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = "file://" + PlayerFixtures.streams + "/ts/v0"
        let text = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
                    "#EXTINF:4,", "\(rendition)/seg003.ts"] + (declared ? ["#EXT-X-DISCONTINUITY"] : [])
            + ["#EXTINF:4,", "\(rendition)/seg000.ts", "#EXTINF:4,", "\(rendition)/seg001.ts", "#EXT-X-ENDLIST"]
        try text.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        return await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.perFrameEvents = true },
                                                scheduled: scheduled, maxSessionSeconds: 60)
    }

    /// Every frame is presented 1/30 s after the one before, its timestamp 1/30 s on.
    func expectSmooth(_ run: PlayerFixtures.Run, frames expected: Int) {
        let frames = run.events.compactMap { event -> (time: Double, pts: Double)? in
            if case let .framePresented(pts, _) = event.kind { return (event.playerTime, pts) } else { return nil }
        }
        #expect(frames.count == expected)
        for (index, pair) in zip(frames, frames.dropFirst()).enumerated() {
            #expect(abs(pair.1.pts - pair.0.pts - 1.0 / 30) < 1e-3 && abs(pair.1.time - pair.0.time - 1.0 / 30) < 1e-3,
                    "frame \(index + 1): \(pair.0) then \(pair.1)")
        }
    }

    /// Declared: seg003's last frame used to come out of the decoder after seg000's first packet went
    /// in and be placed by seg000's anchor at 19.93 s; the player waited for it, then showed all of
    /// seg000 and seg001 at one instant, 8 s late. The decoder is now drained at a discontinuity.
    @Test func timestampsGoingBackAcrossADiscontinuityPlayInOrder() async throws {
        let run = try await play(declared: true)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        expectSmooth(run, frames: 360)
        #expect(run.report.damage.isEmpty, "\(run.report.damage)")
        #expect(abs(run.report.positionSeconds - 12) < 0.05, "\(run.report.positionSeconds)")
    }

    /// Undeclared: seg000 and seg001 used to be placed 16 s in the past (content −12 to −4 s) and all
    /// presented at once. The jump is now taken as a discontinuity and reported.
    @Test func anUndeclaredJumpIsPlacedAsADiscontinuityAndReported() async throws {
        let run = try await play(declared: false)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        expectSmooth(run, frames: 360)
        #expect(run.report.damage.count == 1 && run.report.damage[0].contains("seg000.ts: timestamps jump by -16.0 s"),
                "\(run.report.damage)")
        #expect(run.eventLines.contains { $0.contains("HLS_SEGMENT_ERROR") && $0.contains("timestamps jump") })
        #expect(run.eventLines.contains { $0.contains("timestampJump") })
        #expect(abs(run.report.positionSeconds - 12) < 0.05, "\(run.report.positionSeconds)")
    }

    /// A seek back before the jump plays through it again on the same anchors, reported once.
    @Test func aSeekBackBeforeTheJumpPlaysThroughItAgain() async throws {
        let run = try await play(declared: false, scheduled: [ScheduledCommand(atPositionSeconds: 10, action: .seek(toSeconds: 2))])
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.seeks.count == 1 && report.seeks[0].completedAt != nil)
        #expect(report.damage.count == 1, "\(report.damage)")
        #expect(abs(report.positionSeconds - 12) < 0.05, "\(report.positionSeconds)")
        // 10 s before the seek, 10 s after it: about 600 frames, none placed outside the item.
        let pts = run.events.compactMap { event -> Double? in
            if case let .framePresented(pts, _) = event.kind { return pts } else { return nil }
        }
        #expect(pts.count >= 590 && pts.count <= 610, "\(pts.count)")
        #expect(pts.allSatisfy { $0 >= 0 && $0 < 12 }, "\(pts.filter { $0 < 0 || $0 >= 12 }.prefix(5))")
    }

    /// The same segment listed twice: its timestamps go back 4 s, under one target duration, yet its
    /// frames would overlap the ones just shown (they used to be shown at one instant, late).
    @Test func aSmallJumpBackIsAJumpToo() async throws {
        let folder = NSTemporaryDirectory() + "playhead-jump-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let segment = "file://" + PlayerFixtures.streams + "/ts/v0/seg001.ts"
        let text = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
                    "#EXTINF:4,", segment, "#EXTINF:4,", segment, "#EXT-X-ENDLIST"]
        try text.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.perFrameEvents = true },
                                                   maxSessionSeconds: 60)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        expectSmooth(run, frames: 240)
        #expect(run.report.damage.count == 1 && run.report.damage[0].contains("timestamps jump by -4.0 s"), "\(run.report.damage)")
    }
}
