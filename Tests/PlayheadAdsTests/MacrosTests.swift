import Foundation
import PlayheadAds
import Testing

@Suite("VAST macros")
struct MacrosTests {
    @Test("known macros are replaced and percent-encoded; unknown ones stay")
    func expand() {
        let template = "https://t.example/e?code=[ERRORCODE]&cb=[CACHEBUSTING]&ts=[TIMESTAMP]&pos=[CONTENTPLAYHEAD]&a=[ASSETURI]&x=[UNKNOWN]["
        let values: [VASTMacro: String] = [
            .errorCode: "303", .cacheBusting: VASTMacros.cacheBusting(random: 42),
            .timestamp: VASTMacros.timestamp(Date(timeIntervalSince1970: 1_700_000_000.25)),
            .contentPlayhead: VASTMacros.playhead(seconds: 3723.5), .assetURI: "https://cdn.example/a b.m3u8",
        ]
        #expect(VASTMacros.expand(template, values: values) ==
            "https://t.example/e?code=303&cb=00000042&ts=2023-11-14T22%3A13%3A20.250Z&pos=01%3A02%3A03.500"
            + "&a=https%3A%2F%2Fcdn.example%2Fa%20b.m3u8&x=[UNKNOWN][")
        #expect(VASTMacros.cacheBusting(random: 123_456_789_012) == "56789012")
        #expect(VASTMacros.expand("no macros", values: values) == "no macros")
        #expect(VASTMacros.expand("[ERRORCODE][ERRORCODE]", values: [.errorCode: "1"]) == "11")
    }
}
