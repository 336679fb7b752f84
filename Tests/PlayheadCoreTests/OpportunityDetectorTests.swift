import Foundation
import PlayheadCore
import PlayheadHLS
import Testing

/// The default ad-cue detector over corpus playlists (globocom/m3u8) and hand-written ones.
@Suite struct OpportunityDetectorTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora/m3u8/globocom-m3u8")

    func detect(_ text: String, extraTags: [String] = []) throws -> [PlacementOpportunity] {
        guard case let .media(playlist) = try Playlist.parse(text).playlist else { throw CocoaError(.fileReadCorruptFile) }
        let tracker = LivePlaylistTracker(first: playlist, loadedAt: 0)
        return try AdCueDetector(extraTags: extraTags).detect(segments: tracker.segments, dateRanges: playlist.dateRanges)
    }

    func corpus(_ name: String) throws -> String {
        let url = Self.corpus.appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: url.path), "corpus missing: \(url.path)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func elementalCueOutWithBareDurationAndCueIn() throws {
        let found = try detect(try corpus("CUE_OUT_ELEMENTAL_PLAYLIST.m3u8"))
        let start = try #require(found.first { $0.kind == .breakStart && $0.tag == "#EXT-X-CUE-OUT" })
        #expect(start.durationSeconds == 50)
        #expect(start.mediaSequence == 47227)
        #expect(abs(start.contentSeconds - 22.04) < 1e-9, "after 10 + 10 + 2.04 s")
        #expect(found.filter { $0.kind == .breakContinue }.allSatisfy { $0.durationSeconds == 50 && $0.scte35 != nil })
        #expect(found.contains { $0.kind == .breakEnd && $0.tag == "#EXT-X-CUE-IN" })
        // The bare SCTE-35 cue is a splice_insert out of network with a 50 s break: decoded into a break start.
        let oatcls = try #require(found.first { $0.tag == "#EXT-OATCLS-SCTE35" })
        #expect(oatcls.kind == .breakStart && oatcls.scte35?.hasPrefix("/DAl") == true)
        #expect(oatcls.id == "scte35-1" && abs((oatcls.durationSeconds ?? 0) - 50) < 0.001)
    }

    @Test func cueOutWithDurationKey() throws {
        let found = try detect(try corpus("CUE_OUT_WITH_DURATION_KEY_PLAYLIST.m3u8"))
        #expect(found.map(\.kind) == [.breakStart, .breakEnd])
        #expect(found[0].durationSeconds == 11.52 && found[0].contentSeconds == 0)
        #expect(abs(found[1].contentSeconds - 11.52) < 1e-9)
    }

    @Test func dateRangeSCTE35OutAndIn() throws {
        let found = try detect(try corpus("DATERANGE_SCTE35_OUT_AND_IN_PLAYLIST.m3u8"))
        let start = try #require(found.first { $0.kind == .breakStart })
        #expect(start.tag == "#EXT-X-DATERANGE" && start.id == "splice-6FFFFFF0")
        #expect(start.durationSeconds == 59.993 && start.contentSeconds == 0)
        #expect(start.scte35?.hasPrefix("0xFC") == true)
        let end = try #require(found.first { $0.kind == .breakEnd })
        #expect(abs(end.contentSeconds - 60) < 1e-9)
    }

    /// Only the first segment carries a program date-time; the range starts 13 s in, inside the fourth
    /// segment, where the date extrapolated over the EXTINFs puts it (it used to fall back to the segment
    /// the tag preceded, the first).
    @Test func dateRangeStartingAfterTheOnlyProgramDateTime() throws {
        let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-PROGRAM-DATE-TIME:2026-11-26T00:00:00.000Z
        #EXT-X-DATERANGE:ID="late",START-DATE="2026-11-26T00:00:13.000Z",DURATION=10,SCTE35-OUT=0xFC
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts
        #EXTINF:4,
        d.ts
        #EXT-X-ENDLIST
        """
        let found = try detect(text)
        let start = try #require(found.first { $0.id == "late" })
        #expect(abs(start.contentSeconds - 13) < 1e-9 && start.mediaSequence == 3, "\(start.contentSeconds) \(start.mediaSequence)")
    }

    @Test func psdkStyleCueWithSpaceSeparatedAttributes() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-CUE:DURATION=27 ID=identiferForThisCue\n#EXTINF:10,\nb.ts\n#EXT-X-ENDLIST\n"
        let found = try detect(text)
        #expect(found.count == 1)
        #expect(found[0].id == "identiferForThisCue" && found[0].durationSeconds == 27 && found[0].contentSeconds == 10)
        #expect(found[0].rawText == "#EXT-X-CUE:DURATION=27 ID=identiferForThisCue")
    }

    @Test func extraTagsNeedAHashAndAName() throws {
        #expect(throws: AdTagError.missingHash("EXT-X-BLACKOUT")) { try AdCueDetector(extraTags: ["EXT-X-BLACKOUT"]) }
        #expect(throws: AdTagError.empty) { try AdCueDetector(extraTags: [""]) }
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-BLACKOUT:ID=7\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
        #expect(try detect(text).isEmpty)
        let found = try detect(text, extraTags: ["#EXT-X-BLACKOUT"])
        #expect(found.map(\.kind) == [.signal] && found[0].id == "7" && found[0].attributes["ID"] == "7")
    }
}
