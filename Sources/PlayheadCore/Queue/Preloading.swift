import Foundation
import PlayheadHLS
import PlayheadNet

/// Playlists fetched ahead of an item's session (the queue's preload), handed to that session once each.
public final class PreloadCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: NetworkTransfer] = [:]
    private var used: [String] = []

    /// An empty cache.
    public init() {}

    /// Keeps `transfer` for its URL.
    public func store(_ transfer: NetworkTransfer) { lock.withLock { entries[transfer.url] = transfer } }

    /// The transfer kept for `url`, removed (a live playlist's later reloads must go to the network).
    public func take(_ url: String) -> NetworkTransfer? {
        lock.withLock {
            guard let transfer = entries.removeValue(forKey: url) else { return nil }
            used.append(url)
            return transfer
        }
    }

    /// The URLs kept.
    public var urls: [String] { lock.withLock { entries.keys.sorted() + used } }
    /// The URLs a session took from the cache, in order.
    public var usedURLs: [String] { lock.withLock { used } }
}

/// A network that answers whole-resource requests for preloaded URLs from a ``PreloadCache`` at no cost
/// (the bytes are already here) and sends everything else to `inner`.
public struct PreloadingNetwork: PlayerNetwork {
    /// The network for everything not preloaded.
    public let inner: any PlayerNetwork
    /// The preloaded playlists.
    public let cache: PreloadCache

    /// Creates the network.
    public init(inner: any PlayerNetwork, cache: PreloadCache) {
        self.inner = inner
        self.cache = cache
    }

    /// The preloaded copy (costing 0 s) when there is one, else `inner`'s fetch.
    public func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        if range == nil, var transfer = cache.take(url) {
            transfer.seconds = 0
            transfer.firstByteSeconds = 0
            transfer.bytesOnWire = 0
            return transfer
        }
        return try await inner.fetch(url, range: range, at: sessionSeconds)
    }
}

/// What a preload fetched: the playlists, and what their transfers cost one after another.
public struct PreloadOutcome: Sendable, Equatable, Codable {
    /// The URLs fetched, in order.
    public var urls: [String]
    /// Seconds the transfers took, one after another (the link's charge on the virtual clock).
    public var seconds: Double
    /// Why the preload stopped early, if it did (the item then loads what is missing itself).
    public var error: String?
}

enum Preloader {
    /// Fetches `url` and, when it is a multivariant playlist, each variant's media playlist, into `cache`,
    /// starting at session time `at` of `network`.
    static func preload(_ url: String, network: any PlayerNetwork, cache: PreloadCache, at start: Double) async -> PreloadOutcome {
        var outcome = PreloadOutcome(urls: [], seconds: 0, error: nil)
        do throws(PlayheadError) {
            let first = try await network.fetch(url, range: nil, at: start)
            cache.store(first)
            outcome.urls.append(url)
            outcome.seconds += first.seconds
            let parsed: Playlist
            do { parsed = try Playlist.parse(data: first.body).playlist } catch { throw PlayheadError.playlist(url: url, error) }
            guard case let .multivariant(multivariant) = parsed else { return outcome }
            var seen = Set<String>()
            for variant in multivariant.variants {
                let media = try ResourceURL.resolve(variant.uri, against: first.effectiveURL)
                guard seen.insert(media).inserted else { continue }
                let transfer = try await network.fetch(media, range: nil, at: start + outcome.seconds)
                cache.store(transfer)
                outcome.urls.append(media)
                outcome.seconds += transfer.seconds
            }
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }
}
