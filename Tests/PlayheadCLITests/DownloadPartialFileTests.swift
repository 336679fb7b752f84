import Foundation
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// `playhead download` keeps the partial part of a file whose transfer was cut, with a record of its size
/// and the server's validator, and the next run asks for the rest (`Range: bytes=N-`, `If-Range`); a server
/// that does not resume, or a file that changed, gets the whole file again; a partial part without its
/// record is not trusted. The file is the byte-range presentation's single 3.4 MB resource.
@Suite struct DownloadPartialFileTests {
    static let resource = "/byterange/media.ts"
    static let cut = 1_000_000

    /// A server on a copy of the byte-range stream (a test may change its file), and its original bytes.
    static func server() throws -> (LoopbackHTTPServer, root: String, original: [UInt8]) {
        let root = Download.folder()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.streams + "/byterange", toPath: root + "/byterange")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + resource)))
        return (try LoopbackHTTPServer(root: root), root, original)
    }

    /// `playhead download` without --quiet (the resume notices are wanted).
    static func run(_ server: LoopbackHTTPServer, _ folder: String, _ extra: [String] = []) async -> ChildProcess.Outcome {
        await CLI.run(CLI.playhead, ["download", server.url("/byterange/index.m3u8"), "--out", folder] + extra)
    }

    /// The resource's path inside the download folder.
    static func localPath(_ folder: String) throws -> String {
        let entry = try #require(try Download.manifestFiles(folder).first { ($0["source"] as? String)?.hasSuffix(resource) == true })
        return folder + "/" + (entry["path"] as? String ?? "")
    }

    /// A first run whose transfer of the resource is cut after ``cut`` bytes, without retries: it fails
    /// and keeps those bytes, with a record, the file pending.
    static func cutRun(_ server: LoopbackHTTPServer, _ folder: String) async throws -> String {
        server.setFault(.truncate(afterBytes: cut), forPath: resource, times: 1)
        let failed = await Download.run([server.url("/byterange/index.m3u8"), "--out", folder, "--retries", "0"])
        #expect(failed.status == 1, "\(failed.stderr)")
        let path = try localPath(folder)
        let partSize = (try? FileManager.default.attributesOfItem(atPath: path + ".playhead-part"))?[.size] as? Int
        #expect(partSize == cut, "the partial part is kept")
        #expect(FileManager.default.fileExists(atPath: path + ".playhead-resume"), "with its record")
        #expect(!FileManager.default.fileExists(atPath: path))
        let entry = try Download.manifestFiles(folder).first { ($0["source"] as? String)?.hasSuffix(resource) == true }
        #expect(entry?["status"] as? String == "pending")
        let verify = await Download.run(["--verify", folder])
        #expect(verify.status == 1 && verify.stdout.contains("\(cut) bytes kept for a resume"), "\(verify.stdout)")
        server.clearRequestLog()
        return path
    }

    /// Runs a download whose transfer of the resource stalls after ``cut`` bytes, sends it `signal` once those
    /// bytes are on disk (watched from a thread of its own, not the cooperative pool) and returns its exit status.
    static func signalWhenCut(_ server: LoopbackHTTPServer, _ folder: String, _ signal: Int32) async throws -> Int32 {
        server.setFault(.stallAfter(bytes: cut), forPath: resource, times: 1)
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: CLI.playhead)
        process.arguments = ["download", server.url("/byterange/index.m3u8"), "--out", folder, "--quiet"]
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline, process.isRunning {
                    let parts = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".playhead-part") }
                    let sizes = parts.compactMap { (try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0))?[.size] as? Int }
                    if sizes.contains(cut) { break }
                    usleep(10_000)
                }
                kill(process.processIdentifier, signal)
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    /// The finished file holds `expected` and the manifest records its SHA-256; --verify passes.
    static func expectComplete(_ folder: String, _ expected: [UInt8]) async throws {
        let path = try localPath(folder)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        let entry = try Download.manifestFiles(folder).first { ($0["source"] as? String)?.hasSuffix(resource) == true }
        #expect(entry?["sha256"] as? String == SHA256.hex(of: expected))
        #expect(entry?["size"] as? Int == expected.count)
        #expect(!FileManager.default.fileExists(atPath: path + ".playhead-part"))
        #expect(!FileManager.default.fileExists(atPath: path + ".playhead-resume"))
        #expect(await Download.run(["--verify", folder]).status == 0)
    }

    /// The resume record beside the file at `path`, as JSON.
    static func record(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + ".playhead-resume"))) as? [String: Any])
    }

    /// Writes `record` as the resume record beside the file at `path`.
    static func write(_ record: [String: Any], for path: String) throws {
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path + ".playhead-resume"))
    }

    /// (a) A transfer cut mid-file: the next run asks for the rest only, from the kept size, and the file is
    /// whole and right.
    @Test func aCutTransferResumesWithARangeRequest() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.cutRun(server, folder)
        let resumed = await Self.run(server, folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resumed at byte \(Self.cut)"), "\(resumed.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(Self.cut)-"])
        #expect(asked.map(\.status) == [206])
        #expect(resumed.stdout.contains("fetched: 1 file, \(original.count - Self.cut) bytes"), "\(resumed.stdout)")
        try await Self.expectComplete(folder, original)
    }

    /// A retry in the same run resumes too: the second attempt asks for the rest only.
    @Test func aRetryResumesTheCutTransfer() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        server.setFault(.truncate(afterBytes: Self.cut), forPath: Self.resource, times: 1)
        let out = await Self.run(server, folder, ["--retry-delay", "0"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("resumed at byte \(Self.cut)"), "\(out.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == [nil, "bytes=\(Self.cut)-"])
        #expect(asked.map(\.status) == [200, 206])
        try await Self.expectComplete(folder, original)
    }

    /// (a) The same after SIGINT while the transfer stalls: the bytes that came are kept and resumed.
    @Test func anInterruptedTransferResumes() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let status = try await Self.signalWhenCut(server, folder, SIGINT)
        #expect(status == 130)
        let path = try Self.localPath(folder)
        #expect(FileManager.default.fileExists(atPath: path + ".playhead-resume"))
        server.clearRequestLog()
        let resumed = await Self.run(server, folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resumed at byte \(Self.cut)"), "\(resumed.stderr)")
        #expect(server.requestLog.filter { $0.path == Self.resource }.map(\.rangeHeader) == ["bytes=\(Self.cut)-"])
        try await Self.expectComplete(folder, original)
    }

    /// A process killed outright (SIGKILL) while a file's body came leaves its partial part resumable: the
    /// record is written, as growing, when the answer begins (QA32: after kill -9 every file started over).
    @Test func aProcessKilledOutrightStillResumes() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let status = try await Self.signalWhenCut(server, folder, SIGKILL)
        #expect(status == SIGKILL)
        let path = try Self.localPath(folder)
        let record = try Self.record(path)
        #expect(record["growing"] as? Bool == true, "\(record)")
        server.clearRequestLog()
        let resumed = await Self.run(server, folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resumed at byte \(Self.cut)"), "\(resumed.stderr)")
        #expect(server.requestLog.filter { $0.path == Self.resource }.map(\.rangeHeader) == ["bytes=\(Self.cut)-"])
        try await Self.expectComplete(folder, original)
    }

    /// A server that ignores If-Range sends the rest of the new file (206) after the file changed: its ETag
    /// differs from the kept bytes', so the transfer stops and the file is fetched whole (QA32: spliced, and
    /// --verify called the hybrid intact).
    @Test func aChangedFileBehindAServerIgnoringIfRangeIsNotSpliced() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.cutRun(server, folder)
        var changed = original
        for index in stride(from: 10, to: changed.count, by: 4096) { changed[index] ^= 0x5A }
        try Data(changed).write(to: URL(fileURLWithPath: root + Self.resource), options: .atomic)  // a new inode: a new ETag
        server.setFault(.ignoreIfRange, forPath: Self.resource)
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: the file changed on the server (ETag "), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(Self.cut)-", nil], "\(asked.map(\.rangeHeader))")
        #expect(asked.map(\.status) == [206, 200])
        try await Self.expectComplete(folder, changed)
    }

    /// (b) A server that ignores Range answers 200: the file restarts from its first byte, said so, and is right.
    @Test func aServerIgnoringRangeRestartsTheFile() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.cutRun(server, folder)
        server.setFault(.ignoreRange, forPath: Self.resource)
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: the server sent the whole file instead of the rest from byte \(Self.cut)"), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(Self.cut)-"])
        #expect(asked.map(\.status) == [200])
        try await Self.expectComplete(folder, original)
    }

    /// (c) The file changed on the server between the runs: If-Range names the old version, the server
    /// answers 200 with the new file, which is kept whole with its own hash.
    @Test func aChangedFileIsFetchedWholeThroughIfRange() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.cutRun(server, folder)
        var changed = original
        for index in stride(from: 10, to: changed.count, by: 4096) { changed[index] ^= 0x5A }
        try Data(changed).write(to: URL(fileURLWithPath: root + Self.resource), options: .atomic)  // a new inode: a new ETag
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0"), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(Self.cut)-"])
        #expect(asked.map(\.status) == [200])
        try await Self.expectComplete(folder, changed)
    }

    /// A resume's 206 for a file of another size (a server that ignores If-Range) is not spliced either: the total
    /// in its Content-Range differs from the one recorded, and the file restarts.
    @Test func aFileOfAnotherSizeIsNotSpliced() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        let record = try Self.record(path)
        #expect(record["length"] as? Int == original.count)
        var changed = Array(original.prefix(Self.cut))
        changed[10] ^= 0x5A
        changed += original.dropFirst(Self.cut) + Array(repeating: 0x47, count: 188)
        try Data(changed).write(to: URL(fileURLWithPath: root + Self.resource), options: .atomic)
        server.setFault(.ignoreIfRange, forPath: Self.resource)
        let again = await Self.run(server, folder)
        #expect(again.stderr.contains("restarted from byte 0: the file is now \(changed.count) bytes, not the \(original.count)"), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(Self.cut)-", nil], "\(asked.map(\.rangeHeader))")
        try await Self.expectComplete(folder, changed)
    }

    /// Kept bytes whose answer gave neither ETag nor Last-Modified are not resumed: with nothing to send as
    /// If-Range, a file changed on the server would be spliced from two versions (QA33).
    @Test func aPartWithoutAValidatorIsNotResumed() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        var record = try Self.record(path)
        record["etag"] = nil
        record["lastModified"] = nil
        try Self.write(record, for: path)
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: its first \(Self.cut) bytes came with no ETag or Last-Modified to check them against"), "\(again.stderr)")
        #expect(server.requestLog.filter { $0.path == Self.resource }.map(\.rangeHeader) == [nil])
        try await Self.expectComplete(folder, original)
    }

    /// A range the server cannot satisfy (416: the record, which knows no total length, claims more bytes than
    /// the file has) gets one more request, for the whole file, said so.
    @Test func anUnsatisfiableRangeFetchesTheWholeFile() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        var record = try Self.record(path)
        record["size"] = original.count + 10
        record["length"] = nil
        try Self.write(record, for: path)
        let part = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".playhead-part"))
        try part.seekToEnd()
        try part.write(contentsOf: Data(repeating: 0, count: original.count + 10 - Self.cut))
        try part.close()
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: the server did not resume at byte \(original.count + 10) (HTTP 416"), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(original.count + 10)-", nil])
        #expect(asked.map(\.status) == [416, 200])
        try await Self.expectComplete(folder, original)
    }

    /// (d) A partial part without its record (a process killed before writing it) is not trusted: it is
    /// deleted and the file fetched whole, even though the part's bytes were damaged.
    @Test func aPartialPartWithoutItsRecordIsNotTrusted() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        try FileManager.default.removeItem(atPath: path + ".playhead-resume")
        try Data(repeating: 0xEE, count: Self.cut).write(to: URL(fileURLWithPath: path + ".playhead-part"))
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("resumed"), "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: its \(Self.cut) bytes from an earlier run have no media.ts.playhead-resume record"),
                "said, not dropped silently: \(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == [nil])
        #expect(asked.map(\.status) == [200])
        try await Self.expectComplete(folder, original)
    }

    /// A part that is already whole (a run stopped after its last byte but before it was renamed into place)
    /// asks for its last byte only, with If-Range: a range from its size would be refused (416) and the file
    /// fetched again whole.
    @Test func aWholePartAsksForItsLastByteOnly() async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        try Data(original).write(to: URL(fileURLWithPath: path + ".playhead-part"))
        var record = try Self.record(path)
        record["size"] = original.count
        try Self.write(record, for: path)
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("resumed at byte \(original.count - 1) (its \(original.count) bytes were all there"), "\(again.stderr)")
        let asked = server.requestLog.filter { $0.path == Self.resource }
        #expect(asked.map(\.rangeHeader) == ["bytes=\(original.count - 1)-"], "\(asked.map(\.rangeHeader))")
        #expect(asked.map(\.status) == [206])
        try await Self.expectComplete(folder, original)
    }

    /// A record that does not vouch for its part (it does not read, names more bytes than the part holds, or
    /// more than the file's length) drops the part, and says why, instead of restarting silently.
    @Test(arguments: ["garbage", "beyond the part", "beyond the length", "negative"])
    func aRecordThatDoesNotVouchForItsPartIsSaid(damage: String) async throws {
        let (server, root, original) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: root) }
        let folder = Download.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.cutRun(server, folder)
        var record = try Self.record(path)
        let said: String
        switch damage {
        case "garbage":
            try Data("{\"size\": \"many\"".utf8).write(to: URL(fileURLWithPath: path + ".playhead-resume"))
            said = "its record media.ts.playhead-resume does not read as one"
        case "beyond the part":
            record["size"] = Self.cut + 1
            try Self.write(record, for: path)
            said = "its record media.ts.playhead-resume names \(Self.cut + 1) bytes, the partial file holds \(Self.cut)"
        case "negative":
            record["size"] = -5
            try Self.write(record, for: path)
            said = "its record media.ts.playhead-resume names -5 bytes"
        default:
            record["length"] = Self.cut - 1
            try Self.write(record, for: path)
            said = "its record media.ts.playhead-resume names \(Self.cut) bytes of a \(Self.cut - 1)-byte file"
        }
        let again = await Self.run(server, folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("restarted from byte 0: " + said), "\(again.stderr)")
        #expect(server.requestLog.filter { $0.path == Self.resource }.map(\.rangeHeader) == [nil])
        try await Self.expectComplete(folder, original)
    }
}
