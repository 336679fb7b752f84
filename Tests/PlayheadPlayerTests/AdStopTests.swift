import Foundation
import PlayheadNet
import Synchronization
@testable import PlayheadCore
import PlayheadOrigin
import Testing

/// A session that ends at its duration limit inside an ad leaves the ad as a stop does: adSkipped and
/// the break's end (it left the ad open, with no skip beacon).
@Suite struct AdStopTests {
    @Test func theDurationLimitInsideAnAdLeavesIt() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/cues/ts/master.m3u8")
        let configuration = try PlayerFixtures.liveAdConfiguration(for: url)
        let run = await PlayerFixtures.playVirtual(url, configure: { $0 = configuration }, maxSessionSeconds: 15)
        #expect(run.report.finalStatus == .stopped)
        let names = run.events.map(\.kind.name).filter { ["adStarted", "adSkipped", "adCompleted", "adBreakCompleted"].contains($0) }
        #expect(names == ["adStarted", "adSkipped", "adBreakCompleted"], "\(names)")
    }
}

/// The server-map signalling mode asked for on a live stream: the PSDK's table does not support it, so the
/// session says so (an adSignalingModeUnsupported event) and places breaks at the cues; it was silent.
@Suite struct LiveServerMapTests {
    @Test func aServerMapOnALiveStreamIsSaidToBeUnsupported() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = server.url("/cues/ts/vod.m3u8")
        for mode in [AdSignalingMode.serverMap, .manifestCues] {
            var configuration = try PlayerFixtures.liveAdConfiguration(for: url)
            configuration.ads?.signalingMode = mode
            let network = SimulatedLiveNetwork(inner: SimulatedNetwork(client: client, link: PlayerFixtures.link(megabits: 50)),
                                               prefix: server.url("/cues/ts/"))
            let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(), network: network)
            let said = Mutex(0)
            let subscription = player.bus.subscribe { event in
                if case let .custom(name, _) = event.kind, name == "adSignalingModeUnsupported" { said.withLock { $0 += 1 } }
            }
            let report = await player.run(maxSessionSeconds: 20)
            subscription.cancel()
            #expect(report.isLive)
            #expect(said.withLock { $0 } == (mode == .serverMap ? 1 : 0), "\(mode)")
            #expect(!report.adBoundaries.isEmpty, "breaks at the cues either way")
        }
    }
}
