import PlayheadHLS
import Testing

@Suite struct CommandTests {
    @Test func spliceNull() throws {
        let section = try decoded(buildSection(commandType: 0x00, command: []))
        #expect(section.spliceCommand == .spliceNull)
        #expect(section.spliceCommandTypeName == "Splice Null")
        #expect(section.crcValid)
        #expect(section.tier == 0xFFF && section.sapType == 3)
        #expect(!section.isOutOfNetworkStart && section.spliceTimeSeconds == nil)
    }

    @Test func spliceInsertProgramModeWithBreak() throws {
        var w = BitWriter()
        w.put(0x4000_0001, 32); w.flag(false); w.flag(true); w.put(0x3F, 6)
        w.flag(true); w.flag(true); w.flag(true); w.flag(false); w.put(0xF, 4)
        w.append(spliceTimeBytes(8_589_934_000))
        w.flag(true); w.put(0x3F, 6); w.put(2_700_000, 33)
        w.put(0x0102, 16); w.put(1, 8); w.put(2, 8)
        let section = try decoded(buildSection(commandType: 0x05, command: w.bytes, ptsAdjustmentTicks: 1_000))
        guard case .spliceInsert(let insert) = section.spliceCommand else { Issue.record("not an insert"); return }
        #expect(insert.spliceEventId == 0x4000_0001)
        #expect(insert.eventIdComplianceFlag && insert.outOfNetworkIndicator && insert.programSpliceFlag)
        #expect(insert.durationFlag && !insert.spliceImmediateFlag)
        #expect(insert.spliceTime?.ptsTimeTicks == 8_589_934_000)
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, durationTicks: 2_700_000))
        #expect(insert.uniqueProgramId == 0x0102 && insert.availNum == 1 && insert.availsExpected == 2)
        #expect(section.isOutOfNetworkStart)
        #expect(section.breakDurationSeconds == 30)
        // (8_589_934_000 + 1_000) mod 2^33 = 408 ticks.
        #expect(section.spliceTimeTicks == 408)
        #expect(section.spliceTimeSeconds == 408.0 / 90_000)
    }

    @Test func spliceInsertComponentModeAndCancel() throws {
        var w = BitWriter()
        w.put(7, 32); w.flag(false); w.flag(false); w.put(0x3F, 6)
        w.flag(false); w.flag(false); w.flag(false); w.flag(false); w.put(0xF, 4)
        w.put(2, 8)
        w.put(0x21, 8); w.append(spliceTimeBytes(90_000))
        w.put(0x22, 8); w.append(spliceTimeBytes(nil))
        w.put(9, 16); w.put(0, 8); w.put(0, 8)
        let section = try decoded(buildSection(commandType: 0x05, command: w.bytes))
        guard case .spliceInsert(let insert) = section.spliceCommand else { Issue.record("not an insert"); return }
        #expect(insert.components == [.init(componentTag: 0x21, spliceTime: SpliceTime(ptsTimeTicks: 90_000)),
                                      .init(componentTag: 0x22, spliceTime: SpliceTime(ptsTimeTicks: nil))])
        #expect(!insert.eventIdComplianceFlag && !section.isOutOfNetworkStart && section.spliceTimeSeconds == nil)

        var c = BitWriter()
        c.put(7, 32); c.flag(true); c.flag(true); c.put(0x3F, 6)
        let cancel = try decoded(buildSection(commandType: 0x05, command: c.bytes))
        #expect(cancel.spliceCommand == .spliceInsert(SpliceInsert(spliceEventId: 7, spliceEventCancelIndicator: true,
                                                                   programSpliceFlag: false)))
    }

    @Test func spliceSchedule() throws {
        var w = BitWriter()
        w.put(2, 8)
        w.put(11, 32); w.flag(false); w.flag(true); w.put(0x3F, 6)
        w.flag(true); w.flag(true); w.flag(true); w.put(0x1F, 5); w.put(1_300_000_000, 32)
        w.flag(false); w.put(0x3F, 6); w.put(5_400_000, 33)
        w.put(3, 16); w.put(1, 8); w.put(1, 8)
        w.put(12, 32); w.flag(false); w.flag(true); w.put(0x3F, 6)
        w.flag(false); w.flag(false); w.flag(false); w.put(0x1F, 5)
        w.put(1, 8); w.put(0x30, 8); w.put(1_300_000_060, 32)
        w.put(3, 16); w.put(2, 8); w.put(2, 8)
        let section = try decoded(buildSection(commandType: 0x04, command: w.bytes))
        guard case .spliceSchedule(let schedule) = section.spliceCommand else { Issue.record("not a schedule"); return }
        #expect(schedule.events.count == 2)
        #expect(schedule.events[0].utcSpliceTime == 1_300_000_000)
        #expect(schedule.events[0].breakDuration == BreakDuration(autoReturn: false, durationTicks: 5_400_000))
        #expect(schedule.events[1].components == [.init(componentTag: 0x30, utcSpliceTime: 1_300_000_060)])
        #expect(schedule.events[1].availNum == 2)
    }

    @Test func timeSignalBandwidthReservationAndPrivate() throws {
        let signal = try decoded(buildSection(commandType: 0x06, command: spliceTimeBytes(1_924_989_008)))
        #expect(signal.spliceCommand == .timeSignal(TimeSignal(spliceTime: SpliceTime(ptsTimeTicks: 1_924_989_008))))
        #expect(signal.spliceCommandTypeName == "Time Signal")
        let reservation = try decoded(buildSection(commandType: 0x07, command: []))
        #expect(reservation.spliceCommand == .bandwidthReservation)
        let privateSection = try decoded(buildSection(commandType: 0xFF, command: Array("PHED".utf8) + [1, 2, 3]))
        #expect(privateSection.spliceCommand == .privateCommand(PrivateCommand(identifier: 0x5048_4544, privateBytes: [1, 2, 3])))
        if case .privateCommand(let command) = privateSection.spliceCommand { #expect(command.identifierText == "PHED") }
        let reserved = try decoded(buildSection(commandType: 0x42, command: [9, 9]))
        #expect(reserved.spliceCommand == .unknown(type: 0x42, bytes: [9, 9]))
        #expect(reserved.spliceCommandTypeName == "Reserved")
    }

    @Test func legacyCommandLengthIsFoundByParsing() throws {
        let descriptors = descriptorBytes(tag: 0x00, body: [0, 0, 0x16, 0x2E])
        let section = try decoded(buildSection(commandType: 0x06, command: spliceTimeBytes(507_408_318),
                                               descriptors: descriptors, legacyLength: true))
        #expect(section.spliceCommandLength == 0xFFF)
        #expect(section.spliceCommand == .timeSignal(TimeSignal(spliceTime: SpliceTime(ptsTimeTicks: 507_408_318))))
        #expect(section.descriptors == [.avail(AvailDescriptor(providerAvailId: 5678))])
        // A command whose syntax does not give its end cannot be framed.
        let privateSection = buildSection(commandType: 0xFF, command: Array("PHED".utf8), legacyLength: true)
        #expect(throws: SCTE35Error.unknownCommandLength(commandType: 0xFF, byteOffset: 11)) { try SCTE35.decode(bytes: privateSection) }
    }

    @Test func encryptedSectionsAreReportedNotDecoded() throws {
        let bytes = buildSection(commandType: 0x06, command: spliceTimeBytes(42), encrypted: true)
        let section = try decoded(bytes)
        #expect(section.encryptedPacket && section.encryptionAlgorithm == 1 && section.cwIndex == 7)
        #expect(section.spliceCommand == .encrypted(bytes: Array(bytes[13..<(bytes.count - 4)])))
        #expect(section.descriptors.isEmpty && section.descriptorLoopLength == nil)
        #expect(section.spliceCommandTypeName == "Encrypted")
        #expect(section.crcValid && section.spliceTimeSeconds == nil && !section.isOutOfNetworkStart)
    }
}
