import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// Playback on the real clock: rate, and a live sliding window written by ffmpeg in real time.
@Suite struct RealClockTests {
    /// Plays `url` on the real clock.
    func playReal(_ url: String, rate: Double = 1, maxSessionSeconds: Double? = nil) async -> (PlaybackReport, [PlayerEvent]) {
        MediaLog.level = .quiet
        var configuration = PlayerConfiguration()
        configuration.rate = rate
        let client = HTTPClient()
        defer { client.shutdown() }
        let player = MediaPlayer(url: url, configuration: configuration, driver: RealTimeDriver(),
                                 network: LiveNetwork(client: client))
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        let report = await player.run(maxSessionSeconds: maxSessionSeconds)
        subscription.cancel()
        return (report, collected.events)
    }

    @Test func rateTwoPlaysTenSecondsOfMediaInAboutFive() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let (report, _) = await playReal(server.url("/ts/v0/index.m3u8"), rate: 2, maxSessionSeconds: 5)
        #expect(report.finalStatus == .stopped)
        let started = try #require(report.playbackInformation?.timeToFirstFrameSeconds)
        // Media advanced twice as fast as the session clock once playback started.
        let ratio = report.positionSeconds / (report.sessionSeconds - started)
        #expect(abs(ratio - 2) < 0.1, "position \(report.positionSeconds) s in \(report.sessionSeconds) s")
        #expect(report.positionSeconds > 9 && report.positionSeconds <= 10.1)
    }

    @Test func commandsFromAnotherTaskReplaceTheItemAndStop() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let player = MediaPlayer(url: server.url("/ts/v0/index.m3u8"), driver: RealTimeDriver(), network: LiveNetwork(client: client))
        let collected = Collected()
        let subscription = player.bus.subscribe { collected.append($0) }
        let session = Task { await player.run(maxSessionSeconds: 30) }
        while player.status != .playing || player.currentTime < 0.5 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(player.isLive == false)
        #expect(player.duration.map { abs($0 - 30) < 0.01 } == true)
        #expect(player.seekableRange?.upperBound == player.duration)
        player.replaceItem(url: server.url("/fps25/index.m3u8"))
        while collected.events.filter({ if case .itemChanged = $0.kind { return true } else { return false } }).count < 2 || player.currentTime < 0.5 || player.status != .playing {
            try await Task.sleep(for: .milliseconds(20))
        }
        player.pause()
        while player.status != .paused { try await Task.sleep(for: .milliseconds(20)) }
        player.stop()
        let report = await session.value
        subscription.cancel()
        #expect(report.url == server.url("/fps25/index.m3u8"))
        #expect(report.statuses.map(\.status) == [.initializing, .initialized, .ready, .playing, .initializing, .initialized, .ready, .playing, .paused, .stopped])
        #expect(report.finalStatus == .stopped)
    }

    /// ffmpeg writes a live sliding window in real time; Playhead plays it for about a minute until
    /// ffmpeg ends the stream with EXT-X-ENDLIST. This test takes about 65 s of wall-clock time.
    @Test(.timeLimit(.minutes(3))) func liveSlidingWindowPlaysToTheEndList() async throws {
        let folder = NSTemporaryDirectory() + "playhead-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = PlayerFixtures.repoRoot.appendingPathComponent("scripts/make-live-stream").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [folder + "/live", "60"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let playlist = folder + "/live/index.m3u8"
        // Wait for ffmpeg's first playlist (it writes in real time; this is the only wall-clock wait).
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: playlist) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }

        let (report, events) = await playReal(server.url("/live/index.m3u8"), maxSessionSeconds: 120)
        #expect(report.isLive)
        #expect(report.finalStatus == .completed, "ENDLIST ends playback: \(report.error ?? "")")
        #expect(report.rebuffers.isEmpty, "\(report.rebuffers)")
        #expect(report.sessionSeconds > 50)
        // Reloads follow RFC 8216 6.3.4: a target duration (2 s) after a changed playlist, half after an unchanged one.
        var reloadTimes: [(time: Double, changed: Bool)] = []
        for event in events {
            if case let .playlistLoaded(_, _, changed) = event.kind { reloadTimes.append((event.playerTime, changed)) }
        }
        #expect(reloadTimes.count >= 20)
        for (previous, next) in zip(reloadTimes, reloadTimes.dropFirst()) {
            let expected = previous.changed ? 2.0 : 1.0
            let gap = next.time - previous.time
            #expect(gap >= expected - 0.05 && gap < expected + 0.5, "reload gap \(gap) s after a \(previous.changed ? "changed" : "unchanged") playlist")
        }
        // Distance to the live edge: reported, and within 3 target durations plus 1 s.
        let distance = try #require(report.maxLiveEdgeDistanceSeconds)
        #expect(distance > 0 && distance <= 3 * 2 + 1)
        #expect(report.framesDropped < 10)
    }
}
