import Foundation
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// The verdict on one boundary side of one ad break (`playhead check-ads`).
public struct AdBoundaryVerdict: Sendable, Codable, Equatable {
    /// The break's id.
    public var breakId: String
    /// Content time of the cue, seconds.
    public var cueSeconds: Double
    /// `insertion` (VOD) or `replacement` (live, full-event replay).
    public var kind: String
    /// PTS of the ad asset's first frame decoded alone, seconds (the expected first ad frame).
    public var expectedFirstAdPTS: Double?
    /// PTS of the first ad frame the player presented, seconds.
    public var actualFirstAdPTS: Double?
    /// Whether its hash equals the ad asset's first frame decoded alone.
    public var firstAdFrameMatches: Bool
    /// Whether the first ad frame presented was a keyframe.
    public var firstAdFrameIsKeyframe: Bool?
    /// Timeline time at which the break was expected to start (the cue on the timeline), seconds.
    public var expectedBreakTimelineSeconds: Double?
    /// Timeline time of the first ad frame, seconds.
    public var actualBreakTimelineSeconds: Double?
    /// Whether the cue falls on a content keyframe.
    public var cueOnKeyframe: Bool?
    /// Content time of the last content frame presented before the break, and the expected one.
    public var lastContentBefore: Double?
    /// The content frame just before the cue, decoded alone.
    public var expectedLastContentBefore: Double?
    /// Whether the last content frame's hash equals the reference frame's.
    public var lastContentBeforeMatches: Bool
    /// Content time of the first content frame after the break.
    public var firstContentAfter: Double?
    /// Where content should resume: the cue (insertion) or cue + duration (replacement), as the
    /// content frame decoded alone at or after that time.
    public var expectedFirstContentAfter: Double?
    /// Whether that frame's hash equals the reference frame's.
    public var firstContentAfterMatches: Bool
    /// Error at the break's start, frames (actual last content frame − expected) and milliseconds.
    public var outErrorFrames: Int?
    /// Error at the break's start, milliseconds.
    public var outErrorMilliseconds: Double?
    /// Error at the break's end, frames (actual first content frame − expected).
    public var inErrorFrames: Int?
    /// Error at the break's end, milliseconds.
    public var inErrorMilliseconds: Double?
    /// Timeline gap between the last content frame and the first ad frame, ms (negative: overlap).
    public var videoGapOutMilliseconds: Double?
    /// Timeline gap between the last ad frame and the first content frame after, ms.
    public var videoGapInMilliseconds: Double?
    /// Audio gap (positive) or overlap (negative) at the break's start, ms.
    public var audioGapOutMilliseconds: Double?
    /// Audio gap or overlap at the break's end, ms.
    public var audioGapInMilliseconds: Double?
    /// Whether every check above holds: 0 frames of error, hashes equal.
    public var exact: Bool
    /// What is wrong, when something is.
    public var problems: [String]
    /// What is worth knowing and not wrong for the frame check (an ad without audio in content with audio).
    public var notes: [String] = []
}

/// Plays an item with ads on the virtual clock and checks every splice against FFmpeg's own decode
/// of the content and of each ad, frame by frame (`playhead check-ads`).
public struct AdBoundaryChecker: Sendable {
    /// What the check found.
    public struct Result: Sendable, Codable {
        /// One verdict per break played.
        public var boundaries: [AdBoundaryVerdict]
        /// The session's report.
        public var report: PlaybackReport
        /// What should have played and did not, a sentence each: an ad map entry no break played for (no cue
        /// matched it, or its ads failed), and each ad failure the player notified (`AD_…` warnings and errors).
        public var missed: [String] = []
        /// Whether every boundary is exact and nothing was missed (one break that failed beside one that was
        /// exact passed, saying nothing of the other).
        public var allExact: Bool { !boundaries.isEmpty && boundaries.allSatisfy(\.exact) && missed.isEmpty }
    }

    /// What of `adMap` did not play in a session that reported `report`, and the ad failures it notified.
    /// An entry played when a boundary record is its break: by its cue id, else by its server-map id
    /// (`map-<index>`) or a cue within ``AdMap/timeToleranceSeconds`` of its time.
    static func missed(_ adMap: AdMap?, report: PlaybackReport) -> [String] {
        guard let adMap else { return [] }
        let records = report.adBoundaries
        var missed: [String] = []
        for (index, entry) in adMap.breaks.enumerated() {
            let played = records.contains { record in
                if let cueId = entry.cueId { return record.breakId == cueId }
                return record.breakId == "map-\(index)"
                    || entry.time.map { abs($0 - record.cueContentSeconds) <= AdMap.timeToleranceSeconds } == true
            }
            if played { continue }
            let which = entry.cueId.map { "cue \"\($0)\"" } ?? entry.time.map { String(format: "time %g s", $0) } ?? "no cue"
            missed.append("ad map breaks[\(index)] (\(which)) did not play")
        }
        return missed + adFailures(in: report).map(describe)
    }

    /// The ad failures a session notified: its `AD_…` warnings and errors.
    public static func adFailures(in report: PlaybackReport) -> [PlayerNotification] {
        report.notifications.filter { $0.name.hasPrefix("AD_") && $0.type != .info }
    }

    /// One line for an ad failure: its name, code, description and URL (when the description does not hold it).
    public static func describe(_ failure: PlayerNotification) -> String {
        var details = failure.metadata["DESCRIPTION"] ?? ""
        if let url = failure.metadata["URL"], !details.contains(url) { details += details.isEmpty ? url : " (\(url))" }
        return "\(failure.name) (\(failure.code.code))\(details.isEmpty ? "" : ": \(details)")"
    }

    /// The HTTP client (reference decodes and the simulated network).
    public let client: HTTPClient

    /// Creates a checker.
    public init(client: HTTPClient) { self.client = client }

    /// Plays `url` with `adMap` (and `blackout`, when given) on the virtual clock (live: as a live window
    /// growing in session time) and checks each break, a blackout's included (its alternate content is
    /// checked as an ad).
    public func check(url: String, adMap: AdMap?, blackout: BlackoutSettings? = nil, live: Bool, mode: AdSignalingMode = .default,
                      megabitsPerSecond: Double = 50) async throws -> Result {
        var configuration = PlayerConfiguration()
        configuration.hashFrames = true
        configuration.blackout = blackout
        if let adMap {
            let factory = MediaPlayerClientFactory()
            factory.register(resolver: AdMapResolver(map: try adMap.resolvingURLs(against: url)))
            configuration.ads = AdSettings(factory: factory, signalingMode: mode)
        }
        let link = SimulatedLink(trace: BandwidthTrace.constant(megabitsPerSecond: megabitsPerSecond))
        var network: any PlayerNetwork = SimulatedNetwork(client: client, link: link)
        if live {
            let prefix = url.range(of: "/", options: .backwards).map { String(url[..<$0.upperBound]) } ?? url
            network = SimulatedLiveNetwork(inner: network, prefix: prefix)
        }
        let player = MediaPlayer(url: url, configuration: configuration, driver: VirtualTimeDriver(), network: network)
        let report = await player.run()
        if report.finalStatus == .error { throw PlayheadError.unexpectedPlaylist(url: url, detail: report.error ?? "playback failed") }
        if report.audioOnly {
            // The boundaries are checked on video frames against FFmpeg's; audio-only content has none, and
            // its audio frames were judged as pictures (every break NOT EXACT, with hashes "DIFFERENT").
            throw PlayheadError.unexpectedPlaylist(url: url, detail: "the content presented audio and no video: check-ads checks ad boundaries on video frames; play --ad-map reports this item's audio boundaries (adBoundaries)")
        }
        var references: [String: (frames: [ReferenceFrame], times: PlaylistTimeMap)] = [:]
        func rendition(_ url: String) async throws -> (frames: [ReferenceFrame], times: PlaylistTimeMap) {
            if let known = references[url] { return known }
            let decoded = try await referenceRendition(url)
            references[url] = (decoded.frames, decoded.times)
            return (decoded.frames, decoded.times)
        }
        // Each content frame is checked against the rendition that played it (ABR may switch around a break).
        let renditions = report.bitrateSwitches.count > 1 ? try await renditionsBySegment(url) : [:]
        func content(_ frame: BoundaryFrame?) async throws -> (frames: [ReferenceFrame], times: PlaylistTimeMap) {
            try await rendition(frame?.segmentURL.flatMap { renditions[$0] } ?? report.mediaPlaylistURL ?? url)
        }
        var verdicts: [AdBoundaryVerdict] = []
        for record in report.adBoundaries {
            var ad: [ReferenceFrame] = []
            if let first = record.adMediaURLs.first { ad = try await rendition(first).frames }
            let before = try await content(record.lastContentBefore)
            let cut = record.replacedContentSeconds > 0 ? record.cueContentSeconds
                : Self.insertionCut(cue: record.cueContentSeconds, times: before.times)
            var verdict = Self.verdict(record, cut: cut, before: before.frames, after: try await content(record.firstContentAfter).frames, ad: ad)
            if report.blackouts.contains(where: { "blackout:\($0.id)" == record.breakId }) { verdict.kind = "blackout" }
            if record.firstAdAudio == nil, report.framesPresented["audio", default: 0] > 0 {
                // Audio played, none of it the ad's: the audio figures are empty for that reason.
                verdict.notes.append("the ad presented no audio while the content has audio: the break plays without sound")
            }
            verdicts.append(verdict)
        }
        return Result(boundaries: verdicts, report: report, missed: Self.missed(adMap, report: report))
    }

    /// For an item with a multivariant playlist: each segment URL of each variant, to its media playlist.
    private func renditionsBySegment(_ url: String) async throws -> [String: String] {
        let top = try await client.get(url)
        guard case let .multivariant(multivariant) = try Playlist.parse(data: top.body, sources: VariableSources(playlistURL: url)).playlist else { return [:] }
        var owners: [String: String] = [:]
        for variant in multivariant.variants {
            let mediaURL = try ResourceURL.resolve(variant.uri, against: top.effectiveURL)
            let response = try await client.get(mediaURL)
            guard case let .media(media) = try Playlist.parse(data: response.body, sources: VariableSources(playlistURL: mediaURL,
                                                                                                          imported: multivariant.variableValues)).playlist else { continue }
            for segment in media.segments {
                for base in [mediaURL, response.effectiveURL] { owners[try ResourceURL.resolve(segment.uri, against: base)] = mediaURL }
            }
        }
        return owners
    }

    /// One frame of a rendition decoded alone: content time (0 at its first frame), PTS, hash, keyframe.
    struct ReferenceFrame {
        var seconds: Double
        var pts: Double
        var duration: Double
        var md5: String
        var isKeyframe: Bool
    }

    /// Decodes a rendition alone, placing its frames on its own content time line the way the player
    /// does: the first PTS of each discontinuity sequence pinned to its segment's start, the decoders
    /// drained at each discontinuity.
    func referenceFrames(_ mediaURL: String) async throws -> [ReferenceFrame] {
        try await referenceRendition(mediaURL).frames
    }

    /// ``referenceFrames(_:)`` with the rendition's segments as tracked (their places on its timeline), and
    /// where each one's media lies (the player's ``PlaylistTimeMap`` of the same rendition).
    func referenceRendition(_ mediaURL: String) async throws -> (frames: [ReferenceFrame], segments: [TrackedSegment], times: PlaylistTimeMap) {
        let response = try await client.get(mediaURL)
        // The multivariant playlist that led here is not at hand: an IMPORT keeps its reference (warned).
        guard case let .media(playlist) = try Playlist.parse(data: response.body, sources: VariableSources(playlistURL: mediaURL)).playlist else {
            throw PlayheadError.unexpectedPlaylist(url: mediaURL, detail: "not a media playlist")
        }
        var options = RenditionDecoderOptions()
        options.kinds = [.video]
        options.hashFrames = true
        let decoder = RenditionDecoder(options: options)
        let fetcher = SegmentFetcher(network: LiveNetwork(client: client))
        let tracker = LivePlaylistTracker(first: playlist, loadedAt: 0)
        let segments = tracker.segments
        let driftLimit = TimestampAnchor.forwardJumpLimitSeconds(targetDurationSeconds: tracker.targetDurationSeconds)
        var anchor = TimestampAnchor()
        var frames: [ReferenceFrame] = []
        func add(_ frame: DecodedFrame, _ tracked: TrackedSegment) {
            guard frame.kind == .video, let pts = frame.ptsSeconds, let md5 = frame.md5 else { return }
            let seconds = anchor.contentSeconds(forPTS: pts, discontinuitySequence: tracked.discontinuitySequence,
                                                segmentStartSeconds: tracked.startSeconds)
            frames.append(ReferenceFrame(seconds: seconds, pts: pts, duration: frame.durationSeconds, md5: md5, isKeyframe: frame.isKeyframe))
        }
        var previous: TrackedSegment?
        // How far the segment before ran past its listed end: a run after a discontinuity is pinned as the player
        // pins it (TimestampAnchor.continuationStart), so the two timelines agree when EXTINFs undercount.
        var previousDrift: Double?
        var times = PlaylistTimeMap()
        for tracked in segments {
            if let previous, tracked.discontinuitySequence != previous.discontinuitySequence {
                decoder.finish { add($0, previous) }
                decoder.reset()
            }
            let fetched = try await fetcher.fetch(tracked.segment, baseURL: response.effectiveURL, at: 0)
            let demuxed = try decoder.demux(fetched.bytes)
            if let span = demuxed.timeSpan(of: .video) {
                let pinAt = anchor.isPinned(discontinuitySequence: tracked.discontinuitySequence) ? tracked.startSeconds
                    : TimestampAnchor.continuationStart(listedStart: tracked.startSeconds, previousDrift: previousDrift,
                                                        limit: driftLimit)
                let start = anchor.contentSeconds(forPTS: span.start, discontinuitySequence: tracked.discontinuitySequence,
                                                  segmentStartSeconds: pinAt)
                previousDrift = start + (span.end - span.start) - tracked.endSeconds
                times.record(.init(mediaSequence: tracked.mediaSequence, mediaStart: start, mediaEnd: start + (span.end - span.start),
                                   listedStart: tracked.startSeconds, listedDuration: tracked.durationSeconds))
            } else {
                previousDrift = nil
            }
            for packet in demuxed.packets { decoder.decode(packet, in: demuxed) { add($0, tracked) } }
            previous = tracked
        }
        if let previous { decoder.finish { add($0, previous) } }
        frames.sort { $0.seconds < $1.seconds }
        return (frames, segments, times)
    }

    static func verdict(_ record: AdBoundaryRecord, content: [ReferenceFrame], ad: [ReferenceFrame]) -> AdBoundaryVerdict {
        verdict(record, cut: record.cueContentSeconds, before: content, after: content, ad: ad)
    }

    /// Where content must give way to an inserted break cued at `cue` (content seconds), by the player's rules
    /// (``MediaPlayer/alignBreakToLoadedEnd(_:before:)``, ``MediaPlayer/alignBreakToFrame(cue:in:)``): the
    /// segment the EXTINF grid puts the cue in is the one cut, at the cue's media time held inside that segment's
    /// media. So a cue at a segment's listed start cuts where the media of the segment before ends (past the cue
    /// when EXTINFs undercount; before it when they overcount by half a second or more, if that media runs on into
    /// the segment; less is the cue, the segment's pictures before it shown first); a cue
    /// inside a segment whose media starts after it (undercount by a segment or more) cuts at that media's start,
    /// and one inside a segment whose media ends before it (overcount) at that media's end. The check judged
    /// such cues at the listed time and contradicted itself (QA40 #2: expected the ad at 7.941 s and the content
    /// before it at 7.274 s).
    static func insertionCut(cue: Double, times: PlaylistTimeMap) -> Double {
        guard let index = times.spans.firstIndex(where: { cue < $0.listedStart + $0.listedDuration - 1e-3 }),
              times.spans[index].listedStart <= cue + 1e-3 else {
            // Past the last segment's listed end (a post-roll): where the content's media ends.
            if let last = times.spans.last, cue >= last.listedStart + last.listedDuration - 1e-3 { return last.mediaEnd }
            return cue
        }
        let span = times.spans[index]
        if abs(cue - span.listedStart) < 1e-3, index > 0 {
            let before = times.spans[index - 1]
            if before.mediaEnd > cue + 1e-6 { return before.mediaEnd }
            // Short of the cue by less than MediaPlayer.shortOfCueSeconds, the segment at the cue holds pictures
            // before it (reordered, or a small overcount): they are shown first, and the cut is the cue.
            let continues = before.mediaSequence == span.mediaSequence - 1 && abs(before.mediaEnd - span.mediaStart) < 1e-3
            return continues && before.mediaEnd <= cue - MediaPlayer.shortOfCueSeconds ? before.mediaEnd : cue
        }
        return min(max(cue, span.mediaStart), span.mediaEnd)
    }

    /// The verdict on one break whose content gives way at `cut` (content seconds, see ``insertionCut(cue:times:)``),
    /// with the content frames before it checked against `before` (the rendition that played them) and those
    /// after against `after`.
    static func verdict(_ record: AdBoundaryRecord, cut: Double, before: [ReferenceFrame], after: [ReferenceFrame],
                        ad: [ReferenceFrame]) -> AdBoundaryVerdict {
        let slack = 1e-4
        let step = before.count > 1 ? before[1].seconds - before[0].seconds : 0
        let frameSeconds = step > 1e-6 ? step : 1.0 / 30
        let expectedBefore = before.last { $0.seconds < cut - slack }
        // An inserted break resumes content where it cut it; a replacement after what it replaced.
        let resume = record.replacedContentSeconds > 0 ? record.resumeContentSeconds : cut
        let expectedAfter = after.first { $0.seconds >= resume - slack }
        let cueFrame = before.first { $0.seconds >= cut - slack }
        var problems: [String] = []
        func ms(_ seconds: Double?) -> Double? { seconds.map { ($0 * 1000 * 1000).rounded() / 1000 } }
        func frameError(_ actual: Double?, _ expected: Double?) -> Int? {
            guard let actual, let expected else { return nil }
            return Int(((actual - expected) / frameSeconds).rounded())
        }
        let firstAdMatches = record.firstAd?.md5 != nil && record.firstAd?.md5 == ad.first?.md5
        if !firstAdMatches { problems.append("the first ad frame is not the ad's first frame") }
        // A pre-roll has no content before it and a post-roll none after: then nothing must be there.
        func same(_ actual: BoundaryFrame?, _ expected: ReferenceFrame?) -> Bool {
            guard let expected else { return actual == nil }
            guard let actual else { return false }
            return actual.md5 == expected.md5 && abs(actual.sourceSeconds - expected.seconds) < slack
        }
        let beforeMatches = same(record.lastContentBefore, expectedBefore)
        if !beforeMatches { problems.append("the last content frame before the break is not the one before the cue") }
        let afterMatches = same(record.firstContentAfter, expectedAfter)
        if !afterMatches { problems.append("the first content frame after the break is not the one at \(record.resumeContentSeconds) s") }
        let outError = frameError(record.lastContentBefore?.sourceSeconds, expectedBefore?.seconds)
        let inError = frameError(record.firstContentAfter?.sourceSeconds, expectedAfter?.seconds)
        let expectedStart = record.lastContentBefore.map { $0.timelineEnd }
        let gapOut = record.firstAd.flatMap { first in record.lastContentBefore.map { first.timelineSeconds - $0.timelineEnd } }
        let gapIn = record.firstContentAfter.flatMap { first in record.lastAd.map { first.timelineSeconds - $0.timelineEnd } }
        if let gapOut, abs(gapOut) > slack { problems.append("video gap of \(ms(gapOut)!) ms before the first ad frame") }
        if let gapIn, abs(gapIn) > slack { problems.append("video gap of \(ms(gapIn)!) ms after the last ad frame") }
        let audioOut = record.firstAdAudio.flatMap { first in record.lastContentAudioBefore.map { first.timelineSeconds - $0.timelineEnd } }
        let audioIn = record.firstContentAudioAfter.flatMap { first in record.lastAdAudio.map { first.timelineSeconds - $0.timelineEnd } }
        let exact = problems.isEmpty && (outError ?? 0) == 0 && (inError ?? 0) == 0
        return AdBoundaryVerdict(
            breakId: record.breakId, cueSeconds: record.cueContentSeconds,
            kind: record.replacedContentSeconds > 0 ? "replacement" : "insertion",
            expectedFirstAdPTS: ad.first?.pts, actualFirstAdPTS: record.firstAd?.ptsSeconds, firstAdFrameMatches: firstAdMatches,
            firstAdFrameIsKeyframe: record.firstAd?.isKeyframe, expectedBreakTimelineSeconds: expectedStart,
            actualBreakTimelineSeconds: record.firstAd?.timelineSeconds, cueOnKeyframe: cueFrame.map { $0.isKeyframe && abs($0.seconds - cut) < slack },
            lastContentBefore: record.lastContentBefore?.sourceSeconds, expectedLastContentBefore: expectedBefore?.seconds,
            lastContentBeforeMatches: beforeMatches, firstContentAfter: record.firstContentAfter?.sourceSeconds,
            expectedFirstContentAfter: expectedAfter?.seconds, firstContentAfterMatches: afterMatches,
            outErrorFrames: outError, outErrorMilliseconds: ms(zip(record.lastContentBefore?.sourceSeconds, expectedBefore?.seconds).map { $0 - $1 }),
            inErrorFrames: inError, inErrorMilliseconds: ms(zip(record.firstContentAfter?.sourceSeconds, expectedAfter?.seconds).map { $0 - $1 }),
            videoGapOutMilliseconds: ms(gapOut), videoGapInMilliseconds: ms(gapIn),
            audioGapOutMilliseconds: ms(audioOut), audioGapInMilliseconds: ms(audioIn), exact: exact, problems: problems)
    }
}

private func zip(_ a: Double?, _ b: Double?) -> (Double, Double)? {
    guard let a, let b else { return nil }
    return (a, b)
}

extension AdMap {
    /// The map with each ad URL resolved against `base` (relative URLs in a map are relative to the item).
    public func resolvingURLs(against base: String) throws -> AdMap {
        var copy = self
        for entry in copy.breaks.indices {
            for ad in copy.breaks[entry].ads.indices {
                copy.breaks[entry].ads[ad].url = try ResourceURL.resolve(copy.breaks[entry].ads[ad].url, against: base)
            }
        }
        return copy
    }
}
