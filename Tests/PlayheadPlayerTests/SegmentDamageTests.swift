import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// Damage the demuxer meets inside a segment it can still read is in the report, as `frames` reports
/// it; `play` dropped it, so a corrupt segment played with frames missing and `damage` empty.
@Suite struct SegmentDamageTests {
    @Test func aCorruptSegmentIsReportedAsDamage() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.corrupt(seed: 3), forPath: "/ts/v0/seg003.ts")
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let damage = run.report.damage.filter { $0.contains("/ts/v0/seg003.ts: demuxer") }
        #expect(!damage.isEmpty, "\(run.report.damage)")
        #expect(run.report.notifications.contains { $0.name == "HLS_SEGMENT_ERROR" && $0.metadata["URL"]?.hasSuffix("seg003.ts") == true })
    }
}
