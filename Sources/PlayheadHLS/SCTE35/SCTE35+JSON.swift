#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SpliceInfoSection {
    /// The `inspect scte35 --json` document: pretty-printed, keys sorted, ending in a newline.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding cannot fail: every value is an integer, bool, string or finite double.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }
}

extension SCTE35Error {
    /// The `inspect scte35 --json` document for an undecodable cue: `{"error": {message, offset, field}}`.
    public func jsonBytes() -> [UInt8] {
        struct Body: Encodable {
            let message: String
            let offset: Int?
            let field: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(["error": Body(message: description, offset: offset, field: field)])) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }
}
