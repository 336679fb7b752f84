import PlayheadHLS

/// Ad breaks of a server-stitched stream read from its playlist: an avail opens at a cue out
/// (`#EXT-X-CUE-OUT`, `#EXT-X-CUE`, `#EXT-X-CUEPOINT`, `#EXT-X-AD`, an out-of-network SCTE-35 cue, a
/// `#EXT-X-DATERANGE` with SCTE35-OUT) and closes at the matching cue in (`#EXT-X-CUE-IN`, SCTE35-IN) or
/// after the cue's duration, whichever comes first. Its ads are the stretches between the
/// discontinuities inside it (each stitched ad starts with one), named `<availId>-1`, `<availId>-2`, ….
/// An avail with neither a duration nor a cue in yet runs to the end of what the playlist lists. An end
/// taken from a duration that lies within ``roundingSlackSeconds`` of a discontinuity (or of the cue in)
/// is that one: durations are written rounded (10 for 10.01 s of 29.97 fps ad), and stitched media
/// changes at a discontinuity.
public enum SSAIMarkers {
    /// How far a duration's end may be from the discontinuity it means: half a second.
    public static let roundingSlackSeconds = 0.5

    /// The avails the segments and date ranges of a playlist hold, in content order.
    public static func avails(segments: [TrackedSegment], dateRanges: [DateRange]) -> [SSAIAvail] {
        let cues = AdCueDetector.standard.detect(segments: segments, dateRanges: dateRanges)
            .enumerated().sorted { ($0.element.contentSeconds, $0.offset) < ($1.element.contentSeconds, $1.offset) }.map(\.element)
        let listedEnd = segments.last.map(\.endSeconds) ?? 0
        let discontinuities = segments.filter(\.segment.discontinuity).map(\.startSeconds)
        var result: [SSAIAvail] = []
        var open: PlacementOpportunity?
        /// A duration's end, moved to the nearest of `boundaries` after the avail's start within the slack (the
        /// discontinuity the avail starts at is none: a 0.3 s duration snapped to it, and the avail vanished).
        func snapped(_ end: Double, after start: Double, to boundaries: [Double]) -> Double {
            guard let nearest = boundaries.filter({ $0 > start + 1e-3 }).min(by: { abs($0 - end) < abs($1 - end) }),
                  abs(nearest - end) <= roundingSlackSeconds else { return end }
            return nearest
        }
        func close(at end: Double?) {
            guard let start = open else { return }
            open = nil
            let stop = end ?? start.durationSeconds.map { snapped(start.contentSeconds + $0, after: start.contentSeconds, to: discontinuities) }
            guard stop.map({ $0 > start.contentSeconds + 1e-3 }) ?? true else { return }
            result.append(avail(start, endSeconds: stop, listedEnd: listedEnd, segments: segments))
        }
        for cue in cues {
            switch cue.kind {
            case .breakStart:
                // A cue out inside an open avail whose planned end has passed starts the next one; else it is
                // part of the open one (a repeated cue).
                if let current = open {
                    guard let duration = current.durationSeconds, cue.contentSeconds >= current.contentSeconds + duration - 1e-3 else { continue }
                    close(at: nil)
                }
                open = cue
            case .breakEnd:
                // Whichever comes first: the cue in, or the end of the cue out's duration.
                if let current = open, cue.contentSeconds > current.contentSeconds + 1e-3 {
                    let planned = current.durationSeconds.map {
                        snapped(current.contentSeconds + $0, after: current.contentSeconds, to: discontinuities + [cue.contentSeconds])
                    }
                    close(at: min(cue.contentSeconds, planned ?? .infinity))
                }
            case .breakContinue, .signal, .serverMap:
                // A continuation that carries the planned total gives an open avail its length.
                if var current = open, current.durationSeconds == nil, let total = cue.durationSeconds {
                    current.durationSeconds = total
                    open = current
                }
            }
        }
        close(at: nil)
        return result
    }

    private static func avail(_ cue: PlacementOpportunity, endSeconds: Double?, listedEnd: Double,
                              segments: [TrackedSegment]) -> SSAIAvail {
        let start = cue.contentSeconds
        let adEnd = endSeconds ?? max(listedEnd, start)
        // Each discontinuity strictly inside the avail starts the next ad.
        var cuts = [start]
        for tracked in segments where tracked.segment.discontinuity
            && tracked.startSeconds > start + 1e-3 && tracked.startSeconds < adEnd - 1e-3 {
            cuts.append(tracked.startSeconds)
        }
        cuts.append(adEnd)
        let ads = zip(cuts, cuts.dropFirst()).enumerated().compactMap { index, span -> SSAIAd? in
            guard span.1 > span.0 + 1e-3 else { return nil }
            return SSAIAd(id: "\(cue.id)-\(index + 1)", startSeconds: span.0, durationSeconds: span.1 - span.0)
        }
        return SSAIAvail(id: cue.id, startSeconds: start, durationSeconds: endSeconds.map { $0 - start }, ads: ads, source: .markers)
    }
}
