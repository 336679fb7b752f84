import Foundation
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// `playhead download` when things go wrong: a failing server, a resume, a re-run over a complete folder,
/// retries, a live playlist, a damaged file found by --verify, usage errors.
@Suite struct DownloadResumeTests {
    /// A segment that keeps failing fails the download (exit 1, naming its URL); the files fetched stay. The
    /// next run fetches only the missing ones, no playlist, and the folder equals an uninterrupted download's;
    /// a run over the complete folder fetches nothing.
    @Test func resumesWhereAFailingServerStoppedIt() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder(), reference = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: reference) }
        let url = server.url("/fmp4/master.m3u8")
        server.setFault(.status(503), forPath: "/fmp4/v1/seg004.m4s")
        let failed = await Download.run([url, "--out", folder, "--variant", "1", "--retries", "2", "--retry-delay", "0"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(server.url("/fmp4/v1/seg004.m4s")) failed after 3 attempts: HTTP 503"), "\(failed.stderr)")
        #expect(failed.stdout.contains("incomplete"))
        #expect(Download.requested(server).filter { $0 == "/fmp4/v1/seg004.m4s" }.count == 3)
        #expect(try Download.manifestStatus(folder) == "pending")
        let onDisk = Set(Download.files(folder))
        let listed = try Download.manifestFiles(folder).map { $0["path"] as! String }
        let missing = listed.filter { !onDisk.contains($0) }
        #expect(missing.contains("variant/seg004.m4s"))

        server.setFault(nil, forPath: "/fmp4/v1/seg004.m4s")
        server.clearRequestLog()
        let resumed = await Download.run([url, "--out", folder, "--variant", "1"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(Download.requested(server).sorted() == missing.map { "/fmp4/v1/" + $0.dropFirst("variant/".count) }.sorted())
        #expect(resumed.stdout.contains("fetched: \(missing.count) file\(missing.count == 1 ? "" : "s"), "))
        #expect(try Download.manifestStatus(folder) == "complete")

        let whole = await Download.run([url, "--out", reference, "--variant", "1"])
        #expect(whole.status == 0)
        #expect(Download.files(folder) == Download.files(reference))
        for file in Download.files(folder) where file != "download.json" {
            #expect(FileManager.default.contentsEqual(atPath: folder + "/" + file, andPath: reference + "/" + file), "\(file)")
        }

        server.clearRequestLog()
        // Over a complete folder nothing is written, the manifest neither (it failed on read-only media).
        let manifestPath = folder + "/download.json"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: manifestPath)
        let again = await Download.run([url, "--out", folder, "--variant", "1"])
        #expect(again.status == 0)
        #expect(server.requestLog.isEmpty)
        #expect((try FileManager.default.attributesOfItem(atPath: manifestPath)[.modificationDate] as? Date) == Date(timeIntervalSince1970: 1_000_000))
        #expect(again.stdout.contains("fetched: 0 files, 0 bytes"))
        #expect(again.stdout.contains("9 already on disk"))
    }

    /// SIGINT stops the download (exit 130) with what was fetched recorded; the next run fetches the rest.
    @Test func resumesAfterSIGINT() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/ts/v2/index.m3u8")
        server.setFault(.stallAfter(bytes: 0), forPath: "/ts/v2/seg006.ts")
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["download", url, "--out", folder, "--concurrency", "1", "--quiet"]
        try process.run(signalling: SIGINT, once: server, asks: "/ts/v2/seg006.ts")
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: process.terminationStatus) }
        }
        #expect(status == 130)
        #expect(try Download.manifestStatus(folder) == "pending")
        let complete = try Download.manifestFiles(folder).filter { $0["status"] as? String == "complete" }.compactMap { $0["path"] as? String }
        #expect(Set(complete) == Set(["master.m3u8"] + (0..<6).map { String(format: "media/seg%03d.ts", $0) }))
        server.setFault(nil, forPath: "/ts/v2/seg006.ts")
        server.clearRequestLog()
        let resumed = await Download.run([url, "--out", folder])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(Download.requested(server).sorted() == ["/ts/v2/seg006.ts", "/ts/v2/seg007.ts"])
    }

    /// Files renamed into place after the manifest was last written (a process killed outright) are taken
    /// as complete by the next run, not fetched again.
    @Test func filesOnDiskTheManifestMissedAreKept() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/ts/v0/index.m3u8")
        #expect(await Download.run([url, "--out", folder]).status == 0)
        let manifestPath = folder + "/download.json"
        // Every segment pending, as the manifest was before they came (the playlists are written before it).
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        manifest["status"] = "pending"
        manifest["files"] = try Download.manifestFiles(folder).map { file -> [String: Any] in
            guard file["kind"] as? String == "segment" else { return file }
            return file.filter { !["size", "sha256"].contains($0.key) }.merging(["status": "pending"]) { $1 }
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        try FileManager.default.removeItem(atPath: folder + "/media/seg003.ts")
        server.clearRequestLog()
        let again = await Download.run([url, "--out", folder])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Download.requested(server) == ["/ts/v0/seg003.ts"])
        #expect(await Download.run(["--verify", folder]).status == 0)
    }

    /// A transient failure is retried (after the back-off) and the download completes.
    @Test func retriesATransientFailure() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        server.setFault(.status(500), forPath: "/aes/seg002.ts", times: 1)
        server.setFault(.closeConnection, forPath: "/aes/key.bin", times: 1)
        // The playlist too (it used to fail the run at its first 503).
        server.setFault(.status(503), forPath: "/aes/index.m3u8", times: 1)
        let out = await Download.run([server.url("/aes/index.m3u8"), "--out", folder, "--retry-delay", "0.01"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(Download.requested(server).filter { $0 == "/aes/index.m3u8" }.count == 2)
        #expect(Download.requested(server).filter { $0 == "/aes/seg002.ts" }.count == 2)
        #expect(Download.requested(server).filter { $0 == "/aes/key.bin" }.count == 2)
    }

    /// A 404 is not retried: the download fails at once naming the URL.
    @Test func aMissingSegmentFailsAtOnce() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        server.setFault(.status(404), forPath: "/ts/v0/seg006.ts")
        let out = await Download.run([server.url("/ts/v0/index.m3u8"), "--out", folder])
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(server.url("/ts/v0/seg006.ts")) failed after 1 attempt: HTTP 404"), "\(out.stderr)")
        #expect(Download.requested(server).filter { $0 == "/ts/v0/seg006.ts" }.count == 1)
    }

    /// A live playlist (no EXT-X-ENDLIST) is refused with a clear message; nothing is written.
    @Test func refusesALivePlaylist() async throws {
        let root = Download.folder()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:4,\nseg7.ts\n#EXTINF:4,\nseg8.ts\n"
            .write(toFile: root + "/live.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        let folder = root + "/out"
        let out = await Download.run([server.url("/live.m3u8"), "--out", folder])
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(server.url("/live.m3u8")) is a live playlist (no EXT-X-ENDLIST): only VOD can be downloaded"))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    /// --verify finds a damaged file (exit 1, naming it) and marks it; the next download fetches that file
    /// alone; --verify then passes.
    @Test func verifyFindsADamagedFile() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/aes/index.m3u8")
        #expect(await Download.run([url, "--out", folder]).status == 0)
        let clean = await Download.run(["--verify", folder])
        #expect(clean.status == 0 && clean.stdout.contains("10 of 10 files intact"), "\(clean.stdout)\(clean.stderr)")
        let path = folder + "/media/seg002.ts"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[1000] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = await Download.run(["--verify", folder])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("damaged: media/seg002.ts: SHA-256 "), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("9 of 10 files intact"))
        server.clearRequestLog()
        let repaired = await Download.run([url, "--out", folder])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(Download.requested(server) == ["/aes/seg002.ts"])
        #expect(await Download.run(["--verify", folder]).status == 0)
    }

    /// Usage and folder errors exit 2: both --variant and --bitrate; a folder that is not a download; a
    /// folder holding another choice's download.
    @Test func usageAndFolderErrors() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/aes/index.m3u8")
        let both = await Download.run([url, "--out", folder, "--variant", "1", "--bitrate", "5"])
        #expect(both.status == 2 && both.stderr.contains("--variant or --bitrate"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "x".write(toFile: folder + "/other.txt", atomically: true, encoding: .utf8)
        let foreign = await Download.run([url, "--out", folder])
        #expect(foreign.status == 2 && foreign.stderr.contains("is not a download folder"), "\(foreign.stderr)")
        try FileManager.default.removeItem(atPath: folder + "/other.txt")
        #expect(await Download.run([url, "--out", folder]).status == 0)
        let other = await Download.run([url, "--out", folder, "--subtitles", "none"])
        #expect(other.status == 2 && other.stderr.contains("holds the download of \(url) with (the defaults)"), "\(other.stderr)")
        let notAFolder = await Download.run(["--verify", folder + "/nothing"])
        #expect(notAFolder.status == 2)
        // An empty --out (an unset shell variable) is refused, not the working folder's root.
        let empty = await Download.run([url, "--out", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--out is empty"), "\(empty.stderr)")
        // A manifest naming a path outside the folder is not used: nothing is written there.
        let outside = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        var manifest = try String(contentsOfFile: folder + "/download.json", encoding: .utf8)
        let name = try #require(try Download.manifestFiles(folder).compactMap { $0["path"] as? String }.first { $0.hasSuffix(".ts") })
        let escape = "../" + (outside as NSString).lastPathComponent + "/stolen.ts"
        manifest = manifest.replacingOccurrences(of: "\"\(name)\"", with: "\"\(escape)\"")
        try manifest.write(toFile: folder + "/download.json", atomically: true, encoding: .utf8)
        let tampered = await Download.run([url, "--out", folder])
        #expect(tampered.status == 2 && tampered.stderr.contains("a path outside the folder"), "\(tampered.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outside + "/stolen.ts"))
    }

    /// A folder another run holds (its lock taken here as a second `playhead download` takes it) is refused
    /// with exit 2, for a download and for --verify, and nothing is written there; once it is free, both work.
    @Test func aFolderInUseIsRefused() async throws {
        let server = try LoopbackHTTPServer(root: CLI.streams)
        defer { server.stop() }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url("/aes/index.m3u8")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let held = open(folder, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let busy = await Download.run([url, "--out", folder])
        #expect(busy.status == 2 && busy.stderr.contains("another playhead download (or --verify) is using this folder"), "\(busy.stderr)")
        #expect(Download.files(folder).isEmpty)
        #expect(server.requestLog.isEmpty)
        close(held)
        #expect(await Download.run([url, "--out", folder]).status == 0)
        let again = open(folder, O_RDONLY | O_DIRECTORY)
        #expect(flock(again, LOCK_EX | LOCK_NB) == 0)
        let verifyBusy = await Download.run(["--verify", folder])
        #expect(verifyBusy.status == 2 && verifyBusy.stderr.contains("is using this folder"), "\(verifyBusy.stderr)")
        close(again)
        #expect(await Download.run(["--verify", folder]).status == 0)
    }
}
