import Foundation
import PlayheadHLS
import Testing

@Suite struct InputTests {
    static let base64 = "/DAlAAAAAAAAAP/wFAUAAAPof+//SVqZrP4Ae5igAAEBAQAAQcfnVA=="
    static let hex = "fc302500000000000000fff014050000013f7fefffffc3f680fe00a4cb80013f0000000063394f9c"

    @Test func base64AndHexAreDetected() throws {
        let fromBase64 = try SCTE35.decode(Self.base64)
        let spaced = " /DAlAAAAAAAAAP/wFAUAAAPof+//SVqZ\n rP4Ae5igAAEBAQAAQcfnVA== "
        #expect(try SCTE35.decode(spaced) == fromBase64)
        #expect(try SCTE35.decode(String(Self.base64.dropLast(2))) == fromBase64, "padding is optional")
        let urlSafe = Self.base64.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
        #expect(try SCTE35.decode(urlSafe) == fromBase64)
        let fromHex = try SCTE35.decode(Self.hex)
        #expect(try SCTE35.decode("0x" + Self.hex.uppercased()) == fromHex)
        #expect(try SCTE35.decode("0X fc30 2500 " + Self.hex.dropFirst(8)) == fromHex)
        #expect(fromHex.crcValid && fromBase64.crcValid)
    }

    @Test func crcMatchesAnIndependentImplementation() throws {
        let bytes = try SCTE35.bytes(from: Self.hex)
        #expect(SCTE35.crc32(Array(bytes.dropLast(4))) == referenceCRC32(Array(bytes.dropLast(4))))
        #expect(SCTE35.crc32(bytes) == 0, "a section with its CRC checks to zero")
    }

    @Test func inputErrorsNameTheirOffset() {
        #expect(throws: SCTE35Error.emptyInput) { try SCTE35.decode("  \n") }
        #expect(throws: SCTE35Error.invalidHex(characterOffset: 5, character: "g")) { try SCTE35.decode("0xfc3g") }
        #expect(throws: SCTE35Error.oddHexDigitCount(digitCount: 3)) { try SCTE35.decode("fc3") }
        #expect(throws: SCTE35Error.invalidBase64(characterOffset: 3, reason: "character \"*\" is not in the base64 alphabet")) {
            try SCTE35.decode("/DA*")
        }
        #expect(throws: SCTE35Error.self) { try SCTE35.decode("/D=A") }
    }

    @Test func sectionErrorsNameOffsetAndField() throws {
        #expect(throws: SCTE35Error.badTableId(found: 0xFD)) { try SCTE35.decode(bytes: [0xFD, 0x30, 0x11]) }
        #expect(throws: SCTE35Error.truncated(field: "table_id", byteOffset: 0, bitsNeeded: 8, bytesAvailable: 0)) {
            try SCTE35.decode(bytes: [])
        }
        let bytes = try SCTE35.bytes(from: Self.hex)
        #expect(throws: SCTE35Error.lengthBeyondData(field: "section_length", byteOffset: 1, declaredBytes: 37, availableBytes: 36)) {
            try SCTE35.decode(bytes: Array(bytes.dropLast()))
        }
        // A command length past the section.
        var long = bytes
        long[12] = 0x40
        do {
            _ = try SCTE35.decode(bytes: long)
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "splice_command_length" && error.offset == 14)
            #expect(error.description.contains("splice_command_length at byte 14"))
        }
        // Trailing bytes after the section are ignored.
        #expect(try SCTE35.decode(bytes: bytes + [0xFF, 0xFF]).crcValid)
    }

    @Test func randomBytesAndTruncationsNeverCrash() throws {
        var generator = SplitMix64(seed: 0x5C7E_35)
        var failures = 0, successes = 0
        for _ in 0..<3_000 {
            let count = Int(generator.next() % 64)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty, generator.next() % 2 == 0 {
                bytes[0] = 0xFC  // get past table_id more often
                if bytes.count > 2 { bytes[1] = 0x30; bytes[2] = UInt8(max(0, bytes.count - 3)) }
            }
            do { _ = try SCTE35.decode(bytes: bytes); successes += 1 } catch { failures += 1; #expect(!error.description.isEmpty) }
        }
        #expect(failures > 0 && successes > 0)
        let cue = try SCTE35.bytes(from: "/DA4AAAAAAAAAP/wFAUABDEAf+//mWEhzP4Azf5gAQAAAAATAhFDVUVJAAAAAX+/AQIwNAEAAKeYO3Q=")
        for length in 0..<cue.count {
            #expect(throws: SCTE35Error.self) { try SCTE35.decode(bytes: Array(cue.prefix(length))) }
        }
        for _ in 0..<3_000 {
            var mutated = cue
            let flips = 1 + Int(generator.next() % 4)
            for _ in 0..<flips { mutated[Int(generator.next() % UInt64(mutated.count))] ^= UInt8(truncatingIfNeeded: generator.next() | 1) }
            _ = try? SCTE35.decode(bytes: mutated)
            _ = try? SCTE35.decode(bytes: Array(mutated.prefix(Int(generator.next() % UInt64(mutated.count + 1)))))
        }
    }
}

/// A small deterministic generator for the fuzz test.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
