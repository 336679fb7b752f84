import PlayheadMedia
import Testing

/// ID3v2 tags as timed metadata carries them.
@Suite struct ID3TagTests {
    func syncsafe(_ n: Int) -> [UInt8] { [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] }
    func plain(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }

    /// A v2.3 tag (plain frame sizes): a UTF-16 title with its BOM, a TXXX, Apple's transport-stream
    /// timestamp in a PRIV frame, another PRIV in hex, a comment and a URL, then padding.
    @Test func version3FramesOfEveryKindWeRead() throws {
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + plain(body.count) + [0, 0] + body }
        let title: [UInt8] = [1, 0xFF, 0xFE] + Array("Hé".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0]
        let frames = frame("TIT2", title)
            + frame("TXXX", [0] + Array("id".utf8) + [0] + Array("ad-7".utf8))
            + frame("PRIV", Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0x01, 0xE2, 0x40])
            + frame("PRIV", Array("owner".utf8) + [0, 0xDE, 0xAD])
            + frame("COMM", [3] + Array("eng".utf8) + Array("d".utf8) + [0] + Array("note".utf8))
            + frame("WXXX", [0] + [0] + Array("http://x/".utf8))
        let bytes = Array("ID3".utf8) + [3, 0, 0] + syncsafe(frames.count + 8) + frames + [0, 0, 0, 0, 0, 0, 0, 0]
        let tag = try #require(ID3Tag(bytes))
        #expect(tag.version == 3 && tag.frames.count == 6)
        #expect(tag.keyValues == ["TIT2": "Hé", "TXXX:id": "ad-7", "PRIV:com.apple.streaming.transportStreamTimestamp": "123456",
                                  "PRIV:owner": "dead", "COMM:d": "note", "WXXX:": "http://x/"])
    }

    /// FFmpeg 5.1's TS demuxer drops a timed-ID3 payload's first five bytes (it takes them for a metadata
    /// AU cell header): the header is put back when the size that is left matches.
    @Test func aTagWithoutItsFirstFiveBytesIsRestored() throws {
        let body: [UInt8] = [3] + Array("tag".utf8) + [0] + Array("v".utf8)
        let frame = Array("TXXX".utf8) + syncsafe(body.count) + [0, 0] + body
        let whole = Array("ID3".utf8) + [4, 0, 0] + syncsafe(frame.count) + frame
        #expect(ID3Tag.tagBytes(ofTimedID3Packet: Array(whole.dropFirst(5))) == whole)
        #expect(ID3Tag.tagBytes(ofTimedID3Packet: whole) == whole)
        #expect(ID3Tag.tagBytes(ofTimedID3Packet: [1, 2, 3, 4, 5, 6]) == nil, "a size that does not match")
        #expect(ID3Tag(Array("ID3".utf8) + [9, 0, 0, 0, 0, 0, 0]) == nil, "no such version")
        #expect(try #require(ID3Tag(whole)).keyValues == ["TXXX:tag": "v"])
    }

    /// A frame whose size runs past the tag ends the reading; what came before it stays.
    @Test func aFrameRunningPastTheTagStopsTheReading() throws {
        let good = Array("TIT2".utf8) + syncsafe(3) + [0, 0] + [3] + Array("ok".utf8)
        let bad = Array("TIT3".utf8) + syncsafe(500) + [0, 0] + [3, 0x41]
        let bytes = Array("ID3".utf8) + [4, 0, 0] + syncsafe(good.count + bad.count) + good + bad
        #expect(try #require(ID3Tag(bytes)).keyValues == ["TIT2": "ok"])
    }
}
