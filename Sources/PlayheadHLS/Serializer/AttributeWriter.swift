/// Builds an attribute list (`NAME=VALUE,…`) for the serializer; absent values are skipped.
struct AttributeWriter {
    private(set) var parts: [String] = []

    /// The attribute list text.
    var text: String { parts.joined(separator: ",") }

    mutating func quoted(_ name: String, _ value: String?) {
        if let value { parts.append("\(name)=\"\(value)\"") }
    }

    mutating func enumerated(_ name: String, _ value: String?) {
        if let value { parts.append("\(name)=\(value)") }
    }

    mutating func integer(_ name: String, _ value: Int?) {
        if let value { parts.append("\(name)=\(value)") }
    }

    mutating func float(_ name: String, _ value: Double?) {
        if let value { parts.append("\(name)=\(NumberText.format(value))") }
    }

    mutating func yes(_ name: String, _ value: Bool) {
        if value { parts.append("\(name)=YES") }
    }

    mutating func hex(_ name: String, _ value: [UInt8]?) {
        if let value { parts.append("\(name)=\(HexBytes.encode(value))") }
    }

    mutating func raw(_ name: String, _ value: AttributeValue) {
        parts.append("\(name)=\(value.playlistText)")
    }
}

/// Lines of a playlist being written.
struct PlaylistWriter {
    private(set) var lines: [String] = ["#EXTM3U"]

    /// The playlist text, each line ending in a newline.
    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func tag(_ name: String, _ value: String? = nil) {
        lines.append(value.map { "#\(name):\($0)" } ?? "#\(name)")
    }

    mutating func tag(_ name: String, _ attributes: AttributeWriter) {
        tag(name, attributes.text)
    }

    mutating func uri(_ uri: String) { lines.append(uri) }

    mutating func unknown(_ tags: [UnknownTag]) {
        for t in tags { tag(t.name, t.value) }
    }

    mutating func common(version: Int?, independentSegments: Bool, start: StartPoint?, defines: [VariableDefinition]) {
        if let version { tag("EXT-X-VERSION", String(version)) }
        if independentSegments { tag("EXT-X-INDEPENDENT-SEGMENTS") }
        if let start {
            var a = AttributeWriter()
            a.float("TIME-OFFSET", start.timeOffset)
            a.yes("PRECISE", start.precise)
            tag("EXT-X-START", a)
        }
        for d in defines {
            var a = AttributeWriter()
            switch d.source {
            case .value:
                a.quoted("NAME", d.name)
                a.quoted("VALUE", d.value ?? "")
            case .import: a.quoted("IMPORT", d.name)
            case .queryParameter: a.quoted("QUERYPARAM", d.name)
            }
            tag("EXT-X-DEFINE", a)
        }
    }

    mutating func key(_ name: String, _ key: SegmentKey) {
        var a = AttributeWriter()
        a.enumerated("METHOD", key.method.text)
        a.quoted("URI", key.uri)
        a.hex("IV", key.iv)
        a.quoted("KEYFORMAT", key.keyFormat)
        a.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
        tag(name, a)
    }

    mutating func dateRange(_ d: DateRange) {
        tag("EXT-X-DATERANGE", d.attributeListText)
    }
}

extension DateRange {
    /// The tag's attribute list as the serializer writes it (`ID="…",START-DATE="…",…`).
    public var attributeListText: String {
        var a = AttributeWriter()
        a.quoted("ID", id)
        a.quoted("CLASS", classIdentifier)
        a.quoted("START-DATE", startDate?.iso8601)
        a.quoted("CUE", cue)
        a.quoted("END-DATE", endDate?.iso8601)
        a.float("DURATION", durationSeconds)
        a.float("PLANNED-DURATION", plannedDurationSeconds)
        for c in clientAttributes { a.raw(c.name, c.value) }
        a.enumerated("SCTE35-CMD", scte35Cmd)
        a.enumerated("SCTE35-OUT", scte35Out)
        a.enumerated("SCTE35-IN", scte35In)
        a.yes("END-ON-NEXT", endOnNext)
        return a.text
    }
}
