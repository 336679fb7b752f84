extension MultivariantPlaylist {
    /// Writes the playlist as M3U8 text; parsing the result gives an equal model.
    public func serialize() -> String {
        var w = PlaylistWriter()
        w.common(version: version, independentSegments: independentSegments, start: start, defines: defines)
        if let c = contentSteering {
            var a = AttributeWriter()
            a.quoted("SERVER-URI", c.serverUri)
            a.quoted("PATHWAY-ID", c.pathwayId)
            w.tag("EXT-X-CONTENT-STEERING", a)
        }
        for d in sessionData {
            var a = AttributeWriter()
            a.quoted("DATA-ID", d.dataId)
            a.quoted("VALUE", d.value)
            a.quoted("URI", d.uri)
            a.enumerated("FORMAT", d.format)
            a.quoted("LANGUAGE", d.language)
            w.tag("EXT-X-SESSION-DATA", a)
        }
        for k in sessionKeys { w.key("EXT-X-SESSION-KEY", k) }
        for d in dateRanges { w.dateRange(d) }
        for r in media { w.tag("EXT-X-MEDIA", Self.attributes(of: r)) }
        for v in iFrameVariants {
            var a = Self.attributes(of: v)
            a.quoted("URI", v.uri)
            w.unknown(v.tags)
            w.tag("EXT-X-I-FRAME-STREAM-INF", a)
        }
        for v in variants {
            w.unknown(v.tags)
            w.tag("EXT-X-STREAM-INF", Self.attributes(of: v))
            w.uri(v.uri)
        }
        w.unknown(trailingTags)
        return w.text
    }

    private static func attributes(of v: VariantStream) -> AttributeWriter {
        var a = AttributeWriter()
        a.integer("PROGRAM-ID", v.programId)
        a.integer("BANDWIDTH", v.bandwidth)
        a.integer("AVERAGE-BANDWIDTH", v.averageBandwidth)
        a.float("SCORE", v.score)
        a.quoted("CODECS", v.codecs)
        a.quoted("SUPPLEMENTAL-CODECS", v.supplementalCodecs)
        a.enumerated("RESOLUTION", v.resolution.map { "\($0.width)x\($0.height)" })
        a.float("FRAME-RATE", v.frameRate)
        a.enumerated("HDCP-LEVEL", v.hdcpLevel)
        a.quoted("ALLOWED-CPC", v.allowedCPC)
        a.enumerated("VIDEO-RANGE", v.videoRange)
        a.quoted("REQ-VIDEO-LAYOUT", v.requiredVideoLayout)
        a.quoted("STABLE-VARIANT-ID", v.stableVariantId)
        a.quoted("AUDIO", v.audio)
        a.quoted("VIDEO", v.video)
        a.quoted("SUBTITLES", v.subtitles)
        switch v.closedCaptions {
        case .some(.none): a.enumerated("CLOSED-CAPTIONS", "NONE")
        case .some(.group(let id)): a.quoted("CLOSED-CAPTIONS", id)
        case nil: break
        }
        a.quoted("PATHWAY-ID", v.pathwayId)
        return a
    }

    private static func attributes(of r: Rendition) -> AttributeWriter {
        var a = AttributeWriter()
        a.enumerated("TYPE", r.type.text)
        a.quoted("GROUP-ID", r.groupId)
        a.quoted("NAME", r.name)
        a.quoted("LANGUAGE", r.language)
        a.quoted("ASSOC-LANGUAGE", r.assocLanguage)
        a.yes("DEFAULT", r.default)
        a.yes("AUTOSELECT", r.autoselect)
        a.yes("FORCED", r.forced)
        a.quoted("INSTREAM-ID", r.instreamId)
        a.quoted("URI", r.uri)
        a.quoted("CHARACTERISTICS", r.characteristics)
        a.quoted("CHANNELS", r.channels)
        a.integer("BIT-DEPTH", r.bitDepth)
        a.integer("SAMPLE-RATE", r.sampleRateHz)
        a.quoted("STABLE-RENDITION-ID", r.stableRenditionId)
        return a
    }
}

extension Playlist {
    /// Writes the playlist as M3U8 text; parsing the result gives an equal model.
    public func serialize() -> String {
        switch self {
        case .multivariant(let m): m.serialize()
        case .media(let m): m.serialize()
        }
    }
}
