import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// A seek asked for before the first play (autoplay off) past a pre-roll and a mid-roll of the cue
/// stream (10 s ads at content 0 and 10 s).
@Suite struct SeekBeforePlayBreakTests {
    /// The report lists only the breaks that played: the one the seek plays (the PSDK default plays
    /// the last break it passes over), not an empty record for a pre-roll whose loading the seek cut
    /// short (QA found `{"breakId": "preroll", "adMediaURLs": []}` with no frame at all).
    @Test func aBreakTheSeekLeftBeforeAnyFrameIsNotReported() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = server.url("/cues/ts/master.m3u8")
        let map = AdMap(breaks: [0, 10].map { AdMap.Entry(time: $0, cueId: "at-\(Int($0))", ads: [.init(url: "../ad/master.m3u8", duration: 10, id: nil)]) })
        var configuration = PlayerConfiguration()
        configuration.autoplay = false
        configuration.externallyControlled = true
        configuration.mode = .demux
        let factory = MediaPlayerClientFactory()
        factory.register(resolver: AdMapResolver(map: try map.resolvingURLs(against: url)))
        configuration.ads = AdSettings(factory: factory)
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)))
        // As the daemon does: once the session waits at ready (the pre-roll already loading), seek, then play.
        let task = Task.detached {
            await ExternalControlTests.whenWaiting(player)
            player.seek(to: 35)
            player.play()
        }
        let report = await player.run(maxSessionSeconds: 120)
        await task.value
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        for record in report.adBoundaries {
            #expect(record.firstAd != nil, "\(record.breakId): a boundary without an ad frame")
        }
        #expect(Set(report.adBoundaries.map(\.breakId)).count == report.adBoundaries.count)
    }

    /// Plays the 30 s content (2 s segments, 30 fps) from `start` with one 10 s break at `time`, on the virtual clock.
    private func playWithOneBreak(at time: Double, start: Double, scheduled: [ScheduledCommand] = []) async throws -> PlayerFixtures.Run {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/vod.m3u8")
        let map = AdMap(breaks: [AdMap.Entry(time: time, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "ad")])])
        return await PlayerFixtures.playVirtual(url, configure: { configuration in
            configuration.mode = .demux
            configuration.startSeconds = start
            configuration.ads = PlayerFixtures.ads(map, for: url)
        }, scheduled: scheduled)
    }

    /// `--start` inside the first content segment (2 s segments; 1.5 s and 0.5 s) plays no pre-roll: it played the
    /// pre-roll from 1.5 s into the ad, then the content from 0. From 2.5 s (the next segment) it was already right.
    @Test(arguments: [0.5, 1.5, 2.5])
    func aStartInsideTheFirstSegmentPlaysNoPreroll(start: Double) async throws {
        let run = try await playWithOneBreak(at: 0, start: start)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.adBoundaries.isEmpty, "\(run.report.adBoundaries.map(\.breakId))")
        #expect(!run.eventLines.contains { $0.contains("adBreakStarted") })
        // The content from the start on, and nothing else: 30 s at 30 fps, less the frames before the start.
        #expect(run.report.framesPresented["video"] == 900 - Int((start * 30).rounded(.up)), "\(run.report.framesPresented)")
    }

    /// `--start 12` past a 10 s break at 10 s (not played) starts at timeline 22, where content 12 is: a seek from
    /// 24 to 25 on the playback timeline goes 1 s forward (it ran on content seconds, so it went 9 s back).
    @Test func aStartPastABreakCountsItOnThePlaybackTimeline() async throws {
        let run = try await playWithOneBreak(at: 10, start: 12, scheduled: [.init(atPositionSeconds: 24, action: .seek(toSeconds: 25))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.adBoundaries.isEmpty)
        let seek = try #require(run.report.seeks.first)
        #expect(abs(seek.fromSeconds - 24) < 0.05 && seek.toSeconds == 25, "\(seek)")
        // Content 12 to 14, then 15 to 30.
        #expect(run.report.framesPresented["video"] == 60 + 450, "\(run.report.framesPresented)")
    }

    /// `--start` a millisecond or less into the first segment is its start: the pre-roll plays, then every content
    /// frame. It played the pre-roll (its cue was not passed) and then dropped the content's first frame.
    @Test(arguments: [0.0005, 0.001])
    func aStartWithinAMillisecondOfTheFirstSegmentIsItsStart(start: Double) async throws {
        let run = try await playWithOneBreak(at: 0, start: start)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let boundary = try #require(run.report.adBoundaries.first)
        #expect(boundary.firstContentAfter?.sourceSeconds == 0, "\(String(describing: boundary.firstContentAfter))")
        // The 10 s ad and the 30 s content at 30 fps, every frame.
        #expect(run.report.framesPresented["video"] == 300 + 900, "\(run.report.framesPresented)")
    }
}
