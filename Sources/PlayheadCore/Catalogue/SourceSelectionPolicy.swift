import Foundation

/// Which of a video's sources to play (the PSDK's source selection policy).
///
/// The default is the PSDK's (`sourceSelectionHLSWithScheme:` with HTTPS): the first HLS source whose URL
/// has the preferred scheme, else the first HLS source of any scheme. Playhead is an HLS player, so the
/// PSDK's fallbacks to MP4 and then to any first source are not followed: a video with only MP4 or DASH
/// sources fails with ``CatalogueError/noPlayableSource(videoId:reason:offered:)`` naming what it offers.
/// Sources without a URL are never chosen; sources protected by a key system (DRM: FairPlay, Widevine,
/// PlayReady) are passed over unless ``allowsProtected`` is set, as the player has no DRM.
public struct SourceSelectionPolicy: Sendable, Equatable {
    /// The URL scheme preferred among HLS sources (`https` by default); nil prefers none (the first HLS source).
    public var preferredScheme: String?
    /// Whether a source with key systems may be chosen (default false: only clear sources).
    public var allowsProtected: Bool

    /// Creates a policy.
    public init(preferredScheme: String? = "https", allowsProtected: Bool = false) {
        self.preferredScheme = preferredScheme?.lowercased()
        self.allowsProtected = allowsProtected
    }

    /// The PSDK's default: HLS, HTTPS preferred.
    public static let `default` = SourceSelectionPolicy()

    /// HLS preferring `scheme` (the PSDK's `sourceSelectionHLSWithScheme:`).
    public static func hls(scheme: String) -> SourceSelectionPolicy { SourceSelectionPolicy(preferredScheme: scheme) }

    /// The source to play, or why there is none.
    public func select(from video: CatalogueVideo) throws(CatalogueError) -> CatalogueSource {
        let offered = video.sources.map(Self.summary)
        // Only what the player fetches: an ftp: or data: source must not win over a playable one.
        let withURL = video.sources.filter { !($0.src ?? "").isEmpty && ["http", "https", "file"].contains($0.scheme ?? "") }
        let hls = withURL.filter { $0.delivery == .hls }
        let usable = allowsProtected ? hls : hls.filter { !$0.isProtected }
        if let preferredScheme, let preferred = usable.first(where: { $0.scheme == preferredScheme }) { return preferred }
        if let first = usable.first { return first }
        if !hls.isEmpty {
            let systems = Set(hls.flatMap(\.keySystems).map(\.name)).sorted().joined(separator: ", ")
            throw .noPlayableSource(videoId: video.id, reason: "every HLS source needs DRM (\(systems)), which Playhead does not play", offered: offered)
        }
        let kinds = Set(withURL.map(\.delivery))
        let reason: String
        if kinds.isEmpty {
            reason = video.sources.contains { !($0.src ?? "").isEmpty } ? "no source has an http(s) URL" : "no source has a URL"
        } else {
            let names = [CatalogueDelivery.mp4, .dash, .other].filter(kinds.contains).map { ["mp4": "MP4", "dash": "DASH", "other": "other"][$0.rawValue]! }
            reason = "no HLS source (only \(names.joined(separator: " and ")): Playhead plays HLS and does not fall back to MP4 as the PSDK does)"
        }
        throw .noPlayableSource(videoId: video.id, reason: reason, offered: offered)
    }

    /// `TYPE URL` of a source, for messages (`(no type)`, `(no URL)` where missing; `[DRM: …]` when protected).
    public static func summary(_ source: CatalogueSource) -> String {
        (source.type ?? "(no type)") + " " + (source.src ?? "(no URL)")
            + (source.isProtected ? " [DRM: \(source.keySystems.map(\.name).joined(separator: ", "))]" : "")
    }
}
