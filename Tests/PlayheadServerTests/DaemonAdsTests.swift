import Foundation
import PlayheadOrigin
import PlayheadServer
import Testing

/// A daemon session with ads: the default resolver asks the test ad server for a VMAP, the ads are
/// spliced, and the beacons reach the ad server, the session's report and `/metrics`.
@Suite(.enabled(if: ServerFixtures.binaryHasServe, "the playhead binary has no serve command"))
struct DaemonAdsTests {
    @Test(.timeLimit(.minutes(3))) func aSessionWithAdsFiresItsBeaconsAndReportsItsBreaks() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        let ads = try AdServer()
        defer { origin.stop(); ads.stop() }
        let ad = AdDocuments.tracked(id: "mid", durationSeconds: 10, mediaURL: origin.url("/cues/ad/master.m3u8"), server: ads)
        ads.register(AdDocuments.vmap([.init(timeOffset: "00:00:10.000", breakId: "mid", source: .vast(AdDocuments.vast([ad])))]), at: "/vmap")
        let data = ServerFixtures.temporaryDirectory("daemon-ads")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data)
        defer { daemon.terminate() }
        let body = #"{"url": "\#(origin.url("/cues/ts/master.m3u8"))", "mode": "demux", "clock": "virtual", "ads": {"enabled": true, "adTagURL": "\#(ads.baseURL)", "mediaId": "movie"}}"#
        let reply = try daemon.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(ServerFixtures.object(reply)["id"] as? String)
        // The event stream ends with the session.
        let events = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(id)/events", timeoutSeconds: 60).text)
        #expect(events.contains { $0.event == "adBreakStarted" })
        let report = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(id)/report"))
        let boundaries = report["adBoundaries"] as? [[String: Any]] ?? []
        #expect(boundaries.compactMap { $0["breakId"] as? String } == ["mid"])
        let beacons = report["beacons"] as? [[String: Any]] ?? []
        #expect(beacons.compactMap { $0["event"] as? String }.contains("complete"))
        #expect(ads.beacons.filter { $0.event == "complete" }.count == 1)
        #expect(ads.requestLog.first { $0.path == "/vmap" }?.query?.contains("m=movie") == true)
        let metrics = try daemon.send("GET", "/metrics").text
        #expect(metrics.contains("playhead_beacons_total 7"), "\(metrics.split(separator: "\n").filter { $0.contains("beacons") })")
        // A bad mode is refused, naming the field.
        let bad = try daemon.send("POST", "/v1/sessions", json: #"{"url": "\#(origin.url("/x.m3u8"))", "ads": {"enabled": true, "signalingMode": "sometimes"}}"#)
        #expect(bad.status == 400 && bad.text.contains("ads.signalingMode"))
    }

    @Test(.timeLimit(.minutes(3))) func anSSAISessionPostsTheAdEventsAndFiresTheTrackingDocumentsBeacons() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        let ads = try AdServer()
        defer { origin.stop(); ads.stop() }
        let urls = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
            "{\"eventType\": \"\($0)\", \"beaconUrls\": [\"\(ads.beaconURL(event: $0, adId: "a1"))\"]}"
        }.joined(separator: ",")
        ads.register(#"{"avails": [{"availId": "b1", "startTimeInSeconds": 10, "durationInSeconds": 10, "ads": [{"adId": "a1", "startTimeInSeconds": 10, "durationInSeconds": 10, "trackingEvents": [\#(urls)]}]}]}"#,
                     at: "/tracking.json", contentType: "application/json")
        let data = ServerFixtures.temporaryDirectory("daemon-ssai")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data)
        defer { daemon.terminate() }
        let body = #"{"url": "\#(origin.url("/ssai/index.m3u8"))", "mode": "demux", "clock": "virtual", "ssai": {"trackingURL": "\#(ads.url("/tracking.json"))"}}"#
        let reply = try daemon.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(ServerFixtures.object(reply)["id"] as? String)
        let events = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(id)/events", timeoutSeconds: 60).text)
        #expect(events.contains { $0.event == "custom" && $0.data.contains("\"adCueTimelineStart\"") })
        let report = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(id)/report"))
        let ssai = report["ssai"] as? [String: Any] ?? [:]
        let names = (ssai["events"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["adCueTimelineAdded", "adCueTimelineStart", "adImpression", "adStarted", "adFirstQuartile", "adMidpoint",
                          "adThirdQuartile", "adComplete", "adCueTimelineEnd"])
        #expect(ads.beacons.map(\.event) == ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"])
        #expect((report["beacons"] as? [[String: Any]] ?? []).count == 6)
    }
}
