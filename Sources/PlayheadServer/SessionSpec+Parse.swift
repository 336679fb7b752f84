import Foundation
import PlayheadCore
import PlayheadMedia

extension SessionSpec {
    /// The fields the top level of a spec may have.
    static let topLevelFields: Set<String> = [
        "url", "clock", "mode", "abr", "ads", "subscribedTags", "audio", "subtitles", "sidecarSubtitles", "blackout", "ssai", "dump", "durationSeconds", "startSeconds",
        "rate", "autoplay", "bandwidthMegabitsPerSecond", "heartbeats", "keys", "resumeAfterFailure",
    ]

    /// The largest time a spec may give (`durationSeconds`, `startSeconds`, a seek): about 31 years.
    static let maxSeconds = 1e9
    /// The fastest simulated link a spec may ask for, in Mbit/s (1 Pbit/s).
    static let maxMegabitsPerSecond = 1e9

    /// Reads a spec from a request body, strictly: the body must be one JSON object, every field must be
    /// known and of the right type, and `url` must be an absolute http(s) URL with a host.
    ///
    /// - Parameter body: The request body.
    /// - Returns: The spec, with defaults for what the body leaves out.
    /// - Throws: ``APIError`` (400) naming the first field at fault.
    public static func parse(_ body: Data) throws(APIError) -> SessionSpec {
        guard case let .object(object) = try JSONValue.body(body) else { throw .malformedJSON("the top level must be an object") }
        let r = FieldReader(object: object, prefix: "")
        try r.rejectUnknown(topLevelFields)
        guard let url = try r.string("url") else { throw .missingField("url") }
        try validate(url: url, field: "url")
        var spec = SessionSpec(url: url)
        if let clock = try r.string("clock") {
            guard let parsed = SessionClock(rawValue: clock) else { throw .invalidField("clock", "must be real or virtual") }
            spec.clock = parsed
        }
        if let mode = try r.string("mode") {
            guard let parsed = DecodeMode(rawValue: mode) else { throw .invalidField("mode", "must be decode, demux or keyframes") }
            spec.mode = parsed
        }
        if let abr = try r.object("abr") {
            try abr.rejectUnknown(["variant", "maxBitsPerSecond", "minBufferSeconds", "maxBufferSeconds"])
            spec.abr.variant = try abr.integer("variant", minimum: 0)
            spec.abr.maxBitsPerSecond = try abr.integer("maxBitsPerSecond", minimum: 1)
            spec.abr.minBufferSeconds = try abr.number("minBufferSeconds", minimum: 1, maximum: maxSeconds)
            spec.abr.maxBufferSeconds = try abr.number("maxBufferSeconds", minimum: 1, maximum: maxSeconds)
            let minimum = spec.abr.minBufferSeconds ?? BufferPolicy.defaultMinimumSeconds
            let maximum = spec.abr.maxBufferSeconds ?? BufferPolicy.defaultMaximumSeconds
            if minimum > maximum {
                let field = spec.abr.maxBufferSeconds == nil ? "abr.minBufferSeconds" : "abr.maxBufferSeconds"
                throw .invalidField(field, "the minimum buffer (\(minimum) s) must not exceed the maximum (\(maximum) s)")
            }
            if spec.abr.variant != nil, spec.abr.maxBitsPerSecond != nil {
                throw .invalidField("abr.maxBitsPerSecond", "give abr.variant or abr.maxBitsPerSecond, not both")
            }
        }
        if let ads = try r.object("ads") {
            try ads.rejectUnknown(["enabled", "adTagURL", "zoneId", "mediaId", "signalingMode", "enableLivePreroll"])
            spec.ads.enabled = try ads.bool("enabled") ?? false
            if let tag = try ads.string("adTagURL") {
                try validate(url: tag, field: "ads.adTagURL")
                spec.ads.adTagURL = tag
            }
            spec.ads.zoneId = try ads.string("zoneId")
            spec.ads.mediaId = try ads.string("mediaId")
            if let mode = try ads.string("signalingMode") {
                guard AdSignalingMode(rawValue: mode) != nil else {
                    throw .invalidField("ads.signalingMode", "must be one of \(AdSignalingMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                spec.ads.signalingMode = mode
            }
            spec.ads.enableLivePreroll = try ads.bool("enableLivePreroll")
            if spec.ads.enabled, spec.ads.adTagURL == nil { throw .missingField("ads.adTagURL") }
        }
        if let heartbeats = try r.object("heartbeats") { spec.heartbeats = try parseHeartbeats(heartbeats) }
        if let tags = try r.stringArray("subscribedTags") {
            // The PSDK's subscribed tags are named with their '#' (#EXT-X-CUE); a bare name matches no line.
            for (index, tag) in tags.enumerated() {
                do { try TimedMetadataScanner.validate(tag) } catch { throw .invalidField("subscribedTags[\(index)]", error.description) }
            }
            spec.subscribedTags = tags
        }
        if let resume = try r.object("resumeAfterFailure") {
            // As play --resume-after-failure: resumes allowed, and the wait before each.
            try resume.rejectUnknown(["attempts", "delaySeconds"])
            guard let attempts = try resume.number("attempts", minimum: 1, maximum: 1000) else { throw .missingField(resume.path("attempts")) }
            guard attempts == attempts.rounded() else { throw .invalidField(resume.path("attempts"), "must be a whole number") }
            let delay = try resume.number("delaySeconds", minimum: 0, maximum: 86_400) ?? ResumePolicy.defaultDelaySeconds
            spec.resumeAfterFailure = ResumePolicy(attempts: Int(attempts), delaySeconds: delay)
        }
        if let keys = try r.objectArray("keys") {
            // Custom key delivery, as play --key: each key's URI and its 16 bytes in hexadecimal.
            spec.keys = try keys.map { (entry: FieldReader) throws(APIError) -> SessionKey in
                try entry.rejectUnknown(["uri", "key"])
                guard let uri = try entry.string("uri"), !uri.isEmpty else { throw .missingField(entry.path("uri")) }
                guard let key = try entry.string("key") else { throw .missingField(entry.path("key")) }
                let given = SessionKey(uri: uri, key: key)
                do throws(KeyEntryError) { _ = try StaticKeyProvider.entry(given.entry) } catch { throw .invalidField(entry.path("key"), error.reason) }
                return given
            }
        }
        if let audio = try r.string("audio") {
            guard !audio.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidField("audio", "must be auto, or an audio rendition's name or language") }
            spec.audio = AudioChoice(audio)
        }
        if let subtitles = try r.string("subtitles") {
            guard !subtitles.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidField("subtitles", "must be auto, off, or a track's name or language") }
            spec.subtitles = SubtitleChoice(subtitles)
        }
        if let sidecars = try r.objectArray("sidecarSubtitles") {
            spec.sidecarSubtitles = try sidecars.map { (sidecar: FieldReader) throws(APIError) -> SidecarSubtitle in
                try sidecar.rejectUnknown(["url", "language", "name"])
                guard let url = try sidecar.string("url") else { throw .missingField(sidecar.path("url")) }
                try validate(url: url, field: sidecar.path("url"))
                return SidecarSubtitle(url: url, language: try sidecar.string("language"), name: try sidecar.string("name"))
            }
        }
        if let blackout = try r.object("blackout") {
            try blackout.rejectUnknown(["tag", "alternateURL"])
            guard let tag = try blackout.string("tag") else { throw .missingField(blackout.path("tag")) }
            guard let alternate = try blackout.string("alternateURL") else { throw .missingField(blackout.path("alternateURL")) }
            try validate(url: alternate, field: blackout.path("alternateURL"))
            let settings = BlackoutSettings(tag: tag, alternateURL: alternate)
            do { try settings.validate() } catch {
                throw .invalidField(blackout.path(error == .noAlternate ? "alternateURL" : "tag"), error.description)
            }
            spec.blackout = settings
        }
        if let ssai = try r.object("ssai") {
            try ssai.rejectUnknown(["trackingURL"])
            let tracking = try ssai.string("trackingURL")
            if let tracking { try validate(url: tracking, field: ssai.path("trackingURL")) }
            spec.ssai = SSAISettings(trackingURL: tracking)
        }
        if let dump = try r.object("dump") {
            try dump.rejectUnknown(["frameEvents"])
            spec.dump.frameEvents = try dump.bool("frameEvents") ?? false
        }
        spec.durationSeconds = try r.number("durationSeconds", minimum: 0.001, maximum: maxSeconds)
        spec.startSeconds = try r.number("startSeconds", minimum: 0, maximum: maxSeconds)
        let rates = PlayerConfiguration.rateRange
        spec.rate = try r.number("rate", minimum: rates.lowerBound, maximum: rates.upperBound) ?? defaultRate
        spec.autoplay = try r.bool("autoplay") ?? true
        spec.bandwidthMegabitsPerSecond = try r.number("bandwidthMegabitsPerSecond", minimum: 0.001, maximum: maxMegabitsPerSecond)
            ?? defaultBandwidthMegabitsPerSecond
        if spec.ssai != nil, spec.ads.enabled {
            throw .invalidField("ssai", "ads inserts ads at the cues that ssai tracks as ads already in the stream; give one or the other")
        }
        return spec
    }

    /// Accepts absolute http(s) URLs with a host, nothing else.
    static func validate(url text: String, field: String) throws(APIError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { throw .invalidField(field, "must be an absolute http or https URL, got \"\(text)\"") }
        // Foundation takes a space in; libcurl does not, and the session failed later ("invalid or
        // unsupported URL").
        if let bad = text.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidField(field, "must not contain a space or control character (U+\(String(format: "%04X", bad.value))); percent-encode it, got \"\(text)\"")
        }
    }
}

/// A JSON value as the body held it (booleans kept apart from numbers).
enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    /// A request body read as JSON; 400 naming the byte of bad UTF-8, the field of a number out of
    /// range, or what the parser found wrong (without Swift's type names).
    static func body(_ body: Data) throws(APIError) -> JSONValue {
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw .malformedJSON("it is empty (a JSON object is required)")
        }
        if let offset = firstInvalidUTF8Offset(body) {
            throw .malformedJSON("it is not valid UTF-8 (at byte offset \(offset), counted from 0)")
        }
        // The syntax first, said with its place (JSONDecoder says "not valid JSON", or names a field for a bad
        // escape, and takes a trailing comma), and a key given twice, which it keeps one of.
        if let problem = JSONBodyChecks.problem(body) { throw .malformedJSON(problem) }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: body) } catch let DecodingError.dataCorrupted(context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            if !path.isEmpty, context.underlyingError == nil { throw .invalidField(path, context.debugDescription) }
            throw .malformedJSON(context.underlyingError.map { "\($0)" } ?? context.debugDescription)
        } catch {
            throw .malformedJSON("\(error)")
        }
        return value
    }

    /// The offset of the first byte that is not valid UTF-8, or nil.
    static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else {
            do { self = .object(try container.decode([String: JSONValue].self)) } catch DecodingError.typeMismatch(_, let context)
                where context.codingPath.count == decoder.codingPath.count {
                // Not an object either: in valid JSON, only a number a Double cannot hold gets here.
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "a number a double cannot hold (beyond ±1.8e308, or too near 0 to tell from it)"))
            }
        }
    }
}

/// Typed, strict reads from one JSON object, naming fields by their dotted path.
struct FieldReader {
    let object: [String: JSONValue]
    let prefix: String

    func path(_ key: String) -> String { prefix.isEmpty ? key : prefix + "." + key }

    /// A command's body: one JSON object with only `fields`, read at the top level.
    /// - Throws: 400 for a body that is not an object, or the first unknown field.
    static func body(_ body: Data, fields: Set<String>) throws(APIError) -> FieldReader {
        guard case let .object(object) = try JSONValue.body(body) else { throw .malformedJSON("the top level must be an object") }
        let reader = FieldReader(object: object, prefix: "")
        try reader.rejectUnknown(fields)
        return reader
    }

    func rejectUnknown(_ known: Set<String>) throws(APIError) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) { throw .unknownField(path(unknown)) }
    }

    /// The value, or nil when absent. JSON null is refused: no field's type allows it (it was taken as absent,
    /// so `"clock": null` made a real-clock session without a word).
    func raw(_ key: String) throws(APIError) -> JSONValue? {
        guard let value = object[key] else { return nil }
        if case .null = value { throw .invalidField(path(key), "is null: give a value (or leave out a field that has a default)") }
        return value
    }

    func string(_ key: String) throws(APIError) -> String? {
        guard let value = try raw(key) else { return nil }
        guard case let .string(text) = value else { throw .invalidField(path(key), "must be a string") }
        return text
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        guard let value = try raw(key) else { return nil }
        guard case let .bool(flag) = value else { throw .invalidField(path(key), "must be true or false") }
        return flag
    }

    func number(_ key: String, minimum: Double, maximum: Double = .greatestFiniteMagnitude) throws(APIError) -> Double? {
        guard let value = try raw(key) else { return nil }
        guard case let .number(number) = value, number.isFinite else { throw .invalidField(path(key), "must be a number") }
        guard number >= minimum else { throw .invalidField(path(key), "must be at least \(minimum)") }
        guard number <= maximum else { throw .invalidField(path(key), "must be at most \(maximum)") }
        return number
    }

    func integer(_ key: String, minimum: Int) throws(APIError) -> Int? {
        guard let double = try number(key, minimum: Double(minimum)) else { return nil }
        guard double.rounded() == double, abs(double) < 1e15 else { throw .invalidField(path(key), "must be an integer") }
        return Int(double)
    }

    func object(_ key: String) throws(APIError) -> FieldReader? {
        guard let value = try raw(key) else { return nil }
        guard case let .object(nested) = value else { throw .invalidField(path(key), "must be an object") }
        return FieldReader(object: nested, prefix: path(key))
    }

    /// An array of objects, each read with its index in the path (`key[2].url`).
    func objectArray(_ key: String) throws(APIError) -> [FieldReader]? {
        guard let value = try raw(key) else { return nil }
        guard case let .array(array) = value else { throw .invalidField(path(key), "must be an array of objects") }
        var result: [FieldReader] = []
        for (index, element) in array.enumerated() {
            guard case let .object(object) = element else { throw .invalidField("\(path(key))[\(index)]", "must be an object") }
            result.append(FieldReader(object: object, prefix: "\(path(key))[\(index)]"))
        }
        return result
    }

    func stringArray(_ key: String) throws(APIError) -> [String]? {
        guard let value = try raw(key) else { return nil }
        guard case let .array(array) = value else { throw .invalidField(path(key), "must be an array of strings") }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard case let .string(text) = element else { throw .invalidField("\(path(key))[\(index)]", "must be a string") }
            result.append(text)
        }
        return result
    }
}
