import PlayheadCore
import Testing

/// WebVTT thumbnail tracks parsed: cue payloads as image URLs, #xywh= fragments, the lines of bad cues.
@Suite struct ThumbnailTrackTests {
    @Test func xywhValuesParseOrSayWhy() throws {
        #expect(try ThumbnailRect.parse("160,90,160,90").get() == ThumbnailRect(x: 160, y: 90, width: 160, height: 90))
        #expect(try ThumbnailRect.parse("pixel:0,0,8,6").get() == ThumbnailRect(x: 0, y: 0, width: 8, height: 6))
        for bad in ["0,0,160", "percent:0,0,50,50", "0,0,-1,5", "a,b,c,d", "0,0,0,5", "0,0,1,2,3", ""] {
            #expect((try? ThumbnailRect.parse(bad).get()) == nil, "\(bad)")
        }
    }

    /// A cue the parser leaves out (malformed timings) is said with its line, and in a missing cue's error.
    @Test func cuesLeftOutAreSaidWithTheirLines() throws {
        let text = "WEBVTT\n\n00:00.000 --> 00:02.000\na.jpg\n\n00:02.0x0 --> 00:04.000\nb.jpg\n"
        let track = try ThumbnailTrack(bytes: Array(text.utf8), url: "http://h/t.vtt")
        #expect(track.cues.count == 1)
        #expect(track.skipped.count == 1 && track.skipped[0].hasPrefix("line 6: "), "\(track.skipped)")
        let error = ThumbnailError.noCue(time: 3, url: track.url, cueCount: 1, covered: track.covered, skipped: track.skipped)
        #expect(error.description.contains("; the parser left out: line 6: "))
    }

    @Test func cuesResolveTheirImagesAndKeepTheirLines() throws {
        let text = """
            WEBVTT

            00:00.000 --> 00:02.000
            sheet.jpg#xywh=0,0,160,90

            00:02.000 --> 00:04.000
            https://cdn.example/x/sheet2.jpg#xywh=pixel:160,0,160,90

            00:04.000 --> 00:06.000
            ../one.png

            00:06.000 --> 00:08.000
            sheet.jpg#xywh=1,2

            00:08.000 --> 00:10.000
            not an image
            """
        let track = try ThumbnailTrack(bytes: Array(text.utf8), url: "http://h/t/thumbs.vtt")
        #expect(track.cues.map(\.imageURL) == ["http://h/t/sheet.jpg", "https://cdn.example/x/sheet2.jpg", "http://h/one.png", "http://h/t/sheet.jpg", ""])
        #expect(track.cues.map(\.rect) == [ThumbnailRect(x: 0, y: 0, width: 160, height: 90), ThumbnailRect(x: 160, y: 0, width: 160, height: 90), nil, nil, nil])
        #expect(track.cues.map(\.line) == [4, 7, 10, 13, 16])
        #expect(track.cues.map { $0.problem == nil } == [true, true, true, false, false])
        #expect(track.cue(at: 2)?.index == 1)
        #expect(track.cue(at: 10)?.index == 4)
        #expect(track.cue(at: 10.5) == nil)
        #expect(track.covered == 0...10)
    }

    @Test func aRemoteTrackMayNotNameLocalFiles() throws {
        let track = try ThumbnailTrack(bytes: Array("WEBVTT\n\n00:00.000 --> 00:02.000\nfile:///etc/passwd\n".utf8), url: "http://h/t.vtt")
        #expect(track.cues.first?.problem?.contains("may not read local files") == true)
    }

    /// Lines come from the parser, not from a search for the payload's text (QA: an empty payload named line 2, a
    /// blank line; a cue of two payload lines had none): a cue's id, a repeated payload, an empty payload, a
    /// payload of two lines (its first line is the image, the rest is said in `skipped`).
    @Test func eachCueKnowsItsOwnLine() throws {
        let text = "WEBVTT\n\nNOTE a.jpg\n\n00:00.000 --> 00:02.000\na.jpg\n\nid-2\n00:02.000 --> 00:04.000\na.jpg\n\n"
            + "00:04.000 --> 00:06.000\n\n00:06.000 --> 00:08.000\nb.jpg#xywh=0,0,160,90\nsecond-line.jpg\n"
        let track = try ThumbnailTrack(bytes: Array(text.utf8), url: "http://h/t.vtt")
        #expect(track.cues.count == 4)
        #expect(track.cues.map(\.line) == [6, 10, 12, 15], "\(track.cues.map(\.line))")
        #expect(track.cues[2].problem == "the cue has no payload (an image URL was expected)")
        #expect(track.cues[3].imageURL == "http://h/b.jpg" && track.cues[3].rect == ThumbnailRect(x: 0, y: 0, width: 160, height: 90))
        #expect(track.skipped == ["line 15: the cue's payload has 2 lines; the first is its image, the others are left out"])
        let error = ThumbnailError.cueImage(url: track.url, line: track.cues[0].line, image: track.cues[0].imageURL, detail: "HTTP 404")
        #expect(error.description == "http://h/t.vtt:6: its image http://h/a.jpg: HTTP 404")
    }
}
