import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// Seeks inside the media already fetched play from the buffer: nothing is fetched again, and the frames
/// are FFmpeg's, as after a seek that fetches (/ts/v0 and /fmp4/v1: 30 s at 30 fps, eight segments).
@Suite struct SeekInBufferTests {
    func play(_ path: String, at position: Double, to target: Double,
              configure: @escaping (inout PlayerConfiguration) -> Void = { _ in }) async throws -> (PlayerFixtures.Run, [String]) {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url(path)
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.hashFrames = true; configure(&$0) },
                                                   scheduled: [.init(atPositionSeconds: position, action: .seek(toSeconds: target))])
        return (run, await PlayerFixtures.ffmpegHashes(url))
    }

    /// Back 5 s, into the back buffer: the frames from 5.1333 s (frame 154) on are decoded again from the
    /// segment's packets kept there. It used to fetch the segments from 4 s again.
    @Test(arguments: ["/ts/v0/index.m3u8", "/fmp4/v1/index.m3u8"])
    func aSeekBackIntoTheBackBufferFetchesNothing(path: String) async throws {
        let (run, reference) = try await play(path, at: 10, to: 5.12)
        let video = run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        #expect(video.count == 300 + (900 - 154))
        #expect(Array(video[..<300]) == Array(reference[..<300]))
        #expect(Array(video[300...]) == Array(reference[154...]), "after the seek: frame 154 on")
        let seek = try #require(run.report.seeks.first)
        #expect(seek.fromBuffer == true)
        #expect(abs((seek.firstFrameSeconds ?? 0) - 154.0 / 30) < 0.001)
        #expect(run.report.segmentsDownloaded == 8, "each segment once")
        #expect(run.report.finalStatus == .completed)
    }

    /// Forward into media demuxed but not yet played.
    @Test func aSeekForwardInsideTheForwardBufferFetchesNothing() async throws {
        let (run, reference) = try await play("/ts/v0/index.m3u8", at: 3, to: 12.34) { $0.buffer.minimumSeconds = 20 }
        let video = run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        #expect(video.count == 90 + (900 - 371))
        #expect(Array(video[90...]) == Array(reference[371...]))
        #expect(run.report.seeks.first?.fromBuffer == true)
        #expect(run.report.segmentsDownloaded == 8)
    }

    /// Without a back buffer the segment is gone: the seek fetches from the segment holding the target.
    @Test func aSeekBackPastTheBackBufferFetchesAgain() async throws {
        let (run, reference) = try await play("/ts/v0/index.m3u8", at: 10, to: 5.12) { $0.buffer.backBufferSeconds = 0 }
        let video = run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        #expect(Array(video[300...]) == Array(reference[154...]))
        #expect(run.report.seeks.first?.fromBuffer == false)
        #expect(run.report.segmentsDownloaded > 8)
    }
}
