import PlayheadAds
import PlayheadCore
import PlayheadNet

/// The ads of one break, and what was left out on the way.
struct BreakAds: Sendable {
    /// The playable ads, in play order.
    var ads: [TimelineAd]
    /// AD_NOT_INSERTED warnings for ads skipped (MP4 only, no duration, a broken wrapper chain…).
    var warnings: [PlayerNotification]
}

/// Fetches VAST responses and follows each ad's wrapper chain to playable ``TimelineAd``s. No
/// deadline of its own: the resolver runs it under one (``withDeadline(seconds:_:)``).
struct VASTAdLoader: Sendable {
    let client: HTTPClient
    let timeoutSeconds: Double

    /// Fetches `url`; an empty (or blank) body is AD_EMPTY_RESPONSE.
    func fetch(_ url: String, breakId: String?) async throws(AdFailure) -> [UInt8] {
        let body: [UInt8]
        do {
            body = try await client.get(url).body
        } catch {
            throw AdFailure(error, breakId: breakId, timeoutSeconds: timeoutSeconds)
        }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw AdFailure(.adEmptyResponse(url: url, description: "empty response body", breakId: breakId))
        }
        return body
    }

    /// Fetches and parses the VAST response at `url`, then loads its ads.
    func load(url: String, breakId: String, followRedirects: Bool = true) async throws(AdFailure) -> BreakAds {
        let body = try await fetch(url, breakId: breakId)
        let document: VASTDocument
        do {
            document = try VASTParser.parse(body)
        } catch {
            throw AdFailure(.adInsertionFail(description: "unreadable VAST: \(error)", url: url, breakId: breakId, vastErrorCode: 100))
        }
        return try await load(document: document, sourceURL: url, breakId: breakId, followRedirects: followRedirects)
    }

    /// The playable ads of `document`: its pod (ads with a `sequence`, in sequence order) when it has
    /// one, else its stand-alone ads in document order; each ad's wrappers followed.
    ///
    /// - Throws: AD_EMPTY_RESPONSE when the document holds no ad (naming its root error URLs, with VAST
    ///   error 303, when it has any); AD_INSERTION_FAIL when it holds ads
    ///   but none is playable (the warnings say why each was skipped).
    func load(document: VASTDocument, sourceURL: String?, breakId: String, followRedirects: Bool) async throws(AdFailure) -> BreakAds {
        let origin = sourceURL ?? "inline VAST of break \(breakId)"
        guard !document.ads.isEmpty else {
            // A no-ad response's root <Error> URLs are for the player to call (VAST 3 §2.4.2.4), with 303.
            var failure = PlayerNotification.adEmptyResponse(url: origin, description: "VAST response holds no ad", breakId: breakId)
            if !document.errorURLs.isEmpty {
                failure[.vastErrorCode] = "303"
                failure[.errorURLs] = document.errorURLs.joined(separator: "\n")
            }
            throw AdFailure(failure)
        }
        let pod = document.ads.filter { $0.sequence != nil }.sorted { ($0.sequence ?? 0) < ($1.sequence ?? 0) }
        let chosen = pod.isEmpty ? document.ads : pod
        var result = BreakAds(ads: [], warnings: [])
        for ad in chosen {
            let outcome = await resolve(ad, of: document, sourceURL: sourceURL, breakId: breakId, followRedirects: followRedirects)
            result.warnings += outcome.warnings
            for var timelineAd in outcome.ads {
                var id = timelineAd.id, n = 2
                while result.ads.contains(where: { $0.id == id }) { id = "\(timelineAd.id)#\(n)"; n += 1 }
                timelineAd.id = id
                result.ads.append(timelineAd)
            }
        }
        if result.ads.isEmpty {
            var failure = PlayerNotification.adInsertionFail(
                description: "no playable ad in the response (\(chosen.count) skipped)", url: origin, breakId: breakId, vastErrorCode: 403)
            failure.metadata["SKIPPED"] = result.warnings.compactMap { $0[.description] }.joined(separator: "; ")
            throw AdFailure(failure, warnings: result.warnings)
        }
        return result
    }

    /// One top-level ad: its wrapper chain fetched and merged, its media chosen.
    private func resolve(_ ad: VASTAd, of document: VASTDocument, sourceURL: String?, breakId: String,
                         followRedirects: Bool) async -> BreakAds {
        let adName = ad.id ?? "(no id)"
        var chain = [VASTDocument(version: document.version, ads: [ad], errorURLs: document.errorURLs)]
        func skipped(_ why: String, code: Int) -> BreakAds {
            BreakAds(ads: [], warnings: [.adNotInserted(description: "ad \(adName) skipped: \(why)", breakId: breakId,
                                                        adId: ad.id, url: sourceURL, vastErrorCode: code,
                                                        errorURLs: Self.errorURLs(in: chain))])
        }
        var seen: [String: Int] = [:]
        var next = ad.wrapper?.vastAdTagURI
        var lastURL = sourceURL
        while let tag = next {
            guard followRedirects else { return skipped("wrapper not followed (followRedirects=false)", code: 300) }
            let depth = chain.count
            if depth > VASTResolver.maxWrapperDepth {
                return skipped(VASTResolveError.wrapperDepthExceeded(limit: VASTResolver.maxWrapperDepth, tagURI: tag).description, code: 302)
            }
            if let first = seen[tag] ?? (tag == sourceURL ? 0 : nil) {
                return skipped(VASTResolveError.wrapperLoop(tagURI: tag, firstDepth: first, repeatDepth: depth).description, code: 300)
            }
            seen[tag] = depth
            let url = TimelineAd.absolute(tag, base: lastURL)
            do {
                let fetched = try VASTParser.parse(try await fetch(url, breakId: breakId))
                chain.append(fetched)
                lastURL = url
                next = fetched.ads.contains { $0.inline != nil } ? nil : fetched.ads.lazy.compactMap(\.wrapper).first?.vastAdTagURI
            } catch let failure as AdFailure {
                let code = Int(failure.notification[.vastErrorCode] ?? "") ?? 301
                return skipped("wrapper \(url): \(failure.notification.code.name) \(failure.notification[.description] ?? "")", code: code)
            } catch {
                return skipped("wrapper \(url): unreadable VAST: \(error)", code: 100)
            }
        }
        let resolution: VASTResolution
        do {
            resolution = try VASTResolver.resolve(chain: chain, initialTagURI: sourceURL)
        } catch {
            return skipped(error.description, code: error.vastErrorCode)
        }
        var result = BreakAds(ads: [], warnings: resolution.warnings.map { warning in
            .adNotInserted(description: warning.description, breakId: breakId, adId: warning.adId ?? ad.id, url: lastURL,
                           vastErrorCode: warning.message.contains("no HLS media") ? 403 : 400,
                           errorURLs: Self.errorURLs(in: chain, adId: warning.adId))
        })
        for (index, resolved) in resolution.ads.enumerated() {
            let id = resolved.ad.id ?? ad.id ?? "\(breakId)-\(index + 1)"
            if let timelineAd = TimelineAd(resolved: resolved, id: id, baseURL: lastURL) {
                result.ads.append(timelineAd)
            } else {
                result.warnings.append(.adNotInserted(description: "ad \(id) skipped: linear creative has no duration",
                                                      breakId: breakId, adId: id, url: lastURL, vastErrorCode: 101,
                                                      errorURLs: resolved.ad.inline?.errorURLs ?? []))
            }
        }
        return result
    }

    /// The error URLs an ad's chain carries: every wrapper's, then the final ads' (only ad `adId`'s
    /// when given and found), without repeats.
    static func errorURLs(in chain: [VASTDocument], adId: String? = nil) -> [String] {
        var urls: [String] = []
        for (depth, document) in chain.enumerated() {
            var ads = document.ads
            if depth == chain.count - 1, let adId, ads.contains(where: { $0.id == adId }) { ads = ads.filter { $0.id == adId } }
            for ad in ads { urls += ad.inline?.errorURLs ?? ad.wrapper?.errorURLs ?? [] }
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}
