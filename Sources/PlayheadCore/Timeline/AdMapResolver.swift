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
        breaks.first { $0.cueId == opportunity.id }
            ?? breaks.first { entry in entry.cueId == nil && entry.time.map { abs($0 - opportunity.contentSeconds) <= Self.timeToleranceSeconds } == true }
    }

    /// How close a cue's time must be to an entry's `time`: 0.5 s.
    public static let timeToleranceSeconds = 0.5
}

/// The built-in resolver over an `AdMap`: answers at once with the mapped ads, or with no break.
public final class AdMapResolver: ContentResolver, @unchecked Sendable {
    /// The map.
    public let map: AdMap

    /// Creates a resolver over `map`.
    public init(map: AdMap) { self.map = map }

    /// Handles break starts.
    public func shouldHandle(_ opportunity: PlacementOpportunity) -> Bool { opportunity.kind == .breakStart }

    /// Answers with the mapped break (empty when the map has none for this cue).
    public func process(_ opportunity: PlacementOpportunity, delegate: any ContentResolverDelegate) {
        guard let entry = map.entry(for: opportunity) else {
            delegate.resolver(self, didResolve: opportunity, into: [])
            return
        }
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
            let ads = entry.ads.enumerated().map { adIndex, ad in
                TimelineAd(id: ad.id ?? "map-\(index)-\(adIndex)", url: ad.url, durationSeconds: ad.duration)
            }
            return AdBreak(id: entry.cueId ?? "map-\(index)", contentSeconds: time, ads: ads)
        }
        return ServerMapResolution(breaks: breaks)
    }
}
