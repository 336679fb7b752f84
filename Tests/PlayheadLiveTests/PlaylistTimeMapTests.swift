@testable import PlayheadCore
import Testing

/// Content time back to playlist time, segment by segment.
@Suite struct PlaylistTimeMapTests {
    @Test func mediaPastItsExtinfIsCompressedIntoItsListedSpan() {
        var map = PlaylistTimeMap()
        // Listed 0–1.9 s, really 0–2 s; the next run pinned where that media ended (2.0 s), listed from 1.9 s.
        map.record(.init(mediaSequence: 1, mediaStart: 2.0, mediaEnd: 4.0, listedStart: 1.9, listedDuration: 2))
        map.record(.init(mediaSequence: 0, mediaStart: 0, mediaEnd: 2.0, listedStart: 0, listedDuration: 1.9))
        #expect(map.spans.map(\.mediaSequence) == [0, 1])
        #expect(map.playlistSeconds(forContent: 0) == 0)
        // The content's last frame (1.9667 s) stays inside its own segment's listed span: before 1.9 s.
        #expect(map.playlistSeconds(forContent: 2 - 1.0 / 30) < 1.9 - 1e-3)
        #expect(abs(map.playlistSeconds(forContent: 2.0) - 1.9) < 1e-12)
        #expect(abs(map.playlistSeconds(forContent: 3.0) - 2.9) < 1e-12)
        // Media shorter than its EXTINF keeps its own pace.
        map.record(.init(mediaSequence: 2, mediaStart: 4.0, mediaEnd: 5.5, listedStart: 3.9, listedDuration: 2))
        #expect(abs(map.playlistSeconds(forContent: 5.0) - 4.9) < 1e-12)
        // A segment buffered again (another rung) replaces its span.
        map.record(.init(mediaSequence: 1, mediaStart: 2.0, mediaEnd: 3.9, listedStart: 1.9, listedDuration: 2))
        #expect(map.spans.count == 3 && abs(map.playlistSeconds(forContent: 3.0) - 2.9) < 1e-12)
        // And back: a listed start is its media's start; past the last recorded listed end, its drift goes on.
        #expect(map.contentSeconds(forPlaylist: 1.9) == 2.0)
        #expect(abs((map.contentSeconds(forPlaylist: 0.95) ?? 0) - 0.95 * 2 / 1.9) < 1e-12)
        #expect(abs((map.contentSeconds(forPlaylist: 6.9) ?? 0) - 6.5) < 1e-12, "past the last (listed to 5.9, media to 5.5): 0.4 s early")
        #expect(PlaylistTimeMap().contentSeconds(forPlaylist: 3) == nil)
        // Before every recorded segment (or with none), content time is taken as it is.
        #expect(PlaylistTimeMap().playlistSeconds(forContent: 7) == 7)
        #expect(map.playlistSeconds(forContent: -1) == -1)
    }
}
