import Foundation
import PlayheadCore
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// Resume after a failure (F25, Brightcove's resumeVideoAtTime:withAutoPlay:): a session that fails after it
/// started playing posts `failedToPlayToEnd`, waits, and resumes where it failed (`resumeBegin`, then
/// `resumeComplete` at the first frame or `resumeFail`), as often as the policy allows.
@Suite struct ResumeTests {
    func customEvents(_ run: PlayerFixtures.Run, _ names: Set<String>) -> [(time: Double, name: String, payload: [String: String])] {
        run.events.compactMap { event in
            if case let .custom(name, payload) = event.kind, names.contains(name) { return (event.playerTime, name, payload) }
            return nil
        }
    }

    static let names: Set<String> = ["failedToPlayToEnd", "resumeBegin", "resumeComplete", "resumeFail"]

    /// /ts/v0 (8 segments of 4 s): segment 3 answers 404 to its first fetch and its three retries, then is
    /// back. With one resume allowed, 5 s after the failure the session resumes at 12 s and plays to the end:
    /// every frame after the failure is FFmpeg's, none lost, none twice.
    @Test func aFailureResumesWhereItFailedAndPlaysToTheEnd() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let expected = await ChildProcess.ffmpegHashes(server.url("/ts/v0/index.m3u8"))
        try #require(expected.count == 900)
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts", times: 4)
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: {
            $0.abr = nil
            $0.hashFrames = true
            $0.resumeAfterFailure = ResumePolicy(attempts: 1, delaySeconds: 5)
        })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = customEvents(run, Self.names)
        #expect(events.map(\.name) == ["failedToPlayToEnd", "resumeBegin", "resumeComplete"], "\(events)")
        guard events.count == 3 else { return }
        #expect(events[0].payload["position"] == "12" && events[0].payload["description"]?.contains("seg003.ts") == true, "\(events[0].payload)")
        #expect(abs(events[1].time - events[0].time - 5) < 1e-6 && events[1].payload["position"] == "12" && events[1].payload["reason"] == "policy")
        #expect(run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" } == expected)
        let resume = try #require(run.report.resumes?.first)
        #expect(resume.outcome == "complete" && resume.reason == "policy" && resume.failure?.contains("seg003.ts") == true && resume.atSeconds == 12)
        #expect(run.report.seeks.last?.automatic == "resume")
        // The failure is in the history, but it did not end the session.
        #expect(run.report.error == nil && run.report.statuses.allSatisfy { $0.status != .error })
        // The failure is a notification of the history, not the session's error event (heartbeats and other
        // consumers end at that one).
        #expect(!run.events.contains { if case .error = $0.kind { true } else { false } })
        #expect(run.report.notifications.contains { $0.type == .error && ($0.metadata["URL"] ?? $0.metadata["DESCRIPTION"] ?? "").contains("seg003.ts") })
    }

    /// Still failing at the resume: `resumeFail`, and with no resume left the failure ends the session as before.
    @Test func aResumeThatFailsAgainEndsTheSessionOnceNoneIsLeft() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts")
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: {
            $0.abr = nil
            $0.mode = .demux
            $0.resumeAfterFailure = ResumePolicy(attempts: 2, delaySeconds: 1)
        })
        #expect(run.report.finalStatus == .error)
        let names = customEvents(run, Self.names).map(\.name)
        #expect(names == ["failedToPlayToEnd", "resumeBegin", "resumeFail", "failedToPlayToEnd", "resumeBegin", "resumeFail"], "\(names)")
        #expect(run.report.resumes?.map(\.outcome) == ["fail", "fail"])
        #expect(run.report.error?.contains("seg003.ts") == true)
        // A resume's seek that gave no frame is not completed (QA46 #5: seekCompleted came before the failure).
        #expect(run.report.seeks.allSatisfy { $0.completedAt == nil && $0.firstFrameSeconds == nil })
        #expect(!run.events.contains { if case .seekCompleted = $0.kind { true } else { false } })
    }

    /// Without a policy a failure ends the session at once, as it always did; a failure before the first frame
    /// (it never started playing) is not resumed either.
    @Test func withoutAPolicyOrBeforeTheFirstFrameAFailureEndsTheSession() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts")
        let plain = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.abr = nil; $0.mode = .demux })
        #expect(plain.report.finalStatus == .error && customEvents(plain, Self.names).isEmpty && plain.report.resumes == nil)
        server.setFault(.status(404), forPath: "/ts/v0/seg000.ts")
        let early = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: {
            $0.abr = nil
            $0.mode = .demux
            $0.resumeAfterFailure = ResumePolicy(attempts: 3)
        })
        #expect(early.report.finalStatus == .error && customEvents(early, Self.names).isEmpty)
    }

    /// A short delay is waited exactly (QA46 #4: 0.1 s waited until the next whole second on the virtual clock).
    @Test func aShortDelayIsWaitedExactly() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg003.ts", times: 4)
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: {
            $0.abr = nil
            $0.mode = .demux
            $0.resumeAfterFailure = ResumePolicy(attempts: 1, delaySeconds: 0.1)
        })
        let events = customEvents(run, Self.names)
        #expect(events.map(\.name) == ["failedToPlayToEnd", "resumeBegin", "resumeComplete"])
        if events.count == 3 { #expect(abs(events[1].time - events[0].time - 0.1) < 1e-9, "\(events[1].time - events[0].time)") }
    }

    /// A resume does not replay ads: asked inside a break (timeline 10–20 s), it resumes at the break's end, and
    /// the ad started once (QA46 #1: it replayed the break from its start). `resumeComplete` gives the first
    /// frame's position, not the one asked (QA46 #3).
    @Test func aResumeInsideABreakResumesAtItsEnd() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/vod.m3u8")
        let run = await PlayerFixtures.playVirtual(url, configure: {
            $0.abr = nil
            $0.mode = .demux
            $0.ads = PlayerFixtures.ads(SpliceTests.adMap, for: url)
        }, scheduled: [ScheduledCommand(atPositionSeconds: 13, action: .resume(atSeconds: 12, autoplay: true)),
                       ScheduledCommand(atPositionSeconds: 25, action: .resume(atSeconds: 25.01, autoplay: true))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = customEvents(run, Self.names)
        #expect(events.map(\.name) == ["resumeBegin", "resumeComplete", "resumeBegin", "resumeComplete"], "\(events)")
        guard events.count == 4 else { return }
        #expect(events[0].payload["position"] == "20" && events[1].payload["position"] == "20", "\(events) \(run.report.adTimeline?.breaks.map { "\($0.id) \($0.durationSeconds)" } ?? []) \(run.events.filter { if case .adStarted = $0.kind { true } else { false } }.map(\.playerTime))")
        #expect(events[2].payload["position"] == "25.01" && events[3].payload["position"] == "25.033", "\(events[3].payload)")
        let started = run.events.filter { if case let .adStarted(info) = $0.kind { info.breakId == run.report.adTimeline?.breaks.first?.id } else { false } }
        #expect(started.count == 1)
    }

    /// A `resume` command while playing re-initialises at the position asked: the media ahead is loaded again
    /// from there, and it completes at its first frame.
    @Test func aResumeCommandReloadsFromThePositionAsked() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.abr = nil; $0.mode = .demux },
                                                   scheduled: [ScheduledCommand(atPositionSeconds: 6, action: .resume(atSeconds: 20, autoplay: true))])
        #expect(run.report.finalStatus == .completed)
        let events = customEvents(run, Self.names)
        #expect(events.map(\.name) == ["resumeBegin", "resumeComplete"])
        #expect(events.first?.payload["reason"] == "command" && events.first?.payload["position"] == "20")
        #expect(run.report.resumes?.first?.outcome == "complete" && run.report.resumes?.first?.failure == nil)
    }
}
