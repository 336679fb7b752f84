import Foundation
import PlayheadOrigin
@testable import PlayheadServer
import Testing

/// A daemon session with `heartbeats`: its track calls reach the heartbeat collector and its report; a
/// bad heartbeats field is refused naming it.
@Suite struct DaemonHeartbeatTests {
    @Test func theSpecReadsHeartbeatsAndNamesTheFieldAtFault() throws {
        func parse(_ json: String) throws -> SessionSpec { try SessionSpec.parse(Data(json.utf8)) }
        let spec = try parse("""
        {"url": "http://h/a.m3u8", "heartbeats": {"trackingServer": "http://127.0.0.1:9/hb", "intervalSeconds": 5, "videoId": "v",
         "videoMetadata": {"show": "x"}, "adMetadata": {"campaign": "c"}, "chapters": [{"startSeconds": 0, "lengthSeconds": 10, "name": "one"}]}}
        """)
        let settings = try #require(spec.heartbeats).settings
        #expect(settings.trackingServer == "http://127.0.0.1:9/hb" && settings.intervalSeconds == 5 && settings.videoId == "v")
        #expect(settings.videoMetadata == ["show": "x"] && settings.adMetadata == ["campaign": "c"] && settings.chapters.first?.name == "one")
        #expect(try parse(#"{"url": "http://h/a.m3u8", "heartbeats": {"quiet": true}}"#).heartbeats?.settings.quiet == true)
        for (json, field) in [(#"{"trackingServer": "ftp://x"}"#, "heartbeats.trackingServer"), (#"{}"#, "heartbeats.trackingServer"),
                              (#"{"quiet": true, "intervalSeconds": 0}"#, "heartbeats.intervalSeconds"),
                              (#"{"quiet": true, "videoMetadata": {"a": 1}}"#, "heartbeats.videoMetadata.a"),
                              (#"{"quiet": true, "chapters": [{"startSeconds": 0}]}"#, "heartbeats.chapters[0].lengthSeconds"),
                              (#"{"quiet": true, "beats": 1}"#, "heartbeats.beats")] {
            do {
                _ = try parse(#"{"url": "http://h/a.m3u8", "heartbeats": \#(json)}"#)
                Issue.record("\(json) was accepted")
            } catch {
                #expect((error as? APIError)?.field == field && (error as? APIError)?.status == 400, "\(json): \(error)")
            }
        }
    }

    @Test(.enabled(if: ServerFixtures.binaryHasServe, "the playhead binary has no serve command"), .timeLimit(.minutes(2)))
    func aSessionsHeartbeatsReachTheCollectorAndItsReport() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        let collector = try AdServer()
        defer { origin.stop(); collector.stop() }
        let data = ServerFixtures.temporaryDirectory("daemon-heartbeats")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data)
        defer { daemon.terminate() }
        let body = #"{"url": "\#(origin.url("/cues/ts/vod.m3u8"))", "mode": "demux", "clock": "virtual", "heartbeats": {"trackingServer": "\#(collector.heartbeatServerURL)", "videoId": "cues"}}"#
        let reply = try daemon.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(ServerFixtures.object(reply)["id"] as? String)
        _ = try daemon.send("GET", "/v1/sessions/\(id)/events", timeoutSeconds: 60)
        let report = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(id)/report"))
        let heartbeats = try #require(report["heartbeats"] as? [String: Any])
        let calls = (heartbeats["calls"] as? [[String: Any]] ?? []).compactMap { $0["call"] as? String }
        #expect(calls.first == "trackVideoLoad" && calls.suffix(2) == ["trackComplete", "trackVideoUnload"], "\(calls)")
        #expect(calls.filter { $0 == "heartbeat" }.count >= 2)
        #expect(collector.heartbeats.map { $0.parameter("s:event:type") ?? "?" }.count == calls.count)
        #expect(collector.heartbeats.allSatisfy { $0.parameter("s:asset:video_id") == "cues" })
    }
}
