import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadOrigin
import Testing

/// The client's total timeout on a simulated link: a transfer the link would take longer to carry
/// fails at the limit, in session time. A link whose throughput fell to 0 for good used to keep the
/// session waiting for ever, its virtual clock running away (days of session time a wall second, and
/// memory growing with the samples).
@Suite struct SimulatedTimeoutTests {
    /// 5 Mbit/s for 6 s, then nothing for an hour: the segments asked for after 6 s time out, each after
    /// 60 s of session time, and once the retries are spent the session ends in error, minutes (not
    /// an hour) into it.
    @Test func aLinkThatStopsCarryingDataTimesOutInSessionTime() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let trace = BandwidthTrace(name: "dead", times: [0, 6, 3606, 3610], megabitsPerSecond: [5, 5, 0, 5])
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = .demux },
                                                   link: SimulatedLink(trace: trace), maxSessionSeconds: 7200)
        #expect(run.report.finalStatus == .error)
        #expect(run.report.error?.contains("total timeout after 60.0 s") == true, "\(run.report.error ?? "")")
        #expect(run.report.sessionSeconds > 60 && run.report.sessionSeconds < 600, "\(run.report.sessionSeconds)")
        // Each failed attempt took the limit: the network errors are at least 60 s apart.
        let failures = run.events.filter { if case .notification(let n) = $0.kind { n.code == .networkError } else { false } }.map(\.playerTime)
        #expect(failures.count >= 2)
        for (a, b) in zip(failures, failures.dropFirst()) { #expect(b - a >= 60 - 1e-6, "\(failures)") }
    }

    /// The first playlist itself times out: the error comes at the limit in session time, not at 0.
    @Test func aFirstPlaylistThatTimesOutFailsAtTheLimit() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let trace = BandwidthTrace(name: "trickle", times: [0, 10], megabitsPerSecond: [1e-9, 1e-9])
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), link: SimulatedLink(trace: trace))
        #expect(run.report.finalStatus == .error)
        #expect(abs(run.report.sessionSeconds - 60) < 1e-9, "\(run.report.sessionSeconds)")
    }

    /// A real client's timeout on the virtual clock (a local server that never answers) costs its limit in
    /// session time; it cost nothing, so the error came at the moment the request was sent.
    @Test func theVirtualClockChargesATimeoutItsLimit() async {
        let driver = VirtualTimeDriver()
        await driver.start(1) { _ in .failure(.network(.timeout(url: "http://127.0.0.1:1/x", phase: .firstByte, after: 10))) }
        await driver.start(2) { _ in .failure(.network(.status(url: "http://127.0.0.1:1/y", code: 404, bodyPrefix: []))) }
        let first = await driver.wait(until: nil)
        #expect(first.map(\.id) == [2] && driver.now == 0)
        let second = await driver.wait(until: nil)
        #expect(second.map(\.id) == [1] && driver.now == 10)
    }
}
