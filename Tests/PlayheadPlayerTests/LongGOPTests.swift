import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadOrigin
import Testing

/// Long GOPs cut into short segments (/longgop: 12 s at 30 fps, keyframes at 0, 5 and 10 s, 2 s segments
/// cut by time, so segments 1–4 begin without a keyframe). After a seek, a start position or a break, the
/// decoder starts in an earlier segment that holds a keyframe, and the frames shown from the target on are
/// FFmpeg's. Decoding from the wanted segment alone showed nothing until the next keyframe (H.264: 7.3 s →
/// 10 s, the check-ads resume 3 s late) or damaged pictures (HEVC).
@Suite struct LongGOPTests {
    func reference(_ path: String) async throws -> (LoopbackHTTPServer, String, [String]) {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        let url = server.url(path)
        let reference = await PlayerFixtures.ffmpegHashes(url)
        try #require(reference.count == 360)
        return (server, url, reference)
    }

    func video(_ run: PlayerFixtures.Run) -> [String] { run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" } }

    /// A seek from 1 s to 7.3 s, into segment 3 (6.07–8.07 s): segment 2, with the keyframe at 5 s, is
    /// fetched and decoded first; the first frame shown is frame 219 (7.3 s).
    @Test(arguments: ["/longgop/ts/index.m3u8", "/longgop/fmp4/index.m3u8"])
    func aSeekIntoASegmentWithoutAKeyframeDecodesFromTheKeyframeBefore(path: String) async throws {
        let (server, url, reference) = try await reference(path)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(url, configure: {
            $0.hashFrames = true
            $0.buffer.maximumSeconds = 2
        },
                                                   scheduled: [.init(atPositionSeconds: 1, action: .seek(toSeconds: 7.3))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let shown = video(run)
        #expect(shown.count == 30 + (360 - 219))
        #expect(Array(shown.prefix(30)) == Array(reference.prefix(30)))
        #expect(Array(shown.dropFirst(30)) == Array(reference[219...]), "from 7.3 s on, every frame FFmpeg's")
        let seek = try #require(run.report.seeks.first)
        #expect(seek.fromBuffer == false && abs((seek.firstFrameSeconds ?? 0) - 7.3) < 1e-3)
        #expect(run.eventLines.contains { $0.contains("prerollStarted") && $0.contains("\"mediaSequence\":\"3\"") && $0.contains("\"fetching\":\"2\"") })
        #expect(run.report.damage.isEmpty && run.report.rebuffers.isEmpty)
    }

    /// The drift line counts every frame: a segment's last packets (B-frames reordered, or the last sample
    /// of an fMP4 fragment) come without a duration, and each segment's media ended a frame early (11.9 s
    /// of media for 12 s of frames).
    @Test(arguments: ["/longgop/ts/index.m3u8", "/audioonly/fmp4/index.m3u8"])
    func mediaSecondsCountEveryFramesDuration(path: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url(path), configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed)
        #expect(abs(run.report.mediaSeconds - run.report.positionSeconds) < 1e-6, "\(run.report.mediaSeconds) \(run.report.positionSeconds)")
    }

    /// A seek back into a segment held only as a preroll (segment 2, 4.0–6.07 s, keyframe at 5 s; nothing
    /// before it is held): it fetches and prerolls from the keyframe at 0 s, and the first frame is at 4.5 s.
    /// Restarted in the buffer, it began at segment 2's keyframe, 5 s, half a second late.
    @Test func aSeekIntoAHeldPrerollSegmentWithoutItsKeyframeFetches() async throws {
        let (server, url, reference) = try await reference("/longgop/ts/index.m3u8")
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.hashFrames = true; $0.buffer.maximumSeconds = 2 },
                                                   scheduled: [.init(atPositionSeconds: 1, action: .seek(toSeconds: 7.3)),
                                                               .init(atPositionSeconds: 7.5, action: .seek(toSeconds: 4.5))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.seeks.count == 2)
        let back = try #require(run.report.seeks.last)
        #expect(back.fromBuffer == false && abs((back.firstFrameSeconds ?? 0) - 4.5) < 1e-3, "\(back)")
        #expect(Array(video(run).suffix(360 - 135)) == Array(reference[135...]))
        #expect(run.report.damage.isEmpty)
    }

    /// Every decoded frame has its duration: a frame's packet left without one (the last of an fMP4 fragment,
    /// B-frames at a cut) gets the stream's common duration, one frame, never two.
    @Test(arguments: ["/longgop/fmp4/index.m3u8", "/longgop/ts/index.m3u8"])
    func everyFrameLastsOneFrame(path: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url(path), configure: { $0.hashFrames = true })
        let durations = run.presented.filter { $0.kind == .video }.map(\.durationSeconds)
        #expect(durations.count == 360)
        #expect(durations.allSatisfy { abs($0 - 1.0 / 30) < 1e-9 }, "\(Set(durations))")
    }

    /// A start position inside segment 3: every frame from there on is FFmpeg's, none damaged, none
    /// missing. In TS the first is frame 219 (7.3 s), as after a seek: the timeline is pinned at the
    /// segment's first picture in decode order, where the packager cut it, not at the B-frames from before
    /// the cut it also carries (it began at frame 216, 7.2 s). In fMP4 it still begins at 216: there the
    /// fragment's first sample is also its earliest, and the listed start sits two frames after it.
    @Test(arguments: [("/longgop/ts/index.m3u8", 219...219), ("/longgop/fmp4/index.m3u8", 216...219)])
    func aStartPositionInASegmentWithoutAKeyframe(path: String, first expected: ClosedRange<Int>) async throws {
        let (server, url, reference) = try await reference(path)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.hashFrames = true; $0.startSeconds = 7.3 })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let shown = video(run)
        let first = try #require(shown.first.flatMap { reference.firstIndex(of: $0) })
        #expect(expected.contains(first), "first frame \(first)")
        #expect(shown == Array(reference[first...]), "every frame from the first on, FFmpeg's")
    }

    /// ABR on a long-GOP ladder (longgop/{ts,fmp4}-master.m3u8: 320x180 and 640x360, cut alike): slow for
    /// 5 s, then fast, so it climbs to the 640x360 rung at a segment that begins between keyframes. That
    /// rung's segment before is decoded first: every frame shown is one of FFmpeg's frames of the rung it
    /// came from, 360 in all, with no damage. TS showed damaged pictures after the switch, fMP4 none at all
    /// until the next keyframe, and 4 s went by with no video and no rebuffer.
    @Test(arguments: ["ts", "fmp4"])
    func aSwitchOfRenditionIntoAGOPDecodesFromItsKeyframe(container: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let low = await PlayerFixtures.ffmpegHashes(server.url("/longgop/\(container)/index.m3u8"))
        let high = await PlayerFixtures.ffmpegHashes(server.url("/longgop/\(container)1/index.m3u8"))
        try #require(low.count == 360 && high.count == 360)
        let trace = BandwidthTrace(name: "up", times: [0, 2, 3, 60], megabitsPerSecond: [0.5, 0.5, 8, 8])
        let run = await PlayerFixtures.playVirtual(server.url("/longgop/\(container)-master.m3u8"), configure: { $0.hashFrames = true; $0.abr?.policy = "throughput" },
                                                   link: SimulatedLink(trace: trace))
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.bitrateSwitches.map(\.toBitsPerSecond).contains(1_100_000), "it must climb")
        let shown = video(run)
        #expect(shown.count == 360)
        // Frame i is frame i of one rung or the other, in order.
        let matched = shown.enumerated().filter { index, hash in low.indices.contains(index) && (low[index] == hash || high[index] == hash) }
        #expect(matched.count == 360, "\(shown.count - matched.count) frames are no rung's frame at their place")
        #expect(run.report.damage.isEmpty, "\(run.report.damage.prefix(2))")
        #expect(run.eventLines.contains { $0.contains("prerollStarted") })
    }

    /// A seek back inside the media held: decoding restarts at the held segment with the keyframe, not at
    /// the one holding the target.
    @Test func aSeekInsideTheBufferRestartsAtAHeldKeyframe() async throws {
        let (server, url, reference) = try await reference("/longgop/ts/index.m3u8")
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.hashFrames = true },
                                                   scheduled: [.init(atPositionSeconds: 9, action: .seek(toSeconds: 7.3))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.seeks.first?.fromBuffer == true)
        #expect(Array(video(run).dropFirst(270)) == Array(reference[219...]))
        #expect(run.report.segmentsDownloaded == 6, "each segment once")
    }

    /// An inserted break at 7 s (inside segment 3): content resumes with frame 210, decoded from the keyframe
    /// at 5 s; check-ads finds both boundaries exact. It resumed at 10 s, 90 frames late.
    @Test func contentResumesAfterABreakAtTheCueFrame() async throws {
        MediaLog.level = .quiet
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let map = AdMap(breaks: [AdMap.Entry(time: 7, cueId: nil, ads: [.init(url: "../../cues/ad/v1/index.m3u8", duration: 10, id: nil)])])
        let result = try await AdBoundaryChecker(client: client).check(url: server.url("/longgop/ts/index.m3u8"), adMap: map, live: false)
        let boundary = try #require(result.boundaries.first)
        #expect(boundary.exact, "\(boundary.problems)")
        #expect(abs((boundary.firstContentAfter ?? 0) - 7) < 1e-4)
    }
}
