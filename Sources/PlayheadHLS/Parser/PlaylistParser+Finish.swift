/// End of input: truncation check, numbering, version rules, and the choice of playlist kind.
extension PlaylistParser {
    mutating func finish(lastLine: Int) throws(PlaylistParseError) -> ParsedPlaylist {
        if let line = pending.extinfLine {
            throw .missingSegmentURI(line: line, column: 1)
        }
        if let pv = pendingVariant {
            throw .missingVariantURI(line: pv.line, column: 1)
        }
        let isMultivariant = multivariantEvidenceLine != nil
            || (mediaEvidenceLine == nil && multivariantOnlyTagLine != nil)
        let effectiveVersion = version ?? 1
        if isMultivariant {
            if let line = mediaHeaderTagLine {
                warn(line, "media-tag-in-multivariant", "media playlist tags in a multivariant playlist are ignored")
            }
            checkGroupReferences()
        } else {
            if let line = multivariantOnlyTagLine {
                warn(line, "multivariant-tag-in-media", "session tags in a media playlist are ignored")
            }
            numberSegments()
            checkDurations()
            if media.iFramesOnly == false, let i = versionNeeds.firstIndex(where: { $0.feature == "EXT-X-MAP" }) {
                versionNeeds[i].version = 6
                versionNeeds[i].feature = "EXT-X-MAP without EXT-X-I-FRAMES-ONLY"
            }
        }
        for need in versionNeeds where need.version > effectiveVersion {
            warn(need.line, "version-too-low",
                 "\(need.feature) needs EXT-X-VERSION \(need.version) or higher; playlist declares \(effectiveVersion)"
                    + (version == nil ? " (implied)" : ""))
        }
        warnings.sort { ($0.line ?? 0) < ($1.line ?? 0) }  // whole-playlist warnings first
        if droppedWarnings > 0 {
            warnings.append(PlaylistWarning(line: lastLine, code: "warnings-truncated",
                                            message: "\(droppedWarnings) further warnings were dropped"))
        }
        if isMultivariant {
            multivariant.version = version
            multivariant.independentSegments = independentSegments
            multivariant.start = start
            multivariant.defines = defines
            multivariant.dateRanges = media.dateRanges.map { var d = $0; d.segmentIndex = 0; return d }
            multivariant.trailingTags = pendingVariantTags + pending.tags
            return ParsedPlaylist(playlist: .multivariant(multivariant), warnings: warnings)
        }
        media.version = version
        media.independentSegments = independentSegments
        media.start = start
        media.defines = defines
        media.trailingParts = pending.parts
        media.trailingTags = pending.tags
        return ParsedPlaylist(playlist: .media(media), warnings: warnings)
    }

    /// Media sequence and discontinuity sequence numbers of every segment.
    mutating func numberSegments() {
        let first = media.mediaSequence + (media.skip?.skippedSegments ?? 0)
        var discontinuity = media.discontinuitySequence
        for i in media.segments.indices {
            if media.segments[i].discontinuity { discontinuity += 1 }
            media.segments[i].mediaSequence = first + i
            media.segments[i].discontinuitySequence = discontinuity
        }
    }

    /// A rendition group: its TYPE and GROUP-ID.
    private struct GroupKey: Hashable {
        var type: MediaType
        var id: String
    }

    /// Every group a variant names (AUDIO, VIDEO, SUBTITLES, CLOSED-CAPTIONS) must be the GROUP-ID of an
    /// EXT-X-MEDIA of that TYPE (RFC 8216bis 4.4.6.2); one that is not is warned at the variant's line
    /// (a player plays the variant without that group).
    mutating func checkGroupReferences() {
        let defined = Set(multivariant.media.map { GroupKey(type: $0.type, id: $0.groupId) })
        var missing: [(line: Int, attribute: String, group: String)] = []
        let all = Array(zip(multivariant.variants, variantLines)) + Array(zip(multivariant.iFrameVariants, iFrameVariantLines))
        for (variant, line) in all {
            var named: [(String, MediaType, String)] = []
            if let g = variant.audio { named.append(("AUDIO", .audio, g)) }
            if let g = variant.video { named.append(("VIDEO", .video, g)) }
            if let g = variant.subtitles { named.append(("SUBTITLES", .subtitles, g)) }
            if case .group(let g) = variant.closedCaptions { named.append(("CLOSED-CAPTIONS", .closedCaptions, g)) }
            for (attribute, type, group) in named where !defined.contains(GroupKey(type: type, id: group)) {
                missing.append((line, attribute, group))
            }
        }
        for m in missing {
            warn(m.line, "undefined-group", "\(m.attribute)=\"\(m.group)\" names no EXT-X-MEDIA TYPE=\(m.attribute) group")
        }
    }

    /// Segments above the target duration listed one by one; the rest are counted in one more warning.
    static let maxListedLongSegments = 10

    /// Target duration present and not exceeded by any rounded EXTINF.
    mutating func checkDurations() {
        guard let target = media.targetDuration else {
            warn(nil, "missing-target-duration", "media playlist has no EXT-X-TARGETDURATION"
                 + (media.segments.isEmpty ? " (nor any segment or variant)" : ""))
            return
        }
        var reported = 0
        var unlisted = 0
        var firstUnlistedLine: Int?
        for (index, s) in media.segments.enumerated() where s.duration.rounded() > Double(target) {
            let line = segmentLines.indices.contains(index) ? segmentLines[index] : nil
            guard reported < Self.maxListedLongSegments else {
                unlisted += 1
                firstUnlistedLine = firstUnlistedLine ?? line
                continue
            }
            reported += 1
            warn(line, "extinf-exceeds-target-duration",
                 "segment \(s.mediaSequence) lasts \(s.duration) s, above the target duration \(target) s")
        }
        if unlisted > 0 {
            warn(firstUnlistedLine, "extinf-exceeds-target-duration",
                 "… and \(unlisted) more segment\(unlisted == 1 ? "" : "s") above the target duration \(target) s (not listed)")
        }
    }
}
