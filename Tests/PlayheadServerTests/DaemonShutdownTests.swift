import Foundation
import PlayheadOrigin
import PlayheadServer
import PlayheadTestFixtures
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's end and its event streams' clients: SIGTERM with an SSE client attached to a paused
/// session, and a client that leaves a quiet stream. The real binary as a child process.
@Suite(.enabled(if: ServerFixtures.binaryHasServe, "the playhead binary has no serve command"))
struct DaemonShutdownTests {
    /// Polls `read` every 50 ms until it gives `wanted` or 20 s pass.
    func waitFor<T: Equatable>(_ wanted: T, _ what: String, _ read: () throws -> T) async throws {
        let deadline = Date().addingTimeInterval(20)
        var seen = try read()
        while seen != wanted {
            guard Date() < deadline else { Issue.record("\(what) stayed \(seen), never \(wanted)"); return }
            try await Task.sleep(for: .milliseconds(50))
            seen = try read()
        }
    }

    /// `playhead_event_streams_open` from `/metrics`.
    func openStreams(_ daemon: DaemonProcess) throws -> Int {
        let text = try daemon.send("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("playhead_event_streams_open ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? -1
    }

    /// A real-clock session, paused.
    func pausedSession(_ daemon: DaemonProcess, _ origin: LoopbackHTTPServer) async throws -> String {
        let id = try daemon.create(#"{"url": "\#(origin.url("/ts/v0/index.m3u8"))", "mode": "demux", "durationSeconds": 120}"#)
        try await waitFor("playing", "status") { try daemon.status(id) }
        #expect(try daemon.send("POST", "/v1/sessions/\(id)/pause").status == 202)
        try await waitFor("paused", "status") { try daemon.status(id) }
        return id
    }

    @Test(.timeLimit(.minutes(2))) func sigtermEndsOpenEventStreams() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let data = ServerFixtures.temporaryDirectory("shutdown")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var daemon = try DaemonProcess(data: data)
        let id = try await pausedSession(daemon, origin)
        let url = daemon.baseURL + "/v1/sessions/\(id)/events"
        let client = Task.detached { try LoopbackHTTPClient.send("GET", url, timeoutSeconds: 60) }
        try await waitFor(1, "open event streams") { try openStreams(daemon) }

        // Before, the server's graceful shutdown waited for the stream, which waited for the session.
        kill(daemon.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while daemon.process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!daemon.process.isRunning, "the daemon still runs 20 s after SIGTERM")
        daemon.kill()
        #expect(daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0)
        let events = ServerFixtures.parseSSE(try await client.value.text)
        #expect(events.contains { $0.event == "statusChanged" && $0.data.contains(#""to":"stopped""#) }, "\(events.suffix(2))")

        // The session was stopped (not interrupted, not completed) and its report stored.
        daemon = try DaemonProcess(data: data)
        defer { daemon.terminate() }
        #expect(try daemon.status(id) == "stopped")
        #expect(try daemon.send("GET", "/v1/sessions/\(id)/report").headers["x-playhead-partial"] == nil)
    }

    @Test(.timeLimit(.minutes(2))) func aClientThatLeavesAQuietStreamIsNoticed() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let data = ServerFixtures.temporaryDirectory("keepalive")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data, extra: ["--keep-alive", "0.2"])
        defer { daemon.terminate() }
        let id = try await pausedSession(daemon, origin)
        // Read until the first keep-alive comment, then hang up.
        let reply = try LoopbackHTTPClient.send("GET", daemon.baseURL + "/v1/sessions/\(id)/events", timeoutSeconds: 10) {
            String(decoding: $0, as: UTF8.self).contains(": keep-alive\n\n")
        }
        #expect(reply.text.contains(": keep-alive"))
        // The next keep-alive write fails and the stream lets go of the session's bus.
        try await waitFor(0, "open event streams") { try openStreams(daemon) }
        #expect(try daemon.status(id) == "paused")
    }

    @Test(.timeLimit(.minutes(2))) func partialReportsKeepWhatWasRecorded() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let data = ServerFixtures.temporaryDirectory("partial")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var daemon = try DaemonProcess(data: data)
        let id = try daemon.create(#"{"url": "\#(origin.url("/ts/master.m3u8"))", "mode": "demux", "durationSeconds": 120}"#)
        func report() throws -> (fields: [String: Any], partial: Bool) {
            let reply = try daemon.send("GET", "/v1/sessions/\(id)/report")
            return (ServerFixtures.object(reply), reply.headers["x-playhead-partial"] == "true")
        }
        try await waitFor(true, "a segment presented") { ((try report().fields["mediaSeconds"] as? Double) ?? 0) > 0 }

        // Running: the player's own records, not a reconstruction from events.
        let running = try report()
        #expect(running.partial)
        #expect(running.fields["finalStatus"] as? String == "playing")
        #expect((running.fields["bitrateSwitches"] as? [Any])?.isEmpty == false)
        #expect(running.fields["variantBandwidth"] as? Int != nil)
        #expect((running.fields["mediaPlaylistURL"] as? String)?.hasSuffix(".m3u8") == true)
        #expect(((running.fields["manifestSeconds"] as? Double) ?? 0) > 0)
        #expect((running.fields["framesPresented"] as? [String: Int])?.values.reduce(0, +) ?? 0 > 0)
        // The HTML page says so too (it showed "Final status playing" with no hint).
        let page = try daemon.send("GET", "/v1/sessions/\(id)/report.html")
        #expect(page.headers["x-playhead-partial"] == "true")
        #expect(page.text.contains("Partial report: the session is still running"))
        let information = running.fields["playbackInformation"] as? [String: Any]
        #expect(running.fields["bytesDownloaded"] as? Int == information?["bytesDownloaded"] as? Int)

        // Interrupted (SIGKILL): rebuilt from the stored events and samples.
        try await Task.sleep(for: .seconds(1.2))
        daemon.kill()
        daemon = try DaemonProcess(data: data)
        defer { daemon.terminate() }
        let interrupted = try report()
        #expect(interrupted.partial)
        #expect((interrupted.fields["error"] as? String)?.hasPrefix("interrupted") == true)
        // The ABR may have switched since: the last switch names the variant.
        let switches = interrupted.fields["bitrateSwitches"] as? [[String: Any]] ?? []
        #expect(switches.count >= (running.fields["bitrateSwitches"] as? [Any])?.count ?? 1)
        #expect(interrupted.fields["variantBandwidth"] as? Int != nil)
        #expect(interrupted.fields["variantBandwidth"] as? Int == switches.last?["toBitsPerSecond"] as? Int)
        #expect((interrupted.fields["mediaPlaylistURL"] as? String)?.hasSuffix("/index.m3u8") == true)
        // …and the playlist is that variant's (it stayed the first rung's: no event named the others).
        let master = try String(contentsOfFile: ServerFixtures.streams + "/ts/master.m3u8", encoding: .utf8).split(separator: "\n")
        let rungs = Dictionary(uniqueKeysWithValues: zip(master, master.dropFirst()).compactMap { line, uri -> (Int, String)? in
            guard let range = line.range(of: "BANDWIDTH=") else { return nil }
            return (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? -1, String(uri))
        })
        let bandwidth = try #require(interrupted.fields["variantBandwidth"] as? Int)
        let expected = try #require(rungs[bandwidth])
        #expect((interrupted.fields["mediaPlaylistURL"] as? String)?.hasSuffix("/ts/" + expected) == true,
                "\(interrupted.fields["mediaPlaylistURL"] ?? "") for \(bandwidth)")
        #expect(((interrupted.fields["bytesDownloaded"] as? Int) ?? 0) >= ((running.fields["bytesDownloaded"] as? Int) ?? 1))
    }

    /// Sends `bytes` to the daemon and reads until it closes the connection or 10 s pass.
    func readUntilClosed(_ daemon: DaemonProcess, sending bytes: String) throws -> (text: String, closed: Bool) {
        let reply = try RawSocket.exchange(port: try #require(URL(string: daemon.baseURL)?.port), sending: Array(bytes.utf8))
        return (String(decoding: reply.bytes, as: UTF8.self), reply.closed)
    }

    /// A second daemon on the data folder of a running one is refused (exit 2, naming the folder) and leaves
    /// the first one's session as it was; once the first has ended, the folder is free.
    @Test(.timeLimit(.minutes(2))) func aSecondDaemonOnTheSameDataFolderIsRefused() async throws {
        let data = ServerFixtures.temporaryDirectory("lock")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let origin = try LoopbackHTTPServer(root: TestRepository.streams)
        defer { origin.stop() }
        let first = try DaemonProcess(data: data)
        let id = try await pausedSession(first, origin)
        let second = await ChildProcess.run(ServerFixtures.playhead, ["serve", "--port", "0", "--data", data])
        #expect(second.status == 2)
        #expect(second.stderr.contains("the data folder \(data) is in use by another playhead serve"), "\(second.stderr)")
        #expect(try first.status(id) == "paused")
        first.terminate()
        let third = try DaemonProcess(data: data)
        #expect(ServerFixtures.object(try third.send("GET", "/v1/sessions/\(id)"))["status"] as? String == "stopped")
        third.terminate()
    }

    @Test(.timeLimit(.minutes(1))) func idleConnectionsAreClosed() throws {
        let data = ServerFixtures.temporaryDirectory("idle")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data, extra: ["--idle-timeout", "0.3"])
        defer { daemon.terminate() }
        // A head that never ends, and a kept-alive connection after its answer.
        #expect(try readUntilClosed(daemon, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n").closed)
        let kept = try readUntilClosed(daemon, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.closed && kept.text.hasPrefix("HTTP/1.1 200"))
    }

    @Test(.timeLimit(.minutes(1))) func aBrokenChunkedBodyIs400() throws {
        let data = ServerFixtures.temporaryDirectory("chunked")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data, extra: ["--idle-timeout", "0.3"])
        defer { daemon.terminate() }
        let reply = try readUntilClosed(daemon, sending: "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                        + "Transfer-Encoding: chunked\r\n\r\n4\r\n{\"ur\r\nzz\r\n")
        #expect(reply.text.hasPrefix("HTTP/1.1 400"), "\(reply.text)")
        #expect(reply.text.contains("malformedBody"), "\(reply.text)")
    }

    @Test(.timeLimit(.minutes(1))) func aSoakInTheDaemonEndsWithEachSessionsFinalFigures() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let data = ServerFixtures.temporaryDirectory("soak-server")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let daemon = try DaemonProcess(data: data, token: "t0k")
        defer { daemon.terminate() }
        var settings = SoakSettings(url: origin.url("/ts/v0/index.m3u8"), sessions: 2, durationSeconds: 2)
        settings.server = daemon.baseURL
        settings.token = "t0k"
        settings.summaryIntervalSeconds = 0.5
        let report = try await SoakRunner.run(settings) { _ in }
        let last = try #require(report.samples.last)
        #expect(last.running == 0 && last.sessions.count == 2)
        for session in last.sessions {
            #expect(session.status == "stopped")
            // The figures are the report's, not the last ones seen while it ran.
            let stored = ServerFixtures.object(try daemon.send("GET", "/v1/sessions/\(session.id)/report"))
            #expect(session.positionSeconds == stored["positionSeconds"] as? Double)
        }
        #expect(report.flags.isEmpty, "\(report.flags)")
    }
}
