import Foundation
import PlayheadCore

/// Turns ``AdMetadata`` into ad request URLs.
///
/// - Server map (VOD): `BASE/vmap?z=ZONE&m=MEDIA&type=vmap[&dur=CONTENT][&TARGETING…][&cust_params=…]`
/// - Pre-roll (live, or VOD with manifest cues): `BASE/vast?z=ZONE&m=MEDIA&type=preroll&pos=SECONDS[…]`
/// - Cue: `BASE/vast?z=ZONE&m=MEDIA&type=midroll&cue=ID&pos=SECONDS&dur=SECONDS[…]`
///
/// `pos` is the cue's content time and `dur` the break's (or, for the map, the content's) length,
/// in seconds with up to three decimals. Targeting parameters follow as `key=value` sorted by key;
/// custom parameters are joined as `k=v&k=v` (sorted) and sent encoded as one `cust_params` value.
/// Every value is percent-encoded (RFC 3986 unreserved characters kept).
public struct AdRequestURLs: Sendable, Equatable {
    /// Query keys the resolver writes itself; targeting parameters may not use them.
    public static let reservedKeys: Set<String> = ["z", "m", "type", "cue", "pos", "dur", "cust_params"]

    /// The metadata the URLs are made from.
    public let metadata: AdMetadata

    /// Creates the builder.
    public init(metadata: AdMetadata) { self.metadata = metadata }

    /// `https://domain`, or the domain itself when it is already an http(s) URL; no trailing slash.
    public var base: String {
        let domain = metadata.domain.hasSuffix("/") ? String(metadata.domain.dropLast()) : metadata.domain
        let lower = domain.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") ? domain : "https://" + domain
    }

    /// The server-map request, for content of `contentDurationSeconds` when known.
    public func serverMap(contentDurationSeconds: Double? = nil) -> String {
        var query: [(String, String)] = [("type", "vmap")]
        if let contentDurationSeconds { query.append(("dur", Self.seconds(contentDurationSeconds))) }
        return url(path: metadata.serverMapPath, query)
    }

    /// The pre-roll request at content time `contentSeconds`.
    public func preroll(contentSeconds: Double) -> String {
        url(path: metadata.cuePath, [("type", "preroll"), ("pos", Self.seconds(contentSeconds))])
    }

    /// The request for the break of cue `opportunity`, for its duration when the cue has one.
    public func cue(_ opportunity: PlacementOpportunity) -> String {
        var query = [("type", "midroll"), ("cue", opportunity.id), ("pos", Self.seconds(opportunity.contentSeconds))]
        if let duration = opportunity.durationSeconds { query.append(("dur", Self.seconds(duration))) }
        return url(path: metadata.cuePath, query)
    }

    private func url(path: String, _ specific: [(String, String)]) -> String {
        var pairs = [("z", metadata.zoneId), ("m", metadata.mediaId)] + specific
        pairs += metadata.targetingParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if !metadata.customParameters.isEmpty {
            let joined = metadata.customParameters.sorted { $0.key < $1.key }
                .map { Self.encode($0.key) + "=" + Self.encode($0.value) }.joined(separator: "&")
            pairs.append(("cust_params", joined))
        }
        return base + path + "?" + pairs.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }

    /// Seconds with at most three decimals, no trailing zeros (`30`, `12.5`).
    static func seconds(_ value: Double) -> String {
        let millis = (value * 1000).rounded()
        if millis.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int(millis / 1000)) }
        var text = String(format: "%.3f", millis / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
