import Foundation
import PlayheadCore
import Testing

@Suite struct QoSAccumulatorTests {
    @Test func bufferingTotalIsTheSumOfIntervals() {
        var qos = QoSAccumulator()
        let intervals: [(Double, Double)] = [(0, 1.25), (10, 10.5), (20.75, 23)]
        for (start, end) in intervals {
            qos.recordBufferingStarted(at: start)
            qos.recordBufferingStarted(at: start + 0.1)   // ignored: already waiting
            qos.recordBufferingEnded(at: end)
            qos.recordBufferingEnded(at: end + 1)         // ignored: not waiting
        }
        let info = qos.information(at: 30)
        #expect(info.bufferingCount == 3)
        #expect(info.totalBufferingSeconds == intervals.reduce(0) { $0 + ($1.1 - $1.0) })
        qos.recordBufferingStarted(at: 31)
        #expect(qos.information(at: 32.5).totalBufferingSeconds == 4.0 + 1.5)
        #expect(qos.information(at: 32.5).bufferingCount == 4)
    }

    @Test func samplesOncePerSecondOfPlayerTime() {
        var qos = QoSAccumulator()
        var taken: [Double] = []
        var time = 0.0
        while time < 5 {
            if let sample = qos.sampleIfDue(at: time) { taken.append(sample.playerTime) }
            time += 0.25
        }
        #expect(taken == [0, 1, 2, 3, 4])
        #expect(qos.sampleIfDue(at: 4.5) == nil)
        #expect(qos.sampleIfDue(at: 9.5)?.playerTime == 9.5)   // one sample after a jump
        #expect(qos.sampleIfDue(at: 9.9) == nil)
        #expect(qos.sampleIfDue(at: 10)?.playerTime == 10)
        #expect(qos.samples.map(\.playerTime) == [0, 1, 2, 3, 4, 9.5, 10])
        var bounded = QoSAccumulator(sampleCapacity: 2)
        for second in 0..<5 { _ = bounded.sampleIfDue(at: Double(second)) }
        #expect(bounded.samples.map(\.playerTime) == [3, 4])
    }

    @Test func observedBitrateOverTheLastTransfers() {
        var qos = QoSAccumulator(transferWindow: 2)
        #expect(qos.information(at: 0).observedBitrate == nil)
        qos.recordTransfer(bytes: 1_000_000, seconds: 1, firstByteSeconds: 0.2)   // 8 Mbit/s, falls out of the window
        qos.recordTransfer(bytes: 125_000, seconds: 0.5, firstByteSeconds: 0.1)
        qos.recordTransfer(bytes: 375_000, seconds: 1.5, firstByteSeconds: 0.3)
        qos.recordTransfer(bytes: 2_000, seconds: 0.01, isSegment: false)
        let info = qos.information(at: 3)
        #expect(info.observedBitrate == Double(375_000 + 2_000) * 8 / 1.51)
        // Time to first byte is the first segment's, for good; the recent one is the window's mean.
        #expect(info.timeToFirstByteSeconds == 0.2)
        #expect(info.recentTimeToFirstByteSeconds == 0.3)
        #expect(info.bytesDownloaded == 1_502_000)
        #expect(info.segmentsDownloaded == 3)
    }

    @Test func framesErrorsAndFirstFrame() {
        var qos = QoSAccumulator()
        qos.recordLoadStarted(at: 0.5)
        for index in 0..<50 { qos.recordFramePresented(at: 2 + Double(index) / 25) }   // 25 fps from 2 s to 3.96 s
        qos.recordFramesDropped(3)
        qos.recordError()
        qos.setProfileBitrate(1_200_000)
        qos.setBufferLength(12.5)
        let info = qos.information(at: 3.96)
        #expect(info.presentedFrameCount == 50)
        #expect(info.frameRate == 25)
        #expect(info.droppedFrameCount == 3)
        #expect(info.timeToFirstFrameSeconds == 1.5)
        #expect(info.errorCount == 1)
        #expect(info.profileBitrate == 1_200_000)
        #expect(info.bufferLengthSeconds == 12.5)
        #expect(qos.information(at: 10).frameRate == 0)
    }

    @Test func theLastSecondOfAnItemCountsEveryFrame() {
        // 30 fps for 3 s; read at 3 s, the end of the last frame (an item's completion): 30 frames, not 29.
        var qos = QoSAccumulator()
        for index in 0..<90 { qos.recordFramePresented(at: Double(index) / 30) }
        #expect(qos.information(at: 3).frameRate == 30)
    }

    /// 24000/1001 fps fills a second with 23 or 24 frames: the rate is the frames' own, not a count.
    /// A stall inside the window keeps the count (12 frames in the last second).
    @Test func aFractionalFrameRateIsNotTruncated() {
        var qos = QoSAccumulator()
        for index in 0..<96 { qos.recordFramePresented(at: Double(index) * 1001 / 24000) }
        #expect(qos.information(at: 96.0 * 1001 / 24000).frameRate == 23.976)
        var stalled = QoSAccumulator()
        for index in 0..<12 { stalled.recordFramePresented(at: 10 + Double(index) / 24) }
        #expect(stalled.information(at: 10.5 + 0.5).frameRate == 12)
    }

    @Test func feedingBusEvents() {
        let now = EventsTestBox(0.0)
        let bus = EventBus(clock: { now.get() }, wallClock: { nil })
        let qos = EventsTestBox(QoSAccumulator())
        bus.subscribe { event in qos.update { $0.record(event) } }
        bus.post(.bitrateChanged(fromBitsPerSecond: nil, toBitsPerSecond: 800_000, reason: "initial"))
        bus.post(.segmentLoaded(url: "s0.ts", mediaSequence: 0, bytes: 100_000, seconds: 0.4, throughputBitsPerSecond: 2_000_000))
        now.update { $0 = 1 }
        bus.post(.bufferingStarted)
        now.update { $0 = 1.75 }
        bus.post(.bufferingCompleted(durationSeconds: 0.75))
        bus.post(.framePresented(pts: 0, latenessSeconds: 0))
        bus.post(.notification(.networkError(url: "s1.ts")))            // a warning: not an error
        bus.post(.error(.missingFile(url: "s1.ts", status: 404)))
        let info = qos.get().information(at: 2)
        #expect(info.profileBitrate == 800_000)
        #expect(info.observedBitrate == 2_000_000)
        #expect(info.totalBufferingSeconds == 0.75 && info.bufferingCount == 1)
        #expect(info.timeToFirstFrameSeconds == 1.75)
        #expect(info.errorCount == 1)
    }

    @Test func informationEncodesToJSON() throws {
        let info = QoSAccumulator().information(at: 0)
        let decoded = try JSONDecoder().decode(PlaybackInformation.self, from: JSONEncoder().encode(info))
        #expect(decoded == info)
    }
}
