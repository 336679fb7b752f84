/// Multivariant playlist tags (RFC 8216bis 4.4.6).
extension PlaylistParser {
    /// Handles a multivariant playlist tag; returns false when the tag is not one.
    mutating func handleMultivariantTag(_ tag: TagLine) throws(PlaylistParseError) -> Bool {
        switch tag.name {
        case "EXT-X-STREAM-INF":
            try noteMultivariant(tag.line, tag: "EXT-X-STREAM-INF")
            if pendingVariant != nil { warn(tag.line, "orphan-stream-inf", "EXT-X-STREAM-INF without URI ignored") }
            pendingVariant = (try variant(tag, uri: ""), tag.line)
        case "EXT-X-I-FRAME-STREAM-INF":
            try noteMultivariant(tag.line, tag: "EXT-X-I-FRAME-STREAM-INF")
            need(4, tag.line, "EXT-X-I-FRAME-STREAM-INF")
            let list = try attributes(tag)
            multivariant.iFrameVariants.append(try variant(tag, uri: try required(list, "URI", tag)))
            iFrameVariantLines.append(tag.line)
        case "EXT-X-MEDIA":
            try noteMultivariant(tag.line, tag: "EXT-X-MEDIA")
            need(4, tag.line, "EXT-X-MEDIA")
            multivariant.media.append(try rendition(tag))
        case "EXT-X-SESSION-DATA":
            noteMultivariantOnlyTag(tag.line)
            let list = try attributes(tag)
            let data = SessionData(
                dataId: try required(list, "DATA-ID", tag), value: string(list, "VALUE", tag),
                uri: string(list, "URI", tag), format: string(list, "FORMAT", tag),
                language: string(list, "LANGUAGE", tag))
            // RFC 8216bis 4.4.6.4: either VALUE or URI, not both. Kept as read.
            if data.value != nil, data.uri != nil {
                warn(tag.line, "odd-value", "EXT-X-SESSION-DATA DATA-ID=\"\(data.dataId.prefix(60))\" has both VALUE and URI; it takes one of them")
            } else if data.value == nil, data.uri == nil {
                warn(tag.line, "missing-attribute", "EXT-X-SESSION-DATA DATA-ID=\"\(data.dataId.prefix(60))\" has neither VALUE nor URI: it carries no data")
            }
            multivariant.sessionData.append(data)
        case "EXT-X-SESSION-KEY":
            noteMultivariantOnlyTag(tag.line)
            let key = try parseKey(tag)
            // RFC 8216bis 4.4.6.5: its METHOD must not be NONE (there is nothing to preload).
            if key.method == .none { warn(tag.line, "odd-value", "EXT-X-SESSION-KEY METHOD=NONE: a session key names a key to load; NONE is not allowed") }
            multivariant.sessionKeys.append(key)
        case "EXT-X-CONTENT-STEERING":
            noteMultivariantOnlyTag(tag.line)
            singleton(tag)
            let list = try attributes(tag)
            multivariant.contentSteering = ContentSteering(
                serverUri: try required(list, "SERVER-URI", tag), pathwayId: string(list, "PATHWAY-ID", tag))
        default:
            return false
        }
        return true
    }

    /// Session tags do not decide the playlist kind (some media playlists carry them); they are
    /// reported when the playlist turns out to be a media playlist.
    mutating func noteMultivariantOnlyTag(_ line: Int) {
        if multivariantOnlyTagLine == nil { multivariantOnlyTagLine = line }
    }

    /// Reads the attributes of EXT-X-STREAM-INF or EXT-X-I-FRAME-STREAM-INF.
    mutating func variant(_ tag: TagLine, uri: String) throws(PlaylistParseError) -> VariantStream {
        let list = try attributes(tag)
        guard let bandwidthEntry = list.entry("BANDWIDTH") else {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: String(tag.name),
                                            attribute: "BANDWIDTH")
        }
        let bandwidth: Int
        if let b = NumberText.decimalInteger(bandwidthEntry.text) {
            guard b >= 0 else { throw negative(bandwidthEntry, tag) }
            bandwidth = b
        } else if let d = NumberText.signedFloat(bandwidthEntry.text), d >= 0, d < 9e18 {
            warn(tag.line, "bad-value", "BANDWIDTH \(bandwidthEntry.text) is not an integer; truncated")
            bandwidth = Int(d)
        } else {
            throw .badNumber(line: tag.line, column: tag.valueColumn + bandwidthEntry.column - 1,
                             tag: String(tag.name), text: "BANDWIDTH=\(bandwidthEntry.text)")
        }
        warnQuoted(list, "BANDWIDTH", tag, "decimal-integer")
        var v = VariantStream(uri: uri, bandwidth: bandwidth)
        v.averageBandwidth = try integer(list, "AVERAGE-BANDWIDTH", tag)
        v.score = try float(list, "SCORE", tag)
        v.codecs = string(list, "CODECS", tag)
        v.supplementalCodecs = string(list, "SUPPLEMENTAL-CODECS", tag)
        v.resolution = try resolution(list, "RESOLUTION", tag)
        v.frameRate = try float(list, "FRAME-RATE", tag)
        v.hdcpLevel = string(list, "HDCP-LEVEL", tag)
        v.allowedCPC = string(list, "ALLOWED-CPC", tag)
        v.videoRange = string(list, "VIDEO-RANGE", tag)
        v.requiredVideoLayout = string(list, "REQ-VIDEO-LAYOUT", tag)
        v.stableVariantId = string(list, "STABLE-VARIANT-ID", tag)
        v.audio = string(list, "AUDIO", tag)
        v.video = string(list, "VIDEO", tag)
        if tag.name == "EXT-X-STREAM-INF", v.audio != nil || v.video != nil {
            need(4, tag.line, "AUDIO/VIDEO attributes of EXT-X-STREAM-INF")
        }
        v.subtitles = string(list, "SUBTITLES", tag)
        if let cc = list.entry("CLOSED-CAPTIONS") {
            v.closedCaptions = !cc.quoted && cc.text == "NONE" ? ClosedCaptionsReference.none : .group(substitute(cc.text, line: tag.line))
        }
        v.pathwayId = string(list, "PATHWAY-ID", tag)
        v.programId = try integer(list, "PROGRAM-ID", tag)
        if let r = v.resolution, r.width == 0 || r.height == 0 {
            warn(tag.line, "odd-value", "RESOLUTION \(r.width)x\(r.height) has a zero dimension")
        }
        return v
    }

    mutating func rendition(_ tag: TagLine) throws(PlaylistParseError) -> Rendition {
        let list = try attributes(tag)
        let type = MediaType(try required(list, "TYPE", tag))
        if case .other(let t) = type { warn(tag.line, "unknown-enumerated-value", "EXT-X-MEDIA TYPE=\(t)") }
        var r = Rendition(type: type, groupId: try required(list, "GROUP-ID", tag), name: try required(list, "NAME", tag))
        r.language = string(list, "LANGUAGE", tag)
        r.assocLanguage = string(list, "ASSOC-LANGUAGE", tag)
        r.default = yesNo(list, "DEFAULT", tag)
        r.autoselect = yesNo(list, "AUTOSELECT", tag)
        r.forced = yesNo(list, "FORCED", tag)
        r.instreamId = string(list, "INSTREAM-ID", tag)
        if let id = r.instreamId, id.hasPrefix("SERVICE") { need(7, tag.line, "INSTREAM-ID SERVICE values") }
        r.uri = string(list, "URI", tag)
        if type == .subtitles, r.uri == nil {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-MEDIA", attribute: "URI")
        }
        if type == .closedCaptions, r.uri != nil {
            warn(tag.line, "odd-value", "EXT-X-MEDIA TYPE=CLOSED-CAPTIONS must not have a URI")
        }
        if type == .closedCaptions, r.instreamId == nil {
            warn(tag.line, "missing-attribute", "EXT-X-MEDIA TYPE=CLOSED-CAPTIONS lacks INSTREAM-ID")
        }
        r.characteristics = string(list, "CHARACTERISTICS", tag)
        r.channels = string(list, "CHANNELS", tag)
        r.bitDepth = try integer(list, "BIT-DEPTH", tag)
        r.sampleRateHz = try integer(list, "SAMPLE-RATE", tag)
        r.stableRenditionId = string(list, "STABLE-RENDITION-ID", tag)
        if r.forced, type != .subtitles { warn(tag.line, "odd-value", "FORCED is only for SUBTITLES") }
        return r
    }
}
