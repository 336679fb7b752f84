/// One pass over the lines of a playlist, building both kinds of playlist and deciding at the end
/// which one it was. Works on `Substring` views of the input: no per-character arrays.
struct PlaylistParser {
    /// The maximum number of warnings kept; more are counted in one `warnings-truncated` warning.
    static let maxWarnings = 1000

    let text: String
    let sources: VariableSources
    var warnings: [PlaylistWarning] = []
    var droppedWarnings = 0

    var media = MediaPlaylist()
    var multivariant = MultivariantPlaylist()
    var version: Int?
    var independentSegments = false
    var start: StartPoint?
    var defines: [VariableDefinition] = []
    /// The EXTINF line of each segment, else its first tag's or its URI's (for warnings about a whole segment).
    var segmentLines: [Int] = []
    var variables: [String: String] = [:]
    /// The line being parsed, as written (for the column of a reference to an undefined variable).
    var currentLine: Substring = ""
    /// The first reference to a variable no EXT-X-DEFINE declared, thrown once its line is parsed.
    var undefinedReference: PlaylistParseError?

    /// Line of the first tag or URI that makes this a media playlist.
    var mediaEvidenceLine: Int?
    /// Line of the first tag that makes this a multivariant playlist.
    var multivariantEvidenceLine: Int?
    /// Line of the first session tag (EXT-X-SESSION-DATA/-KEY, EXT-X-CONTENT-STEERING).
    var multivariantOnlyTagLine: Int?
    /// Line of the first media-only header tag (reported if the playlist turns out multivariant).
    var mediaHeaderTagLine: Int?
    /// Singleton tags already seen (for duplicate-tag warnings).
    var seenSingletons: Set<String> = []
    /// Features that need a minimum EXT-X-VERSION: (version, line, feature).
    var versionNeeds: [(version: Int, line: Int, feature: String)] = []
    var versionNeedFeatures: Set<String> = []

    // State in force for the next segment.
    var pending = PendingSegment()
    var keysInForce: [SegmentKey] = []
    var mapInForce: MediaInitializationSection?
    /// KEYFORMATs of AES-128 keys already warned about (see `appendSegment`).
    var warnedKeyFormats: Set<String> = []
    var bitrateInForce: Int?
    var previousRangeEnd: (uri: String, end: Int)?
    var previousPartRangeEnd: (uri: String, end: Int)?
    var pendingVariant: (variant: VariantStream, line: Int)?
    /// The EXT-X-STREAM-INF line of each variant, and the line of each I-frame variant.
    var variantLines: [Int] = []
    var iFrameVariantLines: [Int] = []
    var pendingVariantTags: [UnknownTag] = []

    init(text: String, sources: VariableSources) {
        self.text = text
        self.sources = sources
    }

    /// What has been read for the segment whose URI has not come yet.
    struct PendingSegment {
        var duration: Double?
        var title: String?
        var extinfLine: Int?
        var byteRange: (length: Int, offset: Int?, line: Int)?
        var discontinuity = false
        var programDateTime: ProgramDateTime?
        var gap = false
        var tags: [UnknownTag] = []
        var parts: [PartialSegment] = []
        var firstLine: Int?
    }

    mutating func run() throws(PlaylistParseError) -> ParsedPlaylist {
        let u = text.utf8
        var i = u.startIndex
        let end = u.endIndex
        var lineNumber = 0
        var sawHeader = false
        var sawLoneCR = false
        while i < end {
            lineNumber += 1
            // A line ends at LF, CRLF or (old Mac files) a lone CR; the RFC allows only the first two.
            var j = i
            while j < end, u[j] != 0x0A, u[j] != 0x0D { j = u.index(after: j) }
            var next = j < end ? u.index(after: j) : j
            if j < end, u[j] == 0x0D {
                if next < end, u[next] == 0x0A {
                    next = u.index(after: next)
                } else if !sawLoneCR {
                    sawLoneCR = true
                    warn(lineNumber, "cr-line-ending", "line ends with a lone CR (RFC 8216: LF or CRLF); taken as a line break")
                }
            }
            var line = text[i..<j]
            i = next
            if lineNumber == 1, line.utf8.first == 0xEF {
                line = line.dropFirst()
                warn(1, "byte-order-mark", "the playlist starts with a byte-order mark (RFC 8216 4.1: it must not; clients should fail to parse); read past it")
            }
            if !sawHeader {
                if line.hasPrefix("#EXTM3U") {
                    sawHeader = true
                    if lineNumber > 1 { warn(lineNumber, "header-not-first", "#EXTM3U is not on the first line") }
                }
                continue
            }
            currentLine = line
            try handle(line: line, number: lineNumber)
            if let undefinedReference { throw undefinedReference }
        }
        return try finish(lastLine: lineNumber)
    }

    /// The tags RFC 8216bis defines with no value (`#EXT-X-ENDLIST:foo` is warned, then read as the tag).
    static let tagsWithoutValue: Set<String> = ["EXT-X-ENDLIST", "EXT-X-DISCONTINUITY", "EXT-X-GAP", "EXT-X-I-FRAMES-ONLY",
                                                "EXT-X-INDEPENDENT-SEGMENTS"]

    mutating func handle(line raw: Substring, number: Int) throws(PlaylistParseError) {
        let line = trimmed(raw)
        guard let first = line.utf8.first else { return }
        guard first == UInt8(ascii: "#") else {
            try handleURI(String(line), number: number)
            return
        }
        guard line.hasPrefix("#EXT") else { return }  // comment
        let body = line.dropFirst()
        let colon = body.firstIndex(of: ":")
        let name = colon.map { body[..<$0] } ?? body
        let value = colon.map { body[body.index(after: $0)...] }
        let lead = raw.utf8.distance(from: raw.utf8.startIndex, to: line.utf8.startIndex)
        let tag = TagLine(name: name, value: value, line: number, valueColumn: lead + name.utf8.count + 3)
        if let value, Self.tagsWithoutValue.contains(String(name)) {
            warn(number, "unexpected-value", "#\(name) takes no value; ':\(value.prefix(40))' is ignored")
        }
        if try !handleMediaTag(tag), try !handleMultivariantTag(tag), try !handleCommonTag(tag) {
            checkCueTag(tag)
            let unknown = UnknownTag(name: String(name), value: value.map(String.init), line: number)
            if pendingVariant != nil || multivariantEvidenceLine != nil && mediaEvidenceLine == nil {
                pendingVariantTags.append(unknown)
            } else {
                pending.tags.append(unknown)
            }
        }
    }

    mutating func handleURI(_ rawURI: String, number: Int) throws(PlaylistParseError) {
        let uri = substitute(Substring(rawURI), line: number)
        checkURI(uri, line: number)
        if let pv = pendingVariant {
            var variant = pv.variant
            variant.uri = uri
            variant.tags = pending.tags + pendingVariantTags
            pending.tags = []
            pendingVariantTags = []
            multivariant.variants.append(variant)
            variantLines.append(pv.line)
            pendingVariant = nil
            return
        }
        if multivariantEvidenceLine != nil, mediaEvidenceLine == nil, pending.extinfLine == nil {
            warn(number, "orphan-uri", "URI line without a preceding EXT-X-STREAM-INF is ignored")
            return
        }
        try noteMedia(number, tag: "EXTINF")
        try appendSegment(uri: uri, line: number)
    }

    /// Records that the playlist is a media playlist; mixing with multivariant tags is fatal.
    mutating func noteMedia(_ line: Int, tag: String) throws(PlaylistParseError) {
        if multivariantEvidenceLine != nil { throw .mixedPlaylistKinds(line: line, column: 1, tag: tag) }
        if mediaEvidenceLine == nil { mediaEvidenceLine = line }
    }

    /// Records that the playlist is a multivariant playlist; mixing with segments is fatal.
    mutating func noteMultivariant(_ line: Int, tag: String) throws(PlaylistParseError) {
        if mediaEvidenceLine != nil { throw .mixedPlaylistKinds(line: line, column: 1, tag: tag) }
        if multivariantEvidenceLine == nil { multivariantEvidenceLine = line }
    }

    /// Adds a warning unless the cap is reached (`line` nil for one about the whole playlist).
    mutating func warn(_ line: Int?, _ code: String, _ message: String) {
        if warnings.count < Self.maxWarnings {
            warnings.append(PlaylistWarning(line: line, code: code, message: message))
        } else {
            droppedWarnings += 1
        }
    }

    /// Records that a feature needs at least a protocol version (first use only).
    mutating func need(_ version: Int, _ line: Int, _ feature: String) {
        guard !versionNeedFeatures.contains(feature) else { return }
        versionNeedFeatures.insert(feature)
        versionNeeds.append((version, line, feature))
    }

    /// Warns about a second occurrence of a tag that may appear once.
    mutating func singleton(_ tag: TagLine) {
        let name = String(tag.name)
        if seenSingletons.contains(name) {
            warn(tag.line, "duplicate-tag", "#\(name) appears more than once; the last one is used")
        } else {
            seenSingletons.insert(name)
        }
    }
}

/// A tag line split into name and value, with the column where the value starts.
struct TagLine {
    /// Tag name without `#`.
    var name: Substring
    /// Text after the first `:`.
    var value: Substring?
    /// 1-based line number.
    var line: Int
    /// 1-based column of the first character of the value.
    var valueColumn: Int

    /// The value, or an empty string.
    var text: Substring { value ?? "" }
}
