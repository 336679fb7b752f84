/// Low-Latency HLS and delta-update tags: parsed and kept, not acted on.
extension PlaylistParser {
    /// Handles an LL-HLS tag; returns false when the tag is not one.
    mutating func handleLowLatencyTag(_ tag: TagLine) throws(PlaylistParseError) -> Bool {
        switch tag.name {
        case "EXT-X-SERVER-CONTROL":
            headerTag(tag)
            let list = try attributes(tag)
            media.serverControl = ServerControl(
                canSkipUntilSeconds: try float(list, "CAN-SKIP-UNTIL", tag),
                canSkipDateRanges: yesNo(list, "CAN-SKIP-DATERANGES", tag),
                holdBackSeconds: try float(list, "HOLD-BACK", tag),
                partHoldBackSeconds: try float(list, "PART-HOLD-BACK", tag),
                canBlockReload: yesNo(list, "CAN-BLOCK-RELOAD", tag))
        case "EXT-X-PART-INF":
            headerTag(tag)
            let list = try attributes(tag)
            guard let target = try float(list, "PART-TARGET", tag) else {
                throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-PART-INF",
                                                attribute: "PART-TARGET")
            }
            media.partInf = PartInformation(partTargetSeconds: target)
        case "EXT-X-SKIP":
            headerTag(tag)
            need(9, tag.line, "EXT-X-SKIP")
            let list = try attributes(tag)
            guard let skipped = try integer(list, "SKIPPED-SEGMENTS", tag) else {
                throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-SKIP",
                                                attribute: "SKIPPED-SEGMENTS")
            }
            let removed = string(list, "RECENTLY-REMOVED-DATERANGES", tag)
            media.skip = SkipInformation(
                skippedSegments: skipped,
                recentlyRemovedDateRanges: removed.map { $0.split(separator: "\t").map(String.init) } ?? [])
        case "EXT-X-PRELOAD-HINT":
            let list = try attributes(tag)
            media.preloadHints.append(PreloadHint(
                type: try required(list, "TYPE", tag), uri: try required(list, "URI", tag),
                byteRangeStart: try integer(list, "BYTERANGE-START", tag),
                byteRangeLength: try integer(list, "BYTERANGE-LENGTH", tag)))
        case "EXT-X-RENDITION-REPORT":
            let list = try attributes(tag)
            media.renditionReports.append(RenditionReport(
                uri: try required(list, "URI", tag), lastMediaSequence: try integer(list, "LAST-MSN", tag),
                lastPart: try integer(list, "LAST-PART", tag)))
        default:
            return false
        }
        return true
    }

    mutating func part(_ tag: TagLine) throws(PlaylistParseError) {
        try noteMedia(tag.line, tag: "EXT-X-PART")
        let list = try attributes(tag)
        let uri = try required(list, "URI", tag)
        guard let duration = try float(list, "DURATION", tag) else {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-PART",
                                            attribute: "DURATION")
        }
        var part = PartialSegment(uri: uri, duration: duration, independent: yesNo(list, "INDEPENDENT", tag),
                                  gap: yesNo(list, "GAP", tag))
        if let text = string(list, "BYTERANGE", tag) {
            let r = try byteRange(Substring(text), tag)
            let offset: Int
            if let o = r.offset {
                offset = o
            } else if let prev = previousPartRangeEnd, prev.uri == uri {
                offset = prev.end
            } else {
                offset = 0
                warn(tag.line, "byterange-missing-offset", "EXT-X-PART BYTERANGE without offset and no previous part")
            }
            let end = try byteRangeEnd(offset: offset, length: r.length, line: tag.line, tag: "EXT-X-PART")
            part.byteRange = ByteRange(length: r.length, offset: offset)
            previousPartRangeEnd = (uri, end)
        } else {
            previousPartRangeEnd = nil
        }
        pending.parts.append(part)
    }
}
