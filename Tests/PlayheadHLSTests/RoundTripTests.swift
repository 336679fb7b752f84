import Foundation
import PlayheadHLS
import Testing

@Suite struct RoundTripTests {
    /// parse → serialize → parse gives an equal model for every corpus playlist that parses.
    @Test(.enabled(if: Corpus.root != nil, Corpus.skipComment))
    func wholeCorpusRoundTrips() throws {
        var roundTripped = 0
        var failures: [String] = []
        for folder in ["m3u8/videojs-m3u8-parser", "m3u8/globocom-m3u8"] {
            for url in Corpus.playlists(folder) {
                guard let first = try? Playlist.parse(data: try Corpus.bytes(url)) else { continue }
                let text = first.playlist.serialize()
                do {
                    let second = try Playlist.parse(text)
                    if second.playlist != first.playlist { failures.append("\(Corpus.name(url)): models differ") }
                    // Serializing again is stable.
                    if second.playlist.serialize() != text { failures.append("\(Corpus.name(url)): text not stable") }
                } catch {
                    failures.append("\(Corpus.name(url)): reparse failed: \(error)")
                }
                roundTripped += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(roundTripped >= 140)
    }

    /// An EXT-X-MAP keeps the key in force where it stands: a MAP before any KEY is clear, one after a KEY is
    /// encrypted by it and not by a later KEY; serialised, each MAP still stands after its own keys.
    @Test func anInitSectionKeepsTheKeyInForceAtItsTag() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:4
        #EXT-X-MAP:URI="clear.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x000102030405060708090a0b0c0d0e0f
        #EXTINF:4,
        a.m4s
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x0000000000000000000000000000000a
        #EXT-X-MAP:URI="enc.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="k2.bin",IV=0x000102030405060708090a0b0c0d0e0f
        #EXTINF:4,
        b.m4s
        #EXT-X-ENDLIST
        """
        let first = try Playlist.parse(text).playlist
        guard case .media(let media) = first else { Issue.record("not a media playlist"); return }
        #expect(media.segments[0].map?.keys == [])
        #expect(media.segments[0].map?.key == nil)
        #expect(media.segments[0].key?.uri == "k.bin")
        #expect(media.segments[1].map?.key?.iv?.last == 10 && media.segments[1].map?.key?.uri == "k.bin")
        #expect(media.segments[1].key?.uri == "k2.bin")
        let serialized = first.serialize()
        #expect(try Playlist.parse(serialized).playlist == first, "\(serialized)")
        #expect(serialized.components(separatedBy: "#EXT-X-MAP:URI=\"clear.mp4\"")[0].contains("EXT-X-KEY") == false)
    }

    @Test func richMediaPlaylistRoundTrips() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="host",VALUE="cdn.example.com"
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:100
        #EXT-X-DISCONTINUITY-SEQUENCE:4
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5
        #EXT-X-PART-INF:PART-TARGET=0.5
        #EXT-X-KEY:METHOD=AES-128,URI="https://{$host}/k1",IV=0x000102030405060708090A0B0C0D0E0F
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
        #EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00.123456Z
        #EXT-X-CUE-OUT:30
        #EXT-X-DATERANGE:ID="ad1",CLASS="com.example.ad",START-DATE="2024-05-01T10:00:00Z",PLANNED-DURATION=30,SCTE35-OUT=0xFC30,X-AD-ID="abc",X-COUNT=3
        #EXTINF:5.005,first
        #EXT-X-BYTERANGE:1000@720
        https://{$host}/main.mp4
        #EXT-X-BITRATE:800
        #EXTINF:5.005,
        #EXT-X-BYTERANGE:2000
        https://{$host}/main.mp4
        #EXT-X-DISCONTINUITY
        #EXT-X-GAP
        #EXTINF:4,
        gap.ts
        #EXT-X-PART:DURATION=0.5,URI="p1.mp4",INDEPENDENT=YES
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p2.mp4"
        #EXT-X-RENDITION-REPORT:URI="other.m3u8",LAST-MSN=102,LAST-PART=0
        #EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAABf+/+AAAAAH4AUmXAAAEAAAAAJ0A=
        """
        let first = try Playlist.parse(text)
        let second = try Playlist.parse(first.playlist.serialize())
        #expect(second.playlist == first.playlist)
        let media = try #require(first.playlist.media)
        #expect(media.segments.count == 3)
        #expect(media.segments[1].byteRange == ByteRange(length: 2000, offset: 1720))
        #expect(media.segments[0].otherKeys.count == 1)
        #expect(media.trailingTags.map(\.name) == ["EXT-OATCLS-SCTE35"])
        #expect(media.trailingParts.count == 1)
    }

    @Test func multivariantRoundTrips() throws {
        let text = """
        #EXTM3U
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steer",PATHWAY-ID="A"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Hello",LANGUAGE="en"
        #EXT-X-SESSION-KEY:METHOD=AES-128,URI="key"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="a.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub",NAME="Fr",LANGUAGE="fr",FORCED=YES,URI="s.m3u8",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog"
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="iframe.m3u8",RESOLUTION=640x360
        #EXT-X-X-CUSTOM:hello
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970,HDCP-LEVEL=TYPE-0,AUDIO="aud",SUBTITLES="sub",CLOSED-CAPTIONS="cc",SCORE=1.5
        v720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=640000,CLOSED-CAPTIONS=NONE
        v360.m3u8
        """
        let first = try Playlist.parse(text)
        let second = try Playlist.parse(first.playlist.serialize())
        #expect(second.playlist == first.playlist)
        let m = try #require(first.playlist.multivariant)
        #expect(m.variants.count == 2)
        #expect(m.variants[0].tags.map(\.name) == ["EXT-X-X-CUSTOM"])
        #expect(m.variants[0].closedCaptions == .group("cc"))
        #expect(m.variants[1].closedCaptions == ClosedCaptionsReference.none)
        #expect(m.media.count == 3)
        #expect(m.iFrameVariants.first?.resolution == Resolution(width: 640, height: 360))
        #expect(m.sessionKeys.count == 1)
        #expect(m.contentSteering?.pathwayId == "A")
    }
}
