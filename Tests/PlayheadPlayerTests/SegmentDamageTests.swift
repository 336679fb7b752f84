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

/// A session ended by a failure that is a warning in the guide's catalogue (NETWORK_ERROR: a 500, a
/// timeout) ends with an error-typed notification, PLAYBACK_ERROR, the warning nested inside; the
/// `error` event was typed WARN.
@Suite struct SessionErrorTypeTests {
    @Test func aSessionEndedByAWarningEndsWithPlaybackError() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(500), forPath: "/ts/v0/seg000.ts")
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .error)
        #expect((run.report.error ?? "").contains("HTTP 500"), "\(run.report.error ?? "")")
        let ended = run.events.compactMap { if case let .error(notification) = $0.kind { return notification } else { return nil } }
        #expect(ended.count == 1)
        #expect(ended.first?.type == .error && ended.first?.name == "PLAYBACK_ERROR")
        #expect(ended.first?.innerNotification?.name == "NETWORK_ERROR")
    }
}

/// Damage the decoders find (frames decoded with concealed errors after a segment cut short) is in
/// the report too, naming the segment; `play` reported only what the demuxer found.
@Suite struct DecodeDamageTests {
    @Test func concealedErrorsAreReportedAsDamage() async throws {
        let folder = NSTemporaryDirectory() + "playhead-short-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/ts/v1", toPath: folder + "/v1")
        // An honest truncation: the file itself is short (its Content-Length matches).
        let cut = folder + "/v1/seg003.ts"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        try bytes.prefix(200_003).write(to: URL(fileURLWithPath: cut))
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/v1/index.m3u8"))
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        // The concealed frame is seg003's, though the decoder hands it out while seg004 goes in (it was
        // blamed on seg004).
        let decoderDamage = run.report.damage.filter { $0.contains("video decoder") }
        #expect(!decoderDamage.isEmpty && decoderDamage.allSatisfy { $0.contains("/v1/seg003.ts") }, "\(run.report.damage)")
        // The frame's timestamp as the segment carries it (seg003 holds 12–16 s of media, 1.4 s after a 0 start):
        // libavformat's unwrapping put 2^33 on it, and a user searching the segment for it found nothing.
        for entry in decoderDamage {
            let pts = try #require(entry.components(separatedBy: "frame at pts ").last?.split(separator: " ").first.flatMap { Int64($0) }, "\(entry)")
            #expect((12 * 90_000...18 * 90_000).contains(pts), "\(entry)")
        }
    }

    /// An fMP4 segment cut short: its damage is said once, not once per packet the demuxer gave up on
    /// (16 identical entries and notifications).
    @Test func damageIsSaidOncePerSegment() async throws {
        let folder = NSTemporaryDirectory() + "playhead-short-fmp4-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/fmp4/v1", toPath: folder + "/v1")
        let cut = folder + "/v1/seg003.m4s"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/v1/index.m3u8"))
        #expect(!run.report.damage.isEmpty)
        #expect(Set(run.report.damage).count == run.report.damage.count, "\(run.report.damage)")
    }
}
