import Foundation

/// Writes VAST 3.0 and VMAP 1.0 documents for the ``AdServer``: inline or wrapper ads with media files,
/// impressions, tracking, clicks, error URLs, skip offsets and companions; VMAP breaks whose sources are
/// ad tag URIs or inline VAST. URLs go into CDATA sections unchanged (macros such as `[CACHEBUSTING]`
/// stay for the player to expand).
public enum AdDocuments {
    /// One `<MediaFile>`.
    public struct MediaFile: Sendable, Equatable {
        /// Its URL.
        public var url: String
        /// Its MIME type, e.g. `application/x-mpegURL` or `video/mp4`.
        public var mimeType: String
        /// `streaming` or `progressive`.
        public var delivery: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// Creates a media file (by default a 640x360 streamed HLS playlist).
        public init(url: String, mimeType: String = "application/x-mpegURL", delivery: String = "streaming",
                    width: Int = 640, height: Int = 360) {
            self.url = url
            self.mimeType = mimeType
            self.delivery = delivery
            self.width = width
            self.height = height
        }
    }

    /// One `<Companion>` with a static, iframe or HTML resource.
    public struct Companion: Sendable, Equatable {
        /// Slot width in pixels.
        public var width: Int
        /// Slot height in pixels.
        public var height: Int
        /// `<StaticResource creativeType="image/png">` URL, if any.
        public var staticURL: String?
        /// `<IFrameResource>` URL, if any.
        public var iframeURL: String?
        /// `<HTMLResource>` text, if any.
        public var html: String?
        /// `<CompanionClickThrough>`.
        public var clickThrough: String?
        /// `<CompanionClickTracking>` URLs.
        public var clickTracking: [String]
        /// `creativeView` tracking URLs.
        public var creativeViewURLs: [String]

        /// Creates a companion.
        public init(width: Int, height: Int, staticURL: String? = nil, iframeURL: String? = nil, html: String? = nil,
                    clickThrough: String? = nil, clickTracking: [String] = [], creativeViewURLs: [String] = []) {
            self.width = width
            self.height = height
            self.staticURL = staticURL
            self.iframeURL = iframeURL
            self.html = html
            self.clickThrough = clickThrough
            self.clickTracking = clickTracking
            self.creativeViewURLs = creativeViewURLs
        }
    }

    /// One progress tracking URL and its `offset` attribute as written.
    public struct ProgressURL: Sendable, Equatable {
        /// `00:00:05.000` or `40%`.
        public var offset: String
        /// The URL.
        public var url: String

        /// Creates one.
        public init(offset: String, url: String) {
            self.offset = offset
            self.url = url
        }
    }

    /// One `<Ad>`: inline, or a wrapper when ``wrapperTagURI`` is set (then media and duration are
    /// not written; tracking, impressions, clicks and errors are).
    public struct Ad: Sendable, Equatable {
        /// The `id` attribute.
        public var id: String
        /// The `sequence` attribute (pod position), if any.
        public var sequence: Int?
        /// `<Duration>` in seconds.
        public var durationSeconds: Double
        /// The media files.
        public var mediaFiles: [MediaFile]
        /// `<Impression>` URLs.
        public var impressions: [String]
        /// Linear `<Tracking>` URLs by event name (`start`, `firstQuartile`, …), written in event-name order.
        public var tracking: [String: [String]]
        /// `<ClickThrough>`.
        public var clickThrough: String?
        /// `<ClickTracking>` URLs.
        public var clickTracking: [String]
        /// `<Error>` URLs.
        public var errorURLs: [String]
        /// The `skipoffset` attribute as written (`00:00:05`, `25%`), if any.
        public var skipOffset: String?
        /// Companions.
        public var companions: [Companion]
        /// When set, the ad is a `<Wrapper>` pointing here.
        public var wrapperTagURI: String?
        /// `<Tracking event="progress" offset="…">` URLs, each with its offset as written (`00:00:05.000`, `40%`).
        public var progress: [ProgressURL] = []

        /// Creates an ad.
        public init(id: String, sequence: Int? = nil, durationSeconds: Double, mediaFiles: [MediaFile] = [],
                    impressions: [String] = [], tracking: [String: [String]] = [:], clickThrough: String? = nil,
                    clickTracking: [String] = [], errorURLs: [String] = [], skipOffset: String? = nil,
                    companions: [Companion] = [], wrapperTagURI: String? = nil) {
            self.id = id
            self.sequence = sequence
            self.durationSeconds = durationSeconds
            self.mediaFiles = mediaFiles
            self.impressions = impressions
            self.tracking = tracking
            self.clickThrough = clickThrough
            self.clickTracking = clickTracking
            self.errorURLs = errorURLs
            self.skipOffset = skipOffset
            self.companions = companions
            self.wrapperTagURI = wrapperTagURI
        }
    }

    /// The linear events ``tracked(id:sequence:durationSeconds:mediaURL:server:)`` registers.
    public static let linearEvents = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
                                      "pause", "resume", "skip", "mute", "unmute"]

    /// An inline HLS ad whose every beacon points at `server`: impression, each of ``linearEvents``,
    /// click tracking and errors (`…/beacon/error?…&code=[ERRORCODE]`), a click-through to
    /// `https://advertiser.example/ID`, and one 300x250 static companion.
    public static func tracked(id: String, sequence: Int? = nil, durationSeconds: Double, mediaURL: String,
                               server: AdServer) -> Ad {
        var tracking: [String: [String]] = [:]
        for event in linearEvents { tracking[event] = [server.beaconURL(event: event, adId: id)] }
        return Ad(
            id: id, sequence: sequence, durationSeconds: durationSeconds, mediaFiles: [MediaFile(url: mediaURL)],
            impressions: [server.beaconURL(event: "impression", adId: id)], tracking: tracking,
            clickThrough: "https://advertiser.example/\(id)",
            clickTracking: [server.beaconURL(event: "click", adId: id)],
            errorURLs: [server.beaconURL(event: "error", adId: id) + "&code=[ERRORCODE]"],
            companions: [Companion(width: 300, height: 250, staticURL: server.url("/companion/\(id).png"),
                                   clickThrough: "https://advertiser.example/\(id)/banner",
                                   creativeViewURLs: [server.beaconURL(event: "companionView", adId: id)])])
    }

    /// A VAST document holding `ads` (an empty list gives a no-ad response with `errorURLs`).
    public static func vast(_ ads: [Ad], version: String = "3.0", errorURLs: [String] = []) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + vastElement(ads, version: version, errorURLs: errorURLs)
    }

    /// The `<VAST>` element alone (no XML declaration), for embedding in VMAP.
    public static func vastElement(_ ads: [Ad], version: String = "3.0", errorURLs: [String] = []) -> String {
        var xml = "<VAST version=\"\(version)\">\n"
        for url in errorURLs { xml += "  <Error>\(cdata(url))</Error>\n" }
        for ad in ads { xml += adElement(ad) }
        return xml + "</VAST>\n"
    }

    /// Where a VMAP break's ads come from.
    public enum Source: Sendable, Equatable {
        /// `<vmap:AdTagURI>`: a VAST URL.
        case adTagURI(String)
        /// `<vmap:VASTAdData>`: the VAST text (an XML declaration in it is dropped).
        case vast(String)
    }

    /// One VMAP `<vmap:AdBreak>`.
    public struct Break: Sendable, Equatable {
        /// `timeOffset`: `start`, `end`, `HH:MM:SS.mmm`, `n%` or `#n`.
        public var timeOffset: String
        /// `breakId`.
        public var breakId: String
        /// The ads' source.
        public var source: Source
        /// `<vmap:Tracking>` URLs by event (`breakStart`, `breakEnd`, `error`).
        public var tracking: [String: [String]]
        /// `breakType`: `linear` unless said otherwise.
        public var breakType: String

        /// Creates a break.
        public init(timeOffset: String, breakId: String, source: Source, tracking: [String: [String]] = [:],
                    breakType: String = "linear") {
            self.timeOffset = timeOffset
            self.breakId = breakId
            self.source = source
            self.tracking = tracking
            self.breakType = breakType
        }
    }

    /// A VMAP 1.0 document of `breaks`.
    public static func vmap(_ breaks: [Break]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\n"
        for adBreak in breaks {
            xml += "  <vmap:AdBreak timeOffset=\"\(adBreak.timeOffset)\" breakType=\"\(adBreak.breakType)\" breakId=\"\(adBreak.breakId)\">\n"
            xml += "    <vmap:AdSource id=\"\(adBreak.breakId)-source\" allowMultipleAds=\"true\" followRedirects=\"true\">\n"
            switch adBreak.source {
            case let .adTagURI(url):
                xml += "      <vmap:AdTagURI templateType=\"vast3\">\(cdata(url))</vmap:AdTagURI>\n"
            case let .vast(text):
                let body = text.range(of: "?>").map { String(text[$0.upperBound...]) } ?? text
                xml += "      <vmap:VASTAdData>\n\(body)      </vmap:VASTAdData>\n"
            }
            xml += "    </vmap:AdSource>\n"
            if !adBreak.tracking.isEmpty {
                xml += "    <vmap:TrackingEvents>\n"
                for event in adBreak.tracking.keys.sorted() {
                    for url in adBreak.tracking[event] ?? [] {
                        xml += "      <vmap:Tracking event=\"\(event)\">\(cdata(url))</vmap:Tracking>\n"
                    }
                }
                xml += "    </vmap:TrackingEvents>\n"
            }
            xml += "  </vmap:AdBreak>\n"
        }
        return xml + "</vmap:VMAP>\n"
    }

    static func adElement(_ ad: Ad) -> String {
        var xml = "  <Ad id=\"\(ad.id)\"" + (ad.sequence.map { " sequence=\"\($0)\"" } ?? "") + ">\n"
        let kind = ad.wrapperTagURI == nil ? "InLine" : "Wrapper"
        xml += "    <\(kind)>\n      <AdSystem>Playhead AdServer</AdSystem>\n"
        if let tag = ad.wrapperTagURI {
            xml += "      <VASTAdTagURI>\(cdata(tag))</VASTAdTagURI>\n"
        } else {
            xml += "      <AdTitle>\(ad.id)</AdTitle>\n"
        }
        for url in ad.errorURLs { xml += "      <Error>\(cdata(url))</Error>\n" }
        for url in ad.impressions { xml += "      <Impression>\(cdata(url))</Impression>\n" }
        xml += "      <Creatives>\n        <Creative id=\"\(ad.id)-linear\">\n"
        xml += "          <Linear" + (ad.skipOffset.map { " skipoffset=\"\($0)\"" } ?? "") + ">\n"
        if ad.wrapperTagURI == nil {
            xml += "            <Duration>\(clock(ad.durationSeconds))</Duration>\n"
        }
        xml += "            <TrackingEvents>\n"
        for event in ad.tracking.keys.sorted() {
            for url in ad.tracking[event] ?? [] { xml += "              <Tracking event=\"\(event)\">\(cdata(url))</Tracking>\n" }
        }
        for progress in ad.progress {
            xml += "              <Tracking event=\"progress\" offset=\"\(progress.offset)\">\(cdata(progress.url))</Tracking>\n"
        }
        xml += "            </TrackingEvents>\n            <VideoClicks>\n"
        if let clickThrough = ad.clickThrough { xml += "              <ClickThrough>\(cdata(clickThrough))</ClickThrough>\n" }
        for url in ad.clickTracking { xml += "              <ClickTracking>\(cdata(url))</ClickTracking>\n" }
        xml += "            </VideoClicks>\n"
        if ad.wrapperTagURI == nil {
            xml += "            <MediaFiles>\n"
            for file in ad.mediaFiles {
                xml += "              <MediaFile delivery=\"\(file.delivery)\" type=\"\(file.mimeType)\" width=\"\(file.width)\" height=\"\(file.height)\">\(cdata(file.url))</MediaFile>\n"
            }
            xml += "            </MediaFiles>\n"
        }
        xml += "          </Linear>\n        </Creative>\n"
        if !ad.companions.isEmpty {
            xml += "        <Creative id=\"\(ad.id)-companions\">\n          <CompanionAds>\n"
            for companion in ad.companions { xml += companionElement(companion) }
            xml += "          </CompanionAds>\n        </Creative>\n"
        }
        xml += "      </Creatives>\n    </\(kind)>\n  </Ad>\n"
        return xml
    }

    static func companionElement(_ companion: Companion) -> String {
        var xml = "            <Companion width=\"\(companion.width)\" height=\"\(companion.height)\">\n"
        if let url = companion.staticURL {
            xml += "              <StaticResource creativeType=\"image/png\">\(cdata(url))</StaticResource>\n"
        }
        if let url = companion.iframeURL { xml += "              <IFrameResource>\(cdata(url))</IFrameResource>\n" }
        if let html = companion.html { xml += "              <HTMLResource>\(cdata(html))</HTMLResource>\n" }
        if !companion.creativeViewURLs.isEmpty {
            xml += "              <TrackingEvents>\n"
            for url in companion.creativeViewURLs { xml += "                <Tracking event=\"creativeView\">\(cdata(url))</Tracking>\n" }
            xml += "              </TrackingEvents>\n"
        }
        if let url = companion.clickThrough { xml += "              <CompanionClickThrough>\(cdata(url))</CompanionClickThrough>\n" }
        for url in companion.clickTracking { xml += "              <CompanionClickTracking>\(cdata(url))</CompanionClickTracking>\n" }
        return xml + "            </Companion>\n"
    }

    /// `text` in a CDATA section (a `]]>` inside is split across two sections).
    static func cdata(_ text: String) -> String {
        "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
    }

    /// `HH:MM:SS.mmm` for a duration in seconds.
    static func clock(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }
}
