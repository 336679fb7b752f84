import PlayheadCore
import PlayheadOrigin
import Testing

/// Commands scheduled at playhead positions run when the playhead plays through their position, at
/// that moment; a position a start or a seek jumps over is not reached.
@Suite struct ScheduledCommandTests {
    static func statuses(_ report: PlaybackReport) -> [(PlayerStatus, Double)] { report.statuses.map { ($0.status, $0.playerTime) } }

    @Test func aPauseBeforeTheStartPositionIsNotReached() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.startSeconds = 13 },
                                                   scheduled: [.init(atPositionSeconds: 5, action: .pause(forSeconds: 2))])
        let statuses = Self.statuses(run.report)
        #expect(!statuses.contains { $0.0 == .paused }, "\(statuses)")
        #expect(statuses.allSatisfy { $0.1 >= 0 }, "no status is dated before the session: \(statuses)")
        #expect(run.report.finalStatus == .completed)
    }

    @Test func aPositionJumpedOverIsReachedAfterASeekBack() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), scheduled: [
            .init(atPositionSeconds: 3, action: .seek(toSeconds: 20)),
            .init(atPositionSeconds: 22, action: .seek(toSeconds: 10)),
            .init(atPositionSeconds: 12, action: .pause(forSeconds: 1)),  // jumped over at 3, reached after the seek back
        ])
        let statuses = Self.statuses(run.report)
        let times = statuses.map(\.1)
        #expect(times == times.sorted(), "statuses in time order: \(statuses)")
        let pauses = statuses.enumerated().filter { $0.element.0 == .paused }
        #expect(pauses.count == 1, "\(statuses)")
        if let pause = pauses.first, pause.offset + 1 < statuses.count {
            #expect(statuses[pause.offset + 1].0 == .playing)
            #expect(abs(statuses[pause.offset + 1].1 - pause.element.1 - 1) < 1e-6, "the pause lasts its second")
        }
        #expect(run.report.seeks.map(\.toSeconds) == [20, 10])
        // The second seek is requested when the playhead reaches 22 s: 2 s of play after landing at 20.
        let seeks = run.report.seeks
        if seeks.count == 2 { #expect(seeks[1].requestedAt > seeks[0].requestedAt + 1.9, "\(seeks)") }
        #expect(run.report.finalStatus == .completed)
    }
}

/// A start position holds back the frames before it of every kind, whatever order the container hands
/// them out in (fMP4 gives a segment's audio after its video).
@Suite struct StartPositionTests {
    @Test(arguments: ["ts", "fmp4"])
    func noAudioFromBeforeTheStartPosition(_ container: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/\(container)/v1/index.m3u8"), configure: { $0.startSeconds = 10 })
        #expect(run.report.framesPresented["video"] == 600)
        // 20 s of 48 kHz AAC in frames of 1024 samples: 937.5, so 938 at most (985 came on fMP4: 0.96 s too early).
        let audio = run.report.framesPresented["audio", default: 0]
        #expect((936...938).contains(audio), "\(audio) audio frames for 20 s")
    }

    /// A seek in the middle of a segment: the audio up to it was presented, then the audio from the
    /// target on. fMP4 gives a fragment's audio up to a second after its video; decoded in that order it
    /// came late, and the seek dropped the audio of the second before it (658 frames where 703 are due).
    @Test(arguments: ["ts", "fmp4"])
    func theAudioBeforeASeekIsPresented(_ container: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/\(container)/v1/index.m3u8"),
                                                   scheduled: [.init(atPositionSeconds: 5, action: .seek(toSeconds: 20))])
        #expect(run.report.framesPresented["video"] == 150 + 300)
        // 5 s, then 10 s from 20 s: 15 s of 48 kHz audio in 1024-sample frames, 703 give or take a frame at each end.
        let audio = run.report.framesPresented["audio", default: 0]
        #expect((701...706).contains(audio), "\(audio) audio frames for 15 s")
    }
}
