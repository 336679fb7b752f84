/// Tags allowed in both kinds of playlist (RFC 8216bis 4.4.2) and EXT-X-DATERANGE.
extension PlaylistParser {
    /// Handles a tag common to both kinds; returns false when the tag is unknown.
    mutating func handleCommonTag(_ tag: TagLine) throws(PlaylistParseError) -> Bool {
        switch tag.name {
        case "EXTM3U":
            warn(tag.line, "duplicate-tag", "#EXTM3U appears more than once")
        case "EXT-X-VERSION":
            singleton(tag)
            if let v = NumberText.decimalInteger(trimmed(tag.text)), v >= 1 {
                version = v
            } else {
                warn(tag.line, "bad-value", "EXT-X-VERSION '\(tag.text.prefix(40))' is not a positive integer; ignored")
            }
        case "EXT-X-INDEPENDENT-SEGMENTS":
            singleton(tag)
            independentSegments = true
        case "EXT-X-START":
            singleton(tag)
            let list = try attributes(tag)
            guard let offset = try float(list, "TIME-OFFSET", tag) else {
                throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-START",
                                                attribute: "TIME-OFFSET")
            }
            start = StartPoint(timeOffset: offset, precise: yesNo(list, "PRECISE", tag))
        case "EXT-X-DEFINE": try define(tag)
        case "EXT-X-DATERANGE": try dateRange(tag)
        default:
            return false
        }
        return true
    }

    mutating func define(_ tag: TagLine) throws(PlaylistParseError) {
        need(8, tag.line, "EXT-X-DEFINE")
        let list = try attributes(tag)
        // RFC 8216bis 4.4.2.3: exactly one of NAME, IMPORT and QUERYPARAM (NAME won silently).
        let kinds = ["NAME", "IMPORT", "QUERYPARAM"].filter { list.entry($0) != nil }
        if kinds.count > 1 {
            throw .badAttributeList(line: tag.line, column: tag.valueColumn, tag: "EXT-X-DEFINE",
                                    reason: "it has \(kinds.joined(separator: " and ")); it takes exactly one of NAME, IMPORT and QUERYPARAM")
        }
        // Its quoted-string values take the variables defined before it, as every other tag's do (RFC 8216bis
        // 4.3: `VALUE="?b={$tok}"` after `IMPORT="tok"`).
        let definition: VariableDefinition
        if let name = string(list, "NAME", tag) {
            guard let value = string(list, "VALUE", tag) else {
                throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-DEFINE",
                                                attribute: "VALUE")
            }
            definition = VariableDefinition(name: name, source: .value, value: value)
        } else if let name = string(list, "IMPORT", tag) {
            definition = VariableDefinition(name: name, source: .import,
                                            value: try supplied(name, by: sources.imported, tag, "IMPORT", "no multivariant playlist that led here defines"))
        } else if let name = string(list, "QUERYPARAM", tag) {
            definition = VariableDefinition(name: name, source: .queryParameter,
                                            value: try supplied(name, by: sources.queryParameters, tag, "QUERYPARAM", "the playlist's URL has no query parameter"))
        } else {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: "EXT-X-DEFINE",
                                            attribute: "NAME")
        }
        if defines.contains(where: { $0.name == definition.name }) {
            // RFC 8216bis 4.4.2.3: a parser that meets a name declared twice must fail (the last one won).
            throw .badAttributeList(line: tag.line, column: tag.valueColumn, tag: "EXT-X-DEFINE",
                                    reason: "variable \(definition.name) is defined twice; a name may be declared once")
        }
        if definition.name.isEmpty || !definition.name.utf8.allSatisfy({ Self.isVariableNameByte($0) }) {
            warn(tag.line, "bad-value", "variable name '\(definition.name)' has characters other than A-Z, a-z, 0-9, '-' and '_' (RFC 8216bis 4.4.2.3); no {$...} reference can name it")
        }
        if let value = definition.value {
            variables[definition.name] = value
        } else {
            // The playlist was read on its own (inspect of a file): say what is missing, not that the URL is unknown.
            let source = definition.source == .import ? "IMPORT=\"\(definition.name)\": the playlist was read on its own, with no multivariant playlist that led to it"
                : "QUERYPARAM=\"\(definition.name)\": the playlist was read on its own, with no URL query to take it from"
            warn(tag.line, "undefined-variable", "\(source): variable \(definition.name) has no value")
        }
        defines.append(definition)
    }

    /// Whether a byte may stand in a variable name: A–Z, a–z, 0–9, `-` and `_`.
    static func isVariableNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
    }

    /// The value `source` gives `name`: nil when the source is unknown (warned by the caller), an
    /// error when it is known and lacks the name (RFC 8216bis: the client must fail to parse).
    private func supplied(_ name: String, by source: [String: String]?, _ tag: TagLine, _ attribute: String,
                          _ missing: String) throws(PlaylistParseError) -> String? {
        guard let source else { return nil }
        guard let value = source[name] else {
            throw .undefinedVariable(line: tag.line, column: tag.valueColumn, name: name,
                                     detail: "\(attribute)=\"\(name)\": \(missing) \(name)")
        }
        return value
    }

    mutating func dateRange(_ tag: TagLine) throws(PlaylistParseError) {
        let list = try attributes(tag)
        let id = string(list, "ID", tag) ?? {
            warn(tag.line, "missing-attribute", "EXT-X-DATERANGE lacks ID")
            return ""
        }()
        var range = DateRange(id: id)
        range.classIdentifier = string(list, "CLASS", tag)
        range.startDate = date(list, "START-DATE", tag)
        range.cue = string(list, "CUE", tag)
        range.endDate = date(list, "END-DATE", tag)
        range.durationSeconds = try float(list, "DURATION", tag)
        range.plannedDurationSeconds = try float(list, "PLANNED-DURATION", tag)
        for (name, path) in [("SCTE35-CMD", \DateRange.scte35Cmd), ("SCTE35-OUT", \.scte35Out), ("SCTE35-IN", \.scte35In)] {
            guard let e = list.entry(name) else { continue }
            if HexBytes.decode(e.text) == nil {
                warn(tag.line, "bad-value", "EXT-X-DATERANGE \(name) is not a hexadecimal sequence; kept as written")
            }
            range[keyPath: path] = String(e.text)
        }
        range.endOnNext = yesNo(list, "END-ON-NEXT", tag)
        for e in list.entries where e.name.hasPrefix("X-") {
            let value: AttributeValue = e.quoted ? .quotedString(substitute(e.text, line: tag.line)) : e.value
            range.clientAttributes.append(ClientAttribute(name: String(e.name), value: value))
        }
        if let d = range.durationSeconds, d < 0 { warn(tag.line, "negative-value", "EXT-X-DATERANGE DURATION < 0") }
        if let s = range.startDate, let e = range.endDate, e < s {
            warn(tag.line, "odd-value", "EXT-X-DATERANGE END-DATE is before START-DATE")
        }
        range.segmentIndex = media.segments.count
        media.dateRanges.append(range)
    }

    mutating func date(_ list: AttributeList, _ name: String, _ tag: TagLine) -> ProgramDateTime? {
        guard let text = string(list, name, tag) else { return nil }
        guard let d = ProgramDateTime(iso8601: Substring(text)) else {
            warn(tag.line, "bad-value", "\(name) '\(text.prefix(40))' is not a date; ignored")
            return nil
        }
        return d
    }
}
