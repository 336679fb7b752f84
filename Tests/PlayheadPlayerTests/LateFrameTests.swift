import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// A real-clock session that loses the CPU for a moment (a stopped process, a busy virtual machine):
/// the frames due meanwhile are late and dropped, and presentation catches up at once.
@Suite struct LateFrameTests {
    /// Session time as the virtual clock's, except that at `at` it jumps `seconds` ahead, as the wall
    /// clock does when the process is not scheduled. It reports itself as the real clock, so the
    /// player measures lateness and drops late frames, yet runs deterministically.
    final class HiccupDriver: SessionDriver, @unchecked Sendable {
        let inner = VirtualTimeDriver()
        let at: Double
        let seconds: Double

        init(at: Double, seconds: Double) {
            self.at = at
            self.seconds = seconds
        }

        var now: Double {
            let time = inner.now
            return time >= at ? time + seconds : time
        }
        var isVirtual: Bool { false }
        func start(_ id: Int, _ work: @escaping @Sendable (Double) async -> TransferResult) async { await inner.start(id, work) }
        func wait(until deadline: Double?) async -> [(id: Int, result: TransferResult)] {
            // A session deadline inside the jump is reached when the jump happens.
            let innerDeadline = deadline.map { $0 < at ? $0 : max(at, $0 - seconds) }
            return await inner.wait(until: innerDeadline)
        }
        func cancel(_ id: Int) { inner.cancel(id) }
        func wake() { inner.wake() }
        func advance(by seconds: Double) { inner.advance(by: seconds) }
    }

    func play(hiccupAt: Double, seconds: Double) async throws -> PlaybackReport {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let player = MediaPlayer(url: server.url("/ts/v0/index.m3u8"), driver: HiccupDriver(at: hiccupAt, seconds: seconds),
                                 network: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)))
        return await player.run(maxSessionSeconds: 90)
    }

    /// Half a second lost at 10 s: the ~14 frames due in it (less the 50 ms allowance) are dropped and
    /// every later frame is presented on time, so the item still ends 30 s after the first frame, the
    /// clock having run on through the hiccup. (Before, a drop did not decode the next frame until the
    /// next once-a-second wake-up, so every later frame was late too: one frame a second to the end.)
    @Test func aHalfSecondHiccupDropsOnlyTheFramesDueInIt() async throws {
        let report = try await play(hiccupAt: 10, seconds: 0.5)
        #expect(report.finalStatus == .completed)
        let presented = report.framesPresented["video", default: 0]
        #expect(presented + report.framesDropped == 900, "every frame is presented or dropped once")
        #expect(report.framesDropped >= 12 && report.framesDropped <= 16, "\(report.framesDropped) frames dropped")
        #expect(report.rebuffers.isEmpty)
        let started = try #require(report.playbackInformation?.timeToFirstFrameSeconds)
        #expect(abs(report.sessionSeconds - (started + 30)) < 0.1, "ended at \(report.sessionSeconds) s")
    }

    /// Without a hiccup nothing is dropped: the drops above come from the hiccup alone.
    @Test func withoutAHiccupNothingIsDropped() async throws {
        let report = try await play(hiccupAt: .infinity, seconds: 0)
        #expect(report.finalStatus == .completed)
        #expect(report.framesDropped == 0)
        #expect(report.framesPresented["video", default: 0] == 900)
    }
}
