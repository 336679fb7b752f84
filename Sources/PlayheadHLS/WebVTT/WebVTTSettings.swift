/// Cue timing lines, cue settings and region settings, by the spec's parsing rules. Each function
/// returns messages for the settings it ignored.
enum WebVTTSettings {
    /// The spec's "collect WebVTT cue timings and settings": `start --> end settings…`.
    static func collectTimingsAndSettings(
        _ line: [Unicode.Scalar], regions: [WebVTTRegion], into cue: inout WebVTTCue
    ) throws(WebVTTSyntaxFailure) -> [String] {
        var position = 0
        func skipWhitespace() {
            while position < line.count, WebVTTParserRun.isASCIIWhitespace(line[position]) { position += 1 }
        }
        skipWhitespace()
        do throws(WebVTTSyntaxFailure) {
            cue.startTime = try WebVTTTimestamps.collect(line, &position)
        } catch {
            throw WebVTTSyntaxFailure(reason: "start time: \(error.reason)")
        }
        skipWhitespace()
        for expected: Unicode.Scalar in ["-", "-", ">"] {
            guard position < line.count, line[position] == expected else {
                throw WebVTTSyntaxFailure(reason: "expected '-->' after the start time")
            }
            position += 1
        }
        skipWhitespace()
        do throws(WebVTTSyntaxFailure) {
            cue.endTime = try WebVTTTimestamps.collect(line, &position)
        } catch {
            throw WebVTTSyntaxFailure(reason: "end time: \(error.reason)")
        }
        return parseCueSettings(String(String.UnicodeScalarView(line[position...])), regions: regions, into: &cue)
    }

    /// The tokens of `text` split on ASCII whitespace.
    static func tokens(_ text: String) -> [Substring] {
        text.split { $0.unicodeScalars.allSatisfy(WebVTTParserRun.isASCIIWhitespace) }
    }

    /// Splits `name:value` at the first colon; nil when there is none or it is first or last.
    static func nameAndValue(_ setting: Substring) -> (name: Substring, value: Substring)? {
        guard let colon = setting.firstIndex(of: ":"), colon != setting.startIndex,
              setting.index(after: colon) != setting.endIndex else { return nil }
        return (setting[..<colon], setting[setting.index(after: colon)...])
    }

    /// Splits at the first comma: the part before, and the part after or nil.
    static func splitAtComma(_ value: Substring) -> (Substring, Substring?) {
        guard let comma = value.firstIndex(of: ",") else { return (value, nil) }
        return (value[..<comma], value[value.index(after: comma)...])
    }

    /// The spec's "parse the WebVTT cue settings".
    static func parseCueSettings(_ text: String, regions: [WebVTTRegion], into cue: inout WebVTTCue) -> [String] {
        var ignored: [String] = []
        for setting in tokens(text) {
            guard let (name, value) = nameAndValue(setting) else {
                ignored.append("cue setting \(String(setting).debugDescription) ignored: expected name:value")
                continue
            }
            if let reason = applyCueSetting(name: name, value: value, regions: regions, to: &cue) {
                ignored.append("cue setting \(String(setting).debugDescription) ignored: \(reason)")
            }
        }
        return ignored
    }

    /// Applies one cue setting; returns why it was ignored, or nil.
    static func applyCueSetting(
        name: Substring, value: Substring, regions: [WebVTTRegion], to cue: inout WebVTTCue
    ) -> String? {
        switch name {
        case "region":
            let found = regions.last { $0.id == value }
            cue.region = found?.id
            return found == nil ? "no region with that id" : nil
        case "vertical":
            guard value == "rl" || value == "lr" else { return "expected rl or lr" }
            cue.vertical = String(value)
            cue.region = nil
            return nil
        case "line":
            let (linepos, linealign) = splitAtComma(value)
            guard linepos.unicodeScalars.contains(where: WebVTTTimestamps.isDigit) else { return "no digit in the line offset" }
            let line: WebVTTLine
            if linepos.hasSuffix("%") {
                guard let percent = percentage(linepos) else { return "bad percentage" }
                line = .percentage(percent)
            } else {
                guard let number = lineNumber(linepos) else { return "bad line number" }
                line = .lineNumber(number)
            }
            let align: WebVTTLineAlign
            if let linealign {
                guard let parsed = WebVTTLineAlign(rawValue: String(linealign)) else { return "expected start, center or end after the comma" }
                align = parsed
            } else {
                align = .start
            }
            cue.line = line
            cue.lineAlign = align
            cue.region = nil
            return nil
        case "position":
            let (colpos, colalign) = splitAtComma(value)
            guard let number = percentage(colpos) else { return "bad percentage" }
            var align = cue.positionAlign
            if let colalign {
                guard let parsed = WebVTTPositionAlign(rawValue: String(colalign)), parsed != .auto else {
                    return "expected line-left, center or line-right after the comma"
                }
                align = parsed
            }
            cue.positionAlign = align
            cue.position = number
            return nil
        case "size":
            guard let number = percentage(value) else { return "bad percentage" }
            cue.size = number
            if number != 100 { cue.region = nil }
            return nil
        case "align":
            guard let align = WebVTTTextAlign(rawValue: String(value)) else { return "expected start, center, end, left or right" }
            cue.align = align
            return nil
        default:
            return "unknown setting"
        }
    }

    /// A line number: digits, an optional leading `-`, at most one `.` between digits.
    static func lineNumber(_ text: Substring) -> Double? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.allSatisfy({ WebVTTTimestamps.isDigit($0) || $0 == "-" || $0 == "." }),
              !scalars.dropFirst().contains("-"),
              scalars.filter({ $0 == "." }).count <= 1 else { return nil }
        if let dot = scalars.firstIndex(of: ".") {
            guard dot > 0, dot < scalars.count - 1,
                  WebVTTTimestamps.isDigit(scalars[dot - 1]), WebVTTTimestamps.isDigit(scalars[dot + 1]) else { return nil }
        }
        return Double(String(text))
    }

    /// The spec's "parse a percentage string": digits, optionally `.` and digits, then `%`, with a
    /// value from 0 to 100.
    static func percentage(_ text: Substring) -> Double? {
        guard text.hasSuffix("%") else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2,
              parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(WebVTTTimestamps.isDigit) }),
              let value = Double(String(number)), value >= 0, value <= 100 else { return nil }
        return value
    }

    /// The spec's "collect WebVTT region settings" from a REGION block's lines.
    static func collectRegionSettings(_ text: String, into region: inout WebVTTRegion) -> [String] {
        var ignored: [String] = []
        for setting in tokens(text) {
            let reason: String?
            if let (name, value) = nameAndValue(setting) {
                reason = applyRegionSetting(name: name, value: value, to: &region)
            } else {
                reason = "expected name:value"
            }
            if let reason { ignored.append("region setting \(String(setting).debugDescription) ignored: \(reason)") }
        }
        return ignored
    }

    /// Applies one region setting; returns why it was ignored, or nil.
    static func applyRegionSetting(name: Substring, value: Substring, to region: inout WebVTTRegion) -> String? {
        switch name {
        case "id":
            region.id = String(value)
        case "width":
            guard let width = percentage(value) else { return "bad percentage" }
            region.width = width
        case "lines":
            guard value.unicodeScalars.allSatisfy(WebVTTTimestamps.isDigit) else { return "expected a whole number" }
            region.lines = Int(value) ?? Int.max
        case "regionanchor", "viewportanchor":
            let (xText, yText) = splitAtComma(value)
            guard let yText, let x = percentage(xText), let y = percentage(yText) else { return "expected <x>%,<y>%" }
            if name == "regionanchor" {
                (region.regionAnchorX, region.regionAnchorY) = (x, y)
            } else {
                (region.viewportAnchorX, region.viewportAnchorY) = (x, y)
            }
        case "scroll":
            guard value == "up" else { return "expected up" }
            region.scroll = .up
        default:
            return "unknown setting"
        }
        return nil
    }
}
