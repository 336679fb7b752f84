import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// Seeks and start positions at or past the end of a VOD (/ts/v0: 30 s, seven 4 s segments and a
/// last one of 2 s from 28 s, 30 fps, so the last video frame spans 29.967–30 s).
@Suite struct SeekAtTheEndTests {
    func play(seekTo target: Double? = nil, start: Double? = nil) async throws -> PlaybackReport {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let scheduled = target.map { [ScheduledCommand(atPositionSeconds: 2, action: .seek(toSeconds: $0))] } ?? []
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.startSeconds = start },
                                                   scheduled: scheduled, maxSessionSeconds: 60)
        return run.report
    }

    /// Inside the last frame's span no video frame starts at or after the target, only audio: the
    /// item completes at its end and the seek completes. (It used to wait for a video frame for ever.)
    @Test func aSeekIntoTheLastFrameCompletesAtTheEnd() async throws {
        let report = try await play(seekTo: 29.99)
        #expect(report.finalStatus == .completed, "\(report.statuses.map(\.status)) \(report.error ?? "")")
        #expect(abs(report.positionSeconds - 30) < 0.01)
        let seek = try #require(report.seeks.first)
        #expect(seek.toSeconds == 29.99 && seek.completedAt != nil)
    }

    /// A seek past the end is clamped to it and loads only the last segment (it used to reload the item
    /// from its first segment and skip every frame).
    @Test func aSeekPastTheEndLoadsOnlyTheLastSegment() async throws {
        let report = try await play(seekTo: 9999)
        #expect(report.finalStatus == .completed)
        #expect(abs(report.positionSeconds - 30) < 0.01)
        #expect(report.seeks.first?.toSeconds == 30)
        // Before the seek at 2 s: the first segment or two; after it: the last one alone.
        #expect(report.segmentsDownloaded <= 3, "\(report.segmentsDownloaded) segments")
        #expect(report.seeks.first?.completedAt != nil)
    }

    @Test func aStartPositionPastTheEndIsAnError() async throws {
        let report = try await play(start: 999)
        #expect(report.finalStatus == .error)
        #expect(report.error?.contains("the start position 999 s is at or past the item's end (30 s of content)") == true, "\(report.error ?? "")")
        #expect(report.segmentsDownloaded == 0)
        // Nothing was presented, and the report has the shape of one that played (it had {}).
        #expect(report.framesPresented == ["video": 0, "audio": 0])
        // The end itself: "outside 0 to 30 s" read wrong for 30, so the message names the end.
        let atEnd = try await play(start: 30)
        #expect(atEnd.error?.contains("the start position 30 s is at or past the item's end (30 s of content)") == true, "\(atEnd.error ?? "")")
    }

    @Test func aStartPositionInsideTheLastFrameSaysSo() async throws {
        let report = try await play(start: 29.99)
        #expect(report.finalStatus == .error)
        #expect(report.error?.contains("no video frame starts at or after the start position 29.99 s") == true, "\(report.error ?? "")")
    }

    /// A seek past the end asked for before the first play (autoplay off: seek, then play) completes at
    /// the end as it does once playback ran; it ended in error, "nothing to play".
    @Test func aSeekPastTheEndBeforeTheFirstPlayCompletes() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        var configuration = PlayerConfiguration()
        configuration.autoplay = false
        let player = MediaPlayer(url: server.url("/ts/v0/index.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)))
        player.seek(to: 1000)
        player.play()
        let report = await player.run(maxSessionSeconds: 60)
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.seeks.first?.completedAt != nil)
    }
}
