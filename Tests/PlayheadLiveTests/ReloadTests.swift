import PlayheadCore
import PlayheadHLS
import Testing

/// Reload scheduling, stuck detection, merging and what a reload reports (RFC 8216bis 6.3.4).
@Suite struct ReloadTests {
    @Test func firstLoadAndChangedReloadWaitOneTargetDurationUnchangedHalf() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 5), loadedAt: 100)
        #expect(tracker.nextReloadTime() == 106)
        let changed = tracker.update(with: try SyntheticPlaylist.window(first: 1, count: 5), loadedAt: 106)
        #expect(changed.changed)
        #expect(tracker.nextReloadTime() == 112)
        let unchanged = tracker.update(with: try SyntheticPlaylist.window(first: 1, count: 5), loadedAt: 112)
        #expect(!unchanged.changed && unchanged.newSegments.isEmpty && unchanged.removedSegments.isEmpty)
        #expect(tracker.nextReloadTime() == 115)
    }

    @Test func stuckAfterThreeAndAHalfTargetDurationsWithoutChange() throws {
        let playlist = try SyntheticPlaylist.window(first: 0, count: 5)
        var tracker = LivePlaylistTracker(first: playlist, loadedAt: 0)
        #expect(LivePlaylistSettings.defaultStuckAfterTargetDurations == 3.5)
        for t in stride(from: 3.0, through: 21.0, by: 3) { _ = tracker.update(with: playlist, loadedAt: t) }
        #expect(!tracker.isStuck(at: 20.9))
        #expect(tracker.isStuck(at: 21))
        _ = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 6), loadedAt: 22)
        #expect(!tracker.isStuck(at: 22))
        #expect(tracker.isStuck(at: 43))
        let patient = LivePlaylistTracker(first: playlist, loadedAt: 0,
                                          settings: LivePlaylistSettings(stuckAfterTargetDurations: 10))
        #expect(!patient.isStuck(at: 59) && patient.isStuck(at: 60))
    }

    @Test func vodNeverReloadsAndIsNotLive() throws {
        let vod = try SyntheticPlaylist.window(first: 0, count: 3, header: ["#EXT-X-PLAYLIST-TYPE:VOD"], endList: true)
        let tracker = LivePlaylistTracker(first: vod, loadedAt: 0)
        #expect(!tracker.isLive && tracker.endListSeen)
        #expect(tracker.nextReloadTime() == nil)
        #expect(!tracker.isStuck(at: 1_000))
    }

    @Test func slidingReloadsMergeWithContinuousStartsThatNeverMove() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 10, count: 4), loadedAt: 0)
        #expect(tracker.segments.map(\.startSeconds) == [0, 6, 12, 18])
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 12, count: 4), loadedAt: 6)
        #expect(update.newSegments == [14, 15])
        #expect(update.removedSegments == [10, 11])
        #expect(update.warnings.isEmpty)
        #expect(tracker.segments.map(\.mediaSequence) == [12, 13, 14, 15])
        #expect(tracker.segments.map(\.startSeconds) == [12, 18, 24, 30])
        #expect(tracker.liveEdgeSeconds == 36)
    }

    @Test func endListArrivingMidSessionStopsReloadsAndOpensTheWholeEvent() throws {
        let event = ["#EXT-X-PLAYLIST-TYPE:EVENT"]
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 5, header: event), loadedAt: 0)
        #expect(tracker.isLive)
        #expect(tracker.seekableRange() == 0...12)
        #expect(tracker.startPosition() == (12, 2))
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 6, header: event, endList: true), loadedAt: 6)
        #expect(update.endListAdded && update.changed && update.newSegments == [5])
        #expect(!tracker.isLive && tracker.endListSeen)
        #expect(tracker.nextReloadTime() == nil)
        #expect(tracker.seekableRange() == 0...36)
        #expect(tracker.startPosition() == (0, 0), "full-event replay starts at the beginning")
        let again = tracker.update(with: try SyntheticPlaylist.window(first: 0, count: 6, header: event, endList: true), loadedAt: 9)
        #expect(!again.endListAdded && !again.changed)
    }

    @Test func mediaSequenceRegressionIsReportedAndTheStaleReloadIgnored() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 20, count: 4), loadedAt: 0)
        let before = tracker.segments
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 18, count: 4), loadedAt: 6)
        #expect(!update.changed && update.newSegments.isEmpty && update.removedSegments.isEmpty)
        #expect(update.warnings.count == 1)
        #expect(update.warnings.first?.contains("went back") == true)
        #expect(tracker.segments == before)
        #expect(tracker.nextReloadTime() == 9)
    }

    @Test func mediaSequenceJumpIsReportedAndMissedSegmentsCountOneTargetDurationEach() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 5, count: 3), loadedAt: 30)
        #expect(update.newSegments == [5, 6, 7])
        #expect(update.removedSegments == [0, 1, 2])
        #expect(update.warnings.count == 1 && update.warnings[0].contains("jumped"))
        #expect(tracker.segments.first?.startSeconds == 30, "segments 3 and 4 were never seen: 18 + 2 × 6")
    }

    @Test func discontinuitySequenceMismatchIsReportedAndNewSegmentsFollowTheKnownNumbering() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3, discontinuitySequence: 4), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 1, count: 3, discontinuitySequence: 7), loadedAt: 6)
        #expect(update.warnings.count == 1 && update.warnings[0].contains("discontinuity sequence mismatch"))
        #expect(tracker.segments.map(\.discontinuitySequence) == [4, 4, 4])
        #expect(tracker.segments.last?.segment.discontinuitySequence == 7, "the parsed segment keeps the server's number")
    }

    @Test func discontinuityInAReloadAdvancesTheSequence() throws {
        var tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 3), loadedAt: 0)
        let update = tracker.update(with: try SyntheticPlaylist.window(first: 1, count: 3, discontinuityBefore: [3]), loadedAt: 6)
        #expect(update.warnings.isEmpty)
        #expect(tracker.segments.map(\.discontinuitySequence) == [0, 0, 1])
        #expect(tracker.segments.map(\.startSeconds) == [6, 12, 18])
    }
}
