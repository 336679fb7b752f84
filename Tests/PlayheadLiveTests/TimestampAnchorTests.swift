import PlayheadCore
import PlayheadHLS
import Testing

/// Media timestamps mapped to content time across discontinuities and 33-bit wrap-around.
@Suite struct TimestampAnchorTests {
    @Test func firstPTSOfASequenceIsPinnedToItsSegmentStart() {
        var anchor = TimestampAnchor()
        #expect(anchor.contentSeconds(forPTS: 1.4, discontinuitySequence: 0, segmentStartSeconds: 0) == 0)
        #expect(anchor.contentSeconds(forPTS: 1.4 + 1 / 30, discontinuitySequence: 0, segmentStartSeconds: 0)
                .isApproximately(1 / 30))
        #expect(anchor.contentSeconds(forPTS: 7.4, discontinuitySequence: 0, segmentStartSeconds: 6).isApproximately(6))
    }

    @Test func ptsJumpingBackAtADiscontinuityDoesNotMoveTheTimeline() throws {
        // Two segments of an encoder whose clock reached 500 s, then a discontinuity where an ad (or a
        // restarted encoder) begins again at 10 s.
        let tracker = LivePlaylistTracker(first: try SyntheticPlaylist.window(first: 0, count: 4, discontinuityBefore: [2]),
                                          loadedAt: 0)
        var anchor = TimestampAnchor()
        var content: [Double] = []
        for segment in tracker.segments {
            let firstPTSSeconds = segment.discontinuitySequence == 0 ? 500 + segment.startSeconds
                                                                     : 10 + segment.startSeconds - 12
            for frame in 0..<180 {
                content.append(anchor.contentSeconds(forPTS: firstPTSSeconds + Double(frame) / 30,
                                                     discontinuitySequence: segment.discontinuitySequence,
                                                     segmentStartSeconds: segment.startSeconds))
            }
        }
        #expect(content.count == 720)
        for (index, seconds) in content.enumerated() {
            #expect(seconds.isApproximately(Double(index) / 30), "frame \(index)")
        }
        #expect(tracker.segments.map(\.discontinuitySequence) == [0, 0, 1, 1])
    }

    @Test func thirtyThreeBitWrapAroundContinuesTheTimeline() {
        let period = TimestampAnchor.mpegTSWrapPeriodSeconds
        #expect(period.isApproximately(95_443.717_688_888))
        var anchor = TimestampAnchor()
        let nearWrap = period - 1
        #expect(anchor.contentSeconds(forPTS: nearWrap, discontinuitySequence: 3, segmentStartSeconds: 100) == 100)
        #expect(anchor.contentSeconds(forPTS: period - 0.5, discontinuitySequence: 3, segmentStartSeconds: 100)
                .isApproximately(100.5))
        // Past 2^33 ticks the stream's PTS restarts near 0.
        #expect(anchor.contentSeconds(forPTS: 0.25, discontinuitySequence: 3, segmentStartSeconds: 100)
                .isApproximately(101.25))
        #expect(anchor.contentSeconds(forPTS: 5, discontinuitySequence: 3, segmentStartSeconds: 104)
                .isApproximately(106))
        // A B-frame presented just before the wrap, after it.
        #expect(anchor.contentSeconds(forPTS: period - 0.1, discontinuitySequence: 3, segmentStartSeconds: 100)
                .isApproximately(100.9))
    }

    @Test func wrapAtTheVeryFirstPTSAndLongRunsAcrossManyWraps() {
        var anchor = TimestampAnchor()
        let period = TimestampAnchor.mpegTSWrapPeriodSeconds
        _ = anchor.contentSeconds(forPTS: 3, discontinuitySequence: 0, segmentStartSeconds: 0)
        var pts = 3.0
        var expected = 0.0
        for _ in 0..<1_000 {   // 1 000 steps of 300 s: about three wraps
            pts = (pts + 300).truncatingRemainder(dividingBy: period)
            expected += 300
            #expect(anchor.contentSeconds(forPTS: pts, discontinuitySequence: 0, segmentStartSeconds: 0)
                    .isApproximately(expected, tolerance: 1e-6))
        }
    }

    @Test func driftComparesTheMediaWithThePlaylist() {
        var anchor = TimestampAnchor()
        #expect(anchor.driftSeconds(forPTS: 10, discontinuitySequence: 0, segmentStartSeconds: 0) == nil)
        _ = anchor.contentSeconds(forPTS: 10, discontinuitySequence: 0, segmentStartSeconds: 0)
        let drift = anchor.driftSeconds(forPTS: 16.02, discontinuitySequence: 0, segmentStartSeconds: 6)
        #expect(drift?.isApproximately(0.02) == true)
        #expect(anchor.isPinned(discontinuitySequence: 0) && !anchor.isPinned(discontinuitySequence: 1))
        anchor.forgetPins(before: 1)
        #expect(!anchor.isPinned(discontinuitySequence: 0))
    }

    @Test func timestampsThatNeverWrap() {
        var anchor = TimestampAnchor(wrapPeriodSeconds: nil)
        _ = anchor.contentSeconds(forPTS: 200_000, discontinuitySequence: 0, segmentStartSeconds: 0)
        #expect(anchor.contentSeconds(forPTS: 100_000, discontinuitySequence: 0, segmentStartSeconds: 0) == -100_000)
    }

    /// A new sequence goes on where the media before it really ended when that ran past its listed end (an EXTINF
    /// that undercounts), within the limit; otherwise where the playlist starts it.
    @Test func aNewSequenceContinuesWhereTheMediaBeforeItEnded() {
        #expect(TimestampAnchor.continuationStart(listedStart: 3.9, previousDrift: 0.1, limit: 5) == 3.9 + 0.1)
        #expect(TimestampAnchor.continuationStart(listedStart: 3.9, previousDrift: -0.5, limit: 5) == 3.9, "an overcount leaves the gap")
        #expect(TimestampAnchor.continuationStart(listedStart: 3.9, previousDrift: 6, limit: 5) == 3.9, "no rounding drifts 6 s")
        #expect(TimestampAnchor.continuationStart(listedStart: 3.9, previousDrift: nil, limit: 5) == 3.9)
    }
}

extension Double {
    /// Equal within `tolerance` (default 1e-9 s).
    func isApproximately(_ other: Double, tolerance: Double = 1e-9) -> Bool { abs(self - other) <= tolerance }
}
