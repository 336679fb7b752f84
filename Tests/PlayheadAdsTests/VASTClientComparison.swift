import Foundation
import PlayheadAds

/// Compares our model with vast-client's JSON (mapping at the top of VASTClientCorpusTests.swift).
enum VASTClientComparison {
    static func document(_ document: VASTDocument, _ json: [String: Any], into check: inout Mismatches) {
        check.check("version", expected: J.string(json["version"]), actual: document.version)
        check.check("rootErrorURLTemplates", expected: J.urls(json["rootErrorURLTemplates"]),
                    actual: document.errorURLs)
        let ads = J.array(json["ads"]).map(J.dict)
        check.check("ads.count", expected: ads.count, actual: document.ads.count)
        for (index, (theirs, ours)) in zip(ads, document.ads).enumerated() {
            ad(ours, theirs, prefix: "ads[\(index)]", into: &check)
        }
    }

    static func ad(_ ad: VASTAd, _ json: [String: Any], prefix: String, into check: inout Mismatches) {
        check.check("\(prefix).id", expected: J.string(json["id"]), actual: ad.id)
        check.check("\(prefix).sequence", expected: J.string(json["sequence"]).flatMap { Int($0) }, actual: ad.sequence)
        let system = J.dict(json["system"])
        let impressions: [VASTImpression], errors: [String], creatives: [VASTCreative], adSystem: VASTAdSystem?
        switch ad.kind {
        case .inline(let inline):
            (impressions, errors, creatives, adSystem) = (inline.impressions, inline.errorURLs, inline.creatives, inline.adSystem)
            check.check("\(prefix).kind", expected: nil, actual: J.string(json["nextWrapperURL"]))
            check.check("\(prefix).title", expected: nonEmpty(json["title"]), actual: inline.adTitle)
        case .wrapper(let wrapper):
            (impressions, errors, creatives, adSystem) = (wrapper.impressions, wrapper.errorURLs, wrapper.creatives, wrapper.adSystem)
            check.check("\(prefix).nextWrapperURL", expected: J.string(json["nextWrapperURL"]), actual: wrapper.vastAdTagURI)
            check.check("\(prefix).followAdditionalWrappers", expected: J.bool(json["followAdditionalWrappers"]),
                        actual: wrapper.followAdditionalWrappers)
            check.check("\(prefix).allowMultipleAds", expected: J.bool(json["allowMultipleAds"]), actual: wrapper.allowMultipleAds)
            check.check("\(prefix).fallbackOnNoAd", expected: J.bool(json["fallbackOnNoAd"]), actual: wrapper.fallbackOnNoAd)
        }
        check.check("\(prefix).system.value", expected: J.string(system["value"]), actual: adSystem?.name)
        check.check("\(prefix).system.version", expected: J.string(system["version"]), actual: adSystem?.version)
        check.check("\(prefix).errorURLTemplates", expected: J.urls(json["errorURLTemplates"]), actual: errors)
        check.check("\(prefix).impressionURLTemplates", expected: J.idURLs(json["impressionURLTemplates"]),
                    actual: impressions.map(\.idURL))
        let theirs = J.array(json["creatives"]).map(J.dict)
        let ours = flatten(creatives)
        check.check("\(prefix).creatives.types", expected: theirs.map { J.string($0["type"]) ?? "?" }, actual: ours.map(\.type))
        for (index, (json, mine)) in zip(theirs, ours).enumerated() {
            let path = "\(prefix).creatives[\(index)]"
            check.check("\(path).id", expected: J.string(json["id"]), actual: mine.creative.id)
            switch mine.type {
            case "linear": linear(mine.creative.linear!, json, prefix: path, into: &check)
            case "companion": companions(mine.creative.companionAds, json, prefix: path, into: &check)
            default:
                check.check("\(path).trackingEvents", expected: J.events(json["trackingEvents"]),
                            actual: trackingMap(mine.creative.nonLinearAds?.trackingEvents ?? []))
            }
        }
    }

    /// One entry per Linear / CompanionAds / NonLinearAds, as vast-client lists them.
    static func flatten(_ creatives: [VASTCreative]) -> [(type: String, creative: VASTCreative)] {
        creatives.flatMap { creative -> [(String, VASTCreative)] in
            var parts: [(String, VASTCreative)] = []
            if creative.linear != nil { parts.append(("linear", creative)) }
            if !creative.companionAds.isEmpty { parts.append(("companion", creative)) }
            if creative.nonLinearAds != nil { parts.append(("nonlinear", creative)) }
            return parts
        }
    }

    /// vast-client's event map: `progress` keyed by its offset, other events by name.
    static func trackingMap(_ events: [VASTTrackingEvent]) -> [String: [String]] {
        var map: [String: [String]] = [:]
        for event in events {
            var key = event.event
            if event.event == "progress" {
                switch event.offset {
                case .seconds(let seconds): key = "progress-\(number(seconds))"
                case .percent(let percent): key = "progress-\(number(percent))%"
                case nil: continue
                }
            }
            map[key, default: []].append(event.url)
        }
        return map
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func linear(_ linear: VASTLinear, _ json: [String: Any], prefix: String, into check: inout Mismatches) {
        let duration = J.double(json["duration"]).flatMap { $0 < 0 ? nil : $0 }
        check.check("\(prefix).duration", expected: duration, actual: linear.durationSeconds)
        let skip = J.double(json["skipDelay"]).flatMap { $0 < 0 ? nil : $0 }
        check.check("\(prefix).skipDelay", expected: skip, actual: linear.skipOffsetSeconds)
        check.check("\(prefix).trackingEvents", expected: J.events(json["trackingEvents"]), actual: trackingMap(linear.trackingEvents))
        let clickThrough = J.idURLs([json["videoClickThroughURLTemplate"] as Any]).first
        check.check("\(prefix).videoClickThroughURLTemplate", expected: clickThrough, actual: linear.videoClicks.clickThrough?.idURL)
        check.check("\(prefix).videoClickTrackingURLTemplates", expected: J.idURLs(json["videoClickTrackingURLTemplates"]),
                    actual: linear.videoClicks.clickTracking.map(\.idURL))
        check.check("\(prefix).videoCustomClickURLTemplates", expected: J.idURLs(json["videoCustomClickURLTemplates"]),
                    actual: linear.videoClicks.customClick.map(\.idURL))
        let files = J.array(json["mediaFiles"]).map(J.dict)
        check.check("\(prefix).mediaFiles.count", expected: files.count, actual: linear.mediaFiles.count)
        for (index, (theirs, ours)) in zip(files, linear.mediaFiles).enumerated() {
            let path = "\(prefix).mediaFiles[\(index)]"
            check.check("\(path).fileURL", expected: J.string(theirs["fileURL"]), actual: ours.url)
            check.check("\(path).deliveryType", expected: nonEmpty(theirs["deliveryType"]), actual: ours.delivery)
            check.check("\(path).mimeType", expected: J.string(theirs["mimeType"]), actual: ours.mimeType)
            check.check("\(path).codec", expected: nonEmpty(theirs["codec"]), actual: ours.codec)
            check.check("\(path).apiFramework", expected: nonEmpty(theirs["apiFramework"]), actual: ours.apiFramework)
            for (key, value) in [("width", ours.width), ("height", ours.height), ("bitrate", ours.bitrateKbps),
                                 ("minBitrate", ours.minBitrateKbps), ("maxBitrate", ours.maxBitrateKbps)] {
                check.check("\(path).\(key)", expected: J.int(theirs[key]) ?? 0, actual: value ?? 0)
            }
            check.check("\(path).scalable", expected: J.bool(theirs["scalable"]), actual: ours.scalable)
            check.check("\(path).maintainAspectRatio", expected: J.bool(theirs["maintainAspectRatio"]), actual: ours.maintainAspectRatio)
        }
    }

    static func nonEmpty(_ value: Any?) -> String? {
        guard let string = J.string(value), !string.isEmpty else { return nil }
        return string
    }

    static func companions(_ companions: [VASTCompanionAd], _ json: [String: Any], prefix: String, into check: inout Mismatches) {
        let variations = J.array(json["variations"]).map(J.dict)
        check.check("\(prefix).variations.count", expected: variations.count, actual: companions.count)
        for (index, (theirs, ours)) in zip(variations, companions).enumerated() {
            let path = "\(prefix).variations[\(index)]"
            check.check("\(path).id", expected: J.string(theirs["id"]), actual: ours.id)
            for (key, value) in [("width", ours.width), ("height", ours.height), ("assetWidth", ours.assetWidth),
                                 ("assetHeight", ours.assetHeight)] {
                check.check("\(path).\(key)", expected: nonEmpty(theirs[key]).flatMap { Int($0) }, actual: value)
            }
            check.check("\(path).adSlotId", expected: J.string(theirs["adSlotId"]), actual: ours.adSlotId)
            check.check("\(path).staticResources", expected: J.array(theirs["staticResources"]).map {
                "\(J.string(J.dict($0)["creativeType"]) ?? "-")|\(J.string(J.dict($0)["url"]) ?? "")"
            }, actual: ours.resources.staticResources.map { "\($0.creativeType ?? "-")|\($0.url)" })
            check.check("\(path).iframeResources", expected: J.array(theirs["iframeResources"]).compactMap(J.string),
                        actual: ours.resources.iframeResources)
            check.check("\(path).htmlResources", expected: J.array(theirs["htmlResources"]).compactMap(J.string),
                        actual: ours.resources.htmlResources)
            check.check("\(path).companionClickThroughURLTemplate", expected: J.string(theirs["companionClickThroughURLTemplate"]),
                        actual: ours.clickThrough)
            check.check("\(path).companionClickTrackingURLTemplates", expected: J.idURLs(theirs["companionClickTrackingURLTemplates"]),
                        actual: ours.clickTracking.map(\.idURL))
            check.check("\(path).trackingEvents", expected: J.events(theirs["trackingEvents"]), actual: trackingMap(ours.trackingEvents))
        }
    }
}
