/// Why a wrapper chain could not be resolved into playable inline ads.
public enum VASTResolveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No document was given.
    case emptyChain
    /// More wrappers than ``VASTResolver/maxWrapperDepth`` (VAST error code 302).
    case wrapperDepthExceeded(limit: Int, tagURI: String)
    /// The same `<VASTAdTagURI>` appears twice in the chain (a redirect loop).
    case wrapperLoop(tagURI: String, firstDepth: Int, repeatDepth: Int)
    /// A document before the last holds no wrapper ad to follow.
    case missingWrapper(depth: Int)
    /// The last document still holds only wrappers: the chain was cut short.
    case unresolvedWrapper(tagURI: String, depth: Int)
    /// A wrapper said `followAdditionalWrappers="false"` but the next document is a wrapper again.
    case additionalWrapperNotAllowed(depth: Int)
    /// The last document holds no ad (VAST error code 303); `errorURLs` are every wrapper's and the
    /// last document's root `<Error>` URLs, to be called with `[ERRORCODE]` = 303.
    case noAds(errorURLs: [String])

    /// The VAST error code a player reports for this failure (VAST 4.x §2.3.6).
    public var vastErrorCode: Int {
        switch self {
        case .wrapperDepthExceeded: return 302
        case .noAds: return 303
        case .emptyChain, .wrapperLoop, .missingWrapper, .unresolvedWrapper, .additionalWrapperNotAllowed: return 300
        }
    }

    /// A one-line message naming the depth or URI involved.
    public var description: String {
        switch self {
        case .emptyChain: return "no VAST document to resolve"
        case .wrapperDepthExceeded(let limit, let tagURI):
            return "more than \(limit) wrappers; stopped before \(tagURI)"
        case .wrapperLoop(let tagURI, let first, let repeatDepth):
            return "wrapper loop: \(tagURI) requested at depth \(first) and again at depth \(repeatDepth)"
        case .missingWrapper(let depth): return "document at depth \(depth) holds no wrapper ad to follow"
        case .unresolvedWrapper(let tagURI, let depth):
            return "chain ends on a wrapper at depth \(depth) pointing at \(tagURI)"
        case .additionalWrapperNotAllowed(let depth):
            return "wrapper at depth \(depth - 1) forbids further wrappers (followAdditionalWrappers=false), got one at depth \(depth)"
        case .noAds(let urls): return "the final VAST response holds no ad (\(urls.count) error URLs to call)"
        }
    }
}

/// A non-fatal note from the resolver, e.g. an ad skipped for lack of HLS media.
public struct VASTResolveWarning: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The ad concerned (its `id`), when it has one.
    public var adId: String?
    /// What happened.
    public var message: String

    /// Creates a warning.
    public init(adId: String?, message: String) {
        self.adId = adId
        self.message = message
    }

    /// `ad <id>: <message>`.
    public var description: String { "ad \(adId ?? "(no id)"): \(message)" }
}
