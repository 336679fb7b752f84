/// Parses WebVTT files by the W3C WebVTT parser algorithm.
///
/// The parser is lenient where the spec is: a cue whose timing line is malformed is skipped, an
/// unknown or invalid cue or region setting is ignored, and blocks that are neither cues nor
/// `NOTE`, `STYLE` or `REGION` blocks are dropped; each of these is reported in
/// ``WebVTTDocument/issues`` with its line. Only a file without the `WEBVTT` signature fails.
public enum WebVTTParser {
    /// Parses WebVTT text. A leading byte order mark is skipped; CRLF, CR and LF all end lines;
    /// NUL characters become U+FFFD.
    /// - Throws: ``WebVTTError`` when the text does not start with the `WEBVTT` signature
    ///   (followed by the end of the file, a space, a tab or a line break).
    public static func parse(_ text: String) throws(WebVTTError) -> WebVTTDocument {
        var run = WebVTTParserRun(input: WebVTTParserRun.normalized(text.unicodeScalars))
        return try run.parse()
    }

    /// Parses the bytes of a WebVTT file, decoded as UTF-8 (the only encoding WebVTT allows);
    /// invalid sequences become U+FFFD, as the spec's UTF-8 decode does.
    /// - Throws: ``WebVTTError`` when the text does not start with the `WEBVTT` signature.
    public static func parse(_ bytes: some Collection<UInt8>) throws(WebVTTError) -> WebVTTDocument {
        try parse(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses the bytes of a WebVTT file as ``parse(_:)-(Collection<UInt8>)`` does, and gives for each cue the 1-based
    /// line of its timings (`00:01.000 --> 00:02.000`); its payload starts on the next line.
    /// - Throws: ``WebVTTError`` when the text does not start with the `WEBVTT` signature.
    public static func parseWithCueLines(_ bytes: some Collection<UInt8>) throws(WebVTTError) -> (document: WebVTTDocument, cueLines: [Int]) {
        var run = WebVTTParserRun(input: WebVTTParserRun.normalized(String(decoding: bytes, as: UTF8.self).unicodeScalars))
        let document = try run.parse()
        return (document, run.cueLines)
    }
}

/// One run of the parser over a normalized input (no CR, no NUL, no BOM).
struct WebVTTParserRun {
    let input: [Unicode.Scalar]
    var position = 0
    /// The 1-based line that `position` is on.
    var lineNumber = 1
    var seenCue = false
    var document = WebVTTDocument()
    /// The line of each cue's timings, in the order of ``WebVTTDocument/cues``.
    var cueLines: [Int] = []

    /// What a block turned out to be.
    enum Block {
        /// A cue, and the line of its timings.
        case cue(WebVTTCue, line: Int)
        case region(WebVTTRegion)
        case stylesheet
        case header([String])
        /// Neither cue, style sheet nor region: `NOTE` blocks, and anything else, which is reported.
        case ignored
    }

    /// The input as the parser algorithm sees it: no leading BOM, NUL → U+FFFD, CRLF and CR → LF.
    static func normalized(_ scalars: String.UnicodeScalarView) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count)
        var previousCR = false
        for (offset, scalar) in scalars.enumerated() {
            if offset == 0, scalar == "\u{FEFF}" { continue }
            switch scalar {
            case "\r": out.append("\n")
            case "\n" where previousCR: break
            case "\0": out.append("\u{FFFD}")
            default: out.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return out
    }

    static func isASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0C}" || scalar == "\r"
    }

    mutating func parse() throws(WebVTTError) -> WebVTTDocument {
        let signature: [Unicode.Scalar] = ["W", "E", "B", "V", "T", "T"]
        guard input.count >= 6, Array(input[0..<6]) == signature,
              input.count == 6 || input[6] == " " || input[6] == "\t" || input[6] == "\n"
        else { throw WebVTTError(line: 1, message: "missing WEBVTT signature") }

        let first = collectLine()
        if first.count > 7 { document.header = String(String.UnicodeScalarView(first[7...])) }
        if advancePastLineFeed(), position < input.count { parseHeaderAndBlocks() }
        return document
    }

    /// Everything after the signature line: the header block, then the block loop.
    mutating func parseHeaderAndBlocks() {
        if input[position] != "\n" {
            let start = lineNumber
            if case .header(let lines) = collectBlock(inHeader: true) {
                document.header = ([document.header].filter { !$0.isEmpty } + lines).joined(separator: "\n")
                readHeaderLines(lines, firstLine: start)
            }
        } else {
            advancePastLineFeed()
        }
        skipLineFeeds()

        while position < input.count {
            switch collectBlock(inHeader: false) {
            case let .cue(cue, line):
                document.cues.append(cue)
                cueLines.append(line)
            case .region(let region): document.regions.append(region)
            case .stylesheet, .header, .ignored: break
            }
            skipLineFeeds()
        }
    }

    /// Collects the characters up to the next LF (or the end), leaving `position` on the LF.
    mutating func collectLine() -> ArraySlice<Unicode.Scalar> {
        let start = position
        while position < input.count, input[position] != "\n" { position += 1 }
        return input[start..<position]
    }

    /// Moves past the LF at `position`; false at the end of the input.
    @discardableResult
    mutating func advancePastLineFeed() -> Bool {
        guard position < input.count else { return false }
        position += 1
        lineNumber += 1
        return true
    }

    mutating func skipLineFeeds() {
        while position < input.count, input[position] == "\n" { advancePastLineFeed() }
    }

    mutating func issue(_ line: Int, _ message: String) {
        document.issues.append(WebVTTIssue(line: line, message: message))
    }

    /// The spec's "collect a WebVTT block": a cue, a `STYLE` or `REGION` block, header lines
    /// (`inHeader`), or something ignored. Leaves `position` after the block's last line.
    mutating func collectBlock(inHeader: Bool) -> Block {
        var lineCount = 0
        var previous = (position: position, line: lineNumber)
        var buffer: [String] = []
        var firstBufferLine = lineNumber
        var seenArrow = false
        var cue: WebVTTCue?
        var cueLine = 0
        var cueFailed = false
        var isStylesheet = false
        var region: WebVTTRegion?
        var regionLine = 0

        while true {
            let thisLine = lineNumber
            let line = collectLine()
            lineCount += 1
            let seenEOF = !advancePastLineFeed()
            if WebVTTParserRun.containsArrow(line) {
                if !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) {
                    seenArrow = true
                    previous = (position, lineNumber)
                    var newCue = WebVTTCue(id: buffer.joined(separator: "\n"), startTime: 0, endTime: 0)
                    do throws(WebVTTSyntaxFailure) {
                        let ignored = try WebVTTSettings.collectTimingsAndSettings(
                            Array(line), regions: document.regions, into: &newCue)
                        for message in ignored { issue(thisLine, message) }
                        cue = newCue
                        cueLine = thisLine
                        buffer = []
                        firstBufferLine = lineNumber
                        seenCue = true
                    } catch {
                        issue(thisLine, "bad cue timings: \(error.reason); cue skipped")
                        cueFailed = true
                    }
                } else {
                    (position, lineNumber) = previous
                    break
                }
            } else if line.isEmpty {
                break
            } else {
                if !inHeader, lineCount == 2, !seenCue, buffer.count == 1 {
                    if WebVTTParserRun.isKeywordLine(buffer[0], "STYLE") {
                        isStylesheet = true
                        buffer = []
                    } else if WebVTTParserRun.isKeywordLine(buffer[0], "REGION") {
                        region = WebVTTRegion()
                        regionLine = thisLine
                        buffer = []
                    }
                }
                if buffer.isEmpty { firstBufferLine = thisLine }
                buffer.append(String(String.UnicodeScalarView(line)))
                previous = (position, lineNumber)
            }
            if seenEOF { break }
        }

        if var cue {
            cue.text = buffer.joined(separator: "\n")
            return .cue(cue, line: cueLine)
        }
        if isStylesheet { return .stylesheet }
        if var region {
            let ignored = WebVTTSettings.collectRegionSettings(buffer.joined(separator: "\n"), into: &region)
            for message in ignored { issue(regionLine, message) }
            return .region(region)
        }
        if inHeader { return .header(buffer) }
        if !cueFailed, let first = buffer.first, !WebVTTParserRun.isNoteLine(first) {
            let shown = first.count > 40 ? String(first.prefix(40)) + "…" : first
            let keyword = WebVTTParserRun.isKeywordLine(first, "STYLE") || WebVTTParserRun.isKeywordLine(first, "REGION")
            let reason = keyword && seenCue ? "comes after the first cue" : "has no cue timings line"
            issue(firstBufferLine, "block ignored: \(shown.debugDescription) \(reason)")
        }
        return .ignored
    }

    static func containsArrow(_ line: ArraySlice<Unicode.Scalar>) -> Bool {
        var dashes = 0
        for scalar in line {
            if scalar == ">", dashes >= 2 { return true }
            dashes = scalar == "-" ? dashes + 1 : 0
        }
        return false
    }

    /// `keyword` followed by nothing but ASCII whitespace (the spec's STYLE and REGION test).
    static func isKeywordLine(_ line: String, _ keyword: String) -> Bool {
        line.hasPrefix(keyword) && line.unicodeScalars.dropFirst(keyword.unicodeScalars.count).allSatisfy(isASCIIWhitespace)
    }

    /// `NOTE` alone or followed by a space, tab or line break (a comment block).
    static func isNoteLine(_ line: String) -> Bool {
        guard line.hasPrefix("NOTE") else { return false }
        let rest = line.unicodeScalars.dropFirst(4)
        return rest.first.map { $0 == " " || $0 == "\t" } ?? true
    }

    /// Reads the header lines the player needs: `X-TIMESTAMP-MAP` (RFC 8216 §3.5).
    mutating func readHeaderLines(_ lines: [String], firstLine: Int) {
        for (offset, line) in lines.enumerated() where line.hasPrefix("X-TIMESTAMP-MAP=") {
            do throws(WebVTTSyntaxFailure) {
                let map = try WebVTTTimestamps.timestampMap(String(line.dropFirst("X-TIMESTAMP-MAP=".count)))
                if document.timestampMap != nil {
                    issue(firstLine + offset, "second X-TIMESTAMP-MAP header line; the first one is kept")
                } else {
                    document.timestampMap = map
                }
            } catch {
                issue(firstLine + offset, "bad X-TIMESTAMP-MAP: \(error.reason); ignored")
            }
        }
    }
}

/// Why a piece of syntax could not be read (reported as a ``WebVTTIssue``, never thrown out).
struct WebVTTSyntaxFailure: Error {
    let reason: String
}
