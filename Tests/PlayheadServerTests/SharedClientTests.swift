import Foundation
import PlayheadNet
@testable import PlayheadServer
import Testing

/// The daemon's and the soak's one HTTP client leaves each session connections of its own.
@Suite struct SharedClientTests {
    @Test func everySessionHasTwoConnectionsToTheOrigin() throws {
        #expect(HTTPClientConfiguration.shared(byViewers: 1).maxConnectionsPerHost == HTTPClientConfiguration.defaultMaxConnectionsPerHost)
        #expect(HTTPClientConfiguration.shared(byViewers: 50).maxConnectionsPerHost == 100)
        #expect(HTTPClientConfiguration.shared(byViewers: 50).maxPooledHandles == 100)
        let data = ServerFixtures.temporaryDirectory("shared-client")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let manager = try SessionManager(dataDirectory: data, maxSessions: 40)
        #expect(manager.client.configuration.maxConnectionsPerHost == 80)
        let soak = InProcessSoakTarget(settings: SoakSettings(url: "http://127.0.0.1/x.m3u8", sessions: 12, durationSeconds: 10))
        #expect(soak.client.configuration.maxConnectionsPerHost == 24)
    }
}
