import Foundation
import PlayheadAds
import Testing

@Suite("robustness and report")
struct RobustnessTests {
    @Test("every corpus document cut short or with bytes flipped parses or throws, never crashes",
          .enabled(if: VASTCorpus.root != nil, VASTCorpus.skipComment))
    func damaged() throws {
        var attempts = 0, thrown = 0
        for folder in VASTClientCorpusTests.folders {
            for (xml, _) in VASTCorpus.documents(folder, expectationSuffix: ".vastclient.json") {
                let bytes = try VASTCorpus.bytes(xml)
                for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 8)) {
                    var flipped = bytes
                    if cut < flipped.count { flipped[cut] = flipped[cut] == UInt8(ascii: "<") ? UInt8(ascii: "&") : UInt8(ascii: "<") }
                    for input in [Array(bytes[..<cut]), flipped] {
                        attempts += 1
                        do { _ = try AdDocument.parse(input) } catch {
                            thrown += 1
                            #expect(error.line >= 0 && !error.description.isEmpty)
                        }
                    }
                }
            }
        }
        #expect(attempts > 1000, "damaged inputs tried: \(attempts)")
        #expect(thrown > attempts / 2, "most damaged inputs must be refused: \(thrown) of \(attempts)")
    }

    @Test("elements nested 100,000 deep are refused with their line, not a stack overflow; 128 levels parse")
    func deepNesting() throws {
        let deep = "<VAST version=\"4.0\">\n" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</VAST>"
        do {
            _ = try AdDocument.parse(Array(deep.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "malformedXML")
            #expect(error.description.contains("nested deeper than 128 levels"), "\(error)")
            #expect(error.line == 2)
        }
        let limit = XMLTreeBuilder.maxDepth
        let fits = "<VAST version=\"4.0\">" + String(repeating: "<a>", count: limit - 1) + String(repeating: "</a>", count: limit - 1) + "</VAST>"
        var depth = 0
        var node: XMLNode? = try XMLTreeBuilder.parse(Array(fits.utf8))
        while let current = node { depth += 1; node = current.children.first }
        #expect(depth == limit)
    }

    @Test("the JSON report: kind, schema version, absent optionals omitted, errors with line")
    func report() throws {
        let document = try AdDocument.parse(Array(Build.vast(Build.inlineXML(media: [Build.hls])).utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(AdDocumentReport(document).jsonBytes())) as? [String: Any])
        #expect(json["kind"] as? String == "vast" && json["schemaVersion"] as? Int == 1)
        let ad = try #require(((json["vast"] as? [String: Any])?["ads"] as? [[String: Any]])?.first)
        #expect(ad["type"] as? String == "inline" && ad["sequence"] == nil)
        let linear = (((ad["inline"] as? [String: Any])?["creatives"] as? [[String: Any]])?.first?["linear"]) as? [String: Any]
        #expect(linear?["durationSeconds"] as? Double == 20.5)
        #expect((linear?["skipOffset"] as? [String: Any])?["percent"] as? Double == 25)
        let failure = AdDocumentReport(error: .malformedXML(message: "m", line: 3, column: 4)).jsonBytes()
        let error = try #require(try JSONSerialization.jsonObject(with: Data(failure)) as? [String: Any])
        #expect(error["kind"] as? String == "error")
        #expect((error["error"] as? [String: Any])?["line"] as? Int == 3)
    }
}
