import Foundation
import PlayheadHLS
import Testing

@Suite struct WebVTTParserTests {
    @Test func timestampMapMPEGTSFirst() throws {
        let doc = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nHi\n")
        #expect(doc.timestampMap == WebVTTTimestampMap(mpegts: 900_000, local: 0))
        #expect(doc.timestampMap?.offsetSeconds == 10)
        #expect(doc.header == "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000")
        #expect(doc.cues.count == 1)
        #expect(doc.issues.isEmpty)
    }

    @Test func timestampMapLocalFirst() throws {
        let doc = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:01.500,MPEGTS:183000\n\n00:01.500 --> 00:02.000\nHi\n")
        #expect(doc.timestampMap == WebVTTTimestampMap(mpegts: 183_000, local: 1.5))
        #expect(doc.issues.isEmpty)
    }

    @Test func badTimestampMapIsAnIssue() throws {
        let doc = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n")
        #expect(doc.timestampMap == nil)
        #expect(doc.issues.map(\.line) == [2])
        #expect(doc.issues.first?.message.contains("X-TIMESTAMP-MAP") == true)
    }

    @Test func missingSignatureThrowsWithLineNumber() {
        #expect(throws: WebVTTError(line: 1, message: "missing WEBVTT signature")) {
            try WebVTTParser.parse("WEBVT\n\n00:01.000 --> 00:02.000\nHi\n")
        }
        #expect(throws: WebVTTError.self) { try WebVTTParser.parse("WEBVTTX\n") }
        #expect(throws: WebVTTError.self) { try WebVTTParser.parse("") }
        #expect(WebVTTError(line: 1, message: "missing WEBVTT signature").description == "line 1: missing WEBVTT signature")
    }

    @Test func crlfAndLoneCR() throws {
        let doc = try WebVTTParser.parse("WEBVTT - title\r\n\r\nid1\r\n00:01.000 --> 00:02.000\r\nline one\r\nline two\r\n\r\n00:03.000 --> 00:04.000\rthird\r")
        #expect(doc.header == "- title")
        #expect(doc.cues.map(\.id) == ["id1", ""])
        #expect(doc.cues.map(\.text) == ["line one\nline two", "third"])
        #expect(doc.cues.map(\.startTime) == [1, 3])
    }

    @Test func byteOrderMarkAndBytes() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("WEBVTT\n\n00:00.000 --> 00:01.000\nA\u{00E9}".utf8) + [0xFF]
        let doc = try WebVTTParser.parse(bytes)
        #expect(doc.cues.first?.text == "A\u{00E9}\u{FFFD}")
        let fromString = try WebVTTParser.parse("\u{FEFF}WEBVTT\n\n00:00.000 --> 00:01.000\nA")
        #expect(fromString.cues.count == 1)
    }

    @Test func badTimestampIsAnIssueWithItsLine() throws {
        let doc = try WebVTTParser.parse("WEBVTT\n\n00:01.000 --> 00:02.000\nfirst\n\nbad\n00:03.00 --> 00:04.000\nskipped\n\n00:05.000 --> 00:06.000\nlast\n")
        #expect(doc.cues.map(\.text) == ["first", "last"])
        let issue = try #require(doc.issues.first)
        #expect(issue.line == 7)
        #expect(issue.message.contains("bad cue timings"))
        #expect(doc.issues.count == 1)
    }

    @Test func plainTextStripsTagsAndDecodesReferences() {
        let cue = WebVTTCue(
            startTime: 0, endTime: 1,
            text: "<v Roger Bingham><b>Fish</b> &amp; chips &lt;3&gt;</v>\n<00:00.500><i.loud>x</i>&nbsp;&#65;&#x42;&lrm;&rlm;&bogus; & done")
        #expect(cue.plainText == "Fish & chips <3>\nx\u{00A0}AB\u{200E}\u{200F}&bogus; & done")
    }

    @Test func cueSettingsAndDefaults() throws {
        let doc = try WebVTTParser.parse("""
            WEBVTT

            REGION
            id:fred width:40% lines:4 regionanchor:0%,100% viewportanchor:10%,90% scroll:up

            00:00.000 --> 00:01.000
            defaults

            00:00.000 --> 00:01.000 vertical:rl line:-2,end position:10%,line-right size:50% align:left
            set

            00:00.000 --> 00:01.000 line:25.5% region:fred
            percent line, then region

            00:00.000 --> 00:01.000 line:1.5. position:101% size:x align:middle
            invalid
            """)
        #expect(doc.regions == [WebVTTRegion(id: "fred", width: 40, lines: 4, viewportAnchorX: 10, viewportAnchorY: 90, scroll: .up)])
        let defaults = doc.cues[0]
        #expect(defaults.line == .auto && defaults.snapToLines && defaults.lineAlign == .start)
        #expect(defaults.position == nil && defaults.positionAlign == .auto && defaults.size == 100 && defaults.align == .center)
        let set = doc.cues[1]
        #expect(set.vertical == "rl" && set.line == .lineNumber(-2) && set.lineAlign == .end)
        #expect(set.position == 10 && set.positionAlign == .lineRight && set.size == 50 && set.align == .left)
        #expect(doc.cues[2].line == .percentage(25.5) && !doc.cues[2].snapToLines && doc.cues[2].region == "fred")
        #expect(doc.cues[3] == WebVTTCue(startTime: 0, endTime: 1, text: "invalid"))
        #expect(doc.issues.filter { $0.line == 15 }.count == 4)
    }

    @Test func arrowInIdentifierAndNoteBlocks() throws {
        let doc = try WebVTTParser.parse("WEBVTT\n\nNOTE a comment\nover two lines\n\na-->b\n00:01.000 --> 00:02.000\ntext\n00:03.000 --> 00:04.000\nno blank line before\n")
        #expect(doc.cues.map(\.id) == ["", ""])
        #expect(doc.cues.map(\.text) == ["text", "no blank line before"])
        #expect(doc.issues.count == 1)  // the "a-->b" line is a failed timing line
        #expect(doc.issues.first?.line == 6)
    }

    @Test func regionLookupAndCodableRoundTrip() throws {
        let doc = try WebVTTParser.parse("""
            WEBVTT
            X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0

            REGION
            id:a lines:2

            REGION
            id:a lines:5

            STYLE
            ::cue { color: red }

            00:00.000 --> 00:01.000 region:a line:10%
            dropped out of the region by the line setting

            00:00.000 --> 00:01.000 line:10% region:a
            in the region
            """)
        #expect(doc.regions.map(\.lines) == [2, 5])
        #expect(doc.cues[0].region == nil)
        #expect(doc.region(of: doc.cues[1])?.lines == 5)
        #expect(doc.issues.isEmpty)
        let encoded = try JSONEncoder().encode(doc)
        #expect(try JSONDecoder().decode(WebVTTDocument.self, from: encoded) == doc)
    }
}
