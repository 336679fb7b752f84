import PlayheadHLS

/// One entry of an I-frame playlist: a keyframe (a byte range of a segment, or a whole segment) and the
/// span of the timeline it stands for (to the next entry).
public struct IFrameEntry: Sendable, Equatable {
    /// Position in the playlist, from 0.
    public var index: Int
    /// Where the span starts on the timeline, seconds (the EXTINFs before it).
    public var start: Double
    /// EXTINF: seconds to the next keyframe.
    public var duration: Double
    /// The media segment as listed (URI, EXT-X-BYTERANGE, EXT-X-MAP, EXT-X-KEY).
    public var segment: MediaSegment
    /// The segment's absolute URL.
    public var url: String
}

/// An I-frame playlist (EXT-X-I-FRAMES-ONLY) as a time index of keyframes.
public struct IFrameTrack: Sendable {
    /// The playlist's URL (relative URIs resolve against it).
    public var url: String
    /// The entries in order.
    public var entries: [IFrameEntry]
    /// The variant that named it (EXT-X-I-FRAME-STREAM-INF), nil when the playlist was given directly.
    public var variant: VariantStream?

    /// Indexes `playlist`, fetched from `url`.
    /// - Throws: ``ThumbnailError/load(_:)`` when a URI does not resolve.
    public init(playlist: MediaPlaylist, url: String, variant: VariantStream? = nil) throws(ThumbnailError) {
        self.url = url
        self.variant = variant
        var start = 0.0
        var entries: [IFrameEntry] = []
        for (index, segment) in playlist.segments.enumerated() {
            let resolved: String
            do { resolved = try ResourceURL.resolve(segment.uri, against: url) } catch { throw .load(error) }
            let duration = max(0, segment.duration)
            entries.append(IFrameEntry(index: index, start: start, duration: duration, segment: segment, url: resolved))
            start += duration
        }
        self.entries = entries
    }

    /// Seconds the entries span.
    public var duration: Double { entries.last.map { $0.start + $0.duration } ?? 0 }

    /// The entry whose span holds `time` (the last one for the end of the track itself); nil outside.
    public func entry(at time: Double) -> IFrameEntry? {
        Self.span(holding: time, in: entries.map { ($0.start, $0.duration) }).map { entries[$0] }
    }

    /// The index of the span [start, start + duration) holding `time`; the last span also takes its own end.
    static func span(holding time: Double, in spans: [(start: Double, duration: Double)]) -> Int? {
        guard let last = spans.indices.last, time >= 0 else { return nil }
        if let index = spans.indices.last(where: { spans[$0].start <= time && time < spans[$0].start + spans[$0].duration }) { return index }
        return time <= spans[last].start + spans[last].duration + 1e-9 && time >= spans[last].start ? last : nil
    }

    /// Picks among a multivariant playlist's I-frame variants: the one whose RESOLUTION width is closest to
    /// `width` (ties: the lower BANDWIDTH), or without a width the lowest BANDWIDTH. Nil when there is none.
    public static func choose(_ variants: [VariantStream], width: Int?) -> VariantStream? {
        if let width {
            return variants.min { a, b in
                let da = abs((a.resolution?.width ?? Int.max / 2) - width), db = abs((b.resolution?.width ?? Int.max / 2) - width)
                return da != db ? da < db : a.bandwidth < b.bandwidth
            }
        }
        return variants.min { $0.bandwidth < $1.bandwidth }
    }
}
