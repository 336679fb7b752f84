/// One playable ad after its wrapper chain was merged.
public struct VASTResolvedAd: Sendable, Equatable, Encodable {
    /// The inline ad with every wrapper's impressions, error URLs, tracking and click tracking merged in.
    public var ad: VASTAd
    /// The merged linear creative that will play.
    public var linear: VASTLinear
    /// The HLS media file chosen by ``VASTMediaSelector``.
    public var media: VASTMediaFile
    /// How many wrappers led to the ad (0 for an inline response).
    public var wrapperDepth: Int
}

/// The playable ads of a resolved chain, and what was skipped on the way.
public struct VASTResolution: Sendable, Equatable, Encodable {
    /// Ads to play, in document order (pods keep their `sequence`).
    public var ads: [VASTResolvedAd]
    /// Ads skipped or trimmed, with reasons.
    public var warnings: [VASTResolveWarning]
}

/// Merges a wrapper chain into final inline ads. Pure logic: the caller fetches each
/// `<VASTAdTagURI>` and passes the documents in order; nothing here does I/O.
public enum VASTResolver {
    /// The most wrappers followed before giving up (VAST 4.x recommends at least 5; error 302 beyond).
    public static let maxWrapperDepth = 5

    /// Resolves a chain.
    ///
    /// - Parameters:
    ///   - chain: the documents fetched, outermost first. Every document but the last must hold a
    ///     wrapper ad (the first one is followed); the last must hold inline ads.
    ///   - initialTagURI: the URL the first document came from, so a wrapper pointing back at it is
    ///     caught as a loop.
    /// - Returns: the playable ads, with warnings for ads skipped (no HLS media, no linear creative)
    ///   or dropped (`allowMultipleAds="false"`).
    /// - Throws: ``VASTResolveError`` for an empty chain, too many wrappers, a loop, a chain cut
    ///   short, a forbidden extra wrapper, or no ad at the end.
    public static func resolve(chain: [VASTDocument], initialTagURI: String? = nil) throws(VASTResolveError) -> VASTResolution {
        guard let last = chain.last else { throw .emptyChain }
        var wrappers: [WrapperAd] = []
        var seen: [String: Int] = [:]
        if let initialTagURI { seen[initialTagURI] = 0 }
        for (index, document) in chain.dropLast().enumerated() {
            guard let wrapper = document.ads.lazy.compactMap(\.wrapper).first else { throw .missingWrapper(depth: index) }
            try admit(wrapper, depth: index + 1, previous: wrappers.last, seen: &seen)
            wrappers.append(wrapper)
        }
        if let previous = wrappers.last, !previous.followAdditionalWrappers, last.ads.contains(where: { $0.wrapper != nil }),
           !last.ads.contains(where: { $0.inline != nil }) {
            throw .additionalWrapperNotAllowed(depth: wrappers.count)
        }
        var warnings: [VASTResolveWarning] = []
        var inlineAds = last.ads.filter { $0.inline != nil }
        if inlineAds.isEmpty {
            if let wrapper = last.ads.lazy.compactMap(\.wrapper).first {
                throw .unresolvedWrapper(tagURI: wrapper.vastAdTagURI, depth: wrappers.count)
            }
            throw .noAds(errorURLs: wrappers.flatMap(\.errorURLs) + last.errorURLs)
        }
        for ad in last.ads where ad.wrapper != nil {
            warnings.append(VASTResolveWarning(adId: ad.id, message: "wrapper inside the final response not followed"))
        }
        if let previous = wrappers.last, !previous.allowMultipleAds, inlineAds.count > 1 {
            let kept = inlineAds.first { $0.sequence == nil } ?? inlineAds[0]
            warnings.append(VASTResolveWarning(adId: kept.id, message:
                "allowMultipleAds=\"false\": kept this ad, dropped \(inlineAds.count - 1) other(s)"))
            inlineAds = [kept]
        }
        var resolved: [VASTResolvedAd] = []
        for var ad in inlineAds {
            guard let inline = ad.inline else { continue }
            let merged = merge(wrappers: wrappers, into: inline)
            ad.kind = .inline(merged)
            guard let linear = merged.linears.first else {
                warnings.append(VASTResolveWarning(adId: ad.id, message: "skipped: no linear creative"))
                continue
            }
            switch VASTMediaSelector.select(linear.mediaFiles) {
            case .hls(let media):
                resolved.append(VASTResolvedAd(ad: ad, linear: linear, media: media, wrapperDepth: wrappers.count))
            case .noHLS(let mimeTypes):
                warnings.append(VASTResolveWarning(adId: ad.id, message:
                    "skipped: no HLS media file (found \(mimeTypes.joined(separator: ", ")))"))
            case .noMedia:
                warnings.append(VASTResolveWarning(adId: ad.id, message: "skipped: linear creative has no media file"))
            }
        }
        return VASTResolution(ads: resolved, warnings: warnings)
    }

    /// Checks one more wrapper against the depth limit, loops and the previous wrapper's permission.
    static func admit(_ wrapper: WrapperAd, depth: Int, previous: WrapperAd?, seen: inout [String: Int]) throws(VASTResolveError) {
        if let previous, !previous.followAdditionalWrappers { throw .additionalWrapperNotAllowed(depth: depth) }
        if depth > maxWrapperDepth { throw .wrapperDepthExceeded(limit: maxWrapperDepth, tagURI: wrapper.vastAdTagURI) }
        if let first = seen[wrapper.vastAdTagURI] {
            throw .wrapperLoop(tagURI: wrapper.vastAdTagURI, firstDepth: first, repeatDepth: depth)
        }
        seen[wrapper.vastAdTagURI] = depth
    }

    /// Merges wrappers' impressions, error URLs, linear and non-linear tracking, video click tracking
    /// and custom clicks, and companion tracking and click tracking into `ad`; wrapper URLs come
    /// first, outermost wrapper first.
    ///
    /// - Parameters:
    ///   - wrappers: the chain's wrappers, outermost first.
    ///   - ad: the final inline ad.
    /// - Returns: the inline ad with the wrappers' URLs added.
    public static func merge(wrappers: [WrapperAd], into ad: InlineAd) -> InlineAd {
        var merged = ad
        merged.impressions = wrappers.flatMap(\.impressions) + ad.impressions
        merged.errorURLs = wrappers.flatMap(\.errorURLs) + ad.errorURLs
        let creatives = wrappers.flatMap(\.creatives)
        let linears = creatives.compactMap(\.linear)
        let nonLinearTracking = creatives.compactMap(\.nonLinearAds).flatMap(\.trackingEvents)
        let companions = creatives.flatMap(\.companionAds)
        for index in merged.creatives.indices {
            if var linear = merged.creatives[index].linear {
                linear.trackingEvents = linears.flatMap(\.trackingEvents) + linear.trackingEvents
                linear.videoClicks.clickTracking = linears.flatMap(\.videoClicks.clickTracking) + linear.videoClicks.clickTracking
                linear.videoClicks.customClick = linears.flatMap(\.videoClicks.customClick) + linear.videoClicks.customClick
                merged.creatives[index].linear = linear
            }
            if var nonLinear = merged.creatives[index].nonLinearAds {
                nonLinear.trackingEvents = nonLinearTracking + nonLinear.trackingEvents
                merged.creatives[index].nonLinearAds = nonLinear
            }
            for companion in merged.creatives[index].companionAds.indices {
                merged.creatives[index].companionAds[companion].trackingEvents.insert(
                    contentsOf: companions.flatMap(\.trackingEvents), at: 0)
                merged.creatives[index].companionAds[companion].clickTracking.insert(
                    contentsOf: companions.flatMap(\.clickTracking), at: 0)
            }
        }
        return merged
    }
}
