import Foundation
import PlayheadAds
import PlayheadCore

extension TimelineAd {
    /// The timeline ad for a resolved VAST ad: its chosen HLS media file, duration, merged
    /// impressions, linear tracking by event (and `progress` with its offsets), clicks, error URLs,
    /// companions and skip offset.
    ///
    /// - Parameters:
    ///   - resolved: The ad after its wrapper chain was merged.
    ///   - id: The id to give it (unique in its break).
    ///   - baseURL: The URL of the VAST response, against which a relative media URL is resolved.
    /// - Returns: `nil` when the linear creative has no duration.
    init?(resolved: VASTResolvedAd, id: String, baseURL: String?) {
        guard let duration = resolved.linear.durationSeconds, duration > 0 else { return nil }
        let inline = resolved.ad.inline
        self.init(
            id: id, url: Self.absolute(resolved.media.url, base: baseURL), durationSeconds: duration,
            impressions: inline?.impressions.map(\.url) ?? [],
            trackingEvents: resolved.linear.trackingEvents.urlsByEvent,
            clickThrough: resolved.linear.videoClicks.clickThrough?.url,
            clickTracking: resolved.linear.videoClicks.clickTracking.map(\.url),
            errorURLs: inline?.errorURLs ?? [],
            companions: (inline?.creatives ?? []).flatMap(\.companionAds).map(AdCompanion.init(vast:)),
            skipOffsetSeconds: resolved.linear.skipOffsetSeconds,
            progressTracking: resolved.linear.trackingEvents.compactMap { tracking in
                guard tracking.event == "progress", let offset = tracking.offset?.seconds(durationSeconds: duration) else { return nil }
                var share: Double?
                if case let .percent(percent) = tracking.offset { share = percent / 100 }
                return ProgressTracking(offsetSeconds: offset, share: share, url: tracking.url)
            })
    }

    /// `url` made absolute against `base` when it is relative (VAST asks for absolute URLs; some servers do not comply).
    static func absolute(_ url: String, base: String?) -> String {
        guard let base, URL(string: url)?.scheme == nil, let resolved = URL(string: url, relativeTo: URL(string: base)) else { return url }
        return resolved.absoluteString
    }
}

extension AdCompanion {
    /// The companion of a VAST `<Companion>`: static resources first, then iframe, then HTML.
    init(vast companion: VASTCompanionAd) {
        let resources = companion.resources.staticResources.map { Resource(type: .staticResource, data: $0.url, creativeType: $0.creativeType) }
            + companion.resources.iframeResources.map { Resource(type: .iframe, data: $0) }
            + companion.resources.htmlResources.map { Resource(type: .html, data: $0) }
        self.init(id: companion.id, width: companion.width, height: companion.height, adSlotId: companion.adSlotId,
                  resources: resources, clickThrough: companion.clickThrough, clickTracking: companion.clickTracking.map(\.url),
                  creativeViewTracking: companion.trackingEvents.urls(for: "creativeView"))
    }
}
