import PlayheadAds

/// Small VAST documents written in code for the unit tests.
enum Build {
    static func wrapperXML(tag: String, level: Int, follow: Bool = true, allowMultiple: Bool = false) -> String {
        """
        <VAST version="4.2"><Ad id="w\(level)"><Wrapper followAdditionalWrappers="\(follow)" allowMultipleAds="\(allowMultiple)">
          <AdSystem>W\(level)</AdSystem>
          <VASTAdTagURI><![CDATA[\(tag)]]></VASTAdTagURI>
          <Error>https://w\(level).example/error?c=[ERRORCODE]</Error>
          <Impression id="w\(level)">https://w\(level).example/imp</Impression>
          <Creatives>
            <Creative><Linear><TrackingEvents>
              <Tracking event="start">https://w\(level).example/start</Tracking>
              <Tracking event="progress" offset="00:00:05">https://w\(level).example/p5</Tracking>
            </TrackingEvents>
            <VideoClicks><ClickTracking id="c\(level)">https://w\(level).example/click</ClickTracking></VideoClicks>
            </Linear></Creative>
            <Creative><CompanionAds><Companion width="300" height="250">
              <TrackingEvents><Tracking event="creativeView">https://w\(level).example/cv</Tracking></TrackingEvents>
            </Companion></CompanionAds></Creative>
          </Creatives>
        </Wrapper></Ad></VAST>
        """
    }

    static func inlineXML(id: String = "final", media: [(mime: String, url: String)], sequence: Int? = nil) -> String {
        let files = media.map { "<MediaFile delivery=\"streaming\" type=\"\($0.mime)\" width=\"1280\" height=\"720\">\($0.url)</MediaFile>" }
        return """
        <Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine>
          <AdSystem version="1">S</AdSystem><AdTitle>T</AdTitle>
          <Impression>https://inline.example/\(id)/imp</Impression>
          <Error>https://inline.example/error</Error>
          <Creatives>
            <Creative id="c1"><Linear skipoffset="25%">
              <Duration>00:00:20.500</Duration>
              <TrackingEvents><Tracking event="start">https://inline.example/start</Tracking></TrackingEvents>
              <VideoClicks><ClickThrough>https://advertiser.example/</ClickThrough>
                <ClickTracking>https://inline.example/click</ClickTracking></VideoClicks>
              <MediaFiles>\(files.joined())</MediaFiles>
            </Linear></Creative>
            <Creative id="c2"><CompanionAds><Companion width="300" height="250">
              <StaticResource creativeType="image/png">https://inline.example/c.png</StaticResource>
              <TrackingEvents><Tracking event="creativeView">https://inline.example/cv</Tracking></TrackingEvents>
            </Companion></CompanionAds></Creative>
          </Creatives>
        </InLine></Ad>
        """
    }

    static func vast(_ ads: String...) -> String { "<VAST version=\"4.2\">\(ads.joined())</VAST>" }

    static func parse(_ xml: String) throws -> VASTDocument { try VASTParser.parse(Array(xml.utf8)) }

    static let hls = (mime: "application/x-mpegURL", url: "https://cdn.example/ad/master.m3u8")
    static let mp4 = (mime: "video/mp4", url: "https://cdn.example/ad.mp4")
}
