import Foundation
@testable import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Audio-only renditions (/audioonly: the ladder's AAC alone, 30 s) play with audio as the master kind, and
/// a ladder that lists one beside video variants plays the video ones.
@Suite struct AudioOnlyTests {
    /// Every audio frame presented, as FFmpeg decodes it; the session completes at the audio's end. It
    /// ended in error: "gave no video".
    @Test(arguments: ["/audioonly/ts/index.m3u8", "/audioonly/fmp4/index.m3u8"], [DecodeMode.decode, .demux])
    func anAudioOnlyRenditionPlays(path: String, mode: DecodeMode) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url(path)
        let reference = await ChildProcess.ffmpegHashes(url, map: "0:a")
        try #require(reference.count > 1000)
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.mode = mode; $0.hashFrames = mode == .decode })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video", default: 0] == 0)
        #expect(run.report.framesPresented["audio"] == reference.count)
        if mode == .decode { #expect(run.presented.filter { $0.kind == .audio }.map { $0.md5 ?? "" } == reference) }
        let frameSeconds = 1024.0 / 48000
        #expect(abs(run.report.positionSeconds - Double(reference.count) * frameSeconds) < 1e-6, "\(run.report.positionSeconds)")
        #expect(abs(run.report.mediaSeconds - Double(reference.count) * frameSeconds) < 1e-6, "\(run.report.mediaSeconds)")
        #expect(run.report.rebuffers.isEmpty)
        #expect(mediaTypes(run) == ["audio"])
    }

    /// Brightcove's determinedMediaType, once per session unless a later segment changes it.
    func mediaTypes(_ run: PlayerFixtures.Run) -> [String] {
        run.events.compactMap { if case let .custom("determinedMediaType", payload) = $0.kind { payload["mediaType"] } else { nil } }
    }

    /// The audio-only variant is listed first and is the lowest: ABR starts on a video variant, never the
    /// audio-only one, and says it left it out. It started there and the session failed.
    @Test func abrLeavesAnAudioOnlyVariantOut() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/audioonly/master.m3u8"), configure: { $0.mode = .demux; $0.abr?.controls.initialBitsPerSecond = 0 })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(!run.report.bitrateSwitches.isEmpty && run.report.bitrateSwitches.allSatisfy { $0.toBitsPerSecond != 70400 })
        #expect(run.report.framesPresented["video"] == 900)
        #expect(run.eventLines.contains { $0.contains("audioOnlyVariantsLeftOut") && $0.contains("audioonly/ts/index.m3u8") })
        #expect(mediaTypes(run) == ["audioVideo"])
    }

    /// check-ads checks video frames: on audio-only content it says so and stops (it judged audio frames as
    /// pictures, every break NOT EXACT with hashes "DIFFERENT").
    @Test func checkAdsRefusesAudioOnlyContent() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [AdMap.Entry(time: 8, cueId: nil, ads: [.init(url: "../../cues/ad/v1/index.m3u8", duration: 10, id: nil)])])
        do {
            _ = try await AdBoundaryChecker(client: client).check(url: server.url("/audioonly/ts/index.m3u8"), adMap: map, live: false)
            Issue.record("check-ads should refuse audio-only content")
        } catch {
            #expect("\(error)".contains("audio and no video"), "\(error)")
        }
    }

    /// Without ABR, the first variant and a bandwidth cap choose among the video variants; by index the
    /// audio-only one is still there to ask for.
    @Test func variantChoicesSkipAudioOnlyUnlessNamed() throws {
        let text = try String(contentsOfFile: PlayerFixtures.streams + "/audioonly/master.m3u8", encoding: .utf8)
        guard case let .multivariant(playlist) = try Playlist.parse(text).playlist else { throw CocoaError(.fileReadCorruptFile) }
        #expect(playlist.variants.map(\.isAudioOnly) == [true, false, false])
        #expect(try VariantChoice.first.pick(from: playlist.variants, url: "u") == 1)
        #expect(try VariantChoice.bandwidth(100_000).pick(from: playlist.variants, url: "u") == 1)
        #expect(try VariantChoice.bandwidth(600_000).pick(from: playlist.variants, url: "u") == 1)
        #expect(try VariantChoice.index(0).pick(from: playlist.variants, url: "u") == 0)
    }
}
