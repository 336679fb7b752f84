import PlayheadCore
import PlayheadHLS
import Testing

/// How new segments get their content start: program date-times, delta updates, empty windows.
@Suite struct MergeTests {
    /// A playlist whose segments carry the given program date-times (seconds after 10:00:00Z).
    func dated(first: Int, dates: [Double], segmentSeconds: Double = 6) throws -> MediaPlaylist {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        for (offset, dateSeconds) in dates.enumerated() {
            let date = ProgramDateTime(iso8601: "2025-03-01T10:00:00Z")!.adding(seconds: dateSeconds)
            lines += ["#EXT-X-PROGRAM-DATE-TIME:\(date.iso8601)", "#EXTINF:\(segmentSeconds),", "s\(first + offset).ts"]
        }
        return try SyntheticPlaylist.parse(lines.joined(separator: "\n") + "\n")
    }

    @Test func programDateTimeWinsWhenTheEXTINFSumIsOffByMoreThanHalfASecond() throws {
        var tracker = LivePlaylistTracker(first: try dated(first: 0, dates: [0, 6]), loadedAt: 0)
        let update = tracker.update(with: try dated(first: 1, dates: [6, 14, 20]), loadedAt: 6)
        #expect(update.newSegments == [2, 3])
        #expect(update.warnings.count == 1 && update.warnings[0].contains("program date-time"))
        #expect(tracker.segments.map(\.startSeconds) == [6, 14, 20])
    }

    @Test func programDateTimeWithinToleranceLeavesTheEXTINFSum() throws {
        var tracker = LivePlaylistTracker(first: try dated(first: 0, dates: [0, 6]), loadedAt: 0)
        let update = tracker.update(with: try dated(first: 1, dates: [6, 12.4]), loadedAt: 6)
        #expect(update.warnings.isEmpty)
        #expect(tracker.segments.map(\.startSeconds) == [6, 12])
    }

    @Test func programDateTimeGoingBackwardsIsReportedAndIgnored() throws {
        var tracker = LivePlaylistTracker(first: try dated(first: 0, dates: [0, 6]), loadedAt: 0)
        let update = tracker.update(with: try dated(first: 1, dates: [6, 3]), loadedAt: 6)
        #expect(update.warnings.count == 1 && update.warnings[0].contains("EXTINF sum is kept"))
        #expect(tracker.segments.map(\.startSeconds) == [6, 12])
    }

    @Test func programDateTimeOnlyOnTheNewSegmentChangesNothing() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 2), loadedAt: 0)
        _ = tracker.update(with: try dated(first: 1, dates: [6, 500]), loadedAt: 6)
        #expect(tracker.segments.map(\.startSeconds) == [6, 12], "the known segments carry no date")
    }

    @Test func deltaUpdateKeepsTheSkippedSegments() throws {
        let control = "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36"
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 8, header: [control]), loadedAt: 0)
        let delta = try SyntheticPlaylist.parse("""
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:6
            \(control)
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-SKIP:SKIPPED-SEGMENTS=5
            #EXTINF:6,
            seg6.ts
            #EXTINF:6,
            seg7.ts
            #EXTINF:6,
            seg8.ts

            """)
        #expect(delta.segments.first?.mediaSequence == 6)
        let update = tracker.update(with: delta, loadedAt: 6)
        #expect(update.removedSegments == [0])
        #expect(update.newSegments == [8])
        #expect(tracker.segments.map(\.mediaSequence) == Array(1...8))
        #expect(tracker.segments.last?.startSeconds == 48)
    }

    @Test func aLiveStreamThatStartsEmptyBeginsAtZero() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 0), loadedAt: 0)
        #expect(tracker.isLive && tracker.segments.isEmpty)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 2), loadedAt: 6)
        #expect(update.newSegments == [0, 1] && update.changed)
        #expect(tracker.segments.map(\.startSeconds) == [0, 6])
    }

    @Test func aWindowThatEmptiesKeepsItsEdgeAndContinuesFromIt() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 2), loadedAt: 0)
        let emptied = tracker.update(with: try SyntheticPlaylist.window(first: 2, count: 0), loadedAt: 6)
        #expect(emptied.removedSegments == [0, 1])
        #expect(tracker.liveEdgeSeconds == 12 && tracker.segments.isEmpty)
        #expect(tracker.fellBehind(nextMediaSequence: 1) && !tracker.fellBehind(nextMediaSequence: 2))
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 2, count: 1), loadedAt: 12)
        #expect(tracker.segments.map(\.startSeconds) == [12])
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 3, count: 0), loadedAt: 18)
        let jumped = tracker.update(with: try SyntheticPlaylist.window(first: 5, count: 1), loadedAt: 30)
        #expect(jumped.warnings.count == 1 && jumped.warnings[0].contains("jumped"))
        #expect(tracker.segments.map(\.startSeconds) == [30], "segments 3 and 4 were never seen: 18 + 2 × 6")
    }

    /// A jump of 997 segments in 6 s cannot be missed segments (they would span 5982 s): a renumbering,
    /// continued at the live edge after a discontinuity.
    @Test func aJumpLargerThanTheElapsedTimeIsARenumbering() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 1000, count: 2), loadedAt: 6)
        #expect(update.newSegments == [1000, 1001])
        #expect(update.warnings.count == 1 && update.warnings[0].contains("taken as a renumbering"), "\(update.warnings)")
        #expect(tracker.segments.map(\.startSeconds) == [18, 24])
        #expect(tracker.segments.map(\.discontinuitySequence) == [1, 1])
        // The next reload shares segments with the window: the numbering holds, nothing more is implied.
        let next = tracker.update(with: try SyntheticPlaylist.window(first: 1001, count: 2), loadedAt: 12)
        #expect(next.warnings.isEmpty, "\(next.warnings)")
        #expect(tracker.segments.map(\.discontinuitySequence) == [1, 1])
        #expect(tracker.segments.map(\.startSeconds) == [24, 30])
    }
}
