import PlayheadHLS
import Testing

/// Numbers that are well formed but too large to compute with are errors naming their line (before,
/// each of these stopped the process with an arithmetic trap), and the largest accepted values parse.
@Suite struct ValueRangeTests {
    /// A media playlist with `lines` inserted after the header, then two 4 s segments.
    static func playlist(_ lines: String) -> String {
        "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n\(lines)\n#EXTINF:4,\na.ts\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
    }

    @Test(arguments: [
        ("#EXT-X-MEDIA-SEQUENCE:99999999999999999999", "EXT-X-MEDIA-SEQUENCE"),
        ("#EXT-X-MEDIA-SEQUENCE:9223372036854775807", "EXT-X-MEDIA-SEQUENCE"),
        ("#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807", "EXT-X-DISCONTINUITY-SEQUENCE"),
        ("#EXT-X-MEDIA-SEQUENCE:-9223372036854775807", "EXT-X-MEDIA-SEQUENCE"),
        ("#EXT-X-MEDIA-SEQUENCE:1e300", "EXT-X-MEDIA-SEQUENCE"),
        ("#EXT-X-TARGETDURATION:99999999999999999999", "EXT-X-TARGETDURATION"),
        ("#EXTINF:1e300,\nb.ts", "EXTINF"),
        ("#EXTINF:-1e300,\nb.ts", "EXTINF"),
        ("#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\nb.ts", "EXT-X-BYTERANGE"),
        ("#EXT-X-BYTERANGE:99999999999999999999\nb.ts", "EXT-X-BYTERANGE"),
        ("#EXT-X-MAP:URI=\"init.mp4\",BYTERANGE=\"9223372036854775807@9223372036854775807\"", "EXT-X-MAP"),
    ])
    func tooLargeIsAnErrorOnItsLine(line: String, tag: String) {
        do {
            _ = try Playlist.parse(Self.playlist(line))
            Issue.record("expected an error for \(line)")
        } catch {
            #expect(error.code == "value-out-of-range", "\(error)")
            #expect(error.line == 4, "\(error)")
            #expect(error.description.contains("#\(tag)"), "\(error)")
        }
    }

    /// Byte ranges without offsets follow each other; their ends are checked as they grow.
    @Test func chainedByteRangesPastTheLimitAreAnError() {
        let half = PlaylistLimits.maxInteger / 2 + 1
        let text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:\(half)@0\na.ts\n"
            + "#EXTINF:4,\n#EXT-X-BYTERANGE:\(half)\na.ts\n"
        do {
            _ = try Playlist.parse(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "value-out-of-range")
            #expect(error.line == 8)
        }
    }

    @Test func theLargestValuesParse() throws {
        let top = PlaylistLimits.maxInteger
        let parsed = try Playlist.parse(Self.playlist("#EXT-X-MEDIA-SEQUENCE:\(top - 10)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(top - 10)"))
        let media = try #require(parsed.playlist.media)
        #expect(media.segments.map(\.mediaSequence) == [top - 10, top - 9])
        let ranged = try Playlist.parse(Self.playlist("#EXTINF:1e9,\n#EXT-X-BYTERANGE:1000@\(top - 1000)\nb.ts"))
        let first = try #require(ranged.playlist.media?.segments.first)
        #expect(first.duration == 1e9)
        #expect(first.byteRange == ByteRange(length: 1000, offset: top - 1000))
        #expect(ranged.warnings.contains { $0.code == "extinf-exceeds-target-duration" })
    }
}
