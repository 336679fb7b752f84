/// The verdict on one boundary of a server-stitched stream: an ad's start, or an avail's end (content
/// back), checked against FFmpeg's decode of the rendition that played.
public struct SSAIBoundaryVerdict: Sendable, Codable, Equatable {
    /// The avail.
    public var availId: String
    /// The ad whose start this is (nil: the avail's end).
    public var adId: String?
    /// `adStart` or `availEnd`.
    public var kind: String
    /// Where the boundary is on the stream's timeline (the tracking document's or the markers' time), seconds.
    public var boundarySeconds: Double
    /// Whether a segment of the playlist starts there (stitched media changes at a segment's start, so a
    /// boundary inside one is a tracking document out of step with the media: not exact).
    public var onSegmentStart: Bool
    /// The first frame at or after the boundary in FFmpeg's decode: its time and hash (nil: none, the stream ended).
    public var expectedSeconds: Double?
    /// Its hash.
    public var expectedMD5: String?
    /// Whether it is a keyframe.
    public var expectedIsKeyframe: Bool?
    /// The frame the event (`adStarted`, `adCueTimelineEnd`) was posted at: its time and hash.
    public var actualSeconds: Double?
    /// Its hash.
    public var actualMD5: String?
    /// The event's frame minus the expected one, in frames.
    public var errorFrames: Int?
    /// Whether the event came at exactly the expected frame.
    public var exact: Bool
    /// What is wrong, in words.
    public var problems: [String]
}

extension AdBoundaryChecker {
    /// What the SSAI check found.
    public struct SSAIResult: Sendable, Codable {
        /// One verdict per ad start and per avail end.
        public var boundaries: [SSAIBoundaryVerdict]
        /// The session's report.
        public var report: PlaybackReport
        /// Whether every boundary is exact.
        public var allExact: Bool { !boundaries.isEmpty && boundaries.allSatisfy(\.exact) }
    }

    /// Plays `url` with server-side ad tracking on the virtual clock (one variant, the first, throughout),
    /// then checks that every ad's `adStarted` and every avail's `adCueTimelineEnd` came at the first frame at
    /// or after its time, the frame FFmpeg decodes there from the same rendition (frame hashes and times).
    public func checkSSAI(url: String, trackingURL: String?, megabitsPerSecond: Double = 50) async throws -> SSAIResult {
        var configuration = PlayerConfiguration()
        configuration.hashFrames = true
        configuration.abr = nil
        configuration.ssai = SSAISettings(trackingURL: trackingURL)
        let link = SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: megabitsPerSecond))
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(), network: SimulatedNetwork(client: client, link: link))
        let report = await player.run()
        if report.finalStatus == .error { throw PlayheadError.unexpectedPlaylist(url: url, detail: report.error ?? "playback failed") }
        if report.audioOnly {
            throw PlayheadError.unexpectedPlaylist(url: url, detail: "the content presented audio and no video: the SSAI check compares video frames")
        }
        let mediaURL = report.mediaPlaylistURL ?? url
        let (frames, segments, times) = try await referenceRendition(mediaURL)
        let starts = segments.map(\.startSeconds)
        let cuts = segments.filter(\.segment.discontinuity).map(\.startSeconds)
        let events = report.ssai?.events ?? []
        var verdicts: [SSAIBoundaryVerdict] = []
        for avail in report.ssai?.avails ?? [] {
            for ad in avail.ads {
                let event = events.first { $0.name == "adStarted" && $0.availId == avail.id && $0.adId == ad.id }
                verdicts.append(Self.ssaiVerdict(availId: avail.id, adId: ad.id, at: ad.startSeconds, event: event, frames: frames, times: times,
                                                 segmentStarts: starts))
            }
            if let end = avail.endSeconds {
                let event = events.first { $0.name == "adCueTimelineEnd" && $0.availId == avail.id }
                var verdict = Self.ssaiVerdict(availId: avail.id, adId: nil, at: end, event: event, frames: frames, times: times, segmentStarts: starts)
                // Stitched at discontinuities, the content comes back at one: an avail whose duration ends between two
                // of them ends on the ad's frames (the frame there is the right one, and was called exact).
                if verdict.onSegmentStart, verdict.expectedSeconds != nil, cuts.contains(where: { abs($0 - avail.startSeconds) < 1e-3 }),
                   !cuts.contains(where: { abs($0 - end) < 1e-3 }) {
                    let next = cuts.first { $0 > end + 1e-3 }
                    verdict.problems.append(String(format: "the end of avail %@ at %.3f s is at no discontinuity, though its ads start at one: ", avail.id, end)
                        + (next.map { String(format: "the stitched media goes on to the next at %.3f s (the cue's duration is shorter than what is stitched)", $0) }
                           ?? "the stitched media goes on to the end of the playlist"))
                    verdict.exact = false
                }
                verdicts.append(verdict)
            }
        }
        return SSAIResult(boundaries: verdicts, report: report)
    }

    /// `times` places the reference frames in playlist time, as the player places the frames it presents (where
    /// EXTINFs undercount the media before a stitched ad, the ad's first frame is after the ad's listed time:
    /// the first frame at or after that time was the content's, and an event there was called exact).
    static func ssaiVerdict(availId: String, adId: String?, at boundary: Double, event: SSAIEvent?, frames: [ReferenceFrame],
                            times: PlaylistTimeMap, segmentStarts: [Double]) -> SSAIBoundaryVerdict {
        let slack = 1e-3
        let placed = frames.first { times.playlistSeconds(forContent: $0.seconds) >= boundary - slack }
        let expected = placed.map { frame in
            var frame = frame
            frame.seconds = times.playlistSeconds(forContent: frame.seconds)
            return frame
        }
        let frameSeconds = frames.count > 1 ? max(1e-3, frames[1].seconds - frames[0].seconds) : 1.0 / 30
        var problems: [String] = []
        let what = adId.map { "ad \($0)" } ?? "the end of avail \(availId)"
        let onSegment = segmentStarts.contains { abs($0 - boundary) < slack } || (expected == nil && adId == nil)
        // Stitched media changes at a segment's start: a time inside one is the tracking document's, not the media's.
        if !onSegment { problems.append(String(format: "%@ at %.3f s is inside a segment: the stitched media does not change there", what, boundary)) }
        var errorFrames: Int?
        if let expected {
            if let event {
                errorFrames = Int(((event.contentSeconds - expected.seconds) / frameSeconds).rounded())
                if abs(event.contentSeconds - expected.seconds) > slack {
                    problems.append(String(format: "%@: %@ came at %.3f s, not at the frame of %.3f s", what, event.name, event.contentSeconds, expected.seconds))
                }
                if event.frameMD5 != expected.md5 { problems.append("\(what): the frame presented is not FFmpeg's frame there (hash \(event.frameMD5 ?? "none") ≠ \(expected.md5))") }
            } else {
                problems.append("\(what): no \(adId == nil ? "adCueTimelineEnd" : "adStarted") was posted")
            }
        } else if adId != nil {
            problems.append(String(format: "%@ at %.3f s: the rendition has no frame there", what, boundary))
        }
        return SSAIBoundaryVerdict(availId: availId, adId: adId, kind: adId == nil ? "availEnd" : "adStart", boundarySeconds: boundary,
                                   onSegmentStart: onSegment, expectedSeconds: expected?.seconds, expectedMD5: expected?.md5,
                                   expectedIsKeyframe: expected?.isKeyframe, actualSeconds: event?.contentSeconds, actualMD5: event?.frameMD5,
                                   errorFrames: errorFrames, exact: problems.isEmpty, problems: problems)
    }
}
