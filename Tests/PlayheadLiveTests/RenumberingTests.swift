import PlayheadCore
import PlayheadHLS
import Testing

/// Origins that change their media sequence numbering: the same segments under other numbers (a
/// failover), new segments numbered from 0 (an encoder restart), and the stale copies they must not
/// be confused with.
@Suite struct RenumberingTests {
    @Test func theSameSegmentsUnderLowerNumbersKeepTheTrackersNumbering() throws {
        // seg1000–1002 were 1000–1002; the backup origin lists seg1001–1003 as 1–3.
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 1000, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 1, count: 3, nameOffset: 1000), loadedAt: 6)
        #expect(update.warnings.count == 1 && update.warnings[0].contains("renumbered its segments"), "\(update.warnings)")
        #expect(update.newSegments == [1003] && update.removedSegments == [1000])
        #expect(tracker.segments.map(\.startSeconds) == [6, 12, 18])
        #expect(tracker.segments.map(\.discontinuitySequence) == [0, 0, 0], "the content goes on: no discontinuity")
        #expect(tracker.segments.last?.segment.mediaSequence == 3, "the segment keeps the origin's number (for the IV)")
        #expect(tracker.firstAvailableMediaSequence == 1001 && tracker.mediaSequenceShift == 1000)
        let next = tracker.update(with: try SyntheticPlaylist.window(first: 2, count: 3, nameOffset: 1000), loadedAt: 12)
        #expect(next.warnings.isEmpty && next.newSegments == [1004] && next.removedSegments == [1001], "\(next.warnings)")
    }

    @Test func theSameSegmentsUnderHigherNumbersPlayOnWithoutADiscontinuity() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 1001, count: 3, nameOffset: -1000), loadedAt: 6)
        #expect(update.warnings.count == 1 && update.warnings[0].contains("renumbered its segments"), "\(update.warnings)")
        #expect(update.newSegments == [3] && tracker.segments.map(\.startSeconds) == [6, 12, 18])
        #expect(tracker.impliedDiscontinuities == 0)
    }

    @Test func newSegmentsUnderLowerNumbersAreARestartAtTheLiveEdge() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 50, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 2, name: "restart"), loadedAt: 6)
        #expect(update.warnings.count == 1 && update.warnings[0].contains("restarted its numbering"), "\(update.warnings)")
        // The old segments are no longer listed: they leave; the new ones follow the live edge.
        #expect(update.changed && update.newSegments == [53, 54] && update.removedSegments == [50, 51, 52])
        #expect(tracker.segments.map(\.startSeconds) == [18, 24])
        #expect(tracker.segments.map(\.discontinuitySequence) == [1, 1])
        #expect(tracker.impliedDiscontinuities == 1 && tracker.firstAvailableMediaSequence == 53)
        #expect(tracker.fellBehind(nextMediaSequence: 52) && !tracker.fellBehind(nextMediaSequence: 53))
        // The restarted numbering goes on: one new segment, nothing more implied.
        let next = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 3, name: "restart"), loadedAt: 12)
        #expect(next.warnings.isEmpty && next.newSegments == [55] && next.removedSegments.isEmpty, "\(next.warnings)")
        #expect(tracker.segments.map(\.discontinuitySequence) == [1, 1, 1])
    }

    @Test func aStaleCopyWhoseSegmentsAlreadyLeftTheWindowIsStillStale() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 0)
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 3, count: 3), loadedAt: 18)
        let before = tracker.segments
        let stale = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 24)
        #expect(!stale.changed && stale.warnings.count == 1 && stale.warnings[0].contains("ignored as stale"), "\(stale.warnings)")
        #expect(tracker.segments == before)
        // Kept for the error of a playlist that seems stuck (it said "has not changed" of one that went back).
        #expect(tracker.lastStaleReload?.contains("media sequence went back: the reload starts at 0") == true, "\(tracker.lastStaleReload ?? "nil")")
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 4, count: 3), loadedAt: 30)
        #expect(tracker.lastStaleReload == nil)
    }

    @Test func aSegmentListedTwiceIdentifiesNothing() throws {
        // slate.ts twice in the window and twice in the reload, at other numbers: not a renumbering.
        let text = { (first: Int, uris: [String]) in
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n" + uris.map { "#EXTINF:6,\n\($0)\n" }.joined()
        }
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.parse(text(10, ["a.ts", "slate.ts", "slate.ts"])), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.parse(text(11, ["slate.ts", "slate.ts", "b.ts"])), loadedAt: 6)
        #expect(update.warnings.isEmpty && update.newSegments == [13] && tracker.mediaSequenceShift == 0, "\(update.warnings)")
    }

    @Test func anotherRenditionTakesUpTheRenumberedNumbering() throws {
        var old = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 1000, count: 3), loadedAt: 0)
        _ = old.update(with: try SyntheticPlaylist.window(first: 1, count: 3, nameOffset: 1000), loadedAt: 6)
        // A variant switch: the new rendition's tracker starts on the origin's numbering (1–3).
        let new = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 1, count: 3, name: "hi"), loadedAt: 7)
        let aligned = new.aligned(to: old)
        #expect(aligned.segments.map(\.mediaSequence) == [1001, 1002, 1003])
        #expect(aligned.segments.map(\.startSeconds) == old.segments.map(\.startSeconds))
        #expect(aligned.mediaSequenceShift == 1000 && aligned.firstAvailableMediaSequence == 1001)
        // Its next reload is read on that numbering.
        var next = aligned
        let update = next.update(with: try SyntheticPlaylist.window(first: 2, count: 3, name: "hi"), loadedAt: 13)
        #expect(update.warnings.isEmpty && update.newSegments == [1004], "\(update.warnings)")
    }

    @Test func aChannelThatLoopsItsFilesIsNotARenumbering() throws {
        // Ten files looped under growing numbers: loop0.ts is 0, 10, 20…; a 3-segment window.
        let window = { (first: Int) in
            try SyntheticPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
                + (first..<first + 3).map { "#EXTINF:6,\nloop\($0 % 10).ts\n" }.joined())
        }
        var tracker = LivePlaylistTracker(first: try window(0), loadedAt: 0)
        for first in 1...7 { _ = tracker.update(with: try window(first), loadedAt: Double(first) * 6) }
        // Back after a long wait: the reload lists only files seen in the first loop, under new numbers.
        let late = tracker.update(with: try window(10), loadedAt: 60)
        #expect(late.newSegments == [10, 11, 12] && tracker.mediaSequenceShift == 0, "\(late.warnings)")
        #expect(!late.warnings.contains { $0.contains("renumbered") }, "\(late.warnings)")
        // The next reloads overlap the window as usual.
        let next = tracker.update(with: try window(11), loadedAt: 66)
        #expect(next.newSegments == [13] && next.warnings.isEmpty, "\(next.warnings)")
    }
}
