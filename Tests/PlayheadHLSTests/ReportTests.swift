import Foundation
import PlayheadHLS
import Testing

private func object(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}

@Suite struct ReportTests {
    @Test func mediaPlaylistReport() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:10
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090a0b0c0d0e0f
        #EXT-X-PROGRAM-DATE-TIME:2019-02-14T02:13:36.106Z
        #EXT-X-CUE-OUT:30
        #EXTINF:9.5,Title
        #EXT-X-BYTERANGE:100@5
        a.ts
        #EXT-X-ENDLIST
        """)
        let bytes = parsed.playlist.inspectJSON(warnings: parsed.warnings)
        let json = try object(bytes)
        #expect(json["type"] as? String == "media")
        #expect(json["targetDuration"] as? Int == 10)
        #expect(json["endList"] as? Bool == true)
        #expect((json["errors"] as? [Any])?.isEmpty == true)
        let segment = try #require((json["segments"] as? [[String: Any]])?.first)
        #expect(segment["uri"] as? String == "a.ts")
        #expect(segment["title"] as? String == "Title")
        #expect(segment["programDateTime"] as? String == "2019-02-14T02:13:36.106Z")
        let key = try #require(segment["key"] as? [String: Any])
        #expect(key["method"] as? String == "AES-128")
        #expect(key["iv"] as? String == "0x000102030405060708090A0B0C0D0E0F")
        let range = try #require(segment["byteRange"] as? [String: Any])
        #expect(range["length"] as? Int == 100)
        #expect(range["offset"] as? Int == 5)
        let tag = try #require((segment["tags"] as? [[String: Any]])?.first)
        #expect(tag["name"] as? String == "EXT-X-CUE-OUT")
        #expect(tag["value"] as? String == "30")
        #expect(tag["line"] as? Int == 6)
        // Sorted keys, pretty printed.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\n"))
        #expect(text.range(of: "\"endList\"")!.lowerBound < text.range(of: "\"segments\"")!.lowerBound)
    }

    @Test func multivariantReport() throws {
        let parsed = try Playlist.parse("""
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="a.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1000,RESOLUTION=640x360,AUDIO="aud",CODECS="avc1"
        v.m3u8
        """)
        let json = try object(PlaylistReport(parsed).jsonBytes())
        #expect(json["type"] as? String == "multivariant")
        let variant = try #require((json["variants"] as? [[String: Any]])?.first)
        #expect(variant["bandwidth"] as? Int == 1000)
        #expect((variant["resolution"] as? [String: Any])?["width"] as? Int == 640)
        let media = try #require((json["media"] as? [[String: Any]])?.first)
        #expect(media["type"] as? String == "AUDIO")
        #expect(media["groupId"] as? String == "aud")
        #expect(media["default"] as? Bool == true)
        let warnings = try #require(json["warnings"] as? [[String: Any]])
        #expect(warnings.first?["code"] as? String == "version-too-low")
    }

    @Test func errorReport() throws {
        do {
            _ = try Playlist.parse("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\n")
            Issue.record("expected an error")
        } catch {
            let json = try object(error.inspectJSON())
            let first = try #require((json["errors"] as? [[String: Any]])?.first)
            #expect(first["line"] as? Int == 2)
            #expect(first["column"] as? Int == 31)
            #expect(first["code"] as? String == "bad-attribute-list")
            #expect((first["message"] as? String)?.contains("unterminated") == true)
            #expect(json["type"] == nil)
            #expect((json["warnings"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func modelDecodesFromItsJSON() throws {
        let parsed = try Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n")
        let data = try JSONEncoder().encode(parsed.playlist)
        #expect(try JSONDecoder().decode(Playlist.self, from: data) == parsed.playlist)
    }
}
