/// Attribute access for the parser: errors mapped to ``PlaylistParseError`` with the line's
/// column, and variable substitution applied to quoted strings.
extension PlaylistParser {
    /// Parses the tag's value as an attribute list.
    func attributes(_ tag: TagLine) throws(PlaylistParseError) -> AttributeList {
        do {
            return try AttributeList.parse(tag.text)
        } catch {
            throw mapped(error, tag)
        }
    }

    /// The parse error for `error`, at its column counted from the line's start (the reason says no second
    /// column: it was counted from the attribute list's start, so one message gave two columns on two bases).
    func mapped(_ error: AttributeListError, _ tag: TagLine) -> PlaylistParseError {
        let column = tag.valueColumn + error.column - 1
        if case let .badValue(expected) = error.kind {
            let text = error.attribute.flatMap { (try? AttributeList.parse(tag.text))?.entry($0)?.text } ?? ""
            if expected.hasPrefix("decimal-integer") || expected.hasSuffix("floating-point") {
                return .badNumber(line: tag.line, column: column, tag: String(tag.name), text: "\(error.attribute ?? "")=\(text)")
            }
        }
        return .badAttributeList(line: tag.line, column: column, tag: String(tag.name), reason: error.problem)
    }

    /// Warns a number written as a quoted string (`BANDWIDTH="500000"`): RFC 8216bis 4.2 types it a
    /// decimal-integer or a floating-point number, which is never quoted. It is still read.
    mutating func warnQuoted(_ list: AttributeList, _ name: String, _ tag: TagLine, _ type: String) {
        guard let e = list.entry(name), e.quoted else { return }
        warn(tag.line, "quoted-number", "#\(tag.name) \(name)=\"\(e.text.prefix(40))\": a \(type) is written without quotes; read as \(e.text.prefix(40))")
    }

    /// A string attribute with variables substituted (quoted or not); a `URI` or `SERVER-URI` that is
    /// not a valid URI is warned.
    mutating func string(_ list: AttributeList, _ name: String, _ tag: TagLine) -> String? {
        guard let e = list.entry(name) else { return nil }
        let value = e.quoted ? substitute(e.text, line: tag.line) : String(e.text)
        if name == "URI" || name == "SERVER-URI" { checkURI(value, line: tag.line) }
        return value
    }

    /// A required string attribute.
    mutating func required(_ list: AttributeList, _ name: String, _ tag: TagLine)
        throws(PlaylistParseError) -> String {
        guard let v = string(list, name, tag) else {
            throw .missingRequiredAttribute(line: tag.line, column: tag.valueColumn, tag: String(tag.name),
                                            attribute: name)
        }
        return v
    }

    /// A decimal-integer attribute; a negative one is a bad number, as decimal-integers are unsigned
    /// (RFC 8216bis 4.2).
    mutating func integer(_ list: AttributeList, _ name: String, _ tag: TagLine) throws(PlaylistParseError) -> Int? {
        let value: Int?
        do { value = try list.decimalInteger(name) } catch { throw mapped(error, tag) }
        if value != nil { warnQuoted(list, name, tag, "decimal-integer") }
        if let value, value < 0, let e = list.entry(name) { throw negative(e, tag) }
        return value
    }

    /// The error for a negative decimal-integer attribute, at its value's column.
    func negative(_ e: AttributeList.Entry, _ tag: TagLine) -> PlaylistParseError {
        .badNumber(line: tag.line, column: tag.valueColumn + e.column - 1, tag: String(tag.name), text: "\(e.name)=\(e.text)")
    }

    mutating func float(_ list: AttributeList, _ name: String, _ tag: TagLine) throws(PlaylistParseError) -> Double? {
        let value: Double?
        do { value = try list.signedFloat(name) } catch { throw mapped(error, tag) }
        if value != nil { warnQuoted(list, name, tag, "floating-point number") }
        return value
    }

    func hex(_ list: AttributeList, _ name: String, _ tag: TagLine) throws(PlaylistParseError) -> [UInt8]? {
        do { return try list.hexadecimal(name) } catch { throw mapped(error, tag) }
    }

    func resolution(_ list: AttributeList, _ name: String, _ tag: TagLine) throws(PlaylistParseError) -> Resolution? {
        do { return try list.resolution(name) } catch { throw mapped(error, tag) }
    }

    /// A YES/NO attribute; other values give an `unknown-enumerated-value` warning and false.
    mutating func yesNo(_ list: AttributeList, _ name: String, _ tag: TagLine) -> Bool {
        guard let e = list.entry(name) else { return false }
        if e.text == "YES" { return true }
        if e.text != "NO" {
            warn(tag.line, "unknown-enumerated-value", "#\(tag.name) \(name)=\(e.text): expected YES or NO")
        }
        return false
    }

    /// Parses `n[@o]` (EXT-X-BYTERANGE and BYTERANGE attributes); numbers past
    /// ``PlaylistLimits/maxInteger`` are out of range.
    func byteRange(_ text: Substring, _ tag: TagLine) throws(PlaylistParseError) -> (length: Int, offset: Int?) {
        let t = trimmed(text)
        func number(_ part: Substring) throws(PlaylistParseError) -> Int {
            if let value = NumberText.decimalInteger(part), value >= 0 {
                guard value <= PlaylistLimits.maxInteger else { throw outOfRange() }
                return value
            }
            if NumberText.isOverflowingInteger(part) { throw outOfRange() }
            throw .badNumber(line: tag.line, column: tag.valueColumn, tag: String(tag.name), text: String(t))
        }
        func outOfRange() -> PlaylistParseError {
            .valueOutOfRange(line: tag.line, column: tag.valueColumn, tag: String(tag.name), text: String(t),
                             limit: "lengths and offsets at most \(PlaylistLimits.maxInteger)")
        }
        // A range of no bytes names no media: refused here, naming the line (the fetch failed later with a
        // transfer error that named none).
        func length(_ part: Substring) throws(PlaylistParseError) -> Int {
            let value = try number(part)
            guard value > 0 else {
                throw .valueOutOfRange(line: tag.line, column: tag.valueColumn, tag: String(tag.name), text: String(t),
                                       limit: "a length of at least 1 byte")
            }
            return value
        }
        guard let at = t.firstIndex(of: "@") else { return (try length(t), nil) }
        let length = try length(t[..<at])
        if t.index(after: at) == t.endIndex { return (length, nil) }  // `n@`: tolerated as no offset
        return (length, try number(t[t.index(after: at)...]))
    }

    /// The offset just past a byte range, checked against ``PlaylistLimits/maxInteger`` (a range
    /// without an offset starts where the previous one ended, so ends grow along the playlist).
    func byteRangeEnd(offset: Int, length: Int, line: Int, tag: String) throws(PlaylistParseError) -> Int {
        let limit = PlaylistLimits.maxInteger
        guard offset <= limit, length <= limit, offset + length <= limit else {
            throw .valueOutOfRange(line: line, column: 1, tag: tag, text: "\(length)@\(offset)",
                                   limit: "a range must end at or before byte \(limit)")
        }
        return offset + length
    }

    /// Replaces `{$name}` references with defined variables. One to a variable declared without a value
    /// (IMPORT or QUERYPARAM of a playlist read on its own) stays and is warned; one to a variable no
    /// EXT-X-DEFINE declared is an error (``PlaylistParseError/undefinedReference(line:column:name:)``),
    /// thrown once the line is parsed.
    mutating func substitute(_ text: Substring, line: Int) -> String {
        guard !variables.isEmpty || !defines.isEmpty, text.contains("{$") else { return String(text) }
        var out = ""
        var rest = text
        while let open = rest.firstRange(of: "{$") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = String(after[..<close])
            if let value = variables[name] {
                out += value
            } else if !defines.contains(where: { $0.name == name }), !name.isEmpty, name.utf8.allSatisfy({ Self.isVariableNameByte($0) }) {
                if undefinedReference == nil {
                    let reference = "{$" + name + "}"
                    let column = currentLine.firstRange(of: reference).map { currentLine.utf8.distance(from: currentLine.startIndex, to: $0.lowerBound) + 1 } ?? 1
                    undefinedReference = .undefinedReference(line: line, column: column, name: name)
                }
                out += rest[open.lowerBound...close]
            } else {
                warn(line, "undefined-variable", "variable {$\(name)} is not defined")
                out += rest[open.lowerBound...close]
            }
            rest = after[after.index(after: close)...]
        }
        out += rest
        return out
    }
}
