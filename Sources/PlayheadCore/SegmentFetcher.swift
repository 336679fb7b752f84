import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// A segment's bytes ready for the demuxer: decrypted, with its init section in front.
public struct FetchedSegment: Sendable {
    /// The segment's absolute URL.
    public var url: String
    /// Decrypted bytes; for fMP4, the init section followed by the media.
    public var bytes: [UInt8]
    /// The media transfer (its timings; key and init section transfers are not in it).
    public var transfer: NetworkTransfer
    /// Session seconds all transfers for this segment took (key and init section included, when fetched now).
    public var seconds: Double
    /// Bytes of the init section at the front of ``bytes`` (0 without one).
    public var initializationByteCount = 0
    /// Bytes fetched over the network for it now: the media as served (before decryption), and its key and
    /// init section when they were fetched now rather than taken from the cache.
    public var fetchedByteCount = 0
    /// Why the media did not decrypt with a good key (``bytes`` then holds no media, and the transfer's
    /// damage says so); nil when it did, or was clear.
    public var decryptionFailure: MediaError?
    /// What is wrong with its init section (EXT-X-MAP), named by URL (a box cut short, no moov); nil when
    /// it has none or it holds together. The first segment that uses it also says it in its transfer's damage.
    public var initializationProblem: String?

    /// Whether the media part is empty while an init section is in front: the demuxer would open the init
    /// section alone and find nothing to play, where an empty segment without one fails to open.
    public var hasEmptyMedia: Bool { initializationByteCount > 0 && bytes.count == initializationByteCount }
}

/// Fetches segments through a `PlayerNetwork`: byte ranges, AES-128 keys and init sections (each key
/// and init section fetched once and kept). A ``KeyProvider`` is asked for each key first.
public actor SegmentFetcher {
    private let network: any PlayerNetwork
    private let keyProvider: (any KeyProvider)?
    private var keys: [String: [UInt8]] = [:]
    /// Each init section fetched (decrypted), with what is wrong with it, judged once when it came.
    private var initSections: [String: (bytes: [UInt8], problem: String?)] = [:]

    /// Creates a fetcher on `network`; `keyProvider`, when given, is asked for each key before it is fetched.
    public init(network: any PlayerNetwork, keyProvider: (any KeyProvider)? = nil) {
        self.network = network
        self.keyProvider = keyProvider
    }

    /// Fetches `segment` (whose URIs resolve against `baseURL`) at session time `seconds`, decrypts it
    /// and puts its init section in front.
    public func fetch(_ segment: MediaSegment, baseURL: String, at seconds: Double) async throws(PlayheadError) -> FetchedSegment {
        let url = try ResourceURL.resolve(segment.uri, against: baseURL)
        var elapsed = 0.0
        var fetched = 0
        var initBytes: [UInt8] = []
        var initializationProblem: String?
        var firstUseOfProblem = false
        if let map = segment.map {
            let section = try await initSection(map, key: map.key, mediaSequence: segment.mediaSequence,
                                                baseURL: baseURL, at: seconds, elapsed: &elapsed, fetched: &fetched)
            initBytes = section.bytes
            initializationProblem = section.problem
            // Said once, by the segment that fetched it.
            firstUseOfProblem = section.fetchedNow
        }
        let transfer = try await network.fetch(url, range: segment.byteRange.map(Self.request), at: seconds + elapsed)
        elapsed += transfer.seconds
        fetched += transfer.body.count
        var bytes = transfer.body
        var decryptionFailure: MediaError?
        var trimmed = transfer
        trimmed.body = []
        if firstUseOfProblem, let initializationProblem { trimmed.damage.append(initializationProblem) }
        if let key = segment.key {
            switch try await decrypt(bytes, key: key, mediaSequence: segment.mediaSequence, url: url,
                                     baseURL: baseURL, at: seconds, elapsed: &elapsed, fetched: &fetched) {
            case .success(let plain):
                bytes = plain
            case .failure(let error):
                // The key is good but this segment does not decrypt: it is damaged, as an unreadable clear segment
                // is; it is skipped and said, not retried as a network error, and playback goes on.
                trimmed.damage.append("\(url): \(error.description); the segment is skipped")
                decryptionFailure = error
                bytes = []
            }
        }
        if let range = segment.byteRange, transfer.body.count < range.length {
            // The resource ends inside the range: play what came, but say that the segment is cut short.
            trimmed.damage.append("\(url): EXT-X-BYTERANGE \(range.length)@\(range.offset) read short, "
                + "\(transfer.body.count) of \(range.length) bytes (the resource ends at byte \(range.offset + transfer.body.count))")
        }
        // A segment that did not decrypt holds nothing to read, its init section neither (an init section
        // alone would be demuxed, and its missing media said a second time).
        let whole = decryptionFailure == nil ? initBytes + bytes : []
        return FetchedSegment(url: url, bytes: whole, transfer: trimmed, seconds: elapsed,
                              initializationByteCount: decryptionFailure == nil ? initBytes.count : 0, fetchedByteCount: fetched,
                              decryptionFailure: decryptionFailure, initializationProblem: initializationProblem)
    }

    private static func request(_ range: ByteRange) -> ByteRangeRequest {
        ByteRangeRequest(offset: range.offset, length: range.length)
    }

    /// The init section's bytes (fetched once, decrypted), what is wrong with it (named by URL and range),
    /// and whether this call fetched it.
    private func initSection(_ map: MediaInitializationSection, key: SegmentKey?, mediaSequence: Int, baseURL: String, at seconds: Double,
                             elapsed: inout Double, fetched: inout Int) async throws(PlayheadError) -> (bytes: [UInt8], problem: String?, fetchedNow: Bool) {
        let url = try ResourceURL.resolve(map.uri, against: baseURL)
        let cacheKey = url + (map.byteRange.map { "@\($0.offset)+\($0.length)" } ?? "")
        if let cached = initSections[cacheKey] { return (cached.bytes, cached.problem, false) }
        let transfer = try await network.fetch(url, range: map.byteRange.map(Self.request), at: seconds + elapsed)
        elapsed += transfer.seconds
        fetched += transfer.body.count
        var bytes = transfer.body
        if let key {
            bytes = try await decrypt(bytes, key: key, mediaSequence: mediaSequence, url: url, baseURL: baseURL,
                                      at: seconds, elapsed: &elapsed, fetched: &fetched).get(or: url)
        }
        let problem = ContainerFormat.initializationProblem(bytes).map { problem in
            "the initialization section \(url)" + (map.byteRange.map { " (BYTERANGE \($0.length)@\($0.offset))" } ?? "") + " is unusable: " + problem
        }
        initSections[cacheKey] = (bytes, problem)
        return (bytes, problem, true)
    }

    /// Decrypts `bytes` as `key` says. A key that cannot be had (its fetch fails, it is not 16 bytes) or an
    /// unsupported method throws: the stream's fault. Bytes that do not decrypt with a good key (a size that
    /// is not a multiple of 16, bad padding) come back as a failure: that one resource is damaged.
    private func decrypt(_ bytes: [UInt8], key: SegmentKey, mediaSequence: Int, url: String, baseURL: String,
                         at seconds: Double, elapsed: inout Double, fetched: inout Int) async throws(PlayheadError) -> Result<[UInt8], MediaError> {
        // A DRM KEYFORMAT's SAMPLE-AES key the provider gives: the samples are encrypted as with an identity key.
        let providedDRMKey = key.method == .sampleAES && !key.isIdentityFormat ? try await providedKey(key, url: url, baseURL: baseURL) : nil
        switch key.method {
        case .none:
            return .success(bytes)
        case .aes128:
            let keyBytes = try await fetchKey(key, url: url, baseURL: baseURL, at: seconds, elapsed: &elapsed, fetched: &fetched)
            do {
                return .success(try AES128.decrypt(bytes, key: keyBytes, iv: key.iv ?? AES128.iv(mediaSequence: mediaSequence)))
            } catch {
                return .failure(error)
            }
        case .sampleAES where key.isIdentityFormat || providedDRMKey != nil:
            if let why = SampleAES.unsupportedContainer(bytes) { throw .unsupported(url: url, detail: why) }
            let keyBytes = try await fetchKey(key, url: url, baseURL: baseURL, at: seconds, elapsed: &elapsed, fetched: &fetched)
            var samples = bytes
            do {
                try SampleAES.decrypt(&samples, key: keyBytes, iv: key.iv ?? AES128.iv(mediaSequence: mediaSequence))
            } catch {
                return .failure(error)
            }
            return .success(samples)
        default:
            let what = switch key.method {
            case .sampleAES:
                " with KEYFORMAT \"\(key.keyFormat ?? "")\" (a DRM system's key: it needs that system's license server)"
            case .sampleAESCTR:
                " (samples encrypted inside the segments: CENC DRM on fMP4)"
            default:
                ""
            }
            throw .unsupported(url: url, detail: "EXT-X-KEY METHOD=\(key.method.text)\(what) is not supported: Playhead decrypts METHOD=AES-128, "
                + "and METHOD=SAMPLE-AES in MPEG-TS and packed audio with an identity key or one a key provider (--key) gives")
        }
    }

    /// The 16 bytes of an identity key (`key.uri`, fetched once and kept; a `data:` URI decoded).
    /// - Throws: the fetch's failure, or a media error when the key is not 16 bytes (usually an error page
    ///   served in its place), naming the segment `url` it was for.
    private func fetchKey(_ key: SegmentKey, url: String, baseURL: String, at seconds: Double,
                          elapsed: inout Double, fetched: inout Int) async throws(PlayheadError) -> [UInt8] {
        guard let keyURI = key.uri else { throw .unsupported(url: url, detail: "EXT-X-KEY METHOD=\(key.method.text) without URI") }
        // A data: URI is taken as written: resolving it as a URL escapes it again (% became %25).
        let keyURL = DataURL.isDataURL(keyURI) ? keyURI : try ResourceURL.resolve(keyURI, against: baseURL)
        let keyBytes: [UInt8]
        var source = keyURL
        if let cached = keys[keyURL] {
            keyBytes = cached
        } else if let provided = try await providedKey(key, url: url, baseURL: baseURL) {
            keyBytes = provided
            source = "\(keyURL) (from the key provider)"
        } else if DataURL.isDataURL(keyURL) {
            keyBytes = try DataURL.bytes(keyURL)
            keys[keyURL] = keyBytes
        } else {
            let transfer = try await network.fetch(keyURL, range: nil, at: seconds + elapsed)
            elapsed += transfer.seconds
            fetched += transfer.body.count
            keyBytes = transfer.body
            keys[keyURL] = keyBytes
        }
        guard keyBytes.count == 16 else {
            throw .media(url: url, .decryptionFailed("\(key.method.text): the key \(source) is \(keyBytes.count) bytes, expected 16"))
        }
        return keyBytes
    }

    /// The key the provider gives for `key` (kept, once per key URL), nil without a provider or when it gives
    /// none. A provider's error is the resource's: its key cannot be had.
    private func providedKey(_ key: SegmentKey, url: String, baseURL: String) async throws(PlayheadError) -> [UInt8]? {
        guard let keyProvider, let keyURI = key.uri else { return nil }
        let keyURL = DataURL.isDataURL(keyURI) ? keyURI : try ResourceURL.resolve(keyURI, against: baseURL)
        if let cached = keys[keyURL] { return cached }
        let request = KeyRequest(uri: keyURI, url: keyURL, method: key.method.text, keyFormat: key.keyFormat,
                                 keyFormatVersions: key.keyFormatVersions, resourceURL: url)
        let provided: [UInt8]?
        do {
            provided = try await keyProvider.key(for: request)
        } catch {
            throw .media(url: url, .decryptionFailed("\(key.method.text): the key provider gave no key for \(keyURL): \(error)"))
        }
        if let provided { keys[keyURL] = provided }
        return provided
    }
}

extension Result where Success == [UInt8], Failure == MediaError {
    /// The bytes, or the failure as the player's error for `url` (an init section that does not decrypt
    /// leaves its rendition nothing to play).
    func get(or url: String) throws(PlayheadError) -> [UInt8] {
        switch self {
        case .success(let bytes): bytes
        case .failure(let error): throw .media(url: url, error)
        }
    }
}
