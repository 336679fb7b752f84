@testable import PlayheadServer
import Testing

/// How a soak's report judges memory and stalls from its samples.
@Suite struct SoakReportTests {
    func sample(_ seconds: Double, running: Int, rss mib: Double, rebuffers: Int = 0) -> SoakSample {
        SoakSample(elapsedSeconds: seconds, running: running, rebuffers: rebuffers, errors: 0, cpuPercent: 10,
                   rssBytes: Int(mib * 1_048_576), rssPerSessionBytes: Int(mib * 1_048_576) / 10, sessions: [])
    }

    func settings() -> SoakSettings {
        var settings = SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 10, durationSeconds: 300)
        settings.warmUpSeconds = 120
        return settings
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
}
