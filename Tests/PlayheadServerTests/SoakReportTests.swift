@testable import PlayheadServer
import Foundation
@testable import PlayheadCore
import Testing

/// How a soak's report judges memory and stalls from its samples.
@Suite struct SoakReportTests {
    func sample(_ seconds: Double, running: Int, rss mib: Double, rebuffers: Int = 0) -> SoakSample {
        SoakSample(elapsedSeconds: seconds, running: running, rebuffers: rebuffers, errors: 0, cpuPercent: 10,
                   rssBytes: Int(mib * 1_048_576), sessions: [])
    }

    func settings() -> SoakSettings {
        var settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 10, durationSeconds: 300)
        settings.warmUpSeconds = 120
        return settings
    }

    @Test func memoryPerSessionCountsTheSessionsStillRunning() {
        // 10 sessions were started; 4 still run: 200 MiB is 50 MiB each, not 20.
        let four = sample(200, running: 4, rss: 200)
        #expect(four.rssPerSessionBytes == 50 * 1_048_576)
        #expect(four.line.contains("rss/session  50.00 MiB"))
        // None runs: there is no per-session figure, and the line and the report say so.
        let none = sample(300, running: 0, rss: 88)
        #expect(none.rssPerSessionBytes == nil)
        #expect(none.line.hasSuffix("rss/session      — MiB"))
        let report = SoakReport(settings: settings(), samples: [four, none])
        #expect(report.text.contains("              —"))
    }

    /// A run a signal stopped says so, in the text and the JSON (QA: it read "× 180 s" and nothing else).
    @Test func aStoppedRunSaysBySignalAndWhen() throws {
        var report = SoakReport(settings: settings(), samples: [sample(110, running: 10, rss: 150), sample(113, running: 10, rss: 151)])
        #expect(!report.text.contains("stopped by"))
        report.markStopped(bySignal: SIGINT)
        #expect(report.text.hasPrefix("soak report: 10 sessions × 300 s (stopped by SIGINT after 113 s), demux"), "\(report.text.prefix(120))")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["stoppedBySignal"] as? Int == 2 && json["stoppedAfterSeconds"] as? Double == 113)
    }

    /// A stall lists the fetches retried in the 30 s before it and while it lasted, not the later ones (QA: a
    /// stall at 4 s listed retries of 70–93 s).
    @Test func aStallListsTheRetriesAroundItOnly() {
        var details = StallDetails()
        details.retried(at: 1, "1.0 s: early")
        details.retried(at: 12, "12.0 s: before")
        details.stalled(at: 40, position: 38)
        details.retried(at: 41, "41.0 s: during")
        details.recovered(after: 2)
        details.retried(at: 80, "80.0 s: later")
        #expect(details.stalls.count == 1)
        #expect(details.stalls[0].retriedFetches == ["12.0 s: before", "41.0 s: during"])
        #expect(details.networkErrors.count == 4)
        var figures = SoakSessionFigures(id: "3", status: "playing", rebuffers: 1, failed: false, error: nil, positionSeconds: 90)
        figures.stalls = details.stalls
        figures.networkErrors = details.networkErrors
        let report = SoakReport(settings: settings(), samples: [SoakSample(elapsedSeconds: 90, running: 1, rebuffers: 1, errors: 0, cpuPercent: 1,
                                                                           rssBytes: 1 << 20, sessions: [figures])])
        let flag = report.flags.first { $0.hasPrefix("stalls: session 3") } ?? ""
        #expect(flag.hasPrefix("stalls: session 3 rebuffered once: at 40.0 s"), "\(flag)")
        #expect(flag.contains("retried fetches around it: 12.0 s: before | 41.0 s: during"), "\(flag)")
        #expect(!flag.contains("later") && !flag.contains("early"), "\(flag)")
    }

    /// The distance to the live edge is never negative on the summary line.
    @Test func theLiveEdgeDistanceIsNamedAsSuch() {
        var figures = SoakSessionFigures(id: "1", status: "playing", rebuffers: 0, failed: false, error: nil, positionSeconds: 90)
        figures.edgeDistanceSeconds = 6.5
        let line = SoakSample(elapsedSeconds: 90, running: 1, rebuffers: 0, errors: 0, cpuPercent: 1, rssBytes: 1 << 20, sessions: [figures]).line
        #expect(line.hasSuffix("  behind live edge 6.5–6.5 s"), "\(line)")
        // A session that ended keeps its last distance; it is not shown as the run's.
        figures.status = "stopped"
        let ended = SoakSample(elapsedSeconds: 95, running: 0, rebuffers: 0, errors: 0, cpuPercent: 1, rssBytes: 1 << 20, sessions: [figures]).line
        #expect(!ended.contains("behind live edge"), "\(ended)")
    }

    @Test func growthIsMeasuredWhileEverySessionRuns() {
        // Flat while running; the drop once sessions end does not count as shrinking.
        let flat = SoakReport(settings: settings(), samples: [sample(110, running: 10, rss: 150), sample(120, running: 10, rss: 192),
                                                             sample(290, running: 10, rss: 193.6), sample(300, running: 0, rss: 88)])
        #expect(abs((flat.rssGrowthPercent ?? -1) - (193.6 / 192 - 1) * 100) < 1e-4)
        #expect(flat.flags.isEmpty)
        // Growth of 10 % while running is flagged.
        let growing = SoakReport(settings: settings(), samples: [sample(120, running: 10, rss: 200), sample(290, running: 10, rss: 220),
                                                                sample(300, running: 0, rss: 90)])
        #expect(abs((growing.rssGrowthPercent ?? -1) - 10) < 1e-4)
        #expect(growing.flags.contains { $0.hasPrefix("memory growth") })
    }

    /// A daemon session's figures come from its report: each stall with the fetches retried around it, and the
    /// live-edge distance (QA44 #4: `soak --server` flagged "rebuffered once" and nothing more).
    @Test func aDaemonSessionsStallsAreTakenFromItsReport() {
        var report = PlaybackReport(url: "http://h/live.m3u8", clock: "real", mode: "demux")
        report.isLive = true
        report.liveEdgeDistanceSeconds = 8.25
        report.positionSeconds = 30
        report.rebuffers = [RebufferRecord(startSeconds: 16, endSeconds: 20.4, positionSeconds: 16, durationSeconds: 4.4)]
        report.notifications = [
            PlayerNotification(code: .networkError, metadata: ["DESCRIPTION": "stall timeout for seg004.ts"], playerTime: 19.4),
            PlayerNotification(code: .networkError, metadata: ["DESCRIPTION": "long before"], playerTime: -20),
            PlayerNotification(code: .playbackError, metadata: ["DESCRIPTION": "not a retry"], playerTime: 17),
        ]
        var figures = SoakSessionFigures(id: "9a3e", status: "playing", rebuffers: 0, failed: false, positionSeconds: 0)
        figures.take(report)
        #expect(figures.rebuffers == 1 && figures.positionSeconds == 30 && figures.edgeDistanceSeconds == 8.25)
        #expect(figures.stalls == [SoakStall(atSeconds: 16, positionSeconds: 16, durationSeconds: 4.4, retriedFetches: ["19.4 s: stall timeout for seg004.ts"])],
                "\(figures.stalls ?? [])")
        let last = SoakSample(elapsedSeconds: 120, running: 10, rebuffers: 1, errors: 0, cpuPercent: 10, rssBytes: 100 << 20, sessions: [figures])
        let flagged = SoakReport(settings: settings(), samples: [last]).flags
        #expect(flagged.contains { $0.hasPrefix("stalls: session 9a3e rebuffered once: at 16.0 s (position 16.0 s, 4.40 s; last segment ?); retried fetches around it: 19.4 s: stall timeout") },
                "\(flagged)")
    }

    /// RSS swinging ±7 % with the buffers around a flat level (QA44 #1: a 10-session run's samples, MiB) is not a
    /// leak: the median of the last third against that of the first (+0.8 %), not the last sample against the
    /// first after warm-up (+5.5 %, flagged). A floor that climbs through the same swing still is one.
    @Test func aSwingingButFlatRunIsNotALeak() {
        let swing: [Double] = [298.9, 308.7, 324.0, 313.0, 305.2, 310.9, 322.0, 311.4, 302.1, 311.0, 321.1, 315.4]
        let flat = SoakReport(settings: settings(), samples: swing.enumerated().map { sample(120 + Double($0.offset) * 15, running: 10, rss: $0.element) })
        #expect(abs((flat.rssGrowthPercent ?? -1) - (313.2 / 310.85 - 1) * 100) < 1e-3, "\(flat.rssGrowthPercent ?? -1)")
        #expect(flat.flags.isEmpty, "\(flat.flags)")
        let leaking = SoakReport(settings: settings(), samples: swing.enumerated().map {
            sample(120 + Double($0.offset) * 15, running: 10, rss: $0.element + Double($0.offset) * 4)
        })
        #expect((leaking.rssGrowthPercent ?? 0) > 10 && leaking.flags.contains { $0.hasPrefix("memory growth") }, "\(leaking.rssGrowthPercent ?? -1)")
    }
}

/// What a soak refuses before it starts, and what its report leaves out.
@Suite struct SoakSettingsTests {
    @Test(arguments: [Double.infinity, .nan, -1, 0, 2e9])
    func durationMustBeFiniteAndPositive(_ duration: Double) {
        let settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 1, durationSeconds: duration)
        #expect(settings.problems.contains { $0.hasPrefix("--duration is") })
    }

    @Test func otherOptionsAreChecked() {
        var settings = SoakSettings(url: "file:///tmp/x.m3u8", sessions: 0, durationSeconds: 10)
        settings.summaryIntervalSeconds = .nan
        settings.warmUpSeconds = -1
        settings.memoryGrowthLimitPercent = .nan
        settings.server = "127.0.0.1:7070"
        let problems = settings.problems
        for prefix in ["the stream URL", "--server", "--sessions", "--interval", "--warm-up", "--memory-growth-limit"] {
            #expect(problems.contains { $0.hasPrefix(prefix) }, "\(prefix) in \(problems)")
        }
        #expect(SoakSettings(url: "http://127.0.0.1:8080/x.m3u8", sessions: 2, durationSeconds: 0.5).problems.isEmpty)
    }

    @Test func theReportLeavesOutTheToken() throws {
        var settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 1, durationSeconds: 2.5)
        settings.token = "s3cret-token"
        let report = SoakReport(settings: settings, samples: [])
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("s3cret-token"))
        #expect(json.contains("durationSeconds"))
        #expect(report.text.contains("1 sessions × 2.5 s"))
    }

    /// A short healthy run (QA: 3 sessions × 15 s, RSS 82.4 → 94.5 → 82.5 MiB) was flagged for a 14.7 %
    /// growth that was its buffers filling: the default warm-up lasts until they are full, and a run
    /// that ends within it measures no growth (and says so).
    @Test func theDefaultWarmUpLastsUntilTheBuffersAreFull() {
        let settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 3, durationSeconds: 15)
        #expect(settings.warmUpSeconds == 60)
        let report = SoakReport(settings: settings, samples: [SoakReportTests().sample(5, running: 3, rss: 82.4), SoakReportTests().sample(10, running: 3, rss: 94.5),
                                                             SoakReportTests().sample(15, running: 0, rss: 82.5)])
        #expect(report.rssGrowthPercent == nil)
        #expect(report.flags.isEmpty, "\(report.flags)")
        #expect(report.text.contains("RSS growth: not measured"))
    }

    /// A target whose reads fail after its sessions started.
    final class FailingTarget: SoakTarget {
        let finished = Mutex(0)
        func start() async throws {}
        func snapshot() async throws -> ([SoakSessionFigures], ProcessStats) { throw LoopbackHTTPClient.Failure(description: "gone") }
        func finish() async { finished.withLock { $0 += 1 } }
    }

    @Test func aFailedRunStopsItsSessions() async {
        var settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 1, durationSeconds: 1)
        settings.summaryIntervalSeconds = 0.01
        let target = FailingTarget()
        await #expect(throws: LoopbackHTTPClient.Failure.self) {
            _ = try await SoakRunner.run(settings, on: target) { _ in }
        }
        #expect(target.finished.withLock { $0 } == 1)
    }
}

/// A soak on the real clock: its 2 s session, with the player's waits between fetches, needs the cooperative
/// pool, so `scripts/test` runs it in its serial phase (in parallel with the decoding tests it once took 131 s).
@Suite struct SoakWallClockTests {
    /// A session that fails names its error in the flags (it said only "ended in error").
    @Test(.timeLimit(.minutes(1))) func aFailedSessionNamesItsError() async throws {
        var settings = SoakSettings(url: "http://127.0.0.1:9/none.m3u8", sessions: 1, durationSeconds: 2)
        settings.summaryIntervalSeconds = 0.1
        let report = try await SoakRunner.run(settings) { _ in }
        let flag = try #require(report.flags.first { $0.hasPrefix("error: session 1 ended in error") })
        #expect(flag.contains("http://127.0.0.1:9/none.m3u8"), "\(flag)")
        #expect(report.samples.last?.sessions.first?.error?.contains("127.0.0.1:9") == true)
    }
}
