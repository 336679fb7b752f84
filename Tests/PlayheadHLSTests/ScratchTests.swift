import Foundation
import PlayheadHLS
import Testing

@Test func scratchAllCorpusParse() throws {
    for folder in ["m3u8/videojs-m3u8-parser", "m3u8/globocom-m3u8"] {
        for url in Corpus.playlists(folder) {
            do {
                let p = try Playlist.parse(data: try Corpus.bytes(url))
                let again = try Playlist.parse(p.playlist.serialize())
                if again.playlist != p.playlist { print("ROUNDTRIP DIFF \(Corpus.name(url))") }
            } catch let e as PlaylistParseError {
                print("FAIL \(folder) \(Corpus.name(url)): \(e)")
            }
        }
    }
}
