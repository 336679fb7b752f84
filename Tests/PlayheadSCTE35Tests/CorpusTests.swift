// Field mapping, corpus (`expected.jsonl`, snake_case, from threefive 3.1.5 or the independent
// decoder) → Playhead:
//   splice_command_type            → SpliceInfoSection.spliceCommandType
//   pts_adjustment_ticks           → ptsAdjustmentTicks;  crc_ok → crcValid
//   splice_event_id                → SpliceInsert.spliceEventId
//   out_of_network_indicator       → SpliceInsert.outOfNetworkIndicator
//   splice_immediate_flag          → SpliceInsert.spliceImmediateFlag
//   time_specified_flag, pts_time_ticks → (SpliceInsert.spliceTime | TimeSignal.spliceTime).ptsTimeTicks
//   break_auto_return, break_duration_ticks → SpliceInsert.breakDuration.{autoReturn, durationTicks}
//   descriptors[i].tag             → descriptors[i].tag (same count, same order)
//   segmentation descriptors (those with segmentation_type_id):
//     segmentation_event_id        → SegmentationDescriptor.segmentationEventId
//     segmentation_type_id         → segmentationTypeId
//     segmentation_upid_type       → segmentationUpid.type
//     segmentation_upid_hex        → hex of segmentationUpid.bytes (the UPID, byte for byte)
//     segmentation_upid (text UPIDs 0x03 Ad-ID, 0x07 TID, 0x09 ADI, 0x0E ADS, 0x0F URI, when a
//       printable string)           → segmentationUpid.stringForm
import Foundation
import PlayheadHLS
import Testing

/// The shared SCTE-35 corpus, found from this file: repo root → ../shared/corpora/scte35.
enum Corpus {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpora/scte35")

    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected.jsonl").path)
    }

    /// Each expected.jsonl row as a dictionary.
    static func rows() throws -> [[String: Any]] {
        let text = try String(contentsOf: folder.appendingPathComponent("expected.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The cues of cues.txt (first tab-separated column of non-comment lines).
    static func cues() throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent("cues.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: "\t", maxSplits: 1)[0]) }
    }
}

@Suite(.enabled(if: Corpus.available, "SCTE-35 corpus absent: expected ../shared/corpora/scte35 beside the repository"))
struct CorpusTests {
    @Test func cuesAndExpectationsLineUp() throws {
        let cues = try Corpus.cues(), rows = try Corpus.rows()
        #expect(cues.count == 116)
        #expect(rows.count == cues.count)
        for (cue, row) in zip(cues, rows) { #expect(row["input"] as? String == cue) }
    }

    @Test func agreedCuesDecodeToTheExpectedFields() throws {
        var checked = 0, segmentationChecked = 0
        for row in try Corpus.rows() where row["status"] as? String == "agree" {
            let cue = row["input"] as! String
            let expected = row["decoded"] as! [String: Any]
            let section = try SCTE35.decode(cue)
            segmentationChecked += compare(section, expected, cue: cue, crcOK: row["crc_ok"] as? Bool)
            checked += 1
        }
        #expect(checked == 106)
        #expect(segmentationChecked == 54)
    }

    /// The legacy-length and empty-UPID cues, where the corpus's second decoder is the reference.
    @Test func disagreeingCuesMatchTheIndependentDecoder() throws {
        var checked = 0
        for row in try Corpus.rows() where row["status"] as? String == "disagree" {
            let cue = row["input"] as! String
            let independent = row["independent"] as! [String: Any]
            let section = try SCTE35.decode(cue)
            let descriptors = independent["descriptors"] as! [[String: Any]]
            if let problem = descriptors.first?["malformed"] as? String {
                // A segmentation descriptor whose UPID overruns it is kept raw, with the reason.
                guard case .raw(let raw)? = section.descriptors.first else {
                    Issue.record("\(cue): expected a raw descriptor (\(problem))"); continue
                }
                #expect(raw.problem?.contains("segmentation_upid") == true, "\(cue)")
            } else {
                _ = compare(section, independent, cue: cue, crcOK: row["crc_ok"] as? Bool)
            }
            checked += 1
        }
        #expect(checked == 8)
    }

    @Test func theOtherCuesDecodeOrFailWithAnOffset() throws {
        var refused = 0, decodedCount = 0
        for row in try Corpus.rows() where !["agree", "disagree"].contains(row["status"] as? String) {
            let cue = row["input"] as! String
            do {
                let section = try SCTE35.decode(cue)
                let independent = row["independent"] as! [String: Any]
                _ = compare(section, independent, cue: cue, crcOK: row["crc_ok"] as? Bool)
                decodedCount += 1
            } catch {
                #expect(error.offset != nil && error.field != nil, "\(cue): \(error)")
                #expect(error.field == "component_count", "\(cue): \(error)")
                refused += 1
            }
        }
        #expect(refused == 1)
        #expect(decodedCount == 1)
    }

    @Test func badCRCsAreReportedNotFatal() throws {
        let bad = try Corpus.rows().filter { $0["crc_ok"] as? Bool == false }
        #expect(bad.count == 6)
        for row in bad {
            let section = try SCTE35.decode(row["input"] as! String)
            #expect(!section.crcValid)
        }
        // And one made by flipping a bit of a good cue's payload.
        var bytes = try SCTE35.bytes(from: "/DAlAAAAAAAAAP/wFAUAAAPof+//SVqZrP4Ae5igAAEBAQAAQcfnVA==")
        #expect(try SCTE35.decode(bytes: bytes).crcValid)
        bytes[20] ^= 0x01
        #expect(try SCTE35.decode(bytes: bytes).crcValid == false)
    }

    /// Compares the mapped fields; returns how many segmentation descriptors were compared.
    private func compare(_ section: SpliceInfoSection, _ expected: [String: Any], cue: String, crcOK: Bool?) -> Int {
        let context = Comment(rawValue: cue)
        #expect(Int(section.spliceCommandType ?? 0) == expected["splice_command_type"] as? Int, context)
        #expect(Int(section.ptsAdjustmentTicks) == expected["pts_adjustment_ticks"] as? Int, context)
        if let crcOK { #expect(section.crcValid == crcOK, context) }
        var spliceTime: SpliceTime?
        switch section.spliceCommand {
        case .spliceInsert(let insert):
            #expect(Int(insert.spliceEventId) == expected["splice_event_id"] as? Int, context)
            #expect(insert.outOfNetworkIndicator == expected["out_of_network_indicator"] as? Bool, context)
            #expect(insert.spliceImmediateFlag == expected["splice_immediate_flag"] as? Bool, context)
            #expect((insert.breakDuration?.durationTicks).map(Int.init) == expected["break_duration_ticks"] as? Int, context)
            #expect(insert.breakDuration?.autoReturn == expected["break_auto_return"] as? Bool, context)
            spliceTime = insert.spliceTime
        case .timeSignal(let signal): spliceTime = signal.spliceTime
        default: #expect(expected["splice_event_id"] == nil, context)
        }
        #expect((spliceTime?.ptsTimeTicks).map(Int.init) == expected["pts_time_ticks"] as? Int, context)
        if let flag = expected["time_specified_flag"] as? Bool { #expect(spliceTime?.timeSpecifiedFlag == flag, context) }
        let descriptors = expected["descriptors"] as? [[String: Any]] ?? []
        #expect(section.descriptors.count == descriptors.count, context)
        var segmentation = 0
        for (ours, theirs) in zip(section.descriptors, descriptors) {
            #expect(Int(ours.tag) == theirs["tag"] as? Int, context)
            guard let typeId = theirs["segmentation_type_id"] as? Int else { continue }
            guard case .segmentation(let d) = ours else { Issue.record("\(cue): not segmentation"); continue }
            #expect(Int(d.segmentationEventId) == theirs["segmentation_event_id"] as? Int, context)
            #expect(d.segmentationTypeId.map(Int.init) == typeId, context)
            #expect(d.segmentationUpid.map { Int($0.type) } == theirs["segmentation_upid_type"] as? Int, context)
            #expect(d.segmentationUpid.map { hex($0.bytes) } == theirs["segmentation_upid_hex"] as? String, context)
            if let text = theirs["segmentation_upid"] as? String, [3, 7, 9, 14, 15].contains(theirs["segmentation_upid_type"] as? Int),
               text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
                #expect(d.segmentationUpid?.stringForm == text, context)
            }
            segmentation += 1
        }
        return segmentation
    }
}

/// Lower-case hex without prefix.
func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
