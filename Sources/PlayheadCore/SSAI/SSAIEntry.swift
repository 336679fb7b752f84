import Foundation
import PlayheadNet

/// The kinds of URL an SSAI stream is given by (the Nowtilus demo classifies its input the same way).
public enum SSAIURLKind: String, Sendable, Codable {
    /// A resolver (`…/resolver/…`): answers with where the stream is (JSON, a bare URL, a redirect, or the
    /// playlist itself).
    case resolver
    /// A view URL (`…/view/…`): the stitched multivariant playlist of one viewer's session.
    case view
    /// A playlist URL (`….m3u8`, or anything else).
    case master

    /// Classifies `url` by its path.
    public static func classify(_ url: String) -> SSAIURLKind {
        let path = URLComponents(string: url)?.path.lowercased() ?? url.lowercased()
        if path.contains("/resolver/") { return .resolver }
        if path.contains("/view/") || path.hasSuffix("/view") { return .view }
        return .master
    }
}

/// Where an SSAI stream given by any of the ``SSAIURLKind`` URLs plays from, and its tracking document.
public struct SSAIEntry: Sendable, Equatable, Codable {
    /// The URL given.
    public var inputURL: String
    /// What kind of URL it was.
    public var kind: SSAIURLKind
    /// The playlist to play.
    public var playlistURL: String
    /// The tracking document the resolver named, if any.
    public var trackingURL: String?

    /// Creates an entry.
    public init(inputURL: String, kind: SSAIURLKind, playlistURL: String, trackingURL: String? = nil) {
        self.inputURL = inputURL
        self.kind = kind
        self.playlistURL = playlistURL
        self.trackingURL = trackingURL
    }

    /// The JSON keys a resolver may name the playlist by, in the order tried.
    public static let playlistKeys = ["manifestUrl", "playerUrl", "mediaUrl", "masterUrl", "streamUrl", "url"]
    /// The JSON keys a resolver may name the tracking document by.
    public static let trackingKeys = ["trackingUrl", "trackingURL", "tracking"]

    /// Resolves `url`: a view or playlist URL plays as it is; a resolver is asked (one GET). Its answer
    /// may be the playlist itself (after redirects: the final URL plays), a JSON object naming the
    /// playlist (``playlistKeys``) and perhaps the tracking document (``trackingKeys``), or a bare URL.
    /// Relative URLs are taken against the resolver's final URL.
    /// - Throws: ``SSAIError`` naming the resolver and what its answer lacked, or why it failed.
    public static func resolve(_ url: String, client: HTTPClient) async throws(SSAIError) -> SSAIEntry {
        let kind = SSAIURLKind.classify(url)
        guard kind == .resolver else { return SSAIEntry(inputURL: url, kind: kind, playlistURL: url) }
        let response: HTTPResponse
        do { response = try await client.get(url) } catch {
            throw SSAIError(source: url, problem: "the resolver could not be reached: \(error)")
        }
        let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let base = response.effectiveURL
        if text.hasPrefix("#EXTM3U") { return SSAIEntry(inputURL: url, kind: kind, playlistURL: base) }
        if text.hasPrefix("{") {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else {
                throw SSAIError(source: url, problem: "the resolver's answer starts as JSON but does not parse as a JSON object")
            }
            guard let playlist = playlistKeys.lazy.compactMap({ object[$0] as? String }).first(where: { !$0.isEmpty }) else {
                throw SSAIError(source: url, problem: "the resolver's JSON names no playlist (none of \(playlistKeys.joined(separator: ", ")))")
            }
            let tracking = trackingKeys.lazy.compactMap { object[$0] as? String }.first { !$0.isEmpty }
            return SSAIEntry(inputURL: url, kind: kind, playlistURL: try resolved(playlist, base, url),
                             trackingURL: try tracking.map { reference throws(SSAIError) in try resolved(reference, base, url) })
        }
        // A bare URL, absolute or relative (one token holding a / or naming a playlist), not HTML or prose.
        if !text.isEmpty, !text.contains(where: { $0.isWhitespace || "<>\"{}".contains($0) }),
           text.contains("/") || text.lowercased().hasSuffix(".m3u8") || text.lowercased().contains(".m3u8?") {
            return SSAIEntry(inputURL: url, kind: kind, playlistURL: try resolved(text, base, url))
        }
        let shown = text.isEmpty ? "an empty body" : "\"\(text.prefix(60))\(text.count > 60 ? "…" : "")\""
        throw SSAIError(source: url, problem: "the resolver answered \(shown): neither a playlist, a JSON object naming one, nor a URL")
    }

    private static func resolved(_ reference: String, _ base: String, _ source: String) throws(SSAIError) -> String {
        do { return try ResourceURL.resolve(reference, against: base) } catch {
            throw SSAIError(source: source, problem: "the resolver named \(reference): \(error)")
        }
    }
}
