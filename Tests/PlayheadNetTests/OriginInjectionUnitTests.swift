@testable import PlayheadOrigin
import Testing

/// The origin's glob fault rules and bandwidth schedule, without a network.
@Suite struct OriginInjectionUnitTests {
    @Test func globs() {
        #expect(Glob.matches("*.ts", "/ts/v1/seg003.ts"))
        #expect(Glob.matches("/ts/*/seg00[3-5].ts", "/ts/v1/seg004.ts"))
        #expect(!Glob.matches("/ts/*/seg00[3-5].ts", "/ts/v1/seg006.ts"))
        #expect(Glob.matches("/ts/v?/seg00[!0-2].ts", "/ts/v2/seg003.ts"))
        #expect(!Glob.matches("/ts/v?/seg00[!0-2].ts", "/ts/v2/seg001.ts"))
        #expect(Glob.matches("/a.ts", "/a.ts") && !Glob.matches("/a.ts", "/a.tsx"))
        #expect(Glob.matches("/a\\*", "/a*") && !Glob.matches("/a\\*", "/ab"))
        #expect(Glob.matches("*", "/anything/at/all") && Glob.matches("/*/*.m3u8", "/x/y/z.m3u8"))
        #expect(Glob.problem(in: "/seg[0-3.ts") != nil && Glob.problem(in: "/a\\") != nil && Glob.problem(in: "/[]].ts") == nil)
    }

    @Test func rulesCountAndDraw() throws {
        let core = try ServerCore(root: "/nonexistent", idleTimeoutMilliseconds: 1000)
        defer { _ = core.stop() }
        let twice = LoopbackHTTPServer.FaultRule(pattern: "*.ts", fault: .status(503), times: 2, name: "twice")
        let sometimes = LoopbackHTTPServer.FaultRule(pattern: "/x/*", fault: .closeConnection, probability: 0.5, seed: 42)
        core.state.withLock {
            $0.rules = [twice, sometimes].map { ServerCore.RuleEntry(rule: $0, remaining: $0.times, generator: SplitMix64(seed: $0.seed)) }
        }
        #expect(core.fault(for: "/a.ts", headers: [:])?.rule == "twice")
        #expect(core.fault(for: "/b.ts", headers: [:])?.fault == .status(503))
        #expect(core.fault(for: "/a.ts", headers: [:]) == nil)
        let draws = (0..<200).map { _ in core.fault(for: "/x/y", headers: [:])?.fault == .closeConnection }
        #expect((70...130).contains(draws.count(where: \.self)))
        // A path's own fault comes first.
        core.state.withLock { $0.faults["/x/y"] = ServerCore.FaultEntry(fault: .ignoreRange, remaining: nil) }
        let ranged = ["range": "bytes=0-9"]
        #expect(core.fault(for: "/x/y", headers: ranged)?.fault == .ignoreRange && core.fault(for: "/x/y", headers: ranged)?.rule == nil)
        // A fault about a header is for the requests that carry it only (QA33: times=1 was used up by a plain GET).
        #expect(core.fault(for: "/x/y", headers: [:]) == nil)
        let once = LoopbackHTTPServer.FaultRule(pattern: "/r.ts", fault: .ignoreIfRange, times: 1)
        core.state.withLock { $0.rules = [ServerCore.RuleEntry(rule: once, remaining: 1, generator: SplitMix64(seed: 0))] }
        #expect(core.fault(for: "/r.ts", headers: ["range": "bytes=5-"]) == nil)
        #expect(core.fault(for: "/r.ts", headers: ["range": "bytes=5-", "if-range": "\"e\""])?.fault == .ignoreIfRange)
        #expect(core.fault(for: "/r.ts", headers: ["range": "bytes=5-", "if-range": "\"e\""]) == nil)
    }

    @Test func scheduleFinishTimes() {
        let constant = BandwidthSchedule.constant(bitsPerSecond: 4_000_000)
        #expect(constant.problem == nil)
        #expect(abs(constant.finish(bits: 8_000_000, startingAt: 1) - 3) < 1e-9)
        // 1 Mbit/s for 1 s, nothing for 1 s, 2 Mbit/s for 2 s, repeating every 4 s.
        let steps = BandwidthSchedule(startSeconds: [0, 1, 2], bitsPerSecond: [1e6, 0, 2e6], periodSeconds: 4)
        #expect(steps.problem == nil)
        #expect(abs(steps.finish(bits: 2e6, startingAt: 0) - 2.5) < 1e-9)
        #expect(abs(steps.finish(bits: 6e6, startingAt: 0) - 5) < 1e-9)  // 1 + 4 in the first period, 1 at 4…5
        #expect(abs(steps.finish(bits: 1e6, startingAt: 5.5) - 6.5) < 1e-9)  // 0.5 at 5.5…6 (1 Mbit/s), 0 to 6, 2 Mbit/s on
        #expect(BandwidthSchedule(startSeconds: [0], bitsPerSecond: [0]).problem != nil)
        #expect(BandwidthSchedule(startSeconds: [1], bitsPerSecond: [1]).problem != nil)
    }
}
