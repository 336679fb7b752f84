import Foundation
import PlayheadOrigin
import PlayheadServer
import Testing

/// The acceptance test of issue #7: the real `playhead serve` binary as a child process, three sessions
/// against a local origin, SSE, pause and seek, metrics, SIGKILL, restart on the same data directory.
@Suite(.enabled(if: ServerFixtures.binaryHasServe, "the playhead binary has no serve command (register Serve in Playhead.swift)"))
struct DaemonIntegrationTests {
    func waitFor(_ daemon: DaemonProcess, _ id: String, status wanted: String) async throws {
        let deadline = Date().addingTimeInterval(20)
        while try daemon.status(id) != wanted {
            guard Date() < deadline else { Issue.record("session \(id) never reached \(wanted)"); return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(.timeLimit(.minutes(2))) func sessionsSurviveSIGKILL() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let data = ServerFixtures.temporaryDirectory("daemon")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var daemon = try DaemonProcess(data: data, token: "integration")
        let url = origin.url("/ts/v0/index.m3u8")

        let a = try daemon.create(#"{"url": "\#(url)", "mode": "demux", "durationSeconds": 6}"#)
        let b = try daemon.create(#"{"url": "\#(origin.url("/ts/master.m3u8"))", "mode": "demux", "durationSeconds": 3, "abr": {"variant": 1}}"#)
        let c = try daemon.create(#"{"url": "\#(url)", "mode": "demux", "clock": "virtual"}"#)

        // Pause and seek A while it plays.
        try await waitFor(daemon, a, status: "playing")
        #expect(try daemon.send("POST", "/v1/sessions/\(a)/pause").status == 202)
        try await waitFor(daemon, a, status: "paused")
        #expect(try daemon.send("POST", "/v1/sessions/\(a)/seek", json: #"{"seconds": 20}"#).status == 202)
        #expect(try daemon.send("POST", "/v1/sessions/\(a)/play").status == 202)

        // Each SSE stream ends when its session does.
        var streams: [String: [ServerFixtures.SSE]] = [:]
        for id in [a, b, c] {
            let reply = try daemon.send("GET", "/v1/sessions/\(id)/events", timeoutSeconds: 30)
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/event-stream")
            let events = ServerFixtures.parseSSE(reply.text)
            #expect(events.map(\.id) == Array(1...max(events.count, 1)), "ids of \(id) are 1, 2, 3… without gaps")
            streams[id] = events
        }
        let aNames = streams[a]!.map(\.event)
        #expect(aNames.contains("seekStarted") && aNames.contains("seekCompleted"))
        #expect(streams[a]!.contains { $0.event == "statusChanged" && $0.data.contains(#""to":"paused""#) })
        #expect(streams[c]!.contains { $0.data.contains(#""to":"completed""#) })

        // Resuming after event 5 gives 6, 7, … only.
        let resumed = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(a)/events", headers: ["Last-Event-ID": "5"]).text)
        #expect(resumed.first?.id == 6 && resumed.count == streams[a]!.count - 5)

        // D runs when the daemon is killed: every event a client was shown is kept (an event goes out once stored).
        let d = try daemon.create(#"{"url": "\#(url)", "mode": "demux", "durationSeconds": 60}"#)
        try await waitFor(daemon, d, status: "playing")
        let metrics = try daemon.send("GET", "/metrics").text
        for name in ["playhead_sessions{status=\"", "playhead_rebuffers_total", "playhead_bytes_downloaded_total",
                     "playhead_frames_presented_total", "playhead_frames_dropped_total", "playhead_beacons_total",
                     "process_resident_memory_bytes", "process_cpu_seconds_total", "playhead_session_bitrate_bits_per_second"] {
            #expect(metrics.contains(name), "metrics lack \(name)")
        }
        // Every metric has its HELP line beside its TYPE line (three gauges had none).
        let typed = metrics.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        let helped = Set(metrics.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
        #expect(!typed.isEmpty && typed.allSatisfy { helped.contains($0) }, "no HELP for \(typed.filter { !helped.contains($0) })")
        let seenBeforeKill = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(d)/events", timeoutSeconds: 1).text)
        let killedAt = Date().timeIntervalSince1970
        daemon.kill()

        daemon = try DaemonProcess(data: data, token: "integration")
        defer { daemon.terminate() }
        let listed = (ServerFixtures.object(try daemon.send("GET", "/v1/sessions"))["sessions"] as? [[String: Any]]) ?? []
        #expect(Set(listed.compactMap { $0["id"] as? String }) == [a, b, c, d])
        #expect(try daemon.status(d) == "interrupted")
        #expect(try daemon.status(c) == "completed")
        for id in [a, b, c] {
            let again = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(id)/events").text)
            #expect(again == streams[id]!, "events of \(id) after the restart")
        }
        let stored = ServerFixtures.parseSSE(try daemon.send("GET", "/v1/sessions/\(d)/events").text)
        #expect(!seenBeforeKill.isEmpty)
        #expect(Array(stored.prefix(seenBeforeKill.count)) == seenBeforeKill, "\(stored.count) stored, \(seenBeforeKill.count) seen")

        let report = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(a)/report"))
        #expect((report["seeks"] as? [Any])?.count == 1)
        let partial = try daemon.send("GET", "/v1/sessions/\(d)/report")
        #expect(partial.status == 200 && partial.headers["x-playhead-partial"] == "true")
        // The rebuilt report takes the video frames from the last stored sample, and the session ended
        // before the kill (when it was last written), not at the restart.
        let rebuilt = ServerFixtures.object(partial)
        let lastSample = (rebuilt["samples"] as? [[String: Any]])?.last
        let frames = (rebuilt["framesPresented"] as? [String: Any])?["video"] as? Int
        #expect(frames != nil && frames == lastSample?["presentedFrameCount"] as? Int && frames! > 0, "\(String(describing: frames))")
        #expect(rebuilt["isLive"] as? Bool == false && (rebuilt["error"] as? String)?.hasPrefix("interrupted") == true)
        let ended = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(d)"))["endedAtSeconds"] as? Double
        #expect(ended != nil && ended! <= killedAt, "ended \(String(describing: ended)), killed \(killedAt)")
        let html = try daemon.send("GET", "/v1/sessions/\(a)/report.html")
        #expect(html.status == 200 && html.text.contains("<svg"))
    }
}
