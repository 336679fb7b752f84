import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// A session steered from outside (the daemon) on the virtual clock: paused, or ready without
/// autoplay, it waits for the next command with its clock stopped. A paused session used to run its
/// clock on by a second a turn (about 700 000 session seconds per wall second, a sample each), and one
/// without autoplay ended in error before a `play` could come.
@Suite struct ExternalControlTests {
    /// Plays the 30 s TS rendition in demux mode; `react` sees every event and may steer the player.
    func run(autoplay: Bool, react: @escaping @Sendable (MediaPlayer, PlayerEvent) -> Void) async throws -> PlaybackReport {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.autoplay = autoplay
        configuration.externallyControlled = true
        let client = HTTPClient()
        defer { client.shutdown() }
        let player = MediaPlayer(url: server.url("/ts/v0/index.m3u8"), configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)))
        let subscription = player.bus.subscribe { [player] event in react(player, event) }
        defer { subscription.cancel() }
        return await player.run()
    }

    /// Returns once the loop waits for a command, or once its clock has run 100 s past where it
    /// stood (what a waiting session must not do), or when it ended; then the test sends its command,
    /// as the daemon's API does, from another task.
    static func whenWaiting(_ player: MediaPlayer) async {
        let start = player.playbackInformation?.playerTime ?? 0
        while !player.isWaitingForCommand, [.completed, .error, .stopped].contains(player.status) == false,
              (player.playbackInformation?.playerTime ?? 0) < start + 100 {
            await Task.yield()
        }
    }

    @Test func aPausedSessionWaitsWithItsClockStopped() async throws {
        let pausedOnce = LockedBox(false)
        let report = try await run(autoplay: true) { player, event in
            guard case let .statusChanged(_, to) = event.kind else { return }
            if to == .playing, !pausedOnce.get() {
                pausedOnce.set(true)
                player.pause()
            } else if to == .paused {
                Task.detached { await Self.whenWaiting(player); player.play() }
            }
        }
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.statuses.map(\.status).contains(.paused))
        // 30 s of media from a fast link: the pause adds no session time.
        #expect(report.sessionSeconds < 31, "\(report.sessionSeconds)")
    }

    @Test func aSessionWithoutAutoplayWaitsForPlay() async throws {
        let report = try await run(autoplay: false) { player, event in
            guard case let .statusChanged(_, to) = event.kind, to == .ready else { return }
            Task.detached { await Self.whenWaiting(player); player.play() }
        }
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.sessionSeconds < 31, "\(report.sessionSeconds)")
    }
}
