// Corpus comparison against mozilla/vtt.js's object model (`cases.jsonl` → `.vtt` + expected `.json`).
//
// Field mapping (theirs → ours):
//   cues[].id, startTime, endTime, text      → WebVTTCue.id, startTime, endTime, text (raw cue text)
//   cues[].vertical ("" | "rl" | "lr")       → WebVTTCue.vertical
//   cues[].line ("auto" | number)            → WebVTTCue.line (.auto | .lineNumber | .percentage)
//   cues[].snapToLines                       → WebVTTCue.snapToLines (false only for a percentage line)
//   cues[].lineAlign ("start"|"middle"|"end") → WebVTTCue.lineAlign (spec "center" is their "middle")
//   cues[].position ("auto" | number)        → WebVTTCue.position (nil is auto)
//   cues[].positionAlign                     → WebVTTCue.computedPositionAlign: vtt.js stores the
//                                              alignment derived from `align` when none is given;
//                                              line-left → "start", center → "middle", line-right → "end"
//   cues[].size                              → WebVTTCue.size
//   cues[].align                             → WebVTTCue.align (spec "center" is their "middle")
//   cues[].region ("" | region object)       → WebVTTCue.region, looked up in the regions (last with that id)
//   cues[].pauseOnExit                       → always false (WebVTT has no syntax for it)
//   regions[] (objects without id)           → WebVTTDocument.regions, id left out
//   a file vtt.js rejects gives no cues and no regions; ours throws WebVTTError, compared as empty.
import Foundation
import PlayheadHLS
import Testing

/// The old draft declared regions on `Region: id=… width=…` header lines; the current spec
/// has `REGION` blocks and ignores such header lines, so these files have no regions for us.
private let oldRegionHeader = "old-draft `Region:` header line: the current spec has REGION blocks and ignores it"

/// Cases where vtt.js (written against an older WebVTT draft) and the current W3C spec disagree;
/// our parser follows the spec. The test fails if any of these starts agreeing, so the table stays true.
let vttjsKnownDifferences: [String: String] = [
    "cue-settings/line/bad-line-align":
        "line:42%,left: the spec drops the whole setting for an alignment other than start/center/end; vtt.js keeps 42%",
    "cue-settings/position/bad-position-align":
        "position:42%,left: the spec drops the whole setting for an alignment other than line-left/center/line-right; vtt.js keeps 42%",
    "cue-settings/position/position-end-align":
        "position:42%,end: `end` is the old draft's position alignment (now line-right), so the spec drops the setting",
    "cue-settings/position/position-start-align":
        "position:42%,start: `start` is the old draft's position alignment (now line-left), so the spec drops the setting",
    "cue-settings/region/region-arrows": oldRegionHeader,
    "cue-settings/region/valid": oldRegionHeader,
    "cue-times/min-top-digits":
        "000:00.000: three leading digits are hours, so the spec needs hh:mm:ss.ttt and drops the cue; vtt.js reads minutes",
    "cue-times/minimum-spots-over-sixty":
        "120:00.000: three leading digits are hours, so the spec needs hh:mm:ss.ttt and drops the cue; vtt.js reads 120 minutes",
    "file-layout/header-no-new-line":
        "a timing line right after WEBVTT ends the header and starts a cue (spec); the old draft needed a blank line",
    "integration/id":
        "a `-->` identifier line fails as a timing line and the spec restarts the block at the next line, keeping the 00:04 cue vtt.js drops",
    "integration/regions": oldRegionHeader,
    "regions/id/arrows": oldRegionHeader,
    "regions/id/correct": oldRegionHeader,
    "regions/lines/correct": oldRegionHeader,
    "regions/lines/decimal-value": oldRegionHeader,
    "regions/lines/incorrect-delimiter": oldRegionHeader,
    "regions/lines/letter-in-value": oldRegionHeader,
    "regions/lines/space-after-delimiter": oldRegionHeader,
    "regions/lines/space-before-delimiter": oldRegionHeader,
    "regions/no-line-break": oldRegionHeader,
    "regions/no-space-after-delimiter": oldRegionHeader,
    "regions/regionanchor/correct": oldRegionHeader,
    "regions/regionanchor/incorrect-delimiter": oldRegionHeader,
    "regions/regionanchor/letter-in-value": oldRegionHeader,
    "regions/regionanchor/negative-percent": oldRegionHeader,
    "regions/regionanchor/no-comma": oldRegionHeader,
    "regions/regionanchor/no-percent": oldRegionHeader,
    "regions/regionanchor/percent-at-front": oldRegionHeader,
    "regions/regionanchor/percent-over": oldRegionHeader,
    "regions/regionanchor/space-after-delimiter": oldRegionHeader,
    "regions/regionanchor/space-before-delimiter": oldRegionHeader,
    "regions/regionanchor/two-periods": oldRegionHeader,
    "regions/scroll/bogus-value": oldRegionHeader,
    "regions/scroll/correct": oldRegionHeader,
    "regions/scroll/incorrect-delimiter": oldRegionHeader,
    "regions/scroll/space-after-delimiter": oldRegionHeader,
    "regions/scroll/space-before-delimiter": oldRegionHeader,
    "regions/viewportanchor/correct": oldRegionHeader,
    "regions/viewportanchor/incorrect-delimiter": oldRegionHeader,
    "regions/viewportanchor/letter-in-value": oldRegionHeader,
    "regions/viewportanchor/negative-percent": oldRegionHeader,
    "regions/viewportanchor/no-comma": oldRegionHeader,
    "regions/viewportanchor/no-percent": oldRegionHeader,
    "regions/viewportanchor/percent-at-front": oldRegionHeader,
    "regions/viewportanchor/percent-over": oldRegionHeader,
    "regions/viewportanchor/space-after-delimiter": oldRegionHeader,
    "regions/viewportanchor/space-before-delimiter": oldRegionHeader,
    "regions/viewportanchor/two-periods": oldRegionHeader,
    "regions/width/correct": oldRegionHeader,
    "regions/width/incorrect-delimiter": oldRegionHeader,
    "regions/width/letter-in-value": oldRegionHeader,
    "regions/width/negative-percent": oldRegionHeader,
    "regions/width/no-percentage": oldRegionHeader,
    "regions/width/percent-over": oldRegionHeader,
    "regions/width/percentage-at-front": oldRegionHeader,
    "regions/width/space-after-delimiter": oldRegionHeader,
    "regions/width/space-before-delimiter": oldRegionHeader,
    "regions/width/two-periods": oldRegionHeader,
]

@Suite struct WebVTTCorpusTests {
    static let folder = "webvtt/mozilla-vtt.js"

    struct Case: Decodable {
        let vtt: String
        let expected_json: String
    }

    /// vtt.js's "auto" or a number.
    enum AutoOrNumber: Decodable, Equatable, CustomStringConvertible {
        case auto
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                let text = try container.decode(String.self)
                guard text == "auto" else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected auto, got \(text)")
                }
                self = .auto
            }
        }

        var description: String {
            switch self {
            case .auto: "auto"
            case .number(let n): "\(n)"
            }
        }
    }

    struct Region: Decodable, Equatable {
        var lines: Double
        var regionAnchorX: Double
        var regionAnchorY: Double
        var scroll: String
        var viewportAnchorX: Double
        var viewportAnchorY: Double
        var width: Double
    }

    /// vtt.js's cue region: "" or a region object.
    enum RegionRef: Decodable, Equatable {
        case none
        case region(Region)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), text.isEmpty {
                self = .none
            } else {
                self = .region(try container.decode(Region.self))
            }
        }
    }

    struct Cue: Decodable, Equatable {
        var align: String
        var endTime: Double
        var id: String
        var line: AutoOrNumber
        var lineAlign: String
        var pauseOnExit: Bool
        var position: AutoOrNumber
        var positionAlign: String
        var region: RegionRef
        var size: Double
        var snapToLines: Bool
        var startTime: Double
        var text: String
        var vertical: String
    }

    struct File: Decodable, Equatable {
        var cues: [Cue]
        var regions: [Region]
    }

    static func theirs(_ region: WebVTTRegion) -> Region {
        Region(
            lines: Double(region.lines), regionAnchorX: region.regionAnchorX, regionAnchorY: region.regionAnchorY,
            scroll: region.scroll.rawValue, viewportAnchorX: region.viewportAnchorX,
            viewportAnchorY: region.viewportAnchorY, width: region.width)
    }

    /// Our document in vtt.js's object model (see the mapping at the top of the file).
    static func theirs(_ document: WebVTTDocument) -> File {
        let cues = document.cues.map { cue -> Cue in
            let line: AutoOrNumber
            switch cue.line {
            case .auto: line = .auto
            case .lineNumber(let n), .percentage(let n): line = .number(n)
            }
            let positionAlign: String
            switch cue.computedPositionAlign {
            case .lineLeft: positionAlign = "start"
            case .lineRight: positionAlign = "end"
            case .center, .auto: positionAlign = "middle"
            }
            let region = document.region(of: cue)
            return Cue(
                align: cue.align == .center ? "middle" : cue.align.rawValue,
                endTime: cue.endTime, id: cue.id, line: line,
                lineAlign: cue.lineAlign == .center ? "middle" : cue.lineAlign.rawValue,
                pauseOnExit: false, position: cue.position.map { .number($0) } ?? .auto,
                positionAlign: positionAlign, region: region.map { .region(theirs($0)) } ?? .none,
                size: cue.size, snapToLines: cue.snapToLines, startTime: cue.startTime, text: cue.text,
                vertical: cue.vertical)
        }
        return File(cues: cues, regions: document.regions.map(theirs))
    }

    /// One line per field that differs, for the failure message.
    static func describeDifference(_ ours: File, _ expected: File) -> String {
        var lines: [String] = []
        if ours.cues.count != expected.cues.count {
            lines.append("cues.count ours \(ours.cues.count) ≠ theirs \(expected.cues.count)")
        }
        if ours.regions != expected.regions {
            lines.append("regions ours \(ours.regions) ≠ theirs \(expected.regions)")
        }
        for (index, (a, b)) in zip(ours.cues, expected.cues).enumerated() where a != b {
            for (label, x, y) in Mirror(reflecting: a).children.map(\.label).enumerated().compactMap({ offset, label -> (String, String, String)? in
                let x = String(describing: Array(Mirror(reflecting: a).children)[offset].value)
                let y = String(describing: Array(Mirror(reflecting: b).children)[offset].value)
                return x == y ? nil : (label ?? "?", x, y)
            }) {
                lines.append("cues[\(index)].\(label) ours \(x.debugDescription) ≠ theirs \(y.debugDescription)")
            }
        }
        return lines.joined(separator: "; ")
    }

    @Test(.enabled(if: Corpus.root != nil, Corpus.skipComment))
    func everyCaseAgreesOrIsAKnownDifference() throws {
        let dir = try #require(Corpus.root).appendingPathComponent(Self.folder)
        let casesURL = dir.appendingPathComponent("cases.jsonl")
        try #require(FileManager.default.fileExists(atPath: casesURL.path), "no \(Self.folder)/cases.jsonl")
        let lines = try String(contentsOf: casesURL, encoding: .utf8).split(separator: "\n")
        var agreeing = 0
        var problems: [String] = []
        var differing: Set<String> = []
        for line in lines {
            let testCase = try JSONDecoder().decode(Case.self, from: Data(line.utf8))
            let name = String(testCase.vtt.dropLast(".vtt".count))
            let expected = try JSONDecoder().decode(
                File.self, from: Data(contentsOf: dir.appendingPathComponent(testCase.expected_json)))
            let ours: File
            do {
                ours = Self.theirs(try WebVTTParser.parse(Corpus.bytes(dir.appendingPathComponent(testCase.vtt))))
            } catch {
                ours = File(cues: [], regions: [])
            }
            if ours == expected {
                agreeing += 1
                if vttjsKnownDifferences[name] != nil {
                    problems.append("\(name): listed as a known difference but now agrees; remove it from the table")
                }
            } else {
                differing.insert(name)
                if vttjsKnownDifferences[name] == nil {
                    problems.append("\(name): \(Self.describeDifference(ours, expected))")
                }
            }
        }
        for name in Set(vttjsKnownDifferences.keys).subtracting(differing) where !problems.contains(where: { $0.hasPrefix(name + ":") }) {
            problems.append("\(name): listed as a known difference but not in cases.jsonl")
        }
        print("vtt.js corpus: \(agreeing) of \(lines.count) cases agree; \(differing.count) known differences")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(lines.count == 264)
        #expect(agreeing + vttjsKnownDifferences.count == lines.count)
    }
}
