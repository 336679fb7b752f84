import Foundation

/// What was wrong with an SSAI input: where, and what.
public struct SSAIError: Error, Equatable, CustomStringConvertible {
    /// The document or URL the problem is in.
    public var source: String
    /// What is wrong, naming the JSON path or the line.
    public var problem: String

    /// Creates an error.
    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    /// `<source>: <problem>`.
    public var description: String { "\(source): \(problem)" }
}

/// Reads a client-side tracking document in the shape AWS MediaTailor serves (and SSAI vendors copy):
///
/// ```json
/// {"avails": [{"availId": "1", "startTimeInSeconds": 10, "durationInSeconds": 10,
///              "adBreakTrackingEvents": [{"eventType": "breakStart", "beaconUrls": ["…"]}],
///              "ads": [{"adId": "a", "adTitle": "…", "startTimeInSeconds": 10, "durationInSeconds": 6,
///                       "trackingEvents": [{"eventType": "impression", "beaconUrls": ["…"]}, …],
///                       "adClickEvents": [{"type": "ClickThrough", "url": "…"}, {"type": "ClickTracking", "url": "…"}]}]}]}
/// ```
///
/// Times are seconds on the stream's timeline (for VOD, from its first segment; for live, from the first
/// segment the session loaded). An ad's click-through and click tracking come from `adClickEvents`
/// (the Nowtilus SDK's shape), from `trackingEvents` entries of type `clickThrough` / `clickTracking`, or
/// from a `clickThrough` string. `startTime`/`duration` in ISO 8601 (`PT17.8S`) stand in for the
/// `…InSeconds` numbers when those are missing. Unknown keys are ignored.
public enum SSAITrackingDocument {
    /// Parses `bytes` read from `source` (named in errors).
    /// - Throws: ``SSAIError`` naming the JSON path of the first thing that is wrong.
    public static func parse(_ bytes: [UInt8], source: String) throws(SSAIError) -> [SSAIAvail] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw SSAIError(source: source, problem: "not JSON (\(bytes.count) bytes): \(detail)")
        }
        guard let object = root as? [String: Any] else {
            throw SSAIError(source: source, problem: "the document is not a JSON object")
        }
        guard let availList = object["avails"] else { return [] }
        guard let avails = availList as? [Any] else { throw SSAIError(source: source, problem: "avails is not an array") }
        var result: [SSAIAvail] = []
        for (index, item) in avails.enumerated() {
            let path = "avails[\(index)]"
            guard let avail = item as? [String: Any] else { throw SSAIError(source: source, problem: "\(path) is not an object") }
            let start = try seconds(avail, "startTimeInSeconds", "startTime", path: path, source: source)
            let duration = try? seconds(avail, "durationInSeconds", "duration", path: path, source: source)
            var ads: [SSAIAd] = []
            for (adIndex, adItem) in (avail["ads"] as? [Any] ?? []).enumerated() {
                let adPath = "\(path).ads[\(adIndex)]"
                guard let ad = adItem as? [String: Any] else { throw SSAIError(source: source, problem: "\(adPath) is not an object") }
                ads.append(try readAd(ad, path: adPath, source: source, fallbackID: "\(string(avail["availId"]) ?? String(index))-\(adIndex + 1)"))
            }
            let id = string(avail["availId"]) ?? "avail-\(index + 1)"
            let end = duration.map { start + $0 } ?? ads.map(\.endSeconds).max()
            result.append(SSAIAvail(id: id, startSeconds: start, durationSeconds: end.map { $0 - start }, ads: ads.sorted { $0.startSeconds < $1.startSeconds },
                                    trackingEvents: trackingURLs(avail["adBreakTrackingEvents"]), source: .tracking))
        }
        return result.sorted { $0.startSeconds < $1.startSeconds }
    }

    private static func readAd(_ ad: [String: Any], path: String, source: String, fallbackID: String) throws(SSAIError) -> SSAIAd {
        let start = try seconds(ad, "startTimeInSeconds", "startTime", path: path, source: source)
        let duration = try seconds(ad, "durationInSeconds", "duration", path: path, source: source)
        guard duration > 0 else { throw SSAIError(source: source, problem: "\(path).durationInSeconds is \(duration): an ad must last") }
        var tracking = trackingURLs(ad["trackingEvents"])
        var clickThrough = tracking.removeValue(forKey: "clickThrough")?.first ?? string(ad["clickThrough"])
        var clickTracking = tracking.removeValue(forKey: "clickTracking") ?? []
        for click in ad["adClickEvents"] as? [[String: Any]] ?? [] {
            guard let url = string(click["url"]) else { continue }
            switch (string(click["type"]) ?? "").lowercased() {
            case "clickthrough": clickThrough = clickThrough ?? url
            case "clicktracking": clickTracking.append(url)
            default: break
            }
        }
        return SSAIAd(id: string(ad["adId"]) ?? string(ad["adID"]) ?? fallbackID, title: string(ad["adTitle"]) ?? "",
                      startSeconds: start, durationSeconds: duration, trackingEvents: tracking,
                      clickThrough: clickThrough, clickTracking: clickTracking)
    }

    /// `eventType` → `beaconUrls` of a `trackingEvents` array (entries without URLs are skipped).
    private static func trackingURLs(_ value: Any?) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entry in value as? [[String: Any]] ?? [] {
            guard let event = string(entry["eventType"]) else { continue }
            let urls = (entry["beaconUrls"] as? [Any] ?? []).compactMap(string)
            if !urls.isEmpty { result[event, default: []] += urls }
        }
        return result
    }

    private static func seconds(_ object: [String: Any], _ key: String, _ isoKey: String, path: String,
                                source: String) throws(SSAIError) -> Double {
        // No Bool check: on Linux a JSON 0 or 1 bridges as Bool too, and a pre-roll starts at 0.
        if let number = object[key] as? NSNumber {
            let value = number.doubleValue
            guard value.isFinite, value >= 0 else { throw SSAIError(source: source, problem: "\(path).\(key) is \(value): it must be ≥ 0") }
            return value
        }
        if let text = object[isoKey] as? String {
            guard let value = isoDuration(text) else {
                throw SSAIError(source: source, problem: "\(path).\(isoKey) \"\(text)\" is not an ISO 8601 duration (PT…S)")
            }
            return value
        }
        throw SSAIError(source: source, problem: "\(path) has neither \(key) nor \(isoKey)")
    }

    /// Seconds of an ISO 8601 duration of hours, minutes and seconds (`PT1H2M3.5S`); `nil` for anything else.
    static func isoDuration(_ text: String) -> Double? {
        guard text.hasPrefix("PT"), text.count > 2 else { return nil }
        var total = 0.0, number = ""
        for character in text.dropFirst(2) {
            if character.isNumber || character == "." { number.append(character); continue }
            guard let value = Double(number) else { return nil }
            switch character {
            case "H": total += value * 3600
            case "M": total += value * 60
            case "S": total += value
            default: return nil
            }
            number = ""
        }
        return number.isEmpty ? total : nil
    }

    private static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: text.isEmpty ? nil : text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }
}
