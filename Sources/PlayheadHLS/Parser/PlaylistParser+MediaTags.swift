/// Media playlist tags (RFC 8216bis 4.4.3 and 4.4.4) and segment assembly.
extension PlaylistParser {
    /// Handles a media playlist tag; returns false when the tag is not one.
    mutating func handleMediaTag(_ tag: TagLine) throws(PlaylistParseError) -> Bool {
        switch tag.name {
        case "EXTINF": try extinf(tag)
        case "EXT-X-BYTERANGE":
            try noteMedia(tag.line, tag: "EXT-X-BYTERANGE")
            need(4, tag.line, "EXT-X-BYTERANGE")
            let r = try byteRange(tag.text, tag)
            pending.byteRange = (r.length, r.offset, tag.line)
            pending.firstLine = pending.firstLine ?? tag.line
        case "EXT-X-DISCONTINUITY": pending.discontinuity = true
        case "EXT-X-GAP": pending.gap = true
        case "EXT-X-PROGRAM-DATE-TIME":
            if let d = ProgramDateTime(iso8601: trimmed(tag.text)) {
                pending.programDateTime = d
            } else {
                warn(tag.line, "bad-value", "EXT-X-PROGRAM-DATE-TIME '\(tag.text.prefix(40))' is not a date; ignored")
            }
        case "EXT-X-KEY": try key(tag)
        case "EXT-X-MAP": try map(tag)
        case "EXT-X-BITRATE":
            guard let v = NumberText.decimalInteger(trimmed(tag.text)) else {
                throw .badNumber(line: tag.line, column: tag.valueColumn, tag: "EXT-X-BITRATE", text: String(tag.text))
            }
            bitrateInForce = v
        case "EXT-X-PART": try part(tag)
        case "EXT-X-TARGETDURATION":
            headerTag(tag)
            if let v = try headerInteger(tag, allowNegative: false) { media.targetDuration = v }
        case "EXT-X-MEDIA-SEQUENCE":
            headerTag(tag)
            beforeFirstSegment(tag)
            if let v = try headerInteger(tag, allowNegative: true) { media.mediaSequence = v }
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            headerTag(tag)
            beforeFirstSegment(tag)
            if let v = try headerInteger(tag, allowNegative: true) { media.discontinuitySequence = v }
        case "EXT-X-ENDLIST":
            headerTag(tag)
            media.endList = true
        case "EXT-X-PLAYLIST-TYPE":
            headerTag(tag)
            switch trimmed(tag.text) {
            case "VOD": media.playlistType = .vod
            case "EVENT": media.playlistType = .event
            case let other: warn(tag.line, "unknown-enumerated-value", "EXT-X-PLAYLIST-TYPE '\(other)' ignored")
            }
        case "EXT-X-I-FRAMES-ONLY":
            headerTag(tag)
            need(4, tag.line, "EXT-X-I-FRAMES-ONLY")
            media.iFramesOnly = true
        case "EXT-X-ALLOW-CACHE":
            headerTag(tag)
            switch trimmed(tag.text) {
            case "YES": media.allowCache = true
            case "NO": media.allowCache = false
            case let other: warn(tag.line, "unknown-enumerated-value", "EXT-X-ALLOW-CACHE '\(other)' ignored")
            }
        default: return try handleLowLatencyTag(tag)
        }
        return true
    }

    /// Marks a playlist-wide media tag: duplicates and media-in-multivariant are reported.
    mutating func headerTag(_ tag: TagLine) {
        singleton(tag)
        if mediaHeaderTagLine == nil { mediaHeaderTagLine = tag.line }
    }

    /// Warns about a tag that RFC 8216bis wants before the first media segment (EXT-X-MEDIA-SEQUENCE,
    /// EXT-X-DISCONTINUITY-SEQUENCE) but that comes after it; its value still numbers every segment.
    mutating func beforeFirstSegment(_ tag: TagLine) {
        guard !media.segments.isEmpty || pending.firstLine != nil else { return }
        warn(tag.line, "header-tag-after-segment",
             "#\(tag.name) must come before the first media segment; applied to the whole playlist")
    }

    /// Reads a header integer; a bad value is a warning and the tag is ignored, one past
    /// ``PlaylistLimits/maxInteger`` (either way) is an error.
    mutating func headerInteger(_ tag: TagLine, allowNegative: Bool) throws(PlaylistParseError) -> Int? {
        let t = trimmed(tag.text)
        let outOfRange = PlaylistParseError.valueOutOfRange(line: tag.line, column: tag.valueColumn, tag: String(tag.name),
                                                            text: String(t), limit: "at most \(PlaylistLimits.maxInteger)")
        guard let v = NumberText.decimalInteger(t) else {
            if let d = NumberText.signedFloat(t) {
                guard abs(d) <= Double(PlaylistLimits.maxInteger) else { throw outOfRange }
                if d >= 0 {
                    warn(tag.line, "bad-value", "#\(tag.name) '\(t)' is not an integer; rounded up")
                    return Int(d.rounded(.up))
                }
            } else if NumberText.isOverflowingInteger(t) {
                throw outOfRange
            }
            warn(tag.line, "bad-value", "#\(tag.name) '\(t.prefix(40))' is not an integer; ignored")
            return nil
        }
        guard abs(v) <= PlaylistLimits.maxInteger else { throw outOfRange }
        if v < 0 {
            warn(tag.line, "negative-value", "#\(tag.name) is negative (\(v))" + (allowNegative ? "" : "; ignored"))
            return allowNegative ? v : nil
        }
        return v
    }

    mutating func extinf(_ tag: TagLine) throws(PlaylistParseError) {
        try noteMedia(tag.line, tag: "EXTINF")
        let text = tag.text
        let comma = text.firstIndex(of: ",")
        let durationText = trimmed(comma.map { text[..<$0] } ?? text)
        guard let duration = NumberText.signedFloat(durationText) else {
            throw .badNumber(line: tag.line, column: tag.valueColumn, tag: "EXTINF", text: String(durationText))
        }
        guard abs(duration) <= PlaylistLimits.maxSegmentSeconds else {
            throw .valueOutOfRange(line: tag.line, column: tag.valueColumn, tag: "EXTINF", text: String(durationText),
                                   limit: "at most \(Int(PlaylistLimits.maxSegmentSeconds)) s")
        }
        if duration < 0 { warn(tag.line, "negative-value", "EXTINF duration is negative (\(durationText))") }
        if comma == nil { warn(tag.line, "extinf-missing-comma", "EXTINF has no comma after the duration (RFC 8216bis: #EXTINF:<duration>,[<title>])") }
        if durationText.contains(".") { need(3, tag.line, "floating-point EXTINF duration") }
        if pending.extinfLine != nil { warn(tag.line, "duplicate-tag", "second EXTINF before a segment URI") }
        pending.duration = duration
        let title = comma.map { trimmed(text[text.index(after: $0)...]) } ?? ""
        pending.title = title.isEmpty ? nil : String(title)
        pending.extinfLine = tag.line
        pending.firstLine = pending.firstLine ?? tag.line
    }

    mutating func key(_ tag: TagLine) throws(PlaylistParseError) {
        let k = try parseKey(tag)
        if k.method == .none {
            keysInForce = [k]
        } else {
            keysInForce.removeAll { $0.method == .none || $0.keyFormat == k.keyFormat
                || ($0.isIdentityFormat && k.isIdentityFormat) }
            keysInForce.append(k)
        }
    }

    /// Parses EXT-X-KEY or EXT-X-SESSION-KEY attributes.
    mutating func parseKey(_ tag: TagLine) throws(PlaylistParseError) -> SegmentKey {
        let list = try attributes(tag)
        let method = KeyMethod(try required(list, "METHOD", tag))
        var key = SegmentKey(method: method)
        if case .other(let m) = method {
            warn(tag.line, "unknown-enumerated-value", "#\(tag.name) METHOD=\(m) is not a known method")
        }
        key.uri = string(list, "URI", tag)
        if method != .none, key.uri == nil {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: String(tag.name),
                                            attribute: "URI")
        }
        key.iv = try hex(list, "IV", tag)
        if key.iv != nil { need(2, tag.line, "IV attribute of EXT-X-KEY") }
        if let iv = key.iv, iv.count != 16 {
            warn(tag.line, "odd-value", "IV has \(iv.count) bytes; \(method.text) needs 16")
        }
        key.keyFormat = string(list, "KEYFORMAT", tag)
        key.keyFormatVersions = string(list, "KEYFORMATVERSIONS", tag)
        if key.keyFormat != nil || key.keyFormatVersions != nil { need(5, tag.line, "KEYFORMAT or KEYFORMATVERSIONS") }
        return key
    }

    mutating func map(_ tag: TagLine) throws(PlaylistParseError) {
        let list = try attributes(tag)
        var section = MediaInitializationSection(uri: try required(list, "URI", tag))
        if let text = string(list, "BYTERANGE", tag) {
            let r = try byteRange(Substring(text), tag)
            section.byteRange = ByteRange(length: r.length, offset: r.offset ?? 0)
        }
        // The section is encrypted by the key that applies to this tag, not by a later one.
        let primary = keysInForce.firstIndex { $0.isIdentityFormat } ?? 0
        section.keys = keysInForce.isEmpty ? [] : [keysInForce[primary]] + keysInForce.enumerated().filter { $0.offset != primary }.map(\.element)
        mapInForce = section
        need(5, tag.line, "EXT-X-MAP")
    }

    /// `uri` without its leading `./` steps (they name the same resource as the URI without them).
    static func withoutDotSlash(_ uri: String) -> Substring {
        var rest = Substring(uri)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        return rest
    }

    /// Creates the segment from what is pending and the state in force.
    mutating func appendSegment(uri: String, line: Int) throws(PlaylistParseError) {
        if pending.extinfLine == nil {
            warn(line, "missing-extinf", "segment \(uri.prefix(60)) has no EXTINF; target duration used")
        }
        var segment = MediaSegment(uri: uri, duration: pending.duration ?? Double(media.targetDuration ?? 0))
        segment.title = pending.title
        if let r = pending.byteRange {
            let offset: Int
            if let o = r.offset {
                offset = o
            } else if let prev = previousRangeEnd {
                offset = prev.end
                // `./media.ts` after `media.ts` is the same resource.
                if Self.withoutDotSlash(prev.uri) != Self.withoutDotSlash(uri) {
                    warn(r.line, "byterange-uri-mismatch", "EXT-X-BYTERANGE without offset follows a different URI")
                }
            } else {
                offset = 0
                warn(r.line, "byterange-missing-offset", "EXT-X-BYTERANGE without offset and no previous sub-range")
            }
            let end = try byteRangeEnd(offset: offset, length: r.length, line: r.line, tag: "EXT-X-BYTERANGE")
            segment.byteRange = ByteRange(length: r.length, offset: offset)
            previousRangeEnd = (uri, end)
        } else {
            previousRangeEnd = nil
        }
        segment.discontinuity = pending.discontinuity
        segment.programDateTime = pending.programDateTime
        if !keysInForce.isEmpty {
            let primary = keysInForce.firstIndex { $0.isIdentityFormat } ?? 0
            segment.key = keysInForce[primary]
            var others = keysInForce
            others.remove(at: primary)
            segment.otherKeys = others
            // AES-128 keys are the raw 16 bytes of KEYFORMAT identity; another format is a key system's.
            if let key = segment.key, key.method == .aes128, !key.isIdentityFormat, let format = key.keyFormat,
               warnedKeyFormats.insert(format).inserted {
                warn(line, "odd-value", "segment \(uri.prefix(60)) is METHOD=AES-128 with KEYFORMAT=\"\(format)\" and no identity key "
                     + "in force: the key's URI is read as the raw 16-byte key of KEYFORMAT identity")
            }
        }
        segment.map = mapInForce
        segment.gap = pending.gap
        segment.bitrateKbps = bitrateInForce
        segment.tags = pending.tags
        segment.parts = pending.parts
        media.segments.append(segment)
        segmentLines.append(pending.extinfLine ?? pending.firstLine ?? line)
        pending = PendingSegment()
        previousPartRangeEnd = nil
    }
}
