import Foundation
import PlayheadMedia
import PlayheadNet

/// How a download fetches: transfers at once, retries and their back-off.
public struct DownloadSettings: Sendable, Equatable {
    /// Transfers under way at once (at least 1).
    public var concurrency: Int
    /// Further attempts at a file after a failure that may pass (5xx, 408, 429, transport errors,
    /// timeouts); a 404 or a bad key fails at once.
    public var retries: Int
    /// The wait before the first retry; it doubles at each further one.
    public var retryDelay: Duration

    /// Creates settings: 4 transfers, 3 retries from 0.5 s by default.
    public init(concurrency: Int = 4, retries: Int = 3, retryDelay: Duration = .milliseconds(500)) {
        self.concurrency = max(1, concurrency)
        self.retries = max(0, retries)
        self.retryDelay = retryDelay
    }
}

/// Where a download stands, for a progress line.
public struct DownloadProgress: Sendable, Equatable {
    /// Files on disk (of every kind, playlists included).
    public var filesDone: Int
    /// Files the folder will hold.
    public var filesTotal: Int
    /// Bytes fetched by this run.
    public var bytesFetched: Int
    /// Seconds since this run began fetching media.
    public var seconds: Double
}

/// What a run did.
public struct DownloadOutcome: Sendable {
    /// The manifest as written at the end.
    public var manifest: DownloadManifest
    /// Whether the folder already held this download (a resume, or a re-run over a complete one).
    public var resumed: Bool
    /// Files fetched by this run (playlists not counted).
    public var fetchedFiles: Int
    /// The bytes that came for them in this run (a resumed file's kept bytes not counted).
    public var fetchedBytes: Int
    /// Files found complete on disk at the start.
    public var alreadyOnDisk: Int
    /// Seconds spent fetching media.
    public var seconds: Double
    /// Why the run stopped before every file was on disk (nil when the folder is complete).
    public var failure: DownloadError?
    /// The files that failed too, while under way beside the one that stopped the run (no new file starts
    /// after a failure), in the order they failed.
    public var otherFailures: [DownloadError] = []
}

/// F33: downloads a stream into a self-contained folder (see ``DownloadPlanner`` for the layout) and
/// resumes an interrupted download. Files are written atomically; `download.json` lists every file with
/// its source, size, SHA-256 and status, and is rewritten at least once a second while files complete
/// (a file found on disk whose completion the manifest missed is taken as complete: only whole files
/// are ever renamed into place). A file whose transfer stopped keeps its partial part with a
/// ``ResumeRecord``, and the next attempt (a retry, or the next run) asks for the rest with
/// `Range: bytes=N-` and `If-Range`.
public struct OfflineDownload: Sendable {
    /// The client every fetch goes through.
    public let client: HTTPClient
    /// Concurrency and retries.
    public let settings: DownloadSettings
    /// Told, in a sentence naming the file, when a file resumes from the bytes an earlier attempt kept or
    /// restarts from its first byte because the server did not resume; called from any task.
    public let notices: @Sendable (String) -> Void

    /// Creates a download on `client`.
    public init(client: HTTPClient, settings: DownloadSettings = .init(), notices: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.settings = settings
        self.notices = notices
    }

    /// Downloads `request` into `folder`, or resumes there: a folder whose manifest records the same
    /// request fetches only what is missing (nothing when complete, not even the playlists); a folder
    /// holding another request's download, or anything but a download, is refused, and so is a folder
    /// another run holds (see ``FolderLock``).
    /// - Parameter progress: called after each file, from the calling task.
    /// - Returns: what was done; `failure` says why the folder is incomplete (a file that kept failing,
    ///   cancellation).
    /// - Throws: errors before any media is fetched: the folder's (`.folder`) and the stream's (`.player`,
    ///   `.live`, `.noMatch`).
    public func run(_ request: DownloadRequest, folder: String,
                    progress: (DownloadProgress) -> Void = { _ in }) async throws(DownloadError) -> DownloadOutcome {
        var createdFolder = false
        let lock = try FolderLock(folder: folder, createdFolder: &createdFolder)
        defer { withExtendedLifetime(lock) {} }
        do {
            return try await run(request, lockedFolder: folder, progress: progress)
        } catch {
            // A stream that failed before anything was written leaves no empty folder behind.
            if createdFolder { rmdir(folder) }
            throw error
        }
    }

    private func run(_ request: DownloadRequest, lockedFolder folder: String,
                     progress: (DownloadProgress) -> Void) async throws(DownloadError) -> DownloadOutcome {
        var manifest: DownloadManifest
        let resumed: Bool
        // The manifest as the folder holds it: rewritten only when it changes (a complete folder on read-only
        // media is run over without a write).
        var stored: DownloadManifest?
        if let existing = try DownloadManifest.read(folder: folder) {
            stored = existing
            guard existing.request == request else {
                throw .folder(path: folder, detail: "holds the download of \(existing.request.source) with \(existing.request.choiceDescription); "
                    + "this run asks for \(request.source) with \(request.choiceDescription): choose another folder or remove it")
            }
            manifest = existing
            resumed = true
            for notice in Self.reconcile(&manifest, folder: folder) { notices(notice) }
            if manifest.files.contains(where: { $0.kind == .playlist && $0.status != .complete }) {
                try await rewritePlaylists(&manifest, folder: folder)
            }
        } else {
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: folder), !entries.isEmpty {
                throw .folder(path: folder, detail: "exists and is not a download folder (no \(DownloadManifest.fileName)): give a new or empty folder")
            }
            let plan = try await DownloadPlanner(client: client).plan(request)
            manifest = plan.manifest
            resumed = false
            try Self.write(plan.playlists, into: &manifest, folder: folder)
        }
        let alreadyOnDisk = manifest.files.filter { $0.kind != .playlist && $0.status == .complete }.count
        manifest.status = manifest.pending.isEmpty ? .complete : .pending
        if manifest != stored {
            try manifest.write(folder: folder)
            stored = manifest
        }

        let started = ContinuousClock.now
        var fetchedFiles = 0
        var fetchedBytes = 0
        var failure: DownloadError?
        var otherFailures: [DownloadError] = []
        var lastSave = started
        let total = manifest.files.count
        var done = manifest.files.count - manifest.pending.count
        func report() {
            progress(DownloadProgress(filesDone: done, filesTotal: total, bytesFetched: fetchedBytes,
                                      seconds: (ContinuousClock.now - started).secondsDouble))
        }
        report()
        let work = manifest.files.indices.filter { manifest.files[$0].status != .complete && manifest.files[$0].kind != .playlist }
        await withTaskGroup(of: (Int, Result<(size: Int, sha256: String, fetched: Int), DownloadError>).self) { group in
            var next = work.makeIterator()
            var running = 0
            func startNext() -> Bool {
                guard failure == nil, !Task.isCancelled, let index = next.next() else { return false }
                let file = manifest.files[index]
                group.addTask { (index, await self.fetch(file, folder: folder)) }
                running += 1
                return true
            }
            while running < settings.concurrency, startNext() {}
            while let (index, result) = await group.next() {
                running -= 1
                switch result {
                case let .success((size, sha256, fetched)):
                    manifest.files[index].status = .complete
                    manifest.files[index].size = size
                    manifest.files[index].sha256 = sha256
                    fetchedFiles += 1
                    fetchedBytes += fetched
                    done += 1
                    report()
                    if ContinuousClock.now - lastSave >= .seconds(1) {
                        try? manifest.write(folder: folder)
                        lastSave = .now
                    }
                case let .failure(error):
                    // The first real failure is the one told; a cancellation only when nothing else failed.
                    if failure == nil || failure?.isCancellation == true {
                        failure = error
                    } else if !error.isCancellation {
                        otherFailures.append(error)
                    }
                }
                _ = startNext()
            }
        }
        if failure == nil, Task.isCancelled, !manifest.pending.isEmpty { failure = .cancelled }
        manifest.status = manifest.pending.isEmpty ? .complete : .pending
        if manifest != stored { try manifest.write(folder: folder) }
        return DownloadOutcome(manifest: manifest, resumed: resumed, fetchedFiles: fetchedFiles, fetchedBytes: fetchedBytes,
                               alreadyOnDisk: alreadyOnDisk, seconds: (ContinuousClock.now - started).secondsDouble, failure: failure,
                               otherFailures: otherFailures)
    }

    /// Fetches one file with retries, checks it, writes it atomically; its size, SHA-256 and the bytes that came now. The body
    /// goes to disk as it arrives (a key, 16 bytes, is checked in memory first). A partial part kept by an
    /// earlier attempt is resumed (see ``ResumeRecord``); a server that refuses the range (416, or a
    /// `Content-Range` that does not start at the kept size) gets one more request for the whole file,
    /// not counted as an attempt.
    private func fetch(_ file: DownloadFile, folder: String) async -> Result<(size: Int, sha256: String, fetched: Int), DownloadError> {
        var attempt = 0
        var delay = settings.retryDelay
        let path = folder + "/" + file.path
        var mayResume = true
        while true {
            attempt += 1
            var record = mayResume && file.kind != .key ? ResumeRecord.read(for: path) : nil
            // A part that is already whole: its last byte is asked for again (a range of it alone would be refused
            // with a 416 and the file fetched whole), and If-Range still tells whether the file changed.
            let whole = record.map { $0.size == $0.length } ?? false
            if whole { record?.size -= 1 }
            if let kept = record, kept.ifRange == nil {
                // Nothing to ask If-Range with: a file changed on the server would be spliced from two versions.
                notices("\(file.path): restarted from byte 0: its first \(kept.size) bytes came with no ETag or Last-Modified to check them against")
                ResumeRecord.discardPartial(for: path)
                record = nil
            }
            let sink: FileSink?
            do {
                sink = file.kind == .key ? nil : try FileSink(path: path, resume: record) { [notices] outcome in
                    // Said as the answer begins (a run killed later still said it).
                    switch outcome {
                    case let .resumed(at): notices("\(file.path): resumed at byte \(at)" + (whole ? " (its \(at + 1) bytes were all there: the last one is fetched again to check the file is unchanged)" : ""))
                    case let .restarted(_, reason): notices("\(file.path): restarted from byte 0: \(reason)")
                    }
                }
            } catch { return .failure(error) }
            let range = sink?.resumeOffset.map { ByteRangeRequest(offset: $0) }
            let headers = sink?.ifRange.map { ["If-Range": $0] } ?? [:]
            let body: [UInt8]
            do {
                body = if let sink { try await client.get(file.source, range: range, headers: headers, sink: sink).body }
                       else { try await client.get(file.source).body }
            } catch {
                if let failure = sink?.writeFailure { sink?.discard(); return .failure(failure) }
                // The kept bytes cannot be continued (another file now, or the range refused): the whole file, once
                // more, not counted as an attempt.
                if let range, let why = sink?.resourceChange ?? (sink?.resumeOutcome == nil && Self.refusesRange(error)
                    ? "the server did not resume at byte \(range.offset) (\(error.description))" : nil) {
                    sink?.discard()
                    notices("\(file.path): restarted from byte 0: \(why)")
                    mayResume = false
                    attempt -= 1
                    continue
                }
                sink?.keep()
                if case .cancelled = error { return .failure(.cancelled) }
                guard error.isRetryable, attempt <= settings.retries, !Task.isCancelled else {
                    return .failure(.transfer(url: file.source, attempts: attempt, error))
                }
                do { try await Task.sleep(for: delay) } catch { return .failure(.cancelled) }
                delay *= 2
                continue
            }
            let size = sink?.size ?? body.count
            if file.kind == .key, size != 16 {
                return .failure(.badFile(url: file.source, detail: "an AES-128 key is 16 bytes, this one is \(size)"))
            }
            if let end = file.rangeEnd, size < end {
                sink?.discard()
                return .failure(.badFile(url: file.source, detail: "\(size) bytes, but the playlist's byte ranges reach byte \(end)"))
            }
            guard let sink else {
                do { try AtomicFile.write(body, to: path) } catch { return .failure(error) }
                return .success((body.count, SHA256.hex(of: body), body.count))
            }
            // What came now: a resumed file's kept bytes were fetched by an earlier attempt.
            let kept = if case let .resumed(at)? = sink.resumeOutcome { at } else { 0 }
            do {
                let (size, sha256) = try sink.finish()
                return .success((size, sha256, size - kept))
            } catch { return .failure(error) }
        }
    }

    /// Whether `error` is a server's refusal of a resume's range: 416, or a 206 for another range.
    private static func refusesRange(_ error: HTTPError) -> Bool {
        switch error {
        case .status(_, 416, _): true
        case .transport(_, 33, _): true  // CURLE_RANGE_ERROR: the Content-Range did not match
        default: false
        }
    }

    /// Checks a resumed folder against its manifest: a complete file that is gone or has another size
    /// becomes pending; a pending file that is on disk (renamed into place after the manifest was last
    /// written) is hashed and taken as complete. Temporary files an interruption left are removed, but for
    /// the partial part of a file still to fetch that its ``ResumeRecord`` vouches for. Returns a notice for
    /// each partial part of a pending file dropped because its record does not vouch for it.
    @discardableResult
    static func reconcile(_ manifest: inout DownloadManifest, folder: String) -> [String] {
        var notices: [String] = []
        for index in manifest.files.indices {
            let file = manifest.files[index]
            let path = folder + "/" + file.path
            defer {
                let status = manifest.files[index].status
                let kept = ResumeRecord.load(for: path)
                if status == .pending, file.kind != .playlist, case let .unusable(why) = kept {
                    notices.append("\(file.path): restarted from byte 0: \(why)")
                }
                let usable = if case .usable = kept { true } else { false }
                if status == .complete || file.kind == .playlist || !usable {
                    ResumeRecord.discardPartial(for: path)
                } else {
                    unlink(path + ResumeRecord.suffix + AtomicFile.temporarySuffix)
                }
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            switch file.status {
            case .complete:
                if size == nil || size != file.size { manifest.files[index].status = .pending }
            case .damaged:
                break
            case .pending:
                guard file.kind != .playlist, let size, size >= (file.rangeEnd ?? 0), file.kind != .key || size == 16,
                      let digest = SHA256.hex(ofFile: path) else { continue }
                manifest.files[index].status = .complete
                manifest.files[index].size = digest.size
                manifest.files[index].sha256 = digest.sha256
            }
        }
        return notices
    }

    /// Writes the playlists and records them complete.
    static func write(_ playlists: [(path: String, source: String, text: String)], into manifest: inout DownloadManifest,
                      folder: String) throws(DownloadError) {
        for playlist in playlists {
            let bytes = Array(playlist.text.utf8)
            try AtomicFile.write(bytes, to: folder + "/" + playlist.path)
            if let index = manifest.files.firstIndex(where: { $0.path == playlist.path }) {
                manifest.files[index].status = .complete
                manifest.files[index].size = bytes.count
                manifest.files[index].sha256 = SHA256.hex(of: bytes)
            }
        }
    }

    /// A playlist of a resumed folder is missing or damaged: plans again (fetching the playlists) and
    /// writes them, provided the stream still lists the same files.
    private func rewritePlaylists(_ manifest: inout DownloadManifest, folder: String) async throws(DownloadError) {
        let plan = try await DownloadPlanner(client: client).plan(manifest.request)
        let key = { (files: [DownloadFile]) in files.map { [$0.path, $0.source] } }
        guard key(plan.manifest.files) == key(manifest.files) else {
            throw .folder(path: folder, detail: "a playlist is missing and the stream now lists other files: remove the folder and download again")
        }
        try Self.write(plan.playlists, into: &manifest, folder: folder)
    }
}
