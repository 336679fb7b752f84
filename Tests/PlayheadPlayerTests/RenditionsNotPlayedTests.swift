import Foundation
import PlayheadCore
import Testing

/// Alternate video renditions (EXT-X-MEDIA TYPE=VIDEO with a URI) are not fetched; the report says so.
/// (Audio and subtitle renditions are played: AlternateAudioTests, SubtitleTests.)
@Suite struct RenditionsNotPlayedTests {
    func play(media: [String], audioGroup: String? = nil, videoGroup: String? = nil) async throws -> PlayerFixtures.Run {
        let folder = NSTemporaryDirectory() + "playhead-alt-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let variant = "file://" + PlayerFixtures.streams + "/ts/v0/index.m3u8"
        let text = ["#EXTM3U", "#EXT-X-VERSION:4"] + media
            + ["#EXT-X-STREAM-INF:BANDWIDTH=2000000" + (audioGroup.map { ",AUDIO=\"\($0)\"" } ?? "") + (videoGroup.map { ",VIDEO=\"\($0)\"" } ?? ""), variant]
        try text.joined(separator: "\n").write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        return await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.abr = nil }, maxSessionSeconds: 60)
    }

    @Test func aVideoGroupWithItsOwnPlaylistIsNamed() async throws {
        let run = try await play(media: [
            #"#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="vid",NAME="Angle 2",DEFAULT=YES,URI="angle2.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="other",NAME="Unused",URI="un.m3u8""#,
        ], videoGroup: "vid")
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.renditionsNotPlayed == [#"VIDEO "Angle 2" (group vid): angle2.m3u8"#], "\(run.report.renditionsNotPlayed ?? [])")
        #expect(run.eventLines.contains { $0.contains("renditionsNotPlayed") })
        #expect(run.report.framesPresented["video"] == 900)
    }

    @Test func renditionsWithoutAPlaylistAreNotListed() async throws {
        // A rendition without URI is in the variant's own stream (muxed audio): nothing is left out.
        let run = try await play(media: [#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",DEFAULT=YES"#], audioGroup: "aud")
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.renditionsNotPlayed == nil)
    }
}
