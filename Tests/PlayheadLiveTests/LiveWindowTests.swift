import PlayheadCore
import PlayheadHLS
import Testing

/// ``LiveWindow``: a VOD playlist as a live sliding window (the virtual clock's and `origin --live`'s).
@Suite struct LiveWindowTests {
    /// Six segments of 2 s, a discontinuity before the fourth, an AES key from the third.
    static let vod = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:2,
        s0.ts
        #EXTINF:2,
        s1.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k.key"
        #EXTINF:2,
        s2.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        s3.ts
        #EXTINF:2,
        s4.ts
        #EXTINF:2,
        s5.ts
        #EXT-X-ENDLIST

        """

    static func parse(_ text: String) throws -> MediaPlaylist {
        try #require(try Playlist.parse(text).playlist.media)
    }

    @Test func slidesAndEnds() throws {
        let window = LiveWindow(initialSegments: 2, windowSegments: 3)
        let start = try Self.parse(window.playlist(from: Self.vod, at: 0))
        #expect(start.segments.map(\.uri) == ["s0.ts", "s1.ts"] && !start.endList && start.playlistType == nil)
        let later = try Self.parse(window.playlist(from: Self.vod, at: 4.5))
        #expect(later.mediaSequence == 1 && later.segments.map(\.uri) == ["s1.ts", "s2.ts", "s3.ts"])
        // The key stays with s2 once s1 has slid out, and the discontinuity, once out, is counted.
        let out = try Self.parse(window.playlist(from: Self.vod, at: 6))
        #expect(out.mediaSequence == 2 && out.segments.first?.key?.method == .aes128)
        let ended = try Self.parse(window.playlist(from: Self.vod, at: 8))
        #expect(ended.endList && ended.mediaSequence == 3 && ended.discontinuitySequence == 0)
        #expect(ended.segments.map(\.uri) == ["s3.ts", "s4.ts", "s5.ts"] && ended.segments[0].discontinuity)
        // The virtual clock's window is this one.
        #expect(SimulatedLiveNetwork.window(of: Self.vod, at: 4.5, initialSegments: 2, windowSegments: 3)
                == window.playlist(from: Self.vod, at: 4.5))
    }

    /// An AES-128 key without IV takes the IV from each segment's sequence number: the window keeps the
    /// playlist's own numbers (from its EXT-X-MEDIA-SEQUENCE), and on later passes, where the numbers go on,
    /// each segment gets its key with the IV of its first-pass number written out (QA: segments decrypted
    /// with the wrong IV, their first 16 bytes wrong, and no damage said).
    @Test func anAES128KeyWithoutIVKeepsItsSegmentsIVs() throws {
        let vod = Self.vod.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n")
        let window = LiveWindow(initialSegments: 2, windowSegments: 3, loops: true)
        let first = try Self.parse(window.playlist(from: vod, at: 4.5))
        #expect(first.mediaSequence == 101 && first.segments.map(\.uri) == ["s1.ts", "s2.ts", "s3.ts"])
        #expect(first.segments[1].key?.iv == nil, "the first pass keeps the numbers its IVs come from")
        // At 18 s: 11 segments are out (2 + 9); the window is the second pass's s2, s3 and s4 (numbers 108–110),
        // which carry the IVs of 102–104.
        let second = try Self.parse(window.playlist(from: vod, at: 18))
        #expect(second.segments.map(\.uri) == ["s2.ts", "s3.ts", "s4.ts"] && second.mediaSequence == 108)
        #expect(second.segments.map { $0.key?.iv.map { Int($0.last!) } } == [102, 103, 104])
        #expect(second.segments.allSatisfy { $0.key?.uri == "k.key" && $0.key?.method == .aes128 })
        let encryptedIVs = second.segments.compactMap(\.key?.iv)
        #expect(encryptedIVs.allSatisfy { $0.count == 16 && $0.dropLast().allSatisfy { $0 == 0 } })
    }

    @Test func loopsWithADiscontinuityAtEachWrap() throws {
        let window = LiveWindow(initialSegments: 2, windowSegments: 3, loops: true)
        // At 10 s: segments 0…6 are out (2 + 5), the window is 4, 5 and 0 of the second pass.
        let wrapped = try Self.parse(window.playlist(from: Self.vod, at: 10))
        #expect(!wrapped.endList && wrapped.mediaSequence == 4 && wrapped.discontinuitySequence == 1)
        #expect(wrapped.segments.map(\.uri) == ["s4.ts", "s5.ts", "s0.ts"])
        #expect(wrapped.segments[2].discontinuity && (wrapped.segments[2].key.map { $0.method == .none } ?? true), "a new pass starts clear")
        #expect(wrapped.segments[0].key?.method == .aes128)
        // An hour on: sequence and discontinuity sequence keep counting (two discontinuities a pass).
        let hour = try Self.parse(window.playlist(from: Self.vod, at: 3600))
        #expect(hour.mediaSequence == 2 + 1800 - 3 && hour.segments.count == 3)
        let passes = hour.mediaSequence / 6, position = hour.mediaSequence % 6
        #expect(hour.discontinuitySequence == 2 * passes - 1 + (position > 3 ? 1 : 0) + (position > 0 ? 1 : 0))
    }

    /// Each later pass moves program date times and date ranges on by the playlist's 12 s, and a date range's
    /// ID is the pass's own: before, every pass repeated the first pass's dates (QA: the dates went back).
    /// 2026-01-01T00:00:00Z.
    static let newYear = 1_767_225_600.0

    @Test func laterPassesMoveTheDatesOn() throws {
        let vod = Self.vod
            .replacingOccurrences(of: "#EXTINF:2,\ns0.ts", with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:2,\ns0.ts")
            .replacingOccurrences(of: "#EXTINF:2,\ns4.ts", with: #"#EXT-X-DATERANGE:ID="ad1",X-ID="x",START-DATE="2026-01-01T00:00:08Z",DURATION=2"#
                                  + "\n#EXTINF:2,\ns4.ts")
        let window = LiveWindow(initialSegments: 2, windowSegments: 3, loops: true)
        // At 10 s the window is s4, s5 (first pass) and s0 (second pass).
        let first = try Self.parse(window.playlist(from: vod, at: 10))
        #expect(first.segments.map(\.uri) == ["s4.ts", "s5.ts", "s0.ts"])
        #expect(first.dateRanges.map(\.id) == ["ad1"])
        #expect(first.segments[2].programDateTime?.secondsSince1970 == Self.newYear + 12)
        // At 22 s: s4 and s5 of the second pass, s0 of the third.
        let later = try Self.parse(window.playlist(from: vod, at: 22))
        #expect(later.segments.map(\.uri) == ["s4.ts", "s5.ts", "s0.ts"])
        let range = try #require(later.dateRanges.first)
        #expect(range.id == "ad1-loop1" && range.startDate?.secondsSince1970 == Self.newYear + 20, "\(range)")
        #expect(range.clientAttributes.map(\.name) == ["X-ID"], "X-ID is not taken for ID")
        #expect(later.segments[2].programDateTime?.secondsSince1970 == Self.newYear + 24)
        // Moved to the millisecond, rounded (QA32: a pass of 30.03 s took 17.000 to 47.029).
        let odd = vod.replacingOccurrences(of: "#EXTINF:2,\ns5.ts", with: "#EXTINF:2.03,\ns5.ts")
        let oddLater = window.playlist(from: odd, at: 22.1)
        #expect(oddLater.contains(#"START-DATE="2026-01-01T00:00:20.030Z""#), "\(oddLater)")
        // The window's first segment of a later pass carries its key once, with its IV written out.
        #expect(oddLater.components(separatedBy: "#EXT-X-KEY:METHOD=AES-128").count - 1 == 2, "\(oddLater)")
    }

    /// A window that begins inside an avail whose CUE-OUT has slid out begins with a CUE-OUT-CONT (elapsed
    /// time and duration), as live origins write; one that begins at the CUE-IN keeps it as it is.
    @Test func aWindowInsideAnAvailSaysSo() throws {
        let vod = Self.vod
            .replacingOccurrences(of: "#EXTINF:2,\ns1.ts", with: "#EXT-X-CUE-OUT:DURATION=4\n#EXTINF:2,\ns1.ts")
            .replacingOccurrences(of: "#EXT-X-DISCONTINUITY\n#EXTINF:2,\ns3.ts", with: "#EXT-X-DISCONTINUITY\n#EXT-X-CUE-IN\n#EXTINF:2,\ns3.ts")
        let window = LiveWindow(initialSegments: 2, windowSegments: 3)
        let withCueOut = window.playlist(from: vod, at: 4)
        #expect(try Self.parse(withCueOut).segments.map(\.uri) == ["s1.ts", "s2.ts", "s3.ts"])
        #expect(!withCueOut.contains("CUE-OUT-CONT"))
        let inside = window.playlist(from: vod, at: 6)
        #expect(try Self.parse(inside).segments.map(\.uri) == ["s2.ts", "s3.ts", "s4.ts"])
        let lines = inside.split(separator: "\n")
        let cont = try #require(lines.firstIndex { $0.hasPrefix("#EXT-X-CUE-OUT-CONT") }, "\(inside)")
        #expect(lines[cont] == "#EXT-X-CUE-OUT-CONT:ElapsedTime=2.000,Duration=4.000")
        #expect(lines[(cont + 1)...].first { !$0.hasPrefix("#") } == "s2.ts")
        let after = window.playlist(from: vod, at: 8)
        #expect(!after.contains("CUE-OUT-CONT") && after.contains("#EXT-X-CUE-IN"))
        // A bare CUE-OUT duration reads too.
        let bare = window.playlist(from: vod.replacingOccurrences(of: "CUE-OUT:DURATION=4", with: "CUE-OUT:4"), at: 6)
        #expect(bare.contains("#EXT-X-CUE-OUT-CONT:ElapsedTime=2.000,Duration=4.000"))
        // An avail whose duration has run out before the window begins is over (its CUE-IN comes later).
        let spent = window.playlist(from: vod.replacingOccurrences(of: "CUE-OUT:DURATION=4", with: "CUE-OUT:DURATION=2"), at: 6)
        #expect(!spent.contains("CUE-OUT-CONT"), "\(spent)")
    }
}
