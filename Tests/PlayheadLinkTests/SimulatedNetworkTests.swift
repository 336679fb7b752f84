import Foundation
import PlayheadCore
import PlayheadNet
import Testing

@Suite struct SimulatedNetworkTests {
    @Test func fileURLsGiveTheBytesAndTheLinksSeconds() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let file = folder.appendingPathComponent("segment.ts")
        try Data(bytes).write(to: file)
        let client = HTTPClient()
        defer { client.shutdown() }
        let trace = BandwidthTrace(name: "step", times: [0, 1, 2], megabitsPerSecond: [0, 8, 16])
        let link = SimulatedLink(trace: trace)
        let network: any PlayerNetwork = SimulatedNetwork(client: client, link: link)

        let whole = try await network.fetch(file.absoluteString, range: nil, at: 0.5)
        #expect(whole.body == bytes)
        #expect(whole.status == 200)
        #expect(whole.seconds == link.transferSeconds(bytes: 300_000, startingAt: 0.5))
        #expect(close(whole.seconds, 0.08 + 300_000 / 950_000.0))
        #expect(whole.firstByteSeconds == 0.08)
        #expect(whole.bytesOnWire == 300_000)

        let part = try await network.fetch(file.absoluteString, range: ByteRangeRequest(offset: 1_000, length: 2_000), at: 1.25)
        #expect(part.body == Array(bytes[1_000..<3_000]))
        #expect(close(part.seconds, 0.08 + 2_000 / 1_900_000.0))
    }

    @Test func missingFilesFailAsNetworkErrorsNamingTheURL() async {
        let client = HTTPClient()
        defer { client.shutdown() }
        let link = SimulatedLink(trace: BandwidthTrace(name: "c", times: [0, 1], megabitsPerSecond: [8, 8]))
        let network = SimulatedNetwork(client: client, link: link)
        do {
            _ = try await network.fetch("file:///nonexistent/playhead/x.ts", range: nil, at: 0)
            Issue.record("expected an error")
        } catch {
            guard case .network(let http) = error else { Issue.record("\(error)"); return }
            #expect(http.url == "file:///nonexistent/playhead/x.ts")
        }
    }
}
