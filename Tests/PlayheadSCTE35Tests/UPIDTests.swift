import PlayheadHLS
import Testing

@Suite struct UPIDTests {
    /// Decodes a time_signal whose one segmentation descriptor carries `upid` of `type`.
    private func upid(_ type: UInt8, _ bytes: [UInt8]) throws -> SegmentationUPID {
        let body = segmentationBody(upidType: type, upid: bytes, typeId: 0x10)
        let section = try decoded(buildSection(commandType: 0x06, command: spliceTimeBytes(1),
                                               descriptors: descriptorBytes(tag: 0x02, body: body)))
        let decodedUPID = try #require(section.segmentationDescriptors.first?.segmentationUpid)
        #expect(decodedUPID.type == type)
        #expect(decodedUPID.bytes == bytes, "bytes round-trip")
        return decodedUPID
    }

    @Test func textTypes() throws {
        #expect(try upid(0x01, Array("user".utf8)).stringForm == "user")
        #expect(try upid(0x01, [0x00, 0xFF]).stringForm == "0x00ff")
        #expect(try upid(0x02, Array("ABCD1234".utf8)) == .isci(Array("ABCD1234".utf8)))
        #expect(try upid(0x03, Array("ABCD0123456H".utf8)).stringForm == "ABCD0123456H")
        #expect(try upid(0x07, Array("MV0004146400".utf8)).stringForm == "MV0004146400")
        #expect(try upid(0x09, Array("SIGNAL:abc".utf8)).stringForm == "SIGNAL:abc")
        #expect(try upid(0x0E, Array("availid=9".utf8)) == .adsInformation(Array("availid=9".utf8)))
        #expect(try upid(0x0F, Array("urn:nbcuni.com:brc:499866434".utf8)).stringForm == "urn:nbcuni.com:brc:499866434")
        #expect(try upid(0x11, Array("scr-1".utf8)) == .scr(Array("scr-1".utf8)))
    }

    @Test func binaryTypes() throws {
        #expect(try upid(0x00, []).stringForm == "")
        let umid = [UInt8](0..<32)
        #expect(try upid(0x04, umid).stringForm
                == "00010203.04050607.08090a0b.0c0d0e0f.10111213.14151617.18191a1b.1c1d1e1f")
        #expect(try upid(0x08, [0, 0, 0, 0, 0x2C, 0xA0, 0xA1, 0x8A]).stringForm == "0x000000002ca0a18a")
        let uuid: [UInt8] = [0xAA, 0x85, 0xBB, 0xB6, 0x5C, 0x43, 0x4B, 0x6A, 0xBE, 0xBB, 0xEE, 0x3B, 0x13, 0xEB, 0x79, 0x99]
        #expect(try upid(0x10, uuid).stringForm == "aa85bbb6-5c43-4b6a-bebb-ee3b13eb7999")
        #expect(try upid(0x10, [1, 2]).stringForm == "0x0102", "wrong length falls back to hex")
        #expect(try upid(0x42, [7]) == .other(type: 0x42, bytes: [7]))
        #expect(SegmentationUPID.name(ofType: 0x42) == "Reserved")
    }

    @Test func eidrRendersAsDOIWithCheckCharacter() throws {
        // 10.5240/7791-8534-2C23-9030-8610-5 is a published EIDR id.
        let bytes: [UInt8] = [0x14, 0x78, 0x77, 0x91, 0x85, 0x34, 0x2C, 0x23, 0x90, 0x30, 0x86, 0x10]
        #expect(try upid(0x0A, bytes).stringForm == "10.5240/7791-8534-2C23-9030-8610-5")
    }

    @Test func isanForms() throws {
        let isan: [UInt8] = [0, 0, 0, 0, 0x3A, 0x8D, 0, 0, 0, 0, 0, 0]
        let text = try upid(0x06, isan).stringForm
        #expect(text.hasPrefix("0000-0000-3A8D-0000-") && text.count == 33)
        let old = try upid(0x05, Array(isan.prefix(8))).stringForm
        #expect(old.hasPrefix("0000-0000-3A8D-0000-") && old.count == 21)
    }

    @Test func structuredTypes() throws {
        let atsc = try upid(0x0B, [0x00, 0xF1, 0xEF, 0xFF] + Array("human012".utf8))
        guard case .atsc(let id) = atsc else { Issue.record("not ATSC"); return }
        #expect(id.tsid == 241 && id.endOfDay == 23 && id.uniqueFor == 511 && id.contentId == Array("human012".utf8))
        #expect(atsc.stringForm == "TSID=241;endOfDay=23;uniqueFor=511;contentId=human012")
        let mpu = try upid(0x0C, Array("OVLY".utf8) + [0x49])
        #expect(mpu == .mpu(formatIdentifier: 0x4F56_4C59, privateData: [0x49]))
        #expect(mpu.stringForm == "OVLY:0x49")
        #expect(try upid(0x0C, [1, 2]) == .other(type: 0x0C, bytes: [1, 2]))
    }

    @Test func midHoldsSubUPIDs() throws {
        let eidr: [UInt8] = [0x14, 0x78, 0x77, 0x91, 0x85, 0x34, 0x2C, 0x23, 0x90, 0x30, 0x86, 0x10]
        let bytes = [0x0A, 12] + eidr + [0x09, 3] + Array("ADI".utf8)
        let mid = try upid(0x0D, bytes)
        #expect(mid == .mid([.eidr(eidr), .adi(Array("ADI".utf8))]))
        #expect(mid.stringForm == "EIDR=10.5240/7791-8534-2C23-9030-8610-5; ADI=ADI")
        #expect(try upid(0x0D, [0x0A, 12, 1]) == .other(type: 0x0D, bytes: [0x0A, 12, 1]))
    }
}
