import Foundation

/// A hand-written ad decision: which ads play at which cue. JSON:
/// `{"breaks": [{"time": 10.0, "ads": [{"url": "http://…/ad/master.m3u8", "duration": 10}]},
///              {"cueId": "splice-7", "ads": [...]}]}` — a break matches a cue by `cueId`, else by
/// `time` (content seconds, within half a second).
public struct AdMap: Sendable, Equatable, Codable {
    /// One entry of the map.
    public struct Entry: Sendable, Equatable, Codable {
        /// Content time of the cue, seconds.
        public var time: Double?
        /// The cue's id.
        public var cueId: String?
        /// The ads to play.
        public var ads: [MapAd]
    }

    /// One ad of an entry.
    public struct MapAd: Sendable, Equatable, Codable {
        /// The ad's HLS playlist URL.
        public var url: String
        /// Its duration, seconds.
        public var duration: Double
        /// Its id (defaults to the URL).
        public var id: String?
    }

    /// The entries.
    public var breaks: [Entry]

    /// Parses the JSON form; errors name the field (`DecodingError` context).
    public static func parse(_ data: Data) throws -> AdMap { try JSONDecoder().decode(AdMap.self, from: data) }

    /// The entry for `opportunity`, if any.
    public func entry(for opportunity: PlacementOpportunity) -> Entry? {
        entryIndex(for: opportunity).map { breaks[$0] }
    }

    /// The index of the entry for `opportunity` (by cue id, else by time), leaving out the indices in
    /// `excluded`.
    public func entryIndex(for opportunity: PlacementOpportunity, excluding excluded: Set<Int> = []) -> Int? {
        breaks.indices.first { !excluded.contains($0) && breaks[$0].cueId == opportunity.id }
            ?? breaks.indices.first { index in
                let entry = breaks[index]
                return !excluded.contains(index) && entry.cueId == nil
                    && entry.time.map { abs($0 - opportunity.contentSeconds) <= Self.timeToleranceSeconds } == true
            }
    }

    /// How close a cue's time must be to an entry's `time`: 0.5 s.
    public static let timeToleranceSeconds = 0.5
}

/// The built-in resolver over an `AdMap`: answers at once with the mapped ads, or with no break.
///
/// As a server map (a VOD's default mode) it places every entry with a `time` before playback; those
/// entries are then the map's, and a content cue at the same time gets no break from them (the PSDK's
/// server-map mode takes placement from the map), so an ad that failed there is not tried again.
public final class AdMapResolver: ContentResolver, @unchecked Sendable {
    /// The map.
    public let map: AdMap
    private let lock = NSLock()
    /// Entries the server map placed.
    private var placedByMap: Set<Int> = []

    /// Creates a resolver over `map`.
    public init(map: AdMap) { self.map = map }

    /// Handles break starts.
    public func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.kind == .breakStart }

    /// A new item: no entry is the server map's yet.
    public func prepare(isLive: Bool, joinPointSeconds: Double?) { lock.withLock { placedByMap = [] } }

    /// Answers with the mapped break (empty when the map has none for this cue, or the server map
    /// already placed that entry).
    public func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {
        let placed = lock.withLock { placedByMap }
        guard let index = map.entryIndex(for: opportunity, excluding: placed) else {
            delegate.resolver(self, didResolve: opportunity, into: [])
            return
        }
        let entry = map.breaks[index]
        let ads = entry.ads.enumerated().map { index, ad in
            TimelineAd(id: ad.id ?? "\(opportunity.id)-\(index)", url: ad.url, durationSeconds: ad.duration)
        }
        let replaced = opportunity.durationSeconds ?? 0
        delegate.resolver(self, didResolve: opportunity, into: [
            AdBreak(id: opportunity.id, contentSeconds: opportunity.contentSeconds, ads: ads,
                    replacedContentSeconds: replaced > 0 ? min(replaced, ads.reduce(0) { $0 + $1.durationSeconds }) : 0)
        ])
    }
}

extension AdMapResolver: ServerMapResolver {
    /// The server map of a VOD: a break for every entry placed by `time` (pre-roll at 0, post-roll at
    /// the end); entries naming a cue wait for their cue.
    public func resolveServerMap(contentDurationSeconds: Double?, delegate: (any ContentResolverDelegate)?) async -> ServerMapResolution {
        let breaks = map.breaks.enumerated().compactMap { index, entry -> AdBreak? in
            guard let time = entry.time else { return nil }
            lock.withLock { _ = placedByMap.insert(index) }
            let ads = entry.ads.enumerated().map { adIndex, ad in
                TimelineAd(id: ad.id ?? "map-\(index)-\(adIndex)", url: ad.url, durationSeconds: ad.duration)
            }
            return AdBreak(id: entry.cueId ?? "map-\(index)", contentSeconds: time, ads: ads)
        }
        return ServerMapResolution(breaks: breaks)
    }
}
