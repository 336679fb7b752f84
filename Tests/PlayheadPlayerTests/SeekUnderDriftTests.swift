import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Seeks on content whose EXTINFs undercount its media by a segment or more (every 2 s segment of the 30 fps
/// content listed 1.5 s): the seek finds the segment whose media holds its target, not the one the EXTINF grid
/// puts it in (QA41 #2).
@Suite struct SeekUnderDriftTests {
    /// Plays the content listed short from 0, with `map`'s breaks and `seek`, and returns the run.
    private func play(seek: ScheduledCommand, map: AdMap?) async throws -> PlayerFixtures.Run {
        MediaLog.level = .quiet
        let origin = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        let server = try AdServer()
        defer { server.stop(); origin.stop() }
        server.register(try PlayerFixtures.cueContentListed(1.5, on: origin), at: "/short.m3u8", contentType: "application/vnd.apple.mpegurl")
        let url = server.url("/short.m3u8")
        return await PlayerFixtures.playVirtual(url, configure: { configuration in
            configuration.mode = .demux
            if let map { configuration.ads = PlayerFixtures.ads(map, for: origin.url("/cues/ts/vod.m3u8")) }
        }, scheduled: [seek])
    }

    /// A seek from 5 s to 15 s lands on the frame at 15 s. On the grid it went to the segment listed at 15 s, whose
    /// media starts at 20 s: 5 s of content never shown.
    @Test func aSeekForwardLandsAtItsTarget() async throws {
        let run = try await play(seek: .init(atPositionSeconds: 5, action: .seek(toSeconds: 15)), map: nil)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.events.contains { if case let .seekCompleted(at) = $0.kind { abs(at - 15) < 1e-6 } else { false } })
        // Content 0 to 5 s, then 15 to 30 s, at 30 fps.
        #expect(run.report.framesPresented["video"] == 150 + 450, "\(run.report.framesPresented)")
    }

    /// A break cued at 9 s (the listed start whose media before ends at 12 s) is watched, then a seek from timeline
    /// 25 s back to 5 s plays content from 5 s, the break again where it was, and content on from 12 s. It played the
    /// break again at 16 s (matched on the EXTINF grid) and resumed at 16 s: 120 frames never shown.
    @Test func aBreakMetAgainAfterASeekBackSitsWhereItWas() async throws {
        let map = AdMap(breaks: [AdMap.Entry(time: 9, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "a")])])
        let run = try await play(seek: .init(atPositionSeconds: 25, action: .seek(toSeconds: 5)), map: map)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let boundaries = run.report.adBoundaries
        #expect(boundaries.count == 1 && boundaries.first?.firstContentAfter.map { abs($0.sourceSeconds - 12) < 1e-6 } == true,
                "\(boundaries.map { String(describing: $0.firstContentAfter) })")
        // Content 0 to 15 s, the ad, content 5 to 30 s with the ad again at 12 s: every frame of it.
        #expect(run.report.framesPresented["video"] == 450 + 300 + 750 + 300, "\(run.report.framesPresented)")
    }
}
