/// A VAST `progress` tracking URL and when it fires.
public struct ProgressTracking: Sendable, Equatable, Codable {
    /// Seconds into the ad (a percentage offset resolved against the ad's declared duration).
    public var offsetSeconds: Double
    /// For a percentage offset, its share of the ad (0.6 for `60%`): it falls at that share of the duration
    /// the ad plays with (its media's), as the quartiles do.
    public var share: Double?
    /// The URL template (macros not expanded).
    public var url: String

    /// Creates one.
    public init(offsetSeconds: Double, share: Double? = nil, url: String) {
        self.offsetSeconds = offsetSeconds
        self.share = share
        self.url = url
    }

    /// Where it falls in an ad lasting `durationSeconds`: a percentage at its share of that, a time where it says.
    public func offsetSeconds(forDuration durationSeconds: Double) -> Double {
        share.map { $0 * durationSeconds } ?? offsetSeconds
    }
}

/// One ad of a break: an HLS primary asset, with what tracking and clicks need (from VAST, after its
/// wrapper chain was merged; empty for ads that came without, such as an ``AdMap``'s).
public struct TimelineAd: Sendable, Equatable, Codable {
    /// The ad's id (VAST ad id, or one made by the resolver).
    public var id: String
    /// The ad's HLS playlist URL (multivariant or media).
    public var url: String
    /// Its duration, seconds.
    public var durationSeconds: Double
    /// `<Impression>` URL templates (macros not expanded).
    public var impressions: [String]
    /// Linear tracking URL templates by VAST event name (`start`, `firstQuartile`, `pause`, …), each
    /// list in document order.
    public var trackingEvents: [String: [String]]
    /// `<ClickThrough>`: the page a click opens.
    public var clickThrough: String?
    /// `<ClickTracking>` URL templates.
    public var clickTracking: [String]
    /// `<Error>` URL templates (to call with `[ERRORCODE]`).
    public var errorURLs: [String]
    /// Companion banners to show beside the ad.
    public var companions: [AdCompanion]
    /// When the ad may be skipped, seconds from its start; `nil` when it may not.
    public var skipOffsetSeconds: Double?
    /// VAST `progress` tracking: each URL template with the offset (seconds into the ad) at which it
    /// fires, in document order. (The same URLs also sit under `progress` in ``trackingEvents``.)
    public var progressTracking: [ProgressTracking]

    /// Creates an ad; everything past `durationSeconds` defaults to empty.
    public init(id: String, url: String, durationSeconds: Double, impressions: [String] = [],
                trackingEvents: [String: [String]] = [:], clickThrough: String? = nil, clickTracking: [String] = [],
                errorURLs: [String] = [], companions: [AdCompanion] = [], skipOffsetSeconds: Double? = nil,
                progressTracking: [ProgressTracking] = []) {
        self.id = id
        self.url = url
        self.durationSeconds = durationSeconds
        self.impressions = impressions
        self.trackingEvents = trackingEvents
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.errorURLs = errorURLs
        self.companions = companions
        self.skipOffsetSeconds = skipOffsetSeconds
        self.progressTracking = progressTracking
    }

    private enum CodingKeys: String, CodingKey {
        case id, url, durationSeconds, impressions, trackingEvents, clickThrough, clickTracking, errorURLs, companions,
             skipOffsetSeconds, progressTracking
    }

    /// Decodes an ad; the tracking fields may be absent (older JSON has only id, url and duration).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        url = try container.decode(String.self, forKey: .url)
        durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
        impressions = try container.decodeIfPresent([String].self, forKey: .impressions) ?? []
        trackingEvents = try container.decodeIfPresent([String: [String]].self, forKey: .trackingEvents) ?? [:]
        clickThrough = try container.decodeIfPresent(String.self, forKey: .clickThrough)
        clickTracking = try container.decodeIfPresent([String].self, forKey: .clickTracking) ?? []
        errorURLs = try container.decodeIfPresent([String].self, forKey: .errorURLs) ?? []
        companions = try container.decodeIfPresent([AdCompanion].self, forKey: .companions) ?? []
        skipOffsetSeconds = try container.decodeIfPresent(Double.self, forKey: .skipOffsetSeconds)
        progressTracking = try container.decodeIfPresent([ProgressTracking].self, forKey: .progressTracking) ?? []
    }
}

/// An ad break placed on the content timeline.
public struct AdBreak: Sendable, Equatable, Codable {
    /// The break's id (cue id, VMAP break id).
    public var id: String
    /// Content time of the cue: the ads play before the content frame at this time, seconds.
    public var contentSeconds: Double
    /// The ads, in order.
    public var ads: [TimelineAd]
    /// Content replaced by the break (live replacement), seconds; 0 for VOD insertion.
    public var replacedContentSeconds: Double
    /// Whether the viewer has watched it (ad policy).
    public var watched: Bool
    /// Break-level tracking URL templates by VMAP event (`breakStart`, `breakEnd`, `error`); empty
    /// for breaks that came without (manifest cues, ad maps).
    public var trackingEvents: [String: [String]]

    /// Creates a break.
    public init(id: String, contentSeconds: Double, ads: [TimelineAd], replacedContentSeconds: Double = 0, watched: Bool = false,
                trackingEvents: [String: [String]] = [:]) {
        self.id = id
        self.contentSeconds = contentSeconds
        self.ads = ads
        self.replacedContentSeconds = replacedContentSeconds
        self.watched = watched
        self.trackingEvents = trackingEvents
    }

    private enum CodingKeys: String, CodingKey {
        case id, contentSeconds, ads, replacedContentSeconds, watched, trackingEvents
    }

    /// Decodes a break; `trackingEvents` may be absent (older JSON).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        contentSeconds = try container.decode(Double.self, forKey: .contentSeconds)
        ads = try container.decode([TimelineAd].self, forKey: .ads)
        replacedContentSeconds = try container.decode(Double.self, forKey: .replacedContentSeconds)
        watched = try container.decode(Bool.self, forKey: .watched)
        trackingEvents = try container.decodeIfPresent([String: [String]].self, forKey: .trackingEvents) ?? [:]
    }

    /// Total duration of the ads, seconds.
    public var durationSeconds: Double { ads.reduce(0) { $0 + $1.durationSeconds } }
    /// Pre-roll (at content 0), mid-roll, or post-roll (at the content's end).
    public func placement(contentDurationSeconds: Double?) -> String {
        if contentSeconds <= 0 { return "preroll" }
        if let end = contentDurationSeconds, contentSeconds >= end { return "postroll" }
        return "midroll"
    }
}

/// Where a virtual time falls: in content, or inside an ad of a break.
public enum TimelinePosition: Sendable, Equatable {
    /// Content, at this content time.
    case content(seconds: Double)
    /// Inside break `breakIndex`, ad `adIndex`, this many seconds into the ad.
    case ad(breakIndex: Int, adIndex: Int, offsetSeconds: Double)
}

/// The timeline of a playback: content plus ad breaks. Owns the three time lines:
/// - content: media time of the main item (true PTS, re-anchored per discontinuity);
/// - virtual: what the viewer sees: content plus inserted ads (minus replaced content);
/// - local: content time without ads, for resume (PSDK localTime).
///
/// Immutable: changes return a new value (`withBreak`, `markingWatched`).
public struct AdTimeline: Sendable, Equatable, Codable {
    /// The breaks, by content time.
    public private(set) var breaks: [AdBreak] = []

    /// An empty timeline.
    public init(breaks: [AdBreak] = []) {
        self.breaks = breaks.sorted { $0.contentSeconds < $1.contentSeconds }
    }

    /// A timeline with `adBreak` added (kept in content order).
    public func withBreak(_ adBreak: AdBreak) -> AdTimeline { AdTimeline(breaks: breaks + [adBreak]) }

    /// A timeline with break `index` marked watched.
    public func markingWatched(_ index: Int) -> AdTimeline {
        var copy = self
        copy.breaks[index].watched = true
        return copy
    }

    /// Virtual start of break `index`, seconds.
    public func virtualStart(ofBreak index: Int) -> Double {
        breaks[index].contentSeconds + breaks[..<index].reduce(0) { $0 + $1.durationSeconds - $1.replacedContentSeconds }
    }

    /// Virtual time of content time `content` (a content time inside replaced content maps to the break's end).
    public func virtualSeconds(forContent content: Double) -> Double {
        var shift = 0.0
        for adBreak in breaks {
            if content < adBreak.contentSeconds { break }
            let replacedEnd = adBreak.contentSeconds + adBreak.replacedContentSeconds
            if content < replacedEnd { return adBreak.contentSeconds + shift + adBreak.durationSeconds }
            shift += adBreak.durationSeconds - adBreak.replacedContentSeconds
        }
        return content + shift
    }

    /// Where virtual time `virtual` falls.
    public func position(atVirtual virtual: Double) -> TimelinePosition {
        var shift = 0.0
        for (index, adBreak) in breaks.enumerated() {
            let start = adBreak.contentSeconds + shift
            if virtual < start { break }
            if virtual < start + adBreak.durationSeconds {
                var offset = virtual - start
                for (adIndex, ad) in adBreak.ads.enumerated() {
                    if offset < ad.durationSeconds { return .ad(breakIndex: index, adIndex: adIndex, offsetSeconds: offset) }
                    offset -= ad.durationSeconds
                }
            }
            shift += adBreak.durationSeconds - adBreak.replacedContentSeconds
        }
        return .content(seconds: virtual - shift)
    }

    /// PSDK localTime: the content time at virtual time `virtual`; inside a break, the content time of its cue.
    public func localSeconds(atVirtual virtual: Double) -> Double {
        switch position(atVirtual: virtual) {
        case let .content(seconds): return seconds
        case let .ad(breakIndex, _, _): return breaks[breakIndex].contentSeconds
        }
    }

    /// PSDK convertToLocalTime: the same as `localSeconds(atVirtual:)`.
    public func convertToLocalTime(_ virtual: Double) -> Double { localSeconds(atVirtual: virtual) }

    /// PSDK seekToLocalTime: the virtual time at which local (content) time `local` plays.
    public func virtualSeconds(forLocal local: Double) -> Double { virtualSeconds(forContent: local) }
}

extension AdTimeline {
    /// The timeline with ad `adIndex` of break `breakId` lasting `seconds` (its true, possibly cut, length).
    public func settingAdDuration(_ seconds: Double, breakId: String, adIndex: Int) -> AdTimeline {
        var copy = self
        guard let index = copy.breaks.firstIndex(where: { $0.id == breakId }), copy.breaks[index].ads.indices.contains(adIndex) else { return self }
        copy.breaks[index].ads[adIndex].durationSeconds = seconds
        return copy
    }

    /// The timeline with only the first `count` ads of break `breakId`.
    public func keepingAds(upTo count: Int, breakId: String) -> AdTimeline {
        var copy = self
        guard let index = copy.breaks.firstIndex(where: { $0.id == breakId }) else { return self }
        copy.breaks[index].ads = Array(copy.breaks[index].ads.prefix(count))
        return copy
    }

    /// The timeline with `ads` played at the end of break `breakId`.
    public func addingAds(_ ads: [TimelineAd], toBreak breakId: String) -> AdTimeline {
        var copy = self
        guard let index = copy.breaks.firstIndex(where: { $0.id == breakId }) else { return self }
        copy.breaks[index].ads += ads
        return copy
    }

    /// The timeline with break `breakId` at content time `seconds` (kept in content order).
    public func movingBreak(_ breakId: String, toContentSeconds seconds: Double) -> AdTimeline {
        var moved = breaks
        guard let index = moved.firstIndex(where: { $0.id == breakId }) else { return self }
        moved[index].contentSeconds = seconds
        return AdTimeline(breaks: moved)
    }

    /// The index of the break with id `id`.
    public func index(ofBreak id: String) -> Int? { breaks.firstIndex { $0.id == id } }
}
