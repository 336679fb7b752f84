extension MediaPlaylist {
    /// Writes the playlist as M3U8 text.
    ///
    /// Byte ranges are written with explicit offsets, keys, maps and bitrates whenever they
    /// change, and variable references already substituted. Parsing the result gives an equal
    /// model.
    public func serialize() -> String {
        var w = PlaylistWriter()
        w.common(version: version, independentSegments: independentSegments, start: start, defines: defines)
        if let targetDuration { w.tag("EXT-X-TARGETDURATION", String(targetDuration)) }
        if mediaSequence != 0 { w.tag("EXT-X-MEDIA-SEQUENCE", String(mediaSequence)) }
        if discontinuitySequence != 0 { w.tag("EXT-X-DISCONTINUITY-SEQUENCE", String(discontinuitySequence)) }
        if let playlistType { w.tag("EXT-X-PLAYLIST-TYPE", playlistType == .vod ? "VOD" : "EVENT") }
        if iFramesOnly { w.tag("EXT-X-I-FRAMES-ONLY") }
        if let allowCache { w.tag("EXT-X-ALLOW-CACHE", allowCache ? "YES" : "NO") }
        if let s = serverControl {
            var a = AttributeWriter()
            a.float("CAN-SKIP-UNTIL", s.canSkipUntilSeconds)
            a.yes("CAN-SKIP-DATERANGES", s.canSkipDateRanges)
            a.float("HOLD-BACK", s.holdBackSeconds)
            a.float("PART-HOLD-BACK", s.partHoldBackSeconds)
            a.yes("CAN-BLOCK-RELOAD", s.canBlockReload)
            w.tag("EXT-X-SERVER-CONTROL", a)
        }
        if let partInf { w.tag("EXT-X-PART-INF", "PART-TARGET=\(NumberText.format(partInf.partTargetSeconds))") }
        if let skip {
            var a = AttributeWriter()
            a.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
            if !skip.recentlyRemovedDateRanges.isEmpty {
                a.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges.joined(separator: "\t"))
            }
            w.tag("EXT-X-SKIP", a)
        }
        var previous: MediaSegment?
        for (index, segment) in segments.enumerated() {
            write(segment, index: index, after: previous, to: &w)
            previous = segment
        }
        for d in dateRanges where d.segmentIndex >= segments.count { w.dateRange(d) }
        w.unknown(trailingTags)
        for p in trailingParts { write(p, to: &w) }
        for h in preloadHints {
            var a = AttributeWriter()
            a.enumerated("TYPE", h.type)
            a.quoted("URI", h.uri)
            a.integer("BYTERANGE-START", h.byteRangeStart)
            a.integer("BYTERANGE-LENGTH", h.byteRangeLength)
            w.tag("EXT-X-PRELOAD-HINT", a)
        }
        for r in renditionReports {
            var a = AttributeWriter()
            a.quoted("URI", r.uri)
            a.integer("LAST-MSN", r.lastMediaSequence)
            a.integer("LAST-PART", r.lastPart)
            w.tag("EXT-X-RENDITION-REPORT", a)
        }
        if endList { w.tag("EXT-X-ENDLIST") }
        return w.text
    }

    private func write(_ s: MediaSegment, index: Int, after previous: MediaSegment?, to w: inout PlaylistWriter) {
        w.unknown(s.tags)
        for d in dateRanges where d.segmentIndex == index { w.dateRange(d) }
        if s.discontinuity { w.tag("EXT-X-DISCONTINUITY") }
        // The keys written so far; an EXT-X-MAP takes those in force where it stands, so its own keys come
        // before it and the segment's (when they differ) after it.
        var written = previous?.keys ?? []
        func writeKeys(_ keys: [SegmentKey]) {
            guard keys != written else { return }
            if keys.isEmpty {
                w.key("EXT-X-KEY", SegmentKey(method: .none))
            } else {
                for k in keys { w.key("EXT-X-KEY", k) }
            }
            written = keys
        }
        if let map = s.map, map != previous?.map {
            writeKeys(map.keys)
            var a = AttributeWriter()
            a.quoted("URI", map.uri)
            a.quoted("BYTERANGE", map.byteRange.map { "\($0.length)@\($0.offset)" })
            w.tag("EXT-X-MAP", a)
        }
        writeKeys(s.keys)
        if let pdt = s.programDateTime { w.tag("EXT-X-PROGRAM-DATE-TIME", pdt.iso8601) }
        if let b = s.bitrateKbps, b != previous?.bitrateKbps { w.tag("EXT-X-BITRATE", String(b)) }
        if s.gap { w.tag("EXT-X-GAP") }
        for p in s.parts { write(p, to: &w) }
        w.tag("EXTINF", NumberText.format(s.duration) + "," + (s.title ?? ""))
        if let r = s.byteRange { w.tag("EXT-X-BYTERANGE", "\(r.length)@\(r.offset)") }
        w.uri(s.uri)
    }

    private func write(_ p: PartialSegment, to w: inout PlaylistWriter) {
        var a = AttributeWriter()
        a.float("DURATION", p.duration)
        a.quoted("URI", p.uri)
        a.yes("INDEPENDENT", p.independent)
        a.quoted("BYTERANGE", p.byteRange.map { "\($0.length)@\($0.offset)" })
        a.yes("GAP", p.gap)
        w.tag("EXT-X-PART", a)
    }
}
