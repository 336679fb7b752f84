import PlayheadHLS
import PlayheadNet

/// A playlist as fetched: where it came from and what it says.
public struct LoadedPlaylist: Sendable {
    /// The URL asked for.
    public var url: String
    /// The URL after redirects; relative URIs resolve against this.
    public var effectiveURL: String
    /// The parse result, with warnings.
    public var parsed: ParsedPlaylist
    /// Timings of the transfer.
    public var timings: TransferTimings
}

/// Fetches and parses playlists.
public struct PlaylistLoader: Sendable {
    /// The HTTP client used.
    public let client: HTTPClient

    /// Creates a loader on `client`.
    public init(client: HTTPClient) { self.client = client }

    /// Fetches `url` and parses it.
    /// - Parameter imported: the variables of the multivariant playlist that named `url`, for its
    ///   EXT-X-DEFINE `IMPORT`s (none for a playlist loaded directly); `QUERYPARAM`s read `url`'s query.
    /// - Throws: `PlayheadError.network` (naming URL and status) or `.playlist` (naming line and column).
    public func load(_ url: String, imported: [String: String] = [:]) async throws(PlayheadError) -> LoadedPlaylist {
        let response: HTTPResponse
        do { response = try await client.get(url) } catch { throw .network(error) }
        do {
            let parsed = try Playlist.parse(data: response.body, sources: VariableSources(playlistURL: url, imported: imported))
            return LoadedPlaylist(url: url, effectiveURL: response.effectiveURL, parsed: parsed, timings: response.timings)
        } catch {
            throw .playlist(url: url, error)
        }
    }

    /// Loads `url` and, when it is a multivariant playlist, the media playlist of the chosen variant.
    /// - Returns: The media playlist and, if there was a multivariant playlist, the chosen variant's
    ///   index and BANDWIDTH.
    public func loadMedia(_ url: String, choice: VariantChoice) async throws(PlayheadError)
        -> (media: LoadedPlaylist, playlist: MediaPlaylist, variantIndex: Int?, variantBandwidth: Int?) {
        let first = try await load(url)
        switch first.parsed.playlist {
        case let .media(media):
            return (first, media, nil, nil)
        case let .multivariant(multivariant):
            let index = try choice.pick(from: multivariant.variants, url: url)
            let variantURL = try ResourceURL.resolve(multivariant.variants[index].uri, against: first.effectiveURL)
            let second = try await load(variantURL, imported: multivariant.variableValues)
            guard case let .media(media) = second.parsed.playlist else {
                throw .unexpectedPlaylist(url: variantURL, detail: "variant \(index) is a multivariant playlist, expected a media playlist")
            }
            return (second, media, index, multivariant.variants[index].bandwidth)
        }
    }
}

/// How to pick a variant of a multivariant playlist.
public enum VariantChoice: Sendable, Equatable {
    /// The first variant listed (what RFC 8216 clients start with).
    case first
    /// The variant at this index, as listed.
    case index(Int)
    /// The highest-bandwidth variant not above this many bits per second, else the lowest one.
    case bandwidth(Int)

    /// The index chosen among `variants`.
    public func pick(from variants: [VariantStream], url: String) throws(PlayheadError) -> Int {
        guard !variants.isEmpty else { throw .noSuchVariant(url: url, detail: "multivariant playlist lists no variants") }
        // An audio-only variant is played only when asked for by index: `first` and `bandwidth` choose among
        // the video variants when there are any.
        let candidates = variants.playableIndices
        switch self {
        case .first:
            return candidates[0]
        case let .index(index):
            guard variants.indices.contains(index) else {
                throw .noSuchVariant(url: url, detail: "no variant \(index); the playlist has \(variants.count) (0...\(variants.count - 1))")
            }
            return index
        case let .bandwidth(limit):
            let fitting = candidates.filter { variants[$0].bandwidth <= limit }
            if let best = fitting.max(by: { variants[$0].bandwidth < variants[$1].bandwidth }) { return best }
            return candidates.min(by: { variants[$0].bandwidth < variants[$1].bandwidth })!
        }
    }
}

extension Array where Element == VariantStream {
    /// The indices of the variants the player chooses among: the video ones, or every one when all are
    /// audio-only. An audio-only variant (a fallback for poor links) has no picture to present; ABR, the
    /// first variant and a bandwidth cap leave it out.
    var playableIndices: [Int] {
        let video = indices.filter { !self[$0].isAudioOnly }
        return video.isEmpty ? [Int](indices) : video
    }
}
