import Foundation
import PlayheadHLS
import Testing

@Suite struct JSONTests {
    /// The JSON object of a section.
    private func object(_ section: SpliceInfoSection) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(section.jsonBytes())) as? [String: Any])
    }

    @Test func spliceInsertKeysAndTicks() throws {
        let section = try SCTE35.decode("/DAlAAAAAAAAAP/wFAUAAAPof+//SVqZrP4Ae5igAAEBAQAAQcfnVA==")
        let json = try object(section)
        #expect(json["tableId"] as? Int == 252)
        #expect(json["spliceCommandType"] as? Int == 5)
        #expect(json["spliceCommandTypeName"] as? String == "Splice Insert")
        #expect(json["crc32"] as? String == "0x41c7e754")
        #expect(json["crcValid"] as? Bool == true)
        #expect(json["ptsAdjustment"] as? Int == 0)
        let command = try #require(json["spliceCommand"] as? [String: Any])
        #expect(command["spliceEventId"] as? Int == 1000)
        #expect(command["outOfNetworkIndicator"] as? Bool == true)
        let time = try #require(command["spliceTime"] as? [String: Any])
        #expect(time["timeSpecifiedFlag"] as? Bool == true)
        #expect(time["ptsTime"] as? Int == 5_525_641_644)
        #expect(abs((time["ptsTimeSeconds"] as? Double ?? 0) - 61_396.018267) < 1e-9)
        let breakDuration = try #require(command["breakDuration"] as? [String: Any])
        #expect(breakDuration["duration"] as? Int == 8_100_000)
        #expect(breakDuration["autoReturn"] as? Bool == true)
        #expect(json["breakDurationSeconds"] as? Double == 90)
        #expect(json["outOfNetworkStart"] as? Bool == true)
    }

    @Test func segmentationKeys() throws {
        let eidr: [UInt8] = [0x14, 0x78, 0x77, 0x91, 0x85, 0x34, 0x2C, 0x23, 0x90, 0x30, 0x86, 0x10]
        let body = segmentationBody(durationTicks: 90_000, upidType: 0x0D, upid: [0x0A, 12] + eidr, typeId: 0x30)
        let bytes = buildSection(commandType: 0x06, command: spliceTimeBytes(1_000),
                                 descriptors: descriptorBytes(tag: 0x02, body: body))
        let json = try object(try decoded(bytes))
        let descriptor = try #require((json["descriptors"] as? [[String: Any]])?.first)
        #expect(descriptor["tag"] as? Int == 2)
        #expect(descriptor["identifier"] as? String == "CUEI")
        #expect(descriptor["name"] as? String == "Segmentation Descriptor")
        #expect(descriptor["segmentationEventId"] as? Int == 0x1234_5678)
        #expect(descriptor["segmentationDuration"] as? Int == 90_000)
        #expect(descriptor["segmentationDurationSeconds"] as? Double == 1)
        #expect(descriptor["segmentationUpidType"] as? Int == 13)
        #expect(descriptor["segmentationUpidTypeName"] as? String == "MID")
        #expect(descriptor["segmentationUpid"] as? String == "EIDR=10.5240/7791-8534-2C23-9030-8610-5")
        #expect(descriptor["segmentationUpidLength"] as? Int == 14)
        #expect((descriptor["segmentationUpids"] as? [[String: Any]])?.count == 1)
        #expect(descriptor["segmentationTypeId"] as? Int == 0x30)
        #expect(descriptor["segmentationTypeName"] as? String == "Provider Advertisement Start")
        #expect(descriptor["segmentNum"] as? Int == 1 && descriptor["segmentsExpected"] as? Int == 1)
    }

    @Test func everyCommandRoundTripsThroughJSON() throws {
        var insert = BitWriter()
        insert.put(3, 32); insert.put(0x7F, 8); insert.put(0b1101_1111, 8)
        insert.put(0xFE, 8); insert.put(0, 32); insert.put(1, 16); insert.put(0, 16)
        let sections = [
            buildSection(commandType: 0x00, command: [], descriptors: descriptorBytes(tag: 0x01, body: [5, 0x3F] + Array("1".utf8))),
            buildSection(commandType: 0x05, command: try SCTE35.bytes(from: "0x0000013f7fefffffc3f680fe00a4cb80013f0000")),
            buildSection(commandType: 0x06, command: spliceTimeBytes(nil),
                         descriptors: descriptorBytes(tag: 0x02, body: segmentationBody(upidType: 0x0B, upid: [0, 1, 2, 3, 65],
                                                                                        typeId: 0x34, subSegments: (1, 2), restricted: true))),
            buildSection(commandType: 0x07, command: [], descriptors: descriptorBytes(tag: 0x03, body: [UInt8](repeating: 1, count: 12))),
            buildSection(commandType: 0xFF, command: [0, 0, 0, 1, 9], descriptors: descriptorBytes(tag: 0x09, identifier: [1, 2, 3, 4], body: [])),
            buildSection(commandType: 0x33, command: [1]),
            buildSection(commandType: 0x06, command: spliceTimeBytes(5), encrypted: true),
            buildSection(commandType: 0x04, command: [1, 0, 0, 0, 1, 0xFF]),
        ]
        for bytes in sections {
            let section = try decoded(bytes)
            let again = try JSONDecoder().decode(SpliceInfoSection.self, from: Data(section.jsonBytes()))
            #expect(again == section, "\(section.spliceCommandTypeName)")
        }
    }

    @Test func errorJSONAndTextDump() throws {
        do {
            _ = try SCTE35.decode("fd00")
        } catch {
            let json = try #require(JSONSerialization.jsonObject(with: Data(error.jsonBytes())) as? [String: [String: Any]])
            #expect(json["error"]?["offset"] as? Int == 0)
            #expect(json["error"]?["field"] as? String == "table_id")
        }
        let dump = try SCTE35.decode("/DAlAAAAAAAAAP/wFAUAAAPof+//SVqZrP4Ae5igAAEBAQAAQcfnVA==").textDump
        #expect(dump.contains("splice_command_type: 0x05 Splice Insert"))
        #expect(dump.contains("break_duration: 8100000 (90.000000s) auto_return: true"))
        #expect(dump.contains("(valid)"))
    }
}
