import Foundation
import PlayheadAds
import Testing

@Suite("VAST parser")
struct ParserTests {
    @Test("malformed XML throws with the line number, never crashes")
    func malformed() {
        let inputs = ["", "not xml", "<VAST version=\"3.0\">\n<Ad>\n</VAST>", "<VAST><Ad id=\"1\"><InLine>", "\u{0}\u{1}<<>>",
                      "<?xml version=\"1.0\"?>\n<VAST version=\"4.0\">\n  <Ad id=\"x\">\n    <InLine></Wrapper>\n</VAST>"]
        for input in inputs {
            do {
                _ = try VASTParser.parse(Array(input.utf8))
                Issue.record("accepted \(input.debugDescription)")
            } catch {
                #expect(error.code == "malformedXML", "\(input.debugDescription): \(error)")
                #expect(error.description.contains("line"))
                #expect(error.line >= 1, "positions are 1-based: \(input.debugDescription): \(error)")
            }
        }
        #expect(throws: VASTError.self) { try VASTParser.parse(Array("<VAST>\n\n<Ad>".utf8)) }
    }

    @Test("VAST 1.0 is refused with a clear message; a foreign root is named")
    func wrongRoots() throws {
        let vast1 = "<VideoAdServingTemplate><Ad id=\"1\"><InLine/></Ad></VideoAdServingTemplate>"
        do {
            _ = try VASTParser.parse(Array(vast1.utf8))
            Issue.record("VAST 1.0 accepted")
        } catch {
            #expect(error.code == "vast1NotSupported" && error.line == 1, "\(error)")
        }
        do {
            _ = try VASTParser.parse(Array("<VAST version=\"1.0\"/>".utf8))
            Issue.record("VAST version 1.0 accepted")
        } catch {
            #expect(error.description.contains("VAST 1.0 is not supported"))
        }
        do {
            _ = try AdDocument.parse(Array("<?xml version=\"1.0\"?>\n<html><body/></html>".utf8))
            Issue.record("html accepted")
        } catch {
            #expect(error.code == "unexpectedRoot" && error.line == 2, "\(error)")
        }
    }

    @Test("ad-level problems become warnings with positions; the rest of the document is kept")
    func warnings() throws {
        let xml = """
        <VAST version="3.0">
          <Ad id="1"><Wrapper><AdSystem>x</AdSystem></Wrapper></Ad>
          <Ad id="2"/>
          <Ad id="3"><InLine><Creatives><Creative><Linear skipoffset="soon"><Duration>abc</Duration></Linear></Creative></Creatives></InLine></Ad>
        </VAST>
        """
        let document = try Build.parse(xml)
        #expect(document.ads.map(\.id) == ["3"])
        let codes = document.warnings.map { "\($0.code)@\($0.line)" }
        #expect(codes == ["missingElement@2", "missingElement@3", "missingElement@4", "missingElement@4", "missingElement@4",
                          "invalidValue@4", "invalidValue@4"], "\(document.warnings.map(\.description))")
    }

    @Test("durations, skip offsets, progress offsets, media attributes and extensions")
    func fields() throws {
        let document = try Build.parse(Build.vast(Build.inlineXML(media: [Build.hls, Build.mp4])))
        let linear = try #require(document.ads.first?.inline?.linears.first)
        #expect(linear.durationSeconds == 20.5 && linear.skipOffset == .percent(25))
        #expect(linear.mediaFiles.map(\.isHLS) == [true, false])
        #expect(linear.mediaFiles[0].width == 1280 && linear.mediaFiles[0].delivery == "streaming")
        #expect(VASTTime.seconds(fromClock: "100:00:00.5") == 360_000.5)
        #expect(VASTTime.seconds(fromClock: "00:00:60") == nil)
        #expect(VASTOffset(parsing: "00:00:05") == .seconds(5))
        #expect(VASTOffset(parsing: "101%") == nil)
        let ext = try Build.parse("<VAST version=\"4.0\"><Ad><InLine><Extensions><Extension type=\"t\"><a b=\"1\">x &amp; y</a></Extension></Extensions></InLine></Ad></VAST>")
        #expect(ext.ads.first?.inline?.extensions == [VASTExtension(type: "t", xml: "<Extension type=\"t\"><a b=\"1\">x &amp; y</a></Extension>")])
    }
}
