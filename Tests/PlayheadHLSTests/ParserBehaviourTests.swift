import PlayheadHLS
import Testing

private func media(_ text: String) throws -> (MediaPlaylist, [PlaylistWarning]) {
    let parsed = try Playlist.parse(text)
    return (try #require(parsed.playlist.media), parsed.warnings)
}

@Suite struct ParserBehaviourTests {
    @Test func variablesAreSubstitutedInURIsAndQuotedStrings() throws {
        let (m, warnings) = try media("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="base",VALUE="https://cdn.example.com"
        #EXT-X-DEFINE:IMPORT="token"
        #EXT-X-TARGETDURATION:10
        #EXT-X-MAP:URI="{$base}/init.mp4"
        #EXTINF:10,
        {$base}/seg1.mp4?t={$token}
        """)
        #expect(m.segments[0].uri == "https://cdn.example.com/seg1.mp4?t={$token}")
        #expect(m.segments[0].map?.uri == "https://cdn.example.com/init.mp4")
        #expect(warnings.contains { $0.code == "undefined-variable" && $0.line == 4 }, "an IMPORT with no multivariant playlist known")
        #expect(m.defines.map(\.source) == [.value, .import])
    }

    /// A reference to a variable no EXT-X-DEFINE declared fails the parse (RFC 8216bis 4.3), naming the line and
    /// column: it was warned and left in the URI, and the fetch failed later on a curl error that named no variable.
    @Test func aReferenceToAnUndeclaredVariableIsAnError() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="base",VALUE="https://cdn.example.com"
        #EXT-X-TARGETDURATION:10
        #EXTINF:10,
        {$base}/seg1.ts
        #EXTINF:10,
        {$base}/{$nope}/seg2.ts
        """
        #expect(throws: PlaylistParseError.undefinedReference(line: 8, column: 9, name: "nope")) { try Playlist.parse(text) }
        #expect(PlaylistParseError.undefinedReference(line: 8, column: 9, name: "nope").description
                == "line 8, column 9: {$nope} refers to a variable that no EXT-X-DEFINE before it defines")
        // In an attribute too, and a definition after the reference does not count. (A playlist with no
        // EXT-X-DEFINE before the reference at all is read as written: substitution is for playlists that define.)
        #expect(throws: PlaylistParseError.undefinedReference(line: 5, column: 17, name: "host")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXT-X-TARGETDURATION:10\n"
                               + "#EXT-X-MAP:URI=\"{$host}/init.mp4\"\n#EXT-X-DEFINE:NAME=\"host\",VALUE=\"h\"\n#EXTINF:10,\na.mp4\n")
        }
    }

    /// RFC 8216bis 4.4.2.3: a name declared twice, or a tag with more than one of NAME, IMPORT and QUERYPARAM, fails
    /// the parse, naming the line (the last definition, or NAME, won silently); a name with other characters than
    /// A-Z, a-z, 0-9, '-' and '_' is warned (nothing was said).
    @Test func defineTagsThatBreakTheRulesAreRefused() throws {
        let head = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:10\n"
        do {
            _ = try Playlist.parse(head + "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n#EXTINF:10,\n{$a}.ts\n")
            Issue.record("a name defined twice parsed")
        } catch {
            #expect(error.line == 5 && error.description.contains("variable a is defined twice"), "\(error)")
        }
        do {
            _ = try Playlist.parse(head + "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\",QUERYPARAM=\"a\"\n#EXTINF:10,\n{$a}.ts\n")
            Issue.record("NAME with QUERYPARAM parsed")
        } catch {
            #expect(error.line == 4 && error.description.contains("it has NAME and QUERYPARAM"), "\(error)")
        }
        let odd = try Playlist.parse(head + "#EXT-X-DEFINE:NAME=\"bad name!\",VALUE=\"1\"\n#EXTINF:10,\na.ts\n")
        #expect(odd.warnings.contains { $0.code == "bad-value" && $0.line == 4 && $0.message.contains("'bad name!'") }, "\(odd.warnings)")
    }

    @Test func importedVariablesComeFromTheCaller() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:IMPORT="token"
        #EXT-X-DEFINE:QUERYPARAM="session"
        #EXT-X-TARGETDURATION:10
        #EXTINF:10,
        a.ts?t={$token}&s={$session}
        """, sources: VariableSources(imported: ["token": "abc"], queryParameters: ["session": "42"]))
        #expect(parsed.playlist.media?.segments.first?.uri == "a.ts?t=abc&s=42")
        #expect(parsed.warnings.isEmpty)
    }

    /// A definition's VALUE is a quoted string like any other: the variables defined before it are substituted
    /// in it (RFC 8216bis 4.3), and a reference to one no EXT-X-DEFINE declared is the usual error. Before, the
    /// reference stayed as written and a segment was asked for as `seg000.ts?b=%7B$tok%7D` (QA43 #3).
    @Test func aDefinitionsValueTakesTheVariablesBeforeIt() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:IMPORT="tok"
        #EXT-X-DEFINE:NAME="q",VALUE="?b={$tok}"
        #EXT-X-DEFINE:NAME="base",VALUE="seg"
        #EXT-X-DEFINE:NAME="file",VALUE="{$base}000.ts{$q}"
        #EXT-X-TARGETDURATION:10
        #EXTINF:10,
        {$file}
        """, sources: VariableSources(imported: ["tok": "SECRET"]))
        #expect(parsed.playlist.media?.segments.first?.uri == "seg000.ts?b=SECRET")
        #expect(parsed.playlist.media?.defines.map(\.value) == ["SECRET", "?b=SECRET", "seg", "seg000.ts?b=SECRET"])
        #expect(parsed.warnings.isEmpty)
        #expect(throws: PlaylistParseError.undefinedReference(line: 4, column: 31, name: "nope")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXT-X-DEFINE:NAME=\"c\",VALUE=\"{$nope}\"\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n{$c}.ts\n")
        }
    }

    /// RFC 8216bis 4.4.6.4 and 4.4.6.5: session data takes VALUE or URI, not both and not neither, and a session key's
    /// METHOD is not NONE. Each is warned on its line and kept as read (nothing was said, QA43 #5).
    @Test func sessionDataAndKeysThatBreakTheRulesAreWarned() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-SESSION-DATA:DATA-ID="com.example.both",VALUE="v",URI="x.json"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.none"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.fine",VALUE="v"
        #EXT-X-SESSION-KEY:METHOD=NONE
        #EXT-X-SESSION-KEY:METHOD=AES-128,URI="k.key"
        #EXT-X-STREAM-INF:BANDWIDTH=1000
        v.m3u8
        """)
        let warned = parsed.warnings.map { "\($0.line ?? 0) \($0.code)" }
        #expect(warned == ["2 odd-value", "3 missing-attribute", "5 odd-value"], "\(parsed.warnings)")
        #expect(parsed.playlist.multivariant?.sessionData.count == 3 && parsed.playlist.multivariant?.sessionKeys.count == 2)
    }

    /// IMPORT reads only the multivariant playlist's variables and QUERYPARAM only the URL's query:
    /// the same name in the other source does not stand in for it.
    @Test func eachDefinitionReadsItsOwnSource() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:QUERYPARAM="token"
        #EXT-X-TARGETDURATION:10
        #EXTINF:10,
        a.ts?t={$token}
        """
        let parsed = try Playlist.parse(text, sources: VariableSources(playlistURL: "http://h/p/index.m3u8?x=1&token=a%2Fb%20c#frag",
                                                                       imported: ["token": "wrong"]))
        #expect(parsed.playlist.media?.segments.first?.uri == "a.ts?t=a/b c")
        #expect(throws: PlaylistParseError.undefinedVariable(line: 3, column: 15, name: "token",
                                                             detail: "QUERYPARAM=\"token\": the playlist's URL has no query parameter token")) {
            try Playlist.parse(text, sources: VariableSources(playlistURL: "http://h/p/index.m3u8?tok=1", imported: ["token": "wrong"]))
        }
    }

    /// A known source that lacks the name fails the parse (RFC 8216bis 4.4.2.3), naming the line; an
    /// unknown source (a playlist read on its own) keeps the reference and warns.
    @Test func aMissingImportIsAnErrorOnlyWhenTheSourceIsKnown() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-TARGETDURATION:10
        #EXT-X-DEFINE:IMPORT="host"
        #EXTINF:10,
        http://{$host}/a.ts
        """
        do {
            _ = try Playlist.parse(text, sources: VariableSources(imported: ["other": "x"]))
            Issue.record("a missing import parsed")
        } catch {
            #expect(error.line == 4)
            #expect(error.code == "undefined-variable")
            #expect(error.description.contains("IMPORT=\"host\": no multivariant playlist that led here defines host"), "\(error.description)")
        }
        let lenient = try Playlist.parse(text)
        #expect(lenient.playlist.media?.segments.first?.uri == "http://{$host}/a.ts")
        #expect(lenient.warnings.contains { $0.code == "undefined-variable" && $0.line == 4 })
        // It says what is missing (QA37: "the playlist's URL is not known" of a file whose URL was known).
        #expect(lenient.warnings.contains { $0.message.contains("IMPORT=\"host\": the playlist was read on its own") }, "\(lenient.warnings)")
        let query = try Playlist.parse(text.replacingOccurrences(of: "IMPORT=", with: "QUERYPARAM="))
        #expect(query.warnings.contains { $0.message.contains("QUERYPARAM=\"host\": the playlist was read on its own, with no URL query") },
                "\(query.warnings)")
    }

    @Test func aMultivariantPlaylistsVariablesAreWhatItsMediaPlaylistsImport() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="seg",VALUE="part"
        #EXT-X-DEFINE:QUERYPARAM="token"
        #EXT-X-STREAM-INF:BANDWIDTH=100000
        media.m3u8?token={$token}
        """, sources: VariableSources(playlistURL: "http://h/master.m3u8?token=t1"))
        guard case let .multivariant(multivariant) = parsed.playlist else { Issue.record("not multivariant"); return }
        #expect(multivariant.variableValues == ["seg": "part", "token": "t1"])
        #expect(multivariant.variants.first?.uri == "media.m3u8?token=t1")
    }

    /// A warning about a whole segment names its EXTINF line (it said line 0).
    @Test func aSegmentAboveTheTargetDurationIsWarnedAtItsEXTINFLine() throws {
        let parsed = try Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n")
        #expect(parsed.warnings.filter { $0.code == "extinf-exceeds-target-duration" }.map(\.line) == [5])
    }

    @Test func aNegativeEXTINFCountsAsZeroInTheTotal() throws {
        let parsed = try Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXTINF:-2,\nb.ts\n#EXT-X-ENDLIST\n")
        #expect(parsed.playlist.media?.segments.map(\.duration) == [4, -2])
        #expect(parsed.playlist.media?.totalDurationSeconds == 4)
    }

    @Test func byteRangesAreResolved() throws {
        let (m, _) = try media("""
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:10
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="720"
        #EXTINF:10,
        #EXT-X-BYTERANGE:1000@720
        main.mp4
        #EXTINF:10,
        #EXT-X-BYTERANGE:500
        main.mp4
        #EXTINF:10,
        #EXT-X-BYTERANGE:300
        main.mp4
        #EXTINF:10,
        whole.mp4
        """)
        #expect(m.segments.map(\.byteRange) == [
            ByteRange(length: 1000, offset: 720), ByteRange(length: 500, offset: 1720),
            ByteRange(length: 300, offset: 2220), nil,
        ])
        #expect(m.segments[0].map?.byteRange == ByteRange(length: 720, offset: 0))
    }

    @Test func sequenceNumbersKeysAndMapsInForce() throws {
        let (m, _) = try media("""
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:10
        #EXT-X-MEDIA-SEQUENCE:50
        #EXT-X-DISCONTINUITY-SEQUENCE:2
        #EXT-X-KEY:METHOD=AES-128,URI="k1"
        #EXTINF:10,
        a.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:10,
        b.ts
        """)
        #expect(m.segments.map(\.mediaSequence) == [50, 51])
        #expect(m.segments.map(\.discontinuitySequence) == [2, 3])
        #expect(m.segments[0].key?.method == .aes128)
        #expect(m.segments[0].key?.uri == "k1")
        #expect(m.segments[1].key?.method == KeyMethod.none)
        #expect(m.segments[0].map == nil)
        #expect(m.segments[1].map?.uri == "init.mp4")
    }

    @Test func unknownTagsAttachToTheSegmentTheyPrecede() throws {
        let (m, _) = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXTINF:10,
        a.ts
        # a comment is ignored
        #EXT-X-CUE-OUT:30
        #EXT-OATCLS-SCTE35:/DAlAAAA
        #EXTINF:10,
        b.ts
        #EXT-X-CUE-IN
        """)
        #expect(m.segments[0].tags.isEmpty)
        #expect(m.segments[1].tags == [UnknownTag(name: "EXT-X-CUE-OUT", value: "30"),
                                       UnknownTag(name: "EXT-OATCLS-SCTE35", value: "/DAlAAAA")])
        #expect(m.segments[1].tags.map(\.line) == [6, 7])
        #expect(m.trailingTags == [UnknownTag(name: "EXT-X-CUE-IN", value: nil)])
        #expect(m.trailingTags.first?.line == 10)
    }

    @Test func versionWarningsFollowThePSDKTable() throws {
        let (_, warnings) = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x00000000000000000000000000000001
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:9.5,
        #EXT-X-BYTERANGE:100@0
        a.mp4
        """)
        let low = warnings.filter { $0.code == "version-too-low" }
        #expect(low.map(\.line) == [3, 4, 5, 6])
        #expect(low[0].message.contains("2"))
        #expect(low[1].message.contains("6"))   // MAP without I-FRAMES-ONLY
        #expect(low[2].message.contains("3"))
        #expect(low[3].message.contains("4"))
    }

    @Test func versionHighEnoughGivesNoWarning() throws {
        let (_, warnings) = try media("""
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-TARGETDURATION:10
        #EXTINF:9.5,
        #EXT-X-BYTERANGE:100@0
        a.ts
        """)
        #expect(warnings.isEmpty)
    }

    @Test func toleratedProblemsAreWarnings() throws {
        let (m, warnings) = try media("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:5
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:-3
        #EXT-X-PLAYLIST-TYPE:LIVE
        #EXTINF:7.2,
        a.ts
        """)
        let codes = Set(warnings.map(\.code))
        #expect(codes.isSuperset(of: ["duplicate-tag", "negative-value", "unknown-enumerated-value",
                                      "extinf-exceeds-target-duration"]))
        #expect(m.targetDuration == 6)
        #expect(m.mediaSequence == -3)
        #expect(m.playlistType == nil)
    }

    @Test func missingTargetDurationIsAWarning() throws {
        let (_, warnings) = try media("#EXTM3U\n#EXTINF:4,\na.ts\n")
        #expect(warnings.contains { $0.code == "missing-target-duration" })
        // A bare header is not silently a valid (empty, live) playlist.
        let (_, bare) = try media("#EXTM3U\n")
        #expect(bare.contains { $0.code == "missing-target-duration" && $0.message.hasSuffix("(nor any segment or variant)") })
    }

    @Test func mixingKindsIsAnError() {
        #expect(throws: PlaylistParseError.mixedPlaylistKinds(line: 4, column: 1, tag: "EXTINF")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:4,\na.ts\n")
        }
    }

    @Test func requiredAttributesAreErrors() {
        #expect(throws: PlaylistParseError.missingRequiredAttribute(
            line: 2, column: 19, tag: "EXT-X-STREAM-INF", attribute: "BANDWIDTH")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1\"\nv.m3u8\n")
        }
        #expect(throws: PlaylistParseError.missingRequiredAttribute(
            line: 2, column: 12, tag: "EXT-X-KEY", attribute: "URI")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128\n#EXTINF:4,\na.ts\n")
        }
        #expect(throws: PlaylistParseError.missingRequiredAttribute(
            line: 2, column: 12, tag: "EXT-X-MAP", attribute: "URI")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n#EXTINF:4,\na.ts\n")
        }
        #expect(throws: PlaylistParseError.missingRequiredAttribute(
            line: 2, column: 14, tag: "EXT-X-MEDIA", attribute: "URI")) {
            try Playlist.parse("#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\"\n")
        }
    }

    @Test func badNumbersAreErrors() {
        #expect(throws: PlaylistParseError.badNumber(line: 2, column: 9, tag: "EXTINF", text: "ten")) {
            try Playlist.parse("#EXTM3U\n#EXTINF:ten,\na.ts\n")
        }
        #expect(throws: PlaylistParseError.self) {
            try Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=lots\nv.m3u8\n")
        }
    }

    @Test func dateRangeKeepsSCTE35HexAndClientAttributes() throws {
        let (m, _) = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PROGRAM-DATE-TIME:2014-03-05T11:15:00+01:00
        #EXT-X-DATERANGE:ID="s1",START-DATE="2014-03-05T11:15:00Z",DURATION=59.993,SCTE35-OUT=0xFC002F,X-AD="a",X-N=2.5
        #EXTINF:10,
        a.ts
        """)
        let d = try #require(m.dateRanges.first)
        #expect(d.scte35Out == "0xFC002F")
        #expect(d.scte35OutBytes == [0xFC, 0x00, 0x2F])
        #expect(d.clientAttributes == [ClientAttribute(name: "X-AD", value: .quotedString("a")),
                                       ClientAttribute(name: "X-N", value: .signedFloat(2.5))])
        #expect(d.startDate?.iso8601 == "2014-03-05T11:15:00.000Z")
        #expect(m.segments[0].programDateTime?.iso8601 == "2014-03-05T10:15:00.000Z")
    }

    @Test func crlfAndBOMAreAccepted() throws {
        let parsed = try Playlist.parse(data: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\r\n#EXTINF:4,\r\na.ts\r\n".utf8))
        #expect(parsed.playlist.media?.segments.first?.uri == "a.ts")
        // Read past, but said: RFC 8216 4.1 forbids it (it passed without a word).
        #expect(parsed.warnings.contains { $0.code == "byte-order-mark" && $0.line == 1 }, "\(parsed.warnings)")
        #expect(try Playlist.parse(data: Array("#EXTM3U\r\n#EXTINF:4,\r\na.ts\r\n".utf8)).warnings.allSatisfy { $0.code != "byte-order-mark" })
    }

    /// A sub-range without an offset after `media.ts` listed as `./media.ts` follows the same resource: no warning
    /// (it warned of a different URI); another file still warns.
    @Test func aByteRangeAfterTheSameFileSpelledWithDotSlashIsNotAMismatch() throws {
        let text = { (second: String) in
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\nmedia.ts\n"
                + "#EXTINF:4,\n#EXT-X-BYTERANGE:100\n\(second)\n"
        }
        let same = try Playlist.parse(text("./media.ts"))
        #expect(same.playlist.media?.segments.last?.byteRange?.offset == 100)
        #expect(!same.warnings.contains { $0.code == "byterange-uri-mismatch" }, "\(same.warnings)")
        #expect(try Playlist.parse(text("other.ts")).warnings.contains { $0.code == "byterange-uri-mismatch" })
    }
}
