/// Reads `<Creatives>`: linear, companion and non-linear creatives, their tracking and clicks.
enum VASTCreativeReader {
    /// The creatives under `ad` (an `<InLine>` or `<Wrapper>`).
    static func creatives(_ ad: XMLNode, isInline: Bool, context: inout VASTReadContext) -> [VASTCreative] {
        (ad.element("Creatives")?.elements("Creative") ?? []).map { node in
            VASTCreative(
                id: node.attribute("id"), adId: node.attribute("adId") ?? node.attribute("adID") ?? node.attribute("AdID"),
                sequence: node.intAttribute("sequence"), apiFramework: node.attribute("apiFramework"),
                linear: node.element("Linear").map { linear($0, isInline: isInline, context: &context) },
                companionAds: (node.element("CompanionAds")?.elements("Companion") ?? []).map { companion($0, context: &context) },
                nonLinearAds: node.element("NonLinearAds").map { nonLinearAds($0, context: &context) }
            )
        }
    }

    static func linear(_ node: XMLNode, isInline: Bool, context: inout VASTReadContext) -> VASTLinear {
        var duration: Double?
        if let element = node.element("Duration") {
            // Lenient: a bare number of seconds (`<Duration>30</Duration>`) is read too.
            duration = VASTTime.seconds(fromClock: element.trimmedText)
                ?? Double(element.trimmedText).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
            if duration == nil, isInline {
                context.warn(.invalidValue(field: "<Duration>", value: element.trimmedText,
                                           line: element.line, column: element.column))
            }
        } else if isInline {
            context.warn(.missingElement(name: "Duration", parent: "Linear", line: node.line, column: node.column))
        }
        var skipOffset: VASTOffset?
        if let raw = node.attribute("skipoffset") {
            skipOffset = VASTOffset(parsing: raw)
            if skipOffset == nil {
                context.warn(.invalidValue(field: "skipoffset", value: raw, line: node.line, column: node.column))
            }
        }
        let clicks = node.element("VideoClicks")
        return VASTLinear(
            durationSeconds: duration, skipOffset: skipOffset,
            mediaFiles: (node.element("MediaFiles")?.elements("MediaFile") ?? []).compactMap(mediaFile),
            trackingEvents: trackingEvents(node, context: &context),
            videoClicks: VASTVideoClicks(
                clickThrough: clicks?.element("ClickThrough").flatMap { VASTRead.clicks([$0]).first },
                clickTracking: VASTRead.clicks(clicks?.elements("ClickTracking") ?? []),
                customClick: VASTRead.clicks(clicks?.elements("CustomClick") ?? [])
            ),
            adParameters: node.element("AdParameters")?.nonEmptyText,
            icons: (node.element("Icons")?.elements("Icon") ?? []).map(icon)
        )
    }

    static func mediaFile(_ node: XMLNode) -> VASTMediaFile? {
        guard let url = node.nonEmptyText else { return nil }
        return VASTMediaFile(
            url: url, id: node.attribute("id"), delivery: node.attribute("delivery"), mimeType: node.attribute("type"),
            width: node.intAttribute("width"), height: node.intAttribute("height"),
            bitrateKbps: node.intAttribute("bitrate"), minBitrateKbps: node.intAttribute("minBitrate"),
            maxBitrateKbps: node.intAttribute("maxBitrate"), codec: node.attribute("codec"),
            apiFramework: node.attribute("apiFramework"), scalable: node.boolAttribute("scalable"),
            maintainAspectRatio: node.boolAttribute("maintainAspectRatio"),
            fileSizeBytes: node.intAttribute("fileSize"), mediaType: node.attribute("mediaType")
        )
    }

    /// `<TrackingEvents>/<Tracking>` under `node`; a tracking element without `event` is warned and dropped.
    static func trackingEvents(_ node: XMLNode, context: inout VASTReadContext) -> [VASTTrackingEvent] {
        (node.element("TrackingEvents")?.elements("Tracking") ?? []).compactMap { tracking in
            guard let url = tracking.nonEmptyText else { return nil }
            guard let event = tracking.attribute("event") else {
                context.warn(.missingAttribute(name: "event", element: "Tracking", line: tracking.line, column: tracking.column))
                return nil
            }
            return VASTTrackingEvent(event: event, url: url, offset: tracking.attribute("offset").flatMap(VASTOffset.init(parsing:)))
        }
    }

    static func resources(_ node: XMLNode) -> VASTResources {
        VASTResources(
            staticResources: node.elements("StaticResource").compactMap { element in
                element.nonEmptyText.map { VASTStaticResource(creativeType: element.attribute("creativeType"), url: $0) }
            },
            iframeResources: VASTRead.urls(node.elements("IFrameResource")),
            htmlResources: VASTRead.urls(node.elements("HTMLResource"))
        )
    }

    static func companion(_ node: XMLNode, context: inout VASTReadContext) -> VASTCompanionAd {
        VASTCompanionAd(
            id: node.attribute("id"), width: node.intAttribute("width"), height: node.intAttribute("height"),
            assetWidth: node.intAttribute("assetWidth"), assetHeight: node.intAttribute("assetHeight"),
            adSlotId: node.attribute("adSlotId") ?? node.attribute("adSlotID"), apiFramework: node.attribute("apiFramework"),
            resources: resources(node), clickThrough: node.element("CompanionClickThrough")?.nonEmptyText,
            clickTracking: VASTRead.clicks(node.elements("CompanionClickTracking")),
            trackingEvents: trackingEvents(node, context: &context), altText: node.element("AltText")?.nonEmptyText,
            adParameters: node.element("AdParameters")?.nonEmptyText
        )
    }

    static func nonLinearAds(_ node: XMLNode, context: inout VASTReadContext) -> VASTNonLinearAds {
        VASTNonLinearAds(
            trackingEvents: trackingEvents(node, context: &context),
            nonLinears: node.elements("NonLinear").map { element in
                VASTNonLinear(
                    id: element.attribute("id"), width: element.intAttribute("width"), height: element.intAttribute("height"),
                    minSuggestedDurationSeconds: element.attribute("minSuggestedDuration").flatMap(VASTTime.seconds(fromClock:)),
                    resources: resources(element), clickThrough: element.element("NonLinearClickThrough")?.nonEmptyText,
                    clickTracking: VASTRead.clicks(element.elements("NonLinearClickTracking"))
                )
            }
        )
    }

    static func icon(_ node: XMLNode) -> VASTIcon {
        let clicks = node.element("IconClicks")
        return VASTIcon(
            program: node.attribute("program"), width: node.intAttribute("width"), height: node.intAttribute("height"),
            xPosition: node.attribute("xPosition"), yPosition: node.attribute("yPosition"),
            offset: node.attribute("offset").flatMap(VASTOffset.init(parsing:)),
            durationSeconds: node.attribute("duration").flatMap(VASTTime.seconds(fromClock:)),
            resources: resources(node), clickThrough: clicks?.element("IconClickThrough")?.nonEmptyText,
            clickTracking: VASTRead.clicks(clicks?.elements("IconClickTracking") ?? []),
            viewTracking: VASTRead.urls(node.elements("IconViewTracking"))
        )
    }
}
