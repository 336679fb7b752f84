import PlayheadHLS

/// The default opportunity detector: the PSDK's default ad cues (`#EXT-X-CUEPOINT`, `#EXT-X-AD`,
/// `#EXT-X-CUE`, `#EXT-X-CUE-OUT` with DURATION and ID, `#EXT-X-CUE-IN`, `#EXT-X-CUE-OUT-CONT`),
/// SCTE-35 carried as `#EXT-OATCLS-SCTE35` or in `#EXT-X-DATERANGE` (SCTE35-OUT / SCTE35-IN /
/// SCTE35-CMD), and extra tags configured globally or per item.
public struct AdCueDetector: OpportunityDetector {
    /// The PSDK's default ad tags.
    public static let defaultTags = ["#EXT-X-CUEPOINT", "#EXT-X-AD", "#EXT-X-CUE", "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN",
                                     "#EXT-X-CUE-OUT-CONT", "#EXT-OATCLS-SCTE35"]
    /// The tags this detector reads (defaults plus extras).
    public let tags: Set<String>

    /// A detector of the default tags only.
    public static let standard = AdCueDetector(defaults: ())

    private init(defaults: Void) { tags = Set(Self.defaultTags) }

    /// Creates a detector with the default tags and `extraTags` (each must start with `#`; empty names are refused).
    public init(extraTags: [String] = []) throws(AdTagError) {
        for tag in extraTags {
            if tag.isEmpty || tag == "#" { throw .empty }
            if !tag.hasPrefix("#") { throw .missingHash(tag) }
        }
        tags = Set(Self.defaultTags + extraTags)
    }

    /// Every cue in tag order, then the date ranges.
    public func detect(segments: [TrackedSegment], dateRanges: [DateRange]) -> [PlacementOpportunity] {
        var found: [PlacementOpportunity] = []
        for tracked in segments {
            for tag in tracked.segment.tags where tags.contains("#" + tag.name) {
                found.append(opportunity(tag, at: tracked))
            }
        }
        for range in dateRanges where range.scte35Out != nil || range.scte35In != nil || range.scte35Cmd != nil {
            guard let tracked = Self.position(of: range, in: segments) else { continue }
            let kind: PlacementOpportunity.Kind = range.scte35Out != nil ? .breakStart : (range.scte35In != nil ? .breakEnd : .signal)
            var attributes = ["ID": range.id]
            if let duration = range.durationSeconds ?? range.plannedDurationSeconds { attributes["DURATION"] = String(duration) }
            found.append(PlacementOpportunity(
                id: range.id, kind: kind, contentSeconds: tracked.seconds, durationSeconds: range.durationSeconds ?? range.plannedDurationSeconds,
                mediaSequence: tracked.mediaSequence, tag: "#EXT-X-DATERANGE", rawText: "#EXT-X-DATERANGE:ID=\"\(range.id)\"",
                attributes: attributes, scte35: range.scte35Out ?? range.scte35In ?? range.scte35Cmd))
        }
        return found
    }

    /// Where a date range sits: by program date-time when segments carry one (given or extrapolated), else
    /// the segment it preceded.
    static func position(of range: DateRange, in segments: [TrackedSegment]) -> (seconds: Double, mediaSequence: Int)? {
        if let start = range.startDate {
            // A segment without its own program date-time has the last one given plus the EXTINFs since
            // (RFC 8216bis 4.4.4.6), as a date range's START-DATE may fall in any segment.
            var anchor: (microseconds: Int64, seconds: Double)?
            for tracked in segments {
                if let date = tracked.segment.programDateTime { anchor = (date.microsecondsSince1970, tracked.startSeconds) }
                guard let anchor else { continue }
                let offset = Double(start.microsecondsSince1970 - anchor.microseconds) / 1e6 - (tracked.startSeconds - anchor.seconds)
                if offset >= -1e-6, offset < tracked.durationSeconds {
                    return (tracked.startSeconds + offset, tracked.mediaSequence)
                }
            }
        }
        guard segments.indices.contains(range.segmentIndex) else { return nil }
        let tracked = segments[range.segmentIndex]
        return (tracked.startSeconds, tracked.mediaSequence)
    }

    private func opportunity(_ tag: UnknownTag, at tracked: TrackedSegment) -> PlacementOpportunity {
        let name = "#" + tag.name
        let value = tag.value ?? ""
        let attributes = CueAttributes.parse(value)
        let kind: PlacementOpportunity.Kind
        switch name {
        case "#EXT-X-CUE-IN": kind = .breakEnd
        case "#EXT-X-CUE-OUT-CONT": kind = .breakContinue
        case "#EXT-OATCLS-SCTE35": kind = .signal
        default: kind = Self.defaultTags.contains(name) ? .breakStart : .signal
        }
        var duration = CueAttributes.number(attributes, keys: ["DURATION", "Duration"])
        if duration == nil, name == "#EXT-X-CUE-OUT", let bare = CueAttributes.leadingNumber(value) { duration = bare }
        if duration == nil, name == "#EXT-X-CUE-OUT-CONT", let slash = value.split(separator: "/").last.flatMap({ CueAttributes.leadingNumber(String($0)) }), value.contains("/") {
            duration = slash
        }
        let scte35 = name == "#EXT-OATCLS-SCTE35" ? value : (attributes["SCTE35"] ?? attributes["CUE"])
        var id = attributes["ID"] ?? "\(tag.name)@\(tracked.mediaSequence)"
        var finalKind = kind
        // A bare SCTE-35 cue says itself whether it starts a break: decode it.
        if kind == .signal, name == "#EXT-OATCLS-SCTE35", let section = try? SCTE35.decode(value) {
            if section.isOutOfNetworkStart {
                finalKind = .breakStart
                duration = duration ?? section.breakDurationSeconds
            }
            if case let .spliceInsert(insert) = section.spliceCommand { id = "scte35-\(insert.spliceEventId)" }
        }
        return PlacementOpportunity(id: id, kind: finalKind, contentSeconds: tracked.startSeconds, durationSeconds: duration,
                                    mediaSequence: tracked.mediaSequence, tag: name,
                                    rawText: name + (tag.value.map { ":" + $0 } ?? ""), attributes: attributes,
                                    scte35: scte35, line: tag.line)
    }
}

/// A tolerant reader of cue tag values: comma- or space-separated `KEY=VALUE` pairs, quoted values
/// allowed; a bare leading number is kept under the key `""`.
enum CueAttributes {
    static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var key = "", value = "", inValue = false, quoted = false
        func flush() {
            let k = key.trimmingCharacters(in: .whitespaces), v = value.trimmingCharacters(in: .whitespaces)
            if inValue, !k.isEmpty { result[k] = v } else if !inValue, !k.isEmpty, result[""] == nil { result[""] = k }
            key = ""; value = ""; inValue = false
        }
        for character in text {
            if quoted {
                if character == "\"" { quoted = false } else { value.append(character) }
                continue
            }
            switch character {
            case "\"" where inValue: quoted = true
            case "=" where !inValue: inValue = true
            case ",", " ": flush()
            default: if inValue { value.append(character) } else { key.append(character) }
            }
        }
        flush()
        return result
    }

    static func number(_ attributes: [String: String], keys: [String]) -> Double? {
        for key in keys { if let value = attributes[key], let number = Double(value) { return number } }
        return nil
    }

    /// The number a value starts with (`50.000`, `4,SpliceType=…`).
    static func leadingNumber(_ text: String) -> Double? {
        let digits = text.prefix { $0.isNumber || $0 == "." }
        return digits.isEmpty ? nil : Double(digits)
    }
}
