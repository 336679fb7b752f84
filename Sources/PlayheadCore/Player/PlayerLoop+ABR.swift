import PlayheadHLS

/// How the player adapts its bitrate.
public struct ABRSettings: Sendable {
    /// The policy by name (`ABRPolicies.names`); default Playhead's own.
    public var policy: String = ABRPolicies.defaultName
    /// The PSDK/Brightcove controls: minimum, maximum, initial and peak bitrate, manual lock.
    public var controls = ABRControls()
    /// A policy value of your own, used instead of the named ``policy`` when set.
    public var customPolicy: (any ABRPolicy)?

    /// The default settings.
    public init() {}
}

/// The variants of the item, as the ABR controller sees them: by ascending bandwidth.
struct VariantLadder {
    /// Rungs in ascending bandwidth order, each with the URL in use, resolved.
    var variants: [(bandwidth: Int, url: String)]
    /// Each rung's redundant media playlists (variants of the same BANDWIDTH), in playlist order.
    var redundant: [[String]]
    var bitsPerSecond: [Int] { variants.map(\.bandwidth) }

    /// The ladder of `variants` (bandwidth and resolved URL, in playlist order): one rung per BANDWIDTH,
    /// the first variant of it in use and the others its redundant backups.
    init(grouping variants: [(bandwidth: Int, url: String)]) {
        var rungs: [Int: [String]] = [:]
        for variant in variants { rungs[variant.bandwidth, default: []].append(variant.url) }
        let bandwidths = rungs.keys.sorted()
        self.variants = bandwidths.map { ($0, rungs[$0]![0]) }
        self.redundant = bandwidths.map { rungs[$0]! }
    }
}

extension MediaPlayer {
    /// Whether adaptive bitrate is on for this item (several variants, ABR settings given).
    var adaptive: Bool { abr != nil && (state.ladder?.variants.count ?? 0) > 1 }

    /// What the ABR controller sees now.
    func abrContext(now: Double) -> ABRContext {
        let position = state.position(at: now)
        let presented = report.framesPresented["video", default: 0]
        let dropped = report.framesDropped
        let recentPresented = presented - state.framesAtLastDecision.presented
        let recentDropped = dropped - state.framesAtLastDecision.dropped
        let ratio = recentPresented + recentDropped > 0 ? Double(recentDropped) / Double(recentPresented + recentDropped) : 0
        let first = state.tracker?.segments.first?.mediaSequence ?? 0
        return ABRContext(
            ladderBitsPerSecond: state.ladder?.bitsPerSecond ?? [],
            segmentIndex: (state.nextSequence ?? first) - first,
            segmentSeconds: state.tracker?.targetDurationSeconds ?? 4,
            bufferSeconds: buffer.level(at: position),
            maxBufferSeconds: configuration.buffer.maximumSeconds,
            lastIndex: state.ladderIndex,
            samples: state.throughputSamples,
            upcomingChunkBytes: upcomingChunkEstimates(),
            droppedFrameRatio: ratio,
            sessionSeconds: now)
    }

    /// For a VOD item: one row per segment still to fetch, each rung's size estimated as its bandwidth ×
    /// the segment's EXTINF duration (the playlists do not give sizes), so that a policy knows how much
    /// video remains. Nil for live, where the end is unknown.
    func upcomingChunkEstimates() -> [[Int]]? {
        guard let tracker = state.tracker, !tracker.isLive, let ladder = state.ladder?.bitsPerSecond else { return nil }
        let next = state.nextSequence ?? tracker.segments.first?.mediaSequence ?? 0
        return tracker.segments.lazy.filter { $0.mediaSequence >= next }.map { segment in
            ladder.map { Int((Double($0) * segment.durationSeconds / 8).rounded()) }
        }
    }

    /// Seconds a rung whose media playlist failed to load is left out of ABR decisions: 60 (ExoPlayer's
    /// track exclusion).
    static let variantExclusionSeconds = 60.0

    /// Asks the controller for the next segment's rendition; returns the ladder index to switch to,
    /// or nil to stay. A rung left out after a failed load gives way to the highest usable one below it
    /// (or to staying).
    func decideVariant(now: Double) -> Int? {
        guard adaptive, var controller = abr else { return nil }
        let decision = controller.select(abrContext(now: now))
        abr = controller
        state.framesAtLastDecision = (report.framesPresented["video", default: 0], report.framesDropped)
        state.lastDecisionReason = decision.reason
        state.excludedVariants = state.excludedVariants.filter { $0.value > now }
        var index = decision.index
        while index >= 0, index != state.ladderIndex, state.excludedVariants[index] != nil { index -= 1 }
        return index < 0 || index == state.ladderIndex ? nil : index
    }

    /// Switches to ladder rung `index` whose media playlist is `playlist` (loaded from `url`).
    func switchVariant(to index: Int, playlist: MediaPlaylist, url: String, now: Double) {
        guard let ladder = state.ladder else { return }
        let from = state.ladderIndex.map { ladder.variants[$0].bandwidth }
        let to = ladder.variants[index].bandwidth
        state.ladderIndex = index
        state.mediaURL = url
        state.redundantURLs = ladder.redundant[index]
        state.redundantURLInUse = state.ladder!.variants[index].url
        state.switchURLsTried[index] = nil
        state.failoverTried = []
        report.mediaPlaylistURL = url
        report.variantBandwidth = to
        var tracker = LivePlaylistTracker(first: playlist, loadedAt: now)
        // Live: the new rendition's window continues the content timeline of the old one.
        if let old = state.tracker, old.isLive { tracker = tracker.aligned(to: old) }
        state.tracker = tracker
        // The new rung's next segment may begin between keyframes (long GOPs cut by time): decoding then
        // starts in its segment before (a preroll), not on pictures that reference the other rung's.
        state.needsKeyframe = true
        reportTimedMetadata(tracker, listed: playlist.segments.count)
        reportKeys(of: tracker, listed: playlist.segments.count, playlistURL: url)
        updateBlackouts(tracker, listed: playlist.segments.count, now: now)
        updateSSAI(tracker)
        if !tracker.isLive { state.variantPlaylists[index] = (playlist, url) }
        // Before the first frame the profile is the one chosen; from then on it changes as frames of the
        // new rung are presented (``noteProfile(of:)``).
        if !state.started { qos.setProfileBitrate(to) }
        // The event and its notification carry one time (on the real clock the driver's has moved on).
        stamped(now) { bus.post(.bitrateChanged(fromBitsPerSecond: from, toBitsPerSecond: to, reason: state.lastDecisionReason)) }
        notify(.bitrateChange, metadata: ["BITRATE": String(to)], now: now)
        report.bitrateSwitches.append(BitrateSwitchRecord(playerTime: now, mediaSequence: state.nextSequence,
                                                          fromBitsPerSecond: from, toBitsPerSecond: to, reason: state.lastDecisionReason))
    }

    /// Notes the rung a content segment arriving now came from (the rung in use: one content segment is
    /// fetched at a time, after the switch for it).
    func noteSegmentProfile(url: String) {
        guard let bandwidth = report.variantBandwidth else { return }
        state.segmentProfiles.append((url, bandwidth))
        if state.segmentProfiles.count > 32 { state.segmentProfiles.removeFirst(state.segmentProfiles.count - 32) }
    }

    /// A presented frame's segment sets the QoS profile bitrate to its rung.
    func noteProfile(of frame: PendingFrame) {
        guard frame.source == .content, let url = frame.segmentURL,
              let profile = state.segmentProfiles.last(where: { $0.url == url }) else { return }
        qos.setProfileBitrate(profile.bitsPerSecond)
    }
}
