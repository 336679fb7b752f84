import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// Reads a whole rendition in order: fetches each segment (the next one while the current one
/// decodes), demuxes and decodes it, and hands out frames. The simplest consumer of the stack, used
/// by `playhead frames` and the decode benchmark; the player's loader builds on the same parts.
public struct RenditionReader: Sendable {
    /// What happened to one segment.
    public struct SegmentOutcome: Sendable {
        /// The fetched segment (its bytes dropped).
        public var index: Int
        /// The segment's URL.
        public var url: String
        /// Bytes after decryption, init section included.
        public var byteCount: Int
        /// Seconds the segment's transfers took.
        public var transferSeconds: Double
        /// The decode report: streams, packets, frames, damage.
        public var report: SegmentDecodeReport
        /// What was wrong with the bytes before decoding (a byte range that read short).
        public var fetchDamage: [String] = []
    }

    /// The media playlist read.
    public let playlist: MediaPlaylist
    /// The URL its URIs resolve against.
    public let baseURL: String
    /// The HTTP client.
    public let client: HTTPClient
    /// Asked for each key before it is fetched (``KeyProvider``); nil: keys are fetched.
    public let keyProvider: (any KeyProvider)?

    /// Creates a reader for `playlist` loaded from `baseURL`.
    public init(client: HTTPClient, playlist: MediaPlaylist, baseURL: String, keyProvider: (any KeyProvider)? = nil) {
        self.client = client
        self.playlist = playlist
        self.baseURL = baseURL
        self.keyProvider = keyProvider
    }

    /// Fetches and decodes every segment, then drains the decoders.
    /// - Parameters:
    ///   - decoder: The decoder (its options say mode, streams and hashing).
    ///   - onSegment: Called after each segment with what it gave.
    ///   - onPacket: Called for each demuxed packet.
    ///   - onFrame: Called for each decoded frame.
    /// - Throws: The first fetch or open failure, naming the segment's URL. The decoder is drained before
    ///   it is thrown, so every frame of the segments read before the failure is handed out.
    public func read(decoder: RenditionDecoder, onSegment: (SegmentOutcome) -> Void = { _ in },
                     onPacket: (Packet) -> Void = { _ in },
                     onFrame: (DecodedFrame) -> Void) async throws(PlayheadError) {
        let fetcher = SegmentFetcher(network: LiveNetwork(client: client), keyProvider: keyProvider)
        let count = playlist.segments.count
        var next: Task<Result<FetchedSegment, PlayheadError>, Never>? = count > 0 ? prefetch(fetcher, 0) : nil
        do throws(PlayheadError) {
            for index in 0..<count {
                guard let pending = next else { break }
                // The fetch runs in its own task: a cancelled reader cancels it (its transfer stops).
                let segment = try await withTaskCancellationHandler { await pending.value } onCancel: { pending.cancel() }.get()
                next = index + 1 < count ? prefetch(fetcher, index + 1) : nil
                if let failure = segment.decryptionFailure {
                    // It did not decrypt: the reason, not that zero bytes do not open.
                    throw .media(url: segment.url, failure)
                }
                if segment.hasEmptyMedia {
                    throw .media(url: segment.url, .emptyMedia(initializationBytes: segment.initializationByteCount))
                }
                let report: SegmentDecodeReport
                do {
                    report = try decoder.decodeSegment(segment.bytes, discontinuity: playlist.segments[index].discontinuity,
                                                        onPacket: onPacket, onFrame: onFrame)
                } catch {
                    throw .media(url: segment.url, error)
                }
                onSegment(SegmentOutcome(index: index, url: segment.url, byteCount: segment.bytes.count,
                                         transferSeconds: segment.seconds, report: report, fetchDamage: segment.transfer.damage))
            }
        } catch {
            next?.cancel()
            decoder.finish(onFrame: onFrame)  // the frames it still holds belong to segments read whole
            throw error
        }
        decoder.finish(onFrame: onFrame)
    }

    /// Fetches and demuxes the first segment only (no decoding): its streams and packets tell where
    /// the rendition's timestamps start.
    /// - Throws: When the playlist has no segment, or the segment cannot be fetched or opened.
    public func demuxFirstSegment() async throws(PlayheadError) -> DemuxedSegment {
        guard let first = playlist.segments.first else {
            throw .unexpectedPlaylist(url: baseURL, detail: "the playlist lists no segments")
        }
        let segment = try await SegmentFetcher(network: LiveNetwork(client: client), keyProvider: keyProvider).fetch(first, baseURL: baseURL, at: 0)
        var options = RenditionDecoderOptions()
        options.mode = .demux
        do {
            return try RenditionDecoder(options: options).demux(segment.bytes, discontinuity: first.discontinuity)
        } catch {
            throw .media(url: segment.url, error)
        }
    }

    private func prefetch(_ fetcher: SegmentFetcher, _ index: Int) -> Task<Result<FetchedSegment, PlayheadError>, Never> {
        Task {
            do throws(PlayheadError) {
                return .success(try await fetcher.fetch(playlist.segments[index], baseURL: baseURL, at: 0))
            } catch {
                return .failure(error)
            }
        }
    }
}
