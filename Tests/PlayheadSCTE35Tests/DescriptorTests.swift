import PlayheadHLS
import Testing

@Suite struct DescriptorTests {
    /// A time_signal carrying `descriptors`.
    private func section(_ descriptors: [UInt8]) throws -> SpliceInfoSection {
        try decoded(buildSection(commandType: 0x06, command: spliceTimeBytes(900_000), descriptors: descriptors))
    }

    @Test func availDTMFTimeAndAudio() throws {
        var audio = BitWriter()
        audio.put(2, 4); audio.put(0xF, 4)
        audio.put(0x11, 8); audio.append(Array("eng".utf8)); audio.put(0, 3); audio.put(2, 4); audio.flag(true)
        audio.put(0x12, 8); audio.append(Array("fra".utf8)); audio.put(1, 3); audio.put(5, 4); audio.flag(false)
        let bytes = descriptorBytes(tag: 0x00, body: [0, 0, 0x30, 0x39])
            + descriptorBytes(tag: 0x01, body: [50, 0b0110_0000 | 0x1F] + Array("121".utf8))
            + descriptorBytes(tag: 0x03, body: [0, 0, 0x5F, 0x5E, 0x10, 0x00, 0, 0, 0, 5, 0, 37])
            + descriptorBytes(tag: 0x04, body: audio.bytes)
        let descriptors = try section(bytes).descriptors
        #expect(descriptors == [
            .avail(AvailDescriptor(providerAvailId: 12_345)),
            .dtmf(DTMFDescriptor(prerollTenthsOfSecond: 50, dtmfChars: "121")),
            .time(TimeDescriptor(taiSeconds: 0x5F5E_1000, taiNanoseconds: 5, utcOffsetSeconds: 37)),
            .audio(AudioDescriptor(components: [
                .init(componentTag: 0x11, isoCode: "eng", bitStreamMode: 0, numChannels: 2, fullServiceAudio: true),
                .init(componentTag: 0x12, isoCode: "fra", bitStreamMode: 1, numChannels: 5, fullServiceAudio: false),
            ])),
        ])
        #expect(descriptors.map(\.name) == ["Avail Descriptor", "DTMF Descriptor", "Time Descriptor", "Audio Descriptor"])
    }

    @Test func segmentationWithRestrictionsDurationAndSubSegments() throws {
        let body = segmentationBody(durationTicks: 2_700_000, upidType: 0x03, upid: Array("ABCD0123456H".utf8),
                                    typeId: 0x34, segmentNum: 1, segmentsExpected: 2, subSegments: (1, 3), restricted: true)
        let section = try section(descriptorBytes(tag: 0x02, body: body))
        let d = try #require(section.segmentationDescriptors.first)
        #expect(d.segmentationEventId == 0x1234_5678 && d.segmentationEventIdComplianceIndicator)
        #expect(!d.deliveryNotRestrictedFlag)
        #expect(d.deliveryRestrictions == .init(webDeliveryAllowedFlag: true, noRegionalBlackoutFlag: false,
                                                 archiveAllowedFlag: true, deviceRestrictions: 2))
        #expect(d.segmentationDurationTicks == 2_700_000 && d.segmentationDurationSeconds == 30)
        #expect(d.segmentationUpid == .adID(Array("ABCD0123456H".utf8)))
        #expect(d.segmentationTypeName == "Provider Placement Opportunity Start")
        #expect(d.segmentNum == 1 && d.segmentsExpected == 2 && d.subSegmentNum == 1 && d.subSegmentsExpected == 3)
        #expect(section.isOutOfNetworkStart && section.breakDurationSeconds == 30)
        #expect(section.spliceTimeSeconds == 10)
    }

    @Test func subSegmentFieldsAreOptionalForOldEncoders() throws {
        let body = segmentationBody(upidType: 0x00, upid: [], typeId: 0x36)
        let d = try #require(try section(descriptorBytes(tag: 0x02, body: body)).segmentationDescriptors.first)
        #expect(d.subSegmentNum == nil && d.segmentationUpid == .notUsed([]))
        #expect(d.segmentationTypeName == "Distributor Placement Opportunity Start")
    }

    @Test func cancelledSegmentationCarriesOnlyItsId() throws {
        let body: [UInt8] = [0, 0, 0, 9, 0xFF]
        let d = try #require(try section(descriptorBytes(tag: 0x02, body: body)).segmentationDescriptors.first)
        #expect(d.segmentationEventCancelIndicator && d.segmentationUpid == nil && d.segmentationTypeId == nil)
    }

    @Test func componentSegmentation() throws {
        var w = BitWriter()
        w.put(5, 32); w.flag(false); w.flag(true); w.put(0x3F, 6)
        w.flag(false); w.flag(false); w.flag(true); w.put(0x1F, 5)
        w.put(1, 8); w.put(0x44, 8); w.put(0x7F, 7); w.put(3_000, 33)
        w.put(0, 8); w.put(0, 8); w.put(0x10, 8); w.put(1, 8); w.put(1, 8)
        let d = try #require(try section(descriptorBytes(tag: 0x02, body: w.bytes)).segmentationDescriptors.first)
        #expect(d.components == [.init(componentTag: 0x44, ptsOffsetTicks: 3_000)])
        #expect(d.segmentationTypeName == "Program Start")
    }

    @Test func privateUnknownAndMalformedDescriptorsStayRaw() throws {
        let upidOverrun = [UInt8](segmentationBody(upidType: 0x0F, upid: Array("urn:x".utf8), typeId: 0x10).dropLast(3))
        let bytes = descriptorBytes(tag: 0x02, identifier: Array("SAPS".utf8), body: [1, 2])
            + descriptorBytes(tag: 0x2F, body: [3])
            + descriptorBytes(tag: 0x02, body: upidOverrun)
            + [0x00, 2, 0xAB, 0xCD]
        let descriptors = try section(bytes).descriptors
        #expect(descriptors.count == 4)
        #expect(descriptors[0] == .raw(RawDescriptor(tag: 2, identifier: 0x5341_5053, bytes: [1, 2])))
        #expect(descriptors[1] == .raw(RawDescriptor(tag: 0x2F, identifier: 0x4355_4549, bytes: [3])))
        guard case .raw(let malformed) = descriptors[2] else { Issue.record("expected raw"); return }
        #expect(malformed.problem?.contains("segmentation_type_id") == true)
        #expect(descriptors[2].name == "Malformed Descriptor")
        guard case .raw(let short) = descriptors[3] else { Issue.record("expected raw"); return }
        #expect(short.problem?.contains("identifier") == true && short.bytes == [0xAB, 0xCD])
    }

    @Test func segmentationTypeNames() {
        #expect(SegmentationType.name(of: 0x00) == "Not Indicated")
        #expect(SegmentationType.name(of: 0x22) == "Break Start")
        #expect(SegmentationType.name(of: 0x51) == "Network End")
        #expect(SegmentationType.name(of: 0x99) == "Reserved")
    }
}
