import Foundation
import PlayheadHLS
import Testing

/// Hand-written malformed playlists (QA of `playhead inspect`): what RFC 8216bis forbids is an error
/// naming line and column when the playlist cannot be used, else a warning naming the line.
@Suite struct MalformedInputTests {
    /// The warnings of `code` in a playlist that parses.
    private func warnings(_ text: String, _ code: String) throws -> [PlaylistWarning] {
        try Playlist.parse(text).warnings.filter { $0.code == code }
    }

    @Test func loneCRLineEndingsAreLineBreaksWithAWarning() throws {
        let text = "#EXTM3U\r#EXT-X-TARGETDURATION:4\r#EXTINF:4,\ra.ts\r#EXTINF:4,\rb.ts\r#EXT-X-ENDLIST\r"
        for parsed in [try Playlist.parse(text), try Playlist.parse(data: Array(text.utf8))] {
            let media = try #require(parsed.playlist.media)
            #expect(media.segments.map(\.uri) == ["a.ts", "b.ts"])
            #expect(media.targetDuration == 4)
            #expect(media.endList)
            #expect(parsed.warnings.map(\.code) == ["cr-line-ending"], "\(parsed.warnings)")
            #expect(parsed.warnings.first?.line == 1)
        }
        // CRLF stays silent, and an error after lone CRs names the right line.
        #expect(try Playlist.parse("#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4,\r\na.ts\r\n").warnings.isEmpty)
        #expect(throws: PlaylistParseError.binaryData(line: 3, column: 2)) {
            try Playlist.parse(data: Array("#EXTM3U\r#EXT-X-TARGETDURATION:4\ra\u{0}.ts\r".utf8))
        }
    }

    /// A byte range of 0 bytes names no media: an error at its line (QA: the fetch failed later with a
    /// transfer error naming no line).
    @Test func aByteRangeOfNoBytesIsAnErrorAtItsLine() {
        for (text, line) in [("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:0@0\n#EXTINF:4,\na.ts\n", 3),
                             ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"0\"\n#EXTINF:4,\na.ts\n", 3)] {
            do {
                _ = try Playlist.parse(text)
                Issue.record("a range of 0 bytes parsed: \(text)")
            } catch {
                #expect(error.line == line && "\(error)".contains("at least 1 byte"), "\(error)")
            }
        }
        #expect((try? Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:1@0\n#EXTINF:4,\na.ts\n")) != nil)
    }

    @Test func aWarningAboutTheWholePlaylistHasNoLine() throws {
        let parsed = try Playlist.parse("#EXTM3U\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n")
        let warning = try #require(parsed.warnings.first { $0.code == "missing-target-duration" })
        #expect(warning.line == nil)
        #expect(warning.description == "[missing-target-duration] media playlist has no EXT-X-TARGETDURATION")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(PlaylistReport(parsed).jsonBytes())) as? [String: Any])
        let first = try #require((json["warnings"] as? [[String: Any]])?.first)
        #expect(first["code"] as? String == "missing-target-duration")
        #expect(first["line"] == nil)
    }

    /// An AES-128 key in a key system's format (not KEYFORMAT identity) with no identity key beside it is
    /// warned once per format, at the first segment it encrypts; with an identity key in force, it is not.
    @Test func anAES128KeyOfAnotherKeyFormatIsWarned() throws {
        let head = "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:4\n"
        let other = #"#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k",KEYFORMAT="com.example.drm""# + "\n"
        let parsed = try Playlist.parse(head + other + "#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n" + other + "#EXTINF:4,\nc.ts\n#EXT-X-ENDLIST\n")
        let warnings = parsed.warnings.filter { $0.message.contains("KEYFORMAT") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.line == 6, "\(warnings)")
        #expect(warnings.first?.message == #"segment a.ts is METHOD=AES-128 with KEYFORMAT="com.example.drm" and no identity key in force: "#
                + "the key's URI is read as the raw 16-byte key of KEYFORMAT identity")
        let identity = #"#EXT-X-KEY:METHOD=AES-128,URI="k.bin",KEYFORMAT="identity""# + "\n"
        let both = try Playlist.parse(head + identity + other + "#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(!both.warnings.contains { $0.message.contains("KEYFORMAT") }, "\(both.warnings)")
    }

    @Test func aNegativeBandwidthIsABadNumberAtItsColumn() {
        #expect(throws: PlaylistParseError.badNumber(line: 3, column: 29, tag: "EXT-X-STREAM-INF", text: "BANDWIDTH=-100000")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-STREAM-INF:BANDWIDTH=-100000\nv.m3u8\n")
        }
        // So is any other negative decimal-integer attribute.
        #expect(throws: PlaylistParseError.badNumber(line: 2, column: 50, tag: "EXT-X-STREAM-INF", text: "AVERAGE-BANDWIDTH=-5")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=10,AVERAGE-BANDWIDTH=-5\nv.m3u8\n")
        }
    }

    /// RFC 8216bis 4.2: an attribute name MUST NOT appear twice and clients SHOULD refuse such a
    /// playlist; like the other attribute-list faults, it is an error at the second name.
    @Test func aRepeatedAttributeNameIsABadAttributeList() {
        #expect(throws: PlaylistParseError.badAttributeList(
            line: 2, column: 31, tag: "EXT-X-STREAM-INF",
            reason: "second occurrence of an attribute name in attribute BANDWIDTH")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2\nv.m3u8\n")
        }
        #expect(throws: AttributeListError(kind: .duplicateName, column: 15, attribute: "URI")) {
            try AttributeList.parse(#"URI="a", X=1, URI="b""#)
        }
    }

    /// One error, one column, counted from the line's start (the reason gave a second one, counted from the
    /// attribute list's start); an empty attribute (two commas) and a bad resolution say what they are.
    @Test func attributeListErrorsGiveOneColumnAndSayWhatIsWrong() {
        #expect(throws: PlaylistParseError.badAttributeList(line: 2, column: 36, tag: "EXT-X-STREAM-INF", reason: "empty attribute (nothing between two commas)")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,,RESOLUTION=320x180\nv.m3u8\n")
        }
        #expect(throws: PlaylistParseError.badAttributeList(line: 2, column: 47, tag: "EXT-X-STREAM-INF",
                                                            reason: "value is not a valid decimal-resolution in attribute RESOLUTION")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,RESOLUTION=320x180x7\nv.m3u8\n")
        }
        #expect(throws: PlaylistParseError.badNumber(line: 2, column: 29, tag: "EXT-X-STREAM-INF", text: "BANDWIDTH=5x")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5x\nv.m3u8\n")
        }
    }

    /// A number written as a quoted string, and a value on a tag that takes none, are read and warned.
    @Test func aQuotedNumberAndAValueOnAValuelessTagAreWarned() throws {
        let quoted = try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\"500000\"\nv.m3u8\n")
        guard case let .multivariant(playlist) = quoted.playlist else { Issue.record("not multivariant"); return }
        #expect(playlist.variants.first?.bandwidth == 500_000)
        #expect(quoted.warnings.map(\.code) == ["quoted-number"] && quoted.warnings.first?.line == 2, "\(quoted.warnings)")
        let ended = try warnings("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST:foo\n", "unexpected-value")
        #expect(ended.map(\.line) == [5] && ended.first?.message.contains("#EXT-X-ENDLIST takes no value") == true, "\(ended)")
        #expect(try warnings("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n", "unexpected-value").isEmpty)
    }

    @Test func aSequenceTagAfterTheFirstSegmentIsWarned() throws {
        let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXTINF:4,
        a.ts
        #EXT-X-MEDIA-SEQUENCE:5
        #EXTINF:4,
        #EXT-X-DISCONTINUITY-SEQUENCE:2
        b.ts
        #EXT-X-ENDLIST
        """
        let parsed = try Playlist.parse(text)
        let late = parsed.warnings.filter { $0.code == "header-tag-after-segment" }
        #expect(late.map(\.line) == [5, 7], "\(parsed.warnings)")
        #expect(parsed.playlist.media?.segments.map(\.mediaSequence) == [5, 6])
        #expect(try warnings("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:4,\na.ts\n",
                             "header-tag-after-segment").isEmpty)
    }

    @Test func aGroupNoRenditionDefinesIsWarnedAtTheVariant() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",URI="a.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="x",NAME="en",URI="s.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="aud",CLOSED-CAPTIONS=NONE
        v1.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2000,AUDIO="x",CLOSED-CAPTIONS="cc"
        v2.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=500,VIDEO="vid",URI="i.m3u8"
        """
        let missing = try warnings(text, "undefined-group")
        #expect(missing.map(\.line) == [7, 7, 9], "\(missing)")
        #expect(missing.first?.message == "AUDIO=\"x\" names no EXT-X-MEDIA TYPE=AUDIO group")
        #expect(missing.map(\.message).contains("CLOSED-CAPTIONS=\"cc\" names no EXT-X-MEDIA TYPE=CLOSED-CAPTIONS group"))
    }

    @Test func anExtinfWithoutItsCommaIsAcceptedWithAWarning() throws {
        let parsed = try Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4\na.ts\n#EXTINF:3.5,\nb.ts\n")
        #expect(parsed.playlist.media?.segments.map(\.duration) == [4, 3.5])
        #expect(parsed.warnings.filter { $0.code == "extinf-missing-comma" }.map(\.line) == [3], "\(parsed.warnings)")
    }

    @Test func aCueOutDurationThatIsNotANumberIsWarned() throws {
        let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-CUE-OUT:DURATION=abc
        #EXTINF:4,
        a.ts
        #EXT-X-CUE-IN
        #EXT-X-CUE-OUT:abc
        #EXTINF:4,
        b.ts
        #EXT-X-CUE-OUT:30.000
        #EXT-X-CUE-OUT:DURATION="15",ID=7
        #EXT-X-CUE-OUT:Duration=20 SCTE35=/DA0AAA=
        #EXT-X-CUE-OUT
        #EXTINF:4,
        c.ts
        """
        let parsed = try Playlist.parse(text)
        let bad = parsed.warnings.filter { $0.code == "bad-value" }
        #expect(bad.map(\.line) == [3, 7], "\(parsed.warnings)")
        #expect(bad.first?.message.contains("'abc'") == true)
        // The tags are kept for the player's cue detector as before.
        #expect(parsed.playlist.media?.segments.first?.tags.first?.value == "DURATION=abc")
    }

    @Test func longSegmentsBeyondTheTenListedAreCounted() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        for i in 0..<15 { text += "#EXTINF:4,\ns\(i).ts\n" }
        let long = try warnings(text, "extinf-exceeds-target-duration")
        #expect(long.count == 11)
        #expect(long.last?.line == 23)  // the 11th long segment's EXTINF
        #expect(long.last?.message == "… and 5 more segments above the target duration 2 s (not listed)")
        text += "#EXTINF:4,\nlast.ts\n"
        #expect(try warnings(text, "extinf-exceeds-target-duration").last?.message.contains("and 6 more") == true)
    }

    @Test func uriLinesAndAttributesThatAreNotURIsAreWarned() throws {
        let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-KEY:METHOD=AES-128,URI="key 1.bin"
        #EXTINF:4,
        seg 1.ts
        #EXTINF:4,
        http://[bad
        #EXTINF:4,
        http://cdn.example.com:80a/x.ts
        #EXTINF:4,
        a%zz.ts
        #EXTINF:4,
        ../a/b%20c.ts?q=1&r=(2)#f
        #EXTINF:4,
        https://user:pw@cdn.example.com:443/a.ts
        #EXTINF:4,
        http://[::1]:8080/a.ts
        #EXTINF:4,
        data:text/plain;base64,AAAA==
        #EXTINF:4,
        file:///var/media/a.ts
        """
        let bad = try warnings(text, "bad-uri")
        #expect(bad.map(\.line) == [3, 5, 7, 9, 11], "\(bad)")
        #expect(bad.map(\.message) == [
            "'key 1.bin' is not a valid URI (RFC 3986): a space at byte 4 must be percent-encoded",
            "'seg 1.ts' is not a valid URI (RFC 3986): a space at byte 4 must be percent-encoded",
            "'http://[bad' is a malformed URI: '[' opens an IP literal that is not closed; it cannot be resolved",
            "'http://cdn.example.com:80a/x.ts' is a malformed URI: the port '80a' is not a number; it cannot be resolved",
            "'a%zz.ts' is not a valid URI (RFC 3986): '%' at byte 2 is not followed by two hex digits (a literal '%' is written %25)",
        ])
        // Kept as written: the player resolves what it can.
        #expect(try Playlist.parse(text).playlist.media?.segments.first?.uri == "seg 1.ts")
        let variants = try warnings("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttp://h h/v.m3u8\n", "bad-uri")
        #expect(variants.map(\.line) == [3])
    }
}
