import PlayheadHLS
import Testing

@Suite struct AttributeListTests {
    @Test func typesAreInferred() throws {
        let list = try AttributeList.parse(
            #"BANDWIDTH=1280000,TIME-OFFSET=-2.5,IV=0x0A0b,CODECS="avc1,mp4a",METHOD=AES-128,RESOLUTION=1920x1080"#)
        #expect(list["BANDWIDTH"] == .decimalInteger(1_280_000))
        #expect(list["TIME-OFFSET"] == .signedFloat(-2.5))
        #expect(list["IV"] == .hexadecimal([0x0A, 0x0B]))
        #expect(list["CODECS"] == .quotedString("avc1,mp4a"))
        #expect(list["METHOD"] == .enumeratedString("AES-128"))
        #expect(list["RESOLUTION"] == .resolution(Resolution(width: 1920, height: 1080)))
        #expect(list["MISSING"] == nil)
    }

    @Test func typedAccessors() throws {
        let list = try AttributeList.parse("A=12,B=1.5,C=0x00FF,D=640x360,E=YES")
        #expect(try list.decimalInteger("A") == 12)
        #expect(try list.signedFloat("B") == 1.5)
        #expect(try list.hexadecimal("C") == [0x00, 0xFF])
        #expect(try list.resolution("D") == Resolution(width: 640, height: 360))
        #expect(list.yesNo("E") == true)
        #expect(try list.decimalInteger("Z") == nil)
    }

    @Test func oddHexDigitCountIsPadded() {
        #expect(HexBytes.decode("0xABC") == [0x0A, 0xBC])
        #expect(HexBytes.encode([0x0A, 0xBC]) == "0x0ABC")
    }

    @Test func whitespaceAfterCommasIsTolerated() throws {
        let list = try AttributeList.parse(#"METHOD=AES-128, URI="k" , IV=0x01"#)
        #expect(list.entries.map(\.name) == ["METHOD", "URI", "IV"])
        #expect(list.quotedString("URI") == "k")
    }

    @Test func unterminatedQuoteGivesTheOpeningColumn() {
        #expect(throws: AttributeListError(kind: .unterminatedQuote, column: 9, attribute: "URI")) {
            try AttributeList.parse(#"A=1,URI="abc"#)
        }
    }

    @Test func badHexIsAnError() throws {
        let list = try AttributeList.parse("IV=0xZZ")
        #expect(throws: AttributeListError(kind: .badValue(expected: "hexadecimal-sequence"), column: 4, attribute: "IV")) {
            try list.hexadecimal("IV")
        }
    }

    @Test func badNumbersAreErrors() throws {
        let list = try AttributeList.parse("A=12x,B=1.2.3,R=12")
        #expect(throws: AttributeListError.self) { try list.decimalInteger("A") }
        #expect(throws: AttributeListError.self) { try list.signedFloat("B") }
        #expect(throws: AttributeListError.self) { try list.resolution("R") }
    }

    @Test func missingEqualsAndTrailingJunk() {
        #expect(throws: AttributeListError(kind: .missingEquals, column: 5, attribute: "B")) {
            try AttributeList.parse("A=1,B,C=2")
        }
        #expect(throws: AttributeListError(kind: .unexpectedCharacter, column: 6, attribute: "A")) {
            try AttributeList.parse(#"A="x"y,B=1"#)
        }
    }

    @Test func emptyListHasNoEntries() throws {
        #expect(try AttributeList.parse("").entries.isEmpty)
    }
}
