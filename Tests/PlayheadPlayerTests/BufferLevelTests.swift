import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// Buffer level per track (F6): each QoS sample gives the video and the audio buffered ahead of the playhead,
/// in seconds of demuxed media, beside the one figure of the master kind.
@Suite struct BufferLevelTests {
    /// Muxed TS: both tracks are buffered, each within a frame or two of the master level; an audio-only
    /// rendition has no video level.
    @Test func samplesGiveEachTracksLevel() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let muxed = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.abr = nil; $0.mode = .demux })
        #expect(muxed.report.finalStatus == .completed)
        let buffered = muxed.report.samples.filter { $0.bufferLengthSeconds > 1 }
        try #require(buffered.count > 5)
        for sample in buffered {
            let video = try #require(sample.videoBufferSeconds), audio = try #require(sample.audioBufferSeconds)
            #expect(abs(video - sample.bufferLengthSeconds) < 1e-6, "the master kind's level is the video's")
            #expect(abs(audio - video) < 0.2, "\(audio) against \(video)")
        }
        let audioOnly = await PlayerFixtures.playVirtual(server.url("/audioonly/ts/index.m3u8"), configure: { $0.abr = nil; $0.mode = .demux })
        let levels = audioOnly.report.samples.filter { $0.bufferLengthSeconds > 1 }
        #expect(!levels.isEmpty && levels.allSatisfy { $0.videoBufferSeconds == nil && abs(($0.audioBufferSeconds ?? -1) - $0.bufferLengthSeconds) < 1e-6 })
        // A video-only variant with an alternate audio rendition: the rendition's audio, joined, is the audio level.
        let alternate = await PlayerFixtures.playVirtual(server.url("/altaudio/ts-master.m3u8"), configure: { $0.abr = nil; $0.mode = .demux })
        #expect(alternate.report.samples.contains { ($0.audioBufferSeconds ?? 0) > 1 && ($0.videoBufferSeconds ?? 0) > 1 })
    }
}
