import PlayheadCore

/// What the report's charts draw, taken from a report and its events (all times are session seconds).
///
/// Ad breaks come from the player's ad events: `adBreakStarted` / `adBreakCompleted` bound a break
/// (shaded), `adStarted` / `adCompleted` / `adSkipped` mark ad boundaries (dashed lines). A break still
/// open at the end lasts to the end of the session.
struct ReportTimeline {
    var endSeconds = 0.0
    var bufferSeconds: [(x: Double, y: Double)] = []
    var selectedBitrate: [(x: Double, y: Double)] = []
    var observedBitrate: [(x: Double, y: Double)] = []
    var segmentThroughput: [(x: Double, y: Double)] = []
    var lateness: [(x: Double, y: Double)] = []
    var dropped: [(x: Double, y: Double)] = []
    var rebuffers: [(start: Double, end: Double)] = []
    var adBreaks: [(start: Double, end: Double)] = []
    var adBoundaries: [Double] = []

    init(report: PlaybackReport, events: [PlayerEvent]) {
        endSeconds = max(report.sessionSeconds, events.last?.playerTime ?? 0, report.samples.last?.playerTime ?? 0)
        for sample in report.samples {
            bufferSeconds.append((sample.playerTime, sample.bufferLengthSeconds))
            if let profile = sample.profileBitrate { selectedBitrate.append((sample.playerTime, Double(profile))) }
            if let observed = sample.observedBitrate { observedBitrate.append((sample.playerTime, observed)) }
        }
        var fromEvents: [(x: Double, y: Double)] = []
        var openBreak: Double?
        for event in events {
            let t = event.playerTime
            switch event.kind {
            case let .bitrateChanged(_, to, _): fromEvents.append((t, Double(to)))
            case let .segmentLoaded(_, _, _, _, throughput) where throughput > 0 && throughput.isFinite:
                segmentThroughput.append((t, throughput))
            case let .framePresented(_, late): lateness.append((t, late))
            case let .framesDropped(_, _, late): dropped.append((t, late))
            case .adBreakStarted: openBreak = openBreak ?? t
            case .adBreakCompleted:
                if let start = openBreak { adBreaks.append((start, t)) }
                openBreak = nil
            case .adStarted, .adCompleted, .adSkipped: adBoundaries.append(t)
            default: break
            }
        }
        if let start = openBreak { adBreaks.append((start, endSeconds)) }
        // Bitrate changes are exact; samples fill in when there were none.
        if !fromEvents.isEmpty { selectedBitrate = fromEvents }
        rebuffers = report.rebuffers.map { ($0.startSeconds, $0.endSeconds ?? ($0.startSeconds + $0.durationSeconds)) }
        if endSeconds <= 0 { endSeconds = 1 }
    }

    /// Bands drawn on every chart: rebuffers and ad breaks.
    var bands: [SVGChart.Band] {
        rebuffers.map { SVGChart.Band(name: "rebuffer", color: "#d62728", start: $0.start, end: $0.end) }
            + adBreaks.map { SVGChart.Band(name: "ad break", color: "#e6b400", start: $0.start, end: $0.end) }
    }

    /// Markers drawn on every chart: ad boundaries.
    var markers: [SVGChart.Marker] {
        adBoundaries.map { SVGChart.Marker(name: "ad boundary", color: "#8c6d00", x: $0) }
    }

    /// The three charts: buffer, bitrate and throughput, frame lateness.
    func charts() -> [SVGChart] {
        let range = 0...endSeconds
        var buffer = SVGChart(title: "Buffer level", unit: "s", xRange: range, bands: bands, markers: markers)
        buffer.series = [.init(name: "buffer", color: "#1f77b4", style: .line, points: bufferSeconds)]
        var bitrate = SVGChart(title: "Selected bitrate and measured throughput", unit: "bit/s", xRange: range, bands: bands, markers: markers)
        bitrate.series = [
            .init(name: "selected", color: "#2ca02c", style: .step, points: selectedBitrate),
            .init(name: "throughput (mean)", color: "#9467bd", style: .line, points: observedBitrate),
            .init(name: "segment throughput", color: "#ff7f0e", style: .points, points: segmentThroughput),
        ]
        var late = SVGChart(title: "Frame lateness", unit: "s", xRange: range, bands: bands, markers: markers)
        late.series = [
            .init(name: "presented", color: "#17becf", style: .points, points: lateness),
            .init(name: "dropped", color: "#d62728", style: .points, points: dropped),
        ]
        return [buffer, bitrate, late]
    }
}
