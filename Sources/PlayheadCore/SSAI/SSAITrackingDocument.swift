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
///
/// The layout is checked, as a player relies on it: times at most ``maximumSeconds``, an avail's ads in
/// it and not overlapping one another (a frame's slack allowed), avails not overlapping. An id given twice
/// (two ads of one avail, or two avails) names distinct ads: the later ones become `id#2`, `id#3`, ….
public enum SSAITrackingDocument {
    /// Parses `bytes` read from `source` (named in errors).
    /// - Throws: ``SSAIError`` naming the JSON path of the first thing that is wrong.
    public static func parse(_ bytes: [UInt8], source: String) throws(SSAIError) -> [SSAIAvail] {
        let root: Any
        // Strictly JSON (Foundation takes a comma before `}` or `]`); a key given twice is let pass.
        if let problem = JSONBodyChecks.problem(Data(bytes), duplicates: false) {
            throw SSAIError(source: source, problem: "not JSON (\(bytes.count) bytes): \(problem)")
        }
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
            if let list = avail["ads"], !(list is [Any]), !(list is NSNull) {
                throw SSAIError(source: source, problem: "\(path).ads is \(kind(list)), not an array")
            }
            for (adIndex, adItem) in (avail["ads"] as? [Any] ?? []).enumerated() {
                let adPath = "\(path).ads[\(adIndex)]"
                guard let ad = adItem as? [String: Any] else { throw SSAIError(source: source, problem: "\(adPath) is not an object") }
                ads.append(try readAd(ad, path: adPath, source: source, fallbackID: "\(string(avail["availId"]) ?? String(index))-\(adIndex + 1)"))
            }
            let id = string(avail["availId"]) ?? "avail-\(index + 1)"
            let end = duration.map { start + $0 } ?? ads.map(\.endSeconds).max()
            ads.sort { $0.startSeconds < $1.startSeconds }
            try checkLayout(ads, start: start, end: end, path: path, source: source)
            var seen: Set<String> = []
            for adIndex in ads.indices { ads[adIndex].id = unique(ads[adIndex].id, in: &seen) }
            result.append(SSAIAvail(id: id, startSeconds: start, durationSeconds: end.map { $0 - start }, ads: ads,
                                    trackingEvents: try trackingURLs(avail["adBreakTrackingEvents"], path: path + ".adBreakTrackingEvents", source: source),
                                    source: .tracking))
        }
        result.sort { $0.startSeconds < $1.startSeconds }
        var seen: Set<String> = []
        for (index, pair) in zip(result, result.dropFirst()).enumerated() {
            if let end = pair.0.endSeconds, pair.1.startSeconds < end - slack {
                throw SSAIError(source: source, problem: "avail \(pair.1.id) starts at \(format(pair.1.startSeconds)) s, inside avail \(pair.0.id) "
                                + "(\(format(pair.0.startSeconds))–\(format(end)) s): avails must not overlap (sorted by start, pair \(index + 1))")
            }
        }
        for index in result.indices { result[index].id = unique(result[index].id, in: &seen) }
        return result
    }

    /// The longest time or duration read, seconds (about 31 years): past it a number is a mistake.
    public static let maximumSeconds = 1e9
    /// How far ads may overlap or pass their avail's ends: less than a frame at 120 fps.
    static let slack = 0.008

    private static func checkLayout(_ ads: [SSAIAd], start: Double, end: Double?, path: String, source: String) throws(SSAIError) {
        for ad in ads {
            if ad.startSeconds < start - slack || end.map({ ad.endSeconds > $0 + slack }) == true {
                throw SSAIError(source: source, problem: "\(path): ad \(ad.id) (\(format(ad.startSeconds))–\(format(ad.endSeconds)) s) is not inside its avail "
                                + "(\(format(start))–\(end.map(format) ?? "?") s)")
            }
        }
        for (first, second) in zip(ads, ads.dropFirst()) where second.startSeconds < first.endSeconds - slack {
            throw SSAIError(source: source, problem: "\(path): ad \(second.id) starts at \(format(second.startSeconds)) s, inside ad \(first.id) "
                            + "(\(format(first.startSeconds))–\(format(first.endSeconds)) s): the ads of an avail play one after the other")
        }
    }

    private static func unique(_ id: String, in seen: inout Set<String>) -> String {
        var candidate = id, number = 1
        while !seen.insert(candidate).inserted {
            number += 1
            candidate = "\(id)#\(number)"
        }
        return candidate
    }

    private static func format(_ seconds: Double) -> String { String(format: "%g", seconds) }

    private static func readAd(_ ad: [String: Any], path: String, source: String, fallbackID: String) throws(SSAIError) -> SSAIAd {
        let start = try seconds(ad, "startTimeInSeconds", "startTime", path: path, source: source)
        let duration = try seconds(ad, "durationInSeconds", "duration", path: path, source: source)
        guard duration > 0 else { throw SSAIError(source: source, problem: "\(path).durationInSeconds is \(duration): an ad must last") }
        var tracking = try trackingURLs(ad["trackingEvents"], path: path + ".trackingEvents", source: source)
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
    private static func trackingURLs(_ value: Any?, path: String, source: String) throws(SSAIError) -> [String: [String]] {
        guard let value, !(value is NSNull) else { return [:] }
        guard let entries = value as? [Any] else { throw SSAIError(source: source, problem: "\(path) is \(kind(value)), not an array") }
        var result: [String: [String]] = [:]
        for (index, item) in entries.enumerated() {
            guard let entry = item as? [String: Any] else { throw SSAIError(source: source, problem: "\(path)[\(index)] is \(kind(item)), not an object") }
            guard let event = string(entry["eventType"]) else { continue }
            let urls: [String]
            switch entry["beaconUrls"] {
            case nil, is NSNull: urls = []
            case let list as [Any]: urls = list.compactMap(string)
            case let other?: throw SSAIError(source: source, problem: "\(path)[\(index)].beaconUrls is \(kind(other)), not an array of URLs")
            }
            if !urls.isEmpty { result[event, default: []] += urls }
        }
        return result
    }

    /// What a JSON value is, for errors.
    private static func kind(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        case is NSNumber: "a number"
        default: "\(type(of: value))"
        }
    }

    private static func seconds(_ object: [String: Any], _ key: String, _ isoKey: String, path: String,
                                source: String) throws(SSAIError) -> Double {
        // No Bool check: on Linux a JSON 0 or 1 bridges as Bool too, and a pre-roll starts at 0.
        func checked(_ value: Double, _ name: String) throws(SSAIError) -> Double {
            guard value.isFinite, value >= 0 else { throw SSAIError(source: source, problem: "\(path).\(name) is \(value): it must be ≥ 0") }
            guard value <= maximumSeconds else {
                throw SSAIError(source: source, problem: "\(path).\(name) is \(value): more than \(format(maximumSeconds)) s")
            }
            return value
        }
        if let value = object[key], !(value is NSNull) {
            guard !(value is String), let number = value as? NSNumber else {
                throw SSAIError(source: source, problem: "\(path).\(key) is \(kind(value)), not a number of seconds")
            }
            return try checked(number.doubleValue, key)
        }
        if let value = object[isoKey], !(value is NSNull) {
            guard let text = value as? String else { throw SSAIError(source: source, problem: "\(path).\(isoKey) is \(kind(value)), not an ISO 8601 duration") }
            guard let seconds = isoDuration(text) else {
                throw SSAIError(source: source, problem: "\(path).\(isoKey) \"\(text)\" is not an ISO 8601 duration (PT…S)")
            }
            return try checked(seconds, isoKey)
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
