import Foundation
import PlayheadAds
import Testing

/// Locates the shared VAST corpora: `#filePath` → repo root → `../shared/corpora/vast`.
enum VASTCorpus {
    static let root: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // file → PlayheadAdsTests → Tests → repo
        let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/corpora/vast")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    static let skipComment: Comment = "shared VAST corpora not found at ../shared/corpora/vast beside the repository; corpus test skipped"

    /// Every `.xml` under `folder` (recursively) that has a sibling named `<name><suffix>`, sorted by path.
    static func documents(_ folder: String, expectationSuffix suffix: String) -> [(xml: URL, expected: URL)] {
        guard let dir = root?.appendingPathComponent(folder),
              let walker = FileManager.default.enumerator(atPath: dir.path) else { return [] }
        var result: [(URL, URL)] = []
        for case let relative as String in walker where relative.hasSuffix(".xml") {
            let xml = dir.appendingPathComponent(relative)
            let expected = xml.deletingPathExtension().path + suffix
            if FileManager.default.fileExists(atPath: expected) {
                result.append((xml, URL(fileURLWithPath: expected)))
            }
        }
        return result.sorted { $0.0.path < $1.0.path }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    /// The path below the corpus folder without extension, e.g. `strict/iab/vast-3/Wrapper_Tag-test`.
    static func name(_ url: URL, in folder: String) -> String {
        let base = root?.appendingPathComponent(folder).path ?? ""
        var path = url.deletingPathExtension().path
        if path.hasPrefix(base + "/") { path.removeFirst(base.count + 1) }
        return path
    }
}

/// Collects field disagreements for one file.
struct Mismatches {
    var file: String
    var items: [String] = []
    /// How many fields were compared (so a test can check it did not pass vacuously).
    var compared = 0

    mutating func check<T: Equatable>(_ field: String, expected: T, actual: T) {
        compared += 1
        if expected != actual { items.append("\(file): \(field): expected \(expected), got \(actual)") }
    }
}

/// Reads JSON values loosely.
enum J {
    /// Non-blank strings of an array (we drop blank URLs at parse time).
    static func urls(_ value: Any?) -> [String] {
        array(value).compactMap(string).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    static func string(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }

    static func array(_ value: Any?) -> [Any] { value as? [Any] ?? [] }
    static func dict(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
    static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    static func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
    static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber else { return nil }
        return number.boolValue
    }

    /// `{"id", "url"}` objects as `"id|url"` strings for order-sensitive comparison.
    static func idURLs(_ value: Any?) -> [String] {
        array(value).filter { !(string(dict($0)["url"]) ?? "").trimmingCharacters(in: .whitespaces).isEmpty }.map { "\(string(dict($0)["id"]) ?? "-")|\(string(dict($0)["url"]) ?? "")" }
    }

    /// `{event: [url]}` as a sorted-key map.
    static func events(_ value: Any?) -> [String: [String]] {
        dict(value).mapValues { array($0).compactMap(string) }
    }
}

extension VASTClick {
    var idURL: String { "\(id ?? "-")|\(url)" }
}

extension VASTImpression {
    var idURL: String { "\(id ?? "-")|\(url)" }
}
