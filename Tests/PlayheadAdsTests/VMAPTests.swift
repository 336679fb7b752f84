import PlayheadAds
import Testing

@Suite("VMAP")
struct VMAPTests {
    @Test("time offsets: start, end, clock, percent, #n; bad forms rejected")
    func timeOffsets() {
        #expect(VMAPTimeOffset(parsing: "start") == .start)
        #expect(VMAPTimeOffset(parsing: "end") == .end)
        #expect(VMAPTimeOffset(parsing: "00:10:00") == .seconds(600))
        #expect(VMAPTimeOffset(parsing: "01:02:03.250") == .seconds(3723.25))
        #expect(VMAPTimeOffset(parsing: "50%") == .percent(50))
        #expect(VMAPTimeOffset(parsing: "#2") == .position(2))
        for bad in ["", "#0", "#x", "120%", "10:00", "00:61:00", "soon", "00:00:1"] {
            #expect(VMAPTimeOffset(parsing: bad) == nil, "\(bad)")
        }
        #expect(VMAPTimeOffset.percent(25).seconds(contentDurationSeconds: 200) == 50)
        #expect(VMAPTimeOffset.end.seconds(contentDurationSeconds: nil) == nil)
        #expect(VMAPTimeOffset.position(1).seconds(contentDurationSeconds: 100) == nil)
    }

    static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      <vmap:AdBreak timeOffset="start" breakType="linear" breakId="preroll">
        <vmap:AdSource id="pre" allowMultipleAds="false" followRedirects="true">
          <vmap:AdTagURI templateType="vast3"><![CDATA[https://ads.example/pre]]></vmap:AdTagURI>
        </vmap:AdSource>
        <vmap:TrackingEvents>
          <vmap:Tracking event="breakStart">https://t.example/bs</vmap:Tracking>
          <vmap:Tracking event="breakEnd">https://t.example/be</vmap:Tracking>
          <vmap:Tracking event="error">https://t.example/err?c=[ERRORCODE]</vmap:Tracking>
        </vmap:TrackingEvents>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="00:05:00.000" breakType="linear,nonlinear" breakId="mid" repeatAfter="00:10:00">
        <vmap:AdSource id="mid">
          <vmap:VASTAdData>
            <VAST version="3.0"><Ad id="m1"><InLine><AdSystem>S</AdSystem><AdTitle>M</AdTitle>
              <Impression>https://i.example/m1</Impression>
              <Creatives><Creative><Linear><Duration>00:00:15</Duration><MediaFiles>
                <MediaFile delivery="streaming" type="application/vnd.apple.mpegurl" width="640" height="360">https://cdn.example/m1.m3u8</MediaFile>
              </MediaFiles></Linear></Creative></Creatives>
            </InLine></Ad></VAST>
          </vmap:VASTAdData>
        </vmap:AdSource>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="#3" breakType="display"/>
      <vmap:AdBreak timeOffset="75%" breakType="linear"><vmap:AdSource><vmap:CustomAdData templateType="x">hi</vmap:CustomAdData></vmap:AdSource></vmap:AdBreak>
      <vmap:AdBreak timeOffset="end" breakType="linear"/>
      <vmap:AdBreak timeOffset="later" breakType="linear"/>
    </vmap:VMAP>
    """

    @Test("ad breaks with tag URIs, inline VAST, custom data and tracking; a bad break is dropped with a warning")
    func parse() throws {
        let document = try VMAPParser.parse(Array(Self.sample.utf8))
        #expect(document.version == "1.0")
        #expect(document.adBreaks.map(\.timeOffset) == [.start, .seconds(300), .position(3), .percent(75), .end])
        #expect(document.warnings == [.invalidValue(field: "timeOffset", value: "later", line: 29, column: 58)]
                || document.warnings.map(\.code) == ["invalidValue"])
        let pre = document.adBreaks[0]
        #expect(pre.breakId == "preroll" && pre.breakTypes == ["linear"])
        #expect(pre.adSource?.content == .adTagURI(url: "https://ads.example/pre", templateType: "vast3"))
        #expect(pre.adSource?.allowMultipleAds == false && pre.adSource?.followRedirects == true)
        #expect(pre.trackingEvents.map(\.event) == ["breakStart", "breakEnd", "error"])
        let mid = document.adBreaks[1]
        #expect(mid.breakTypes == ["linear", "nonlinear"] && mid.repeatAfterSeconds == 600)
        guard case .vastAdData(let vast)? = mid.adSource?.content else {
            Issue.record("mid-roll should carry inline VAST")
            return
        }
        #expect(vast.ads.first?.inline?.linears.first?.mediaFiles.first?.isHLS == true)
        #expect(document.adBreaks[2].adSource == nil)
        if case .customAdData(let type, let xml)? = document.adBreaks[3].adSource?.content {
            #expect(type == "x" && xml.contains("hi"))
        } else {
            Issue.record("75% break should carry custom data")
        }
        let either = try AdDocument.parse(Array(Self.sample.utf8))
        #expect(either == .vmap(document))
    }
}
