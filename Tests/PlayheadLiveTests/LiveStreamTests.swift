import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadTestFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tracker against a real live playlist that ffmpeg writes in real time (`scripts/make-live-stream`).
///
/// This is the one test that waits for wall-clock time, because ffmpeg produces the stream at real-time
/// speed: about 6 s for the stream plus ffmpeg's start-up.
@Suite struct LiveStreamTests {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the script and returns ffmpeg's PID.
    static func startStream(in directory: URL, seconds: Int) throws -> Int32 {
        let process = TestProcess()
        process.executableURL = repoRoot.appendingPathComponent("scripts/make-live-stream")
        process.arguments = [directory.path, String(seconds)]
        let output = Pipe()
        process.standardOutput = output
        try ChildProcess.launch(process)
        process.waitUntilExit()
        // The script closes the descriptors it passes to ffmpeg, so end of file comes when it exits.
        let text = String(decoding: ChildProcess.readToEnd(output.fileHandleForReading), as: UTF8.self)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), "the script prints a PID")
    }

    @Test(.timeLimit(.minutes(1))) func reloadingFFmpegsLivePlaylistEverySecond() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pid = try Self.startStream(in: directory, seconds: 6)
        defer { if kill(pid, 0) == 0 { kill(pid, SIGTERM) } }
        let playlistURL = directory.appendingPathComponent("index.m3u8")

        let clock = ContinuousClock()
        let began = clock.now
        func elapsedSeconds() -> Double {
            let duration = began.duration(to: clock.now)
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
        var tracker: LivePlaylistTracker?
        var sawLive = false
        var endListAdded = false
        var newSequences: [Int] = []
        while elapsedSeconds() < 30, !(tracker?.endListSeen ?? false) {
            try await Task.sleep(for: .seconds(1))
            guard let data = try? Data(contentsOf: playlistURL),
                  let playlist = try? Playlist.parse(data: Array(data)).playlist.media else { continue }
            let now = elapsedSeconds()
            if var known = tracker {
                let update = known.update(with: playlist, loadedAt: now)
                #expect(update.warnings.isEmpty, "\(update.warnings)")
                newSequences += update.newSegments
                endListAdded = endListAdded || update.endListAdded
                tracker = known
            } else {
                tracker = LivePlaylistTracker(first: playlist, loadedAt: now)
                newSequences = playlist.segments.map(\.mediaSequence)
            }
            if let tracker, tracker.isLive {
                sawLive = true
                #expect(tracker.nextReloadTime() != nil)
            }
        }
        let final = try #require(tracker, "ffmpeg wrote a playlist")
        #expect(sawLive, "the playlist was seen before it ended")
        #expect(final.endListSeen && endListAdded, "ENDLIST arrived on a reload when ffmpeg finished")
        #expect(final.nextReloadTime() == nil)
        #expect(newSequences == Array(0..<newSequences.count), "segments merged in media-sequence order")
        #expect(newSequences.count >= 3)
        let segments = final.segments
        #expect(segments.first?.startSeconds == 0)
        for (previous, next) in zip(segments, segments.dropFirst()) {
            #expect(next.mediaSequence == previous.mediaSequence + 1)
            #expect(abs(next.startSeconds - previous.endSeconds) < 1e-9, "content starts are continuous")
        }
        #expect(final.liveEdgeSeconds > 5 && final.liveEdgeSeconds < 7)
    }
}
