import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// A variant whose media playlist cannot be loaded is left out of ABR decisions for a while; playback
/// goes on on the rung it has.
@Suite struct VariantFailureTests {
    @Test func aMissingVariantIsLeftOutAndPlaybackGoesOn() async throws {
        let media = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { media.stop() }
        let folder = NSTemporaryDirectory() + "playhead-variant-404-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let masters = try LoopbackHTTPServer(root: folder)
        defer { masters.stop() }
        let master = ["#EXTM3U",
                      "#EXT-X-STREAM-INF:BANDWIDTH=3000000", masters.url("/missing/index.m3u8"),
                      "#EXT-X-STREAM-INF:BANDWIDTH=950400", media.url("/ts/v1/index.m3u8")].joined(separator: "\n")
        try master.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual(masters.url("/master.m3u8"), configure: { $0.abr = ABRSettings() },
                                                   link: PlayerFixtures.link(megabits: 20), maxSessionSeconds: 120)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 900)
        let failures = run.report.notifications.filter { $0.code == NotificationCode.networkError }
        #expect(failures.count == 1, "the missing playlist is asked for once in 60 s, not at every decision: \(failures.count)")
    }
}
