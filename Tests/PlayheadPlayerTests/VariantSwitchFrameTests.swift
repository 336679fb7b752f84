import PlayheadCore
import PlayheadOrigin
import Testing

/// Frames across ABR switches are the new rendition's own: in fMP4 each rendition's SPS/PPS live in
/// its initialization section, so the decoder must be opened again for it.
@Suite struct VariantSwitchFrameTests {
    static let ladder = [510_400, 950_400, 1_830_400, 3_370_400]

    @Test(arguments: ["fmp4", "ts"])
    func framesAfterASwitchAreTheNewRenditions(_ container: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/\(container)/master.m3u8")) { $0.hashFrames = true }
        #expect(run.report.finalStatus == .completed)
        #expect(run.report.damage.isEmpty, "\(run.report.damage)")
        // The rendition of each of the 8 segments, from the switches (the first has no media sequence).
        var rungs = [Int](repeating: 0, count: 8)
        for change in run.report.bitrateSwitches {
            let rung = try #require(Self.ladder.firstIndex(of: change.toBitsPerSecond))
            for segment in (change.mediaSequence ?? 0)..<8 { rungs[segment] = rung }
        }
        #expect(Set(rungs).count > 1, "no switch on a 50 Mbit/s link: \(rungs); the case tests nothing")
        var references: [Int: [String]] = [:]
        for rung in Set(rungs) { references[rung] = await PlayerFixtures.ffmpegHashes(server.url("/\(container)/v\(rung)/index.m3u8")) }
        let expected = (0..<900).map { references[rungs[$0 / 120]]?[$0] ?? "" }
        let video = run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        #expect(video.count == 900)
        let wrong = zip(video, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(wrong.count == 0, "\(wrong.count) frames differ from their rendition's, first at \(wrong.first ?? -1); rungs \(rungs)")
    }
}
