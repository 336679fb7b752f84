import PlayheadCore
import PlayheadHLS
import Testing

/// Where playback starts (EXT-X-START, HOLD-BACK, three target durations, VOD) and the seekable window.
@Suite struct PositionTests {
    /// A 10-segment live window of 6 s segments numbered from 100: content 0…60 s.
    func live(_ header: [String] = [], endList: Bool = false) throws -> LivePlaylistTracker {
        LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 100, count: 10, header: header, endList: endList),
                            loadedAt: 0)
    }

    @Test func aNegativeEXTINFCountsAsZeroSoTheTimelineNeverRunsBackwards() throws {
        // The parser keeps -3 (with a warning); the timeline does not: the VOD spans 0…6 s.
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:-3,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n"
        guard case let .media(playlist) = try Playlist.parse(data: Array(text.utf8)).playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments[0].duration == -3)
        let tracker = LivePlaylistTracker(first: playlist, loadedAt: 0)
        #expect(tracker.segments.map(\.startSeconds) == [0, 0])
        #expect(tracker.segments.map(\.durationSeconds) == [0, 6])
        #expect(tracker.seekableRange() == 0...6)
    }

    @Test func startWithoutHintsIsThreeTargetDurationsFromTheEnd() throws {
        #expect(try live().startPosition() == (42, 107))
    }

    @Test func startFollowsServerControlHoldBack() throws {
        #expect(try live(["#EXT-X-SERVER-CONTROL:HOLD-BACK=25"]).startPosition() == (30, 105),
                "60 − 25 = 35 lies in the segment starting at 30")
    }

    @Test func startTimeOffsetPositiveNegativeAndPrecise() throws {
        #expect(try live(["#EXT-X-START:TIME-OFFSET=20"]).startPosition() == (18, 103))
        #expect(try live(["#EXT-X-START:TIME-OFFSET=20,PRECISE=YES"]).startPosition() == (20, 103))
        #expect(try live(["#EXT-X-START:TIME-OFFSET=-15"]).startPosition() == (42, 107))
        #expect(try live(["#EXT-X-START:TIME-OFFSET=-15,PRECISE=YES"]).startPosition() == (45, 107))
    }

    @Test func startTimeOffsetBeyondThePlaylistIsClamped() throws {
        #expect(try live(["#EXT-X-START:TIME-OFFSET=-500"]).startPosition() == (0, 100))
        #expect(try live(["#EXT-X-START:TIME-OFFSET=500"]).startPosition() == (54, 109))
        #expect(try live(["#EXT-X-START:TIME-OFFSET=500,PRECISE=YES"]).startPosition() == (60, 109))
    }

    @Test func startTimeOffsetWinsOverHoldBack() throws {
        let tracker = try live(["#EXT-X-SERVER-CONTROL:HOLD-BACK=25", "#EXT-X-START:TIME-OFFSET=-7"])
        #expect(tracker.startPosition() == (48, 108))
    }

    @Test func startCountsFromTheCurrentWindowAfterItSlid() throws {
        var tracker = try live(["#EXT-X-START:TIME-OFFSET=3,PRECISE=YES"])
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 102, count: 10, header: ["#EXT-X-START:TIME-OFFSET=3,PRECISE=YES"]),
                           loadedAt: 12)
        #expect(tracker.startPosition() == (15, 102))
    }

    @Test func vodStartsAtZero() throws {
        let tracker = try live(["#EXT-X-PLAYLIST-TYPE:VOD"], endList: true)
        #expect(tracker.startPosition() == (0, 100))
        #expect(tracker.seekableRange() == 0...60)
    }

    @Test func aWindowShorterThanTheHoldBackStartsAtItsFirstSegment() throws {
        let tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 7, count: 2), loadedAt: 0)
        #expect(tracker.startPosition() == (0, 7))
        #expect(tracker.seekableRange() == 0...0)
    }

    @Test func emptyLivePlaylistStartsAtItsMediaSequence() throws {
        let tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 3, count: 0), loadedAt: 0)
        #expect(tracker.startPosition() == (0, 3))
        #expect(tracker.liveEdgeSeconds == 0)
    }

    @Test func seekableWindowSlidesWithTheLiveEdge() throws {
        var tracker = try live()
        #expect(tracker.seekableRange() == 0...42)
        #expect(tracker.liveEdgeSeconds == 60)
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 103, count: 10), loadedAt: 6)
        #expect(tracker.seekableRange() == 18...60)
        #expect(tracker.liveEdgeSeconds == 78)
        var held = try live(["#EXT-X-SERVER-CONTROL:HOLD-BACK=12"])
        #expect(held.holdBackSeconds == 12)
        _ = held.update(with: try SyntheticPlaylist.window(first: 101, count: 10, header: ["#EXT-X-SERVER-CONTROL:HOLD-BACK=12"]),
                        loadedAt: 6)
        #expect(held.seekableRange() == 6...54)
    }

    @Test func fellBehindTheWindowAndRecovery() throws {
        var tracker = try live()
        #expect(!tracker.fellBehind(nextMediaSequence: 100))
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 104, count: 10), loadedAt: 24)
        #expect(tracker.fellBehind(nextMediaSequence: 103))
        #expect(!tracker.fellBehind(nextMediaSequence: 104))
        #expect(tracker.segment(mediaSequence: 103) == nil)
        #expect(tracker.recoveryPosition() == (66, 111), "three target durations behind the new edge at 84")
        #expect(tracker.segment(mediaSequence: 111)?.startSeconds == 66)
    }

    @Test func segmentContainingAContentTime() throws {
        let tracker = try live()
        #expect(tracker.segment(containing: 0)?.mediaSequence == 100)
        #expect(tracker.segment(containing: 5.999)?.mediaSequence == 100)
        #expect(tracker.segment(containing: 6)?.mediaSequence == 101)
        #expect(tracker.segment(containing: 59.9)?.mediaSequence == 109)
        #expect(tracker.segment(containing: 60) == nil)
        #expect(tracker.segment(containing: -0.1) == nil)
    }
}
