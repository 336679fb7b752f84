import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// A segment's bytes ready for the demuxer: decrypted, with its init section in front.
public struct FetchedSegment: Sendable {
    /// Position of the segment in its playlist.
    public var index: Int
    /// The segment's absolute URL.
    public var url: String
    /// Decrypted bytes; for fMP4, the init section followed by the media.
    public var bytes: [UInt8]
    /// Timings of the media transfer (not of the key or init section).
    public var timings: TransferTimings
    /// The segment follows an EXT-X-DISCONTINUITY.
    public var discontinuity: Bool
    /// The segment's media sequence number.
    public var mediaSequence: Int
    /// EXTINF duration in seconds (a hint; true time comes from the media).
    public var extinfSeconds: Double
}

/// Fetches the segments of one media playlist: byte ranges, AES-128 keys and init sections
/// (each key and init section fetched once and kept).
public actor SegmentFetcher {
    private let client: HTTPClient
    private let playlist: MediaPlaylist
    private let baseURL: String
    private var keys: [String: [UInt8]] = [:]
    private var initSections: [String: [UInt8]] = [:]

    /// Creates a fetcher for `playlist`, whose relative URIs resolve against `baseURL`.
    public init(client: HTTPClient, playlist: MediaPlaylist, baseURL: String) {
        self.client = client
        self.playlist = playlist
        self.baseURL = baseURL
    }

    /// Fetches segment `index`, decrypts it and puts its init section in front.
    public func fetch(_ index: Int) async throws(PlayheadError) -> FetchedSegment {
        let segment = playlist.segments[index]
        let url = try ResourceURL.resolve(segment.uri, against: baseURL)
        let response = try await get(url, segment.byteRange)
        var bytes = response.body
        var initBytes: [UInt8] = []
        if let map = segment.map {
            initBytes = try await initSection(map, key: segment.key, mediaSequence: segment.mediaSequence)
        }
        if let key = segment.key {
            bytes = try await decrypt(bytes, key: key, mediaSequence: segment.mediaSequence, url: url)
        }
        return FetchedSegment(index: index, url: url, bytes: initBytes + bytes, timings: response.timings,
                              discontinuity: segment.discontinuity, mediaSequence: segment.mediaSequence,
                              extinfSeconds: segment.duration)
    }

    private func get(_ url: String, _ range: ByteRange?) async throws(PlayheadError) -> HTTPResponse {
        do {
            return try await client.get(url, range: range.map { ByteRangeRequest(offset: $0.offset, length: $0.length) })
        } catch {
            throw .network(error)
        }
    }

    private func initSection(_ map: MediaInitializationSection, key: SegmentKey?, mediaSequence: Int) async throws(PlayheadError) -> [UInt8] {
        let url = try ResourceURL.resolve(map.uri, against: baseURL)
        let cacheKey = url + (map.byteRange.map { "@\($0.offset)+\($0.length)" } ?? "")
        if let cached = initSections[cacheKey] { return cached }
        var bytes = try await get(url, map.byteRange).body
        if let key { bytes = try await decrypt(bytes, key: key, mediaSequence: mediaSequence, url: url) }
        initSections[cacheKey] = bytes
        return bytes
    }

    private func decrypt(_ bytes: [UInt8], key: SegmentKey, mediaSequence: Int, url: String) async throws(PlayheadError) -> [UInt8] {
        switch key.method {
        case .none:
            return bytes
        case .aes128:
            guard let keyURI = key.uri else { throw .unsupported(url: url, detail: "EXT-X-KEY METHOD=AES-128 without URI") }
            let keyURL = try ResourceURL.resolve(keyURI, against: baseURL)
            let keyBytes: [UInt8]
            if let cached = keys[keyURL] {
                keyBytes = cached
            } else {
                keyBytes = try await get(keyURL, nil).body
                keys[keyURL] = keyBytes
            }
            do {
                return try AES128.decrypt(bytes, key: keyBytes, iv: key.iv ?? AES128.iv(mediaSequence: mediaSequence))
            } catch {
                throw .media(url: url, error)
            }
        default:
            throw .unsupported(url: url, detail: "encryption method \(key.method) is not supported")
        }
    }
}
