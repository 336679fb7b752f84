import Foundation

/// Reads Playback API JSON into the catalogue's value types.
///
/// Lenient where the API varies (unknown fields are ignored, ids may be numbers, a missing optional field
/// is nil, custom field values of any scalar type become text) and strict where a wrong shape would be
/// silently lost (a `sources` that is not an array, a source's `src` that is not text, a cue point
/// without a numeric `time`): those fail with ``CatalogueError/malformed(url:path:problem:)`` naming the
/// JSON path, e.g. `$.videos[2].sources[0].src`.
public enum CatalogueJSON {
    /// Parses a video document. `url` names the document in errors.
    public static func video(from data: [UInt8], url: String) throws(CatalogueError) -> CatalogueVideo {
        resolvingSources(try video(Node(value: try document(data, url: url), path: "$", url: url)), against: url)
    }

    /// `video` with each source's `src` trimmed and, when relative, resolved against the document's URL (the
    /// service's answer is where a relative URL counts from).
    static func resolvingSources(_ video: CatalogueVideo, against url: String) -> CatalogueVideo {
        var copy = video
        for index in copy.sources.indices {
            guard let src = copy.sources[index].src?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            copy.sources[index].src = src.isEmpty ? nil : (src.contains("://") || src.hasPrefix("data:") ? src : (try? ResourceURL.resolve(src, against: url)) ?? src)
        }
        return copy
    }

    /// Parses a playlist document (its `videos` are parsed as videos; an entry that is not a readable video
    /// is skipped, and said in `skipped`, rather than failing the playlist). `limit` and `offset` are what
    /// was asked for, kept on the value.
    public static func playlist(from data: [UInt8], url: String, limit: Int? = nil, offset: Int? = nil) throws(CatalogueError) -> CataloguePlaylist {
        let root = Node(value: try document(data, url: url), path: "$", url: url)
        _ = try root.object()
        var playlist = CataloguePlaylist(id: try root["id"].requiredID())
        playlist.referenceId = try root["reference_id"].optionalText()
        playlist.accountId = try root["account_id"].optionalID()
        playlist.name = try root["name"].optionalText()
        playlist.description = try root["description"].optionalText()
        playlist.type = try root["type"].optionalText()
        for (position, node) in try root["videos"].array().enumerated() {
            do {
                playlist.videos.append(resolvingSources(try video(node), against: url))
            } catch {
                playlist.skipped.append(CatalogueSkippedVideo(
                    index: (offset ?? 0) + position, id: try? node["id"].optionalID(), reason: error.description))
            }
        }
        playlist.count = try root["count"].optionalInt()
        playlist.limit = limit
        playlist.offset = offset
        return playlist
    }

    /// The first entry of a Brightcove error array (`[{"error_code": …, "message": …}]`, or one such
    /// object alone): code, subcode and message; nil when `data` is not one.
    public static func errorEntry(from data: [UInt8]) -> (code: String, subcode: String?, message: String?)? {
        // Strictly JSON, as an answer is: a body that is not is no error entry (it is said as the body it is).
        guard JSONBodyChecks.problem(Data(data), duplicates: false) == nil, let value = try? JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed]) else { return nil }
        let first: Any? = (value as? [Any])?.first ?? value
        guard let entry = first as? [String: Any], let code = entry["error_code"] as? String, !code.isEmpty else { return nil }
        return (code, entry["error_subcode"] as? String, entry["message"] as? String)
    }

    static func document(_ data: [UInt8], url: String) throws(CatalogueError) -> Any {
        guard !data.isEmpty else { throw .malformed(url: url, path: "$", problem: "the body is empty, not JSON") }
        // Strictly JSON (Foundation takes a comma before `}` or `]`); a key given twice is let pass, as unknown fields are.
        if let problem = JSONBodyChecks.problem(Data(data), duplicates: false) {
            let start = String(decoding: data.prefix(60), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            throw .malformed(url: url, path: "$", problem: "not JSON (\(problem)); it begins \"\(start)\"")
        }
        do {
            return try JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed])
        } catch {
            let start = String(decoding: data.prefix(60), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            throw .malformed(url: url, path: "$", problem: "not JSON (\(Self.reason(error))); it begins \"\(start)\"")
        }
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }

    static func video(_ node: Node) throws(CatalogueError) -> CatalogueVideo {
        _ = try node.object()
        var video = CatalogueVideo(id: try node["id"].requiredID())
        video.referenceId = try node["reference_id"].optionalText()
        video.accountId = try node["account_id"].optionalID()
        video.name = try node["name"].optionalText()
        video.description = try node["description"].optionalText()
        video.longDescription = try node["long_description"].optionalText()
        video.durationSeconds = try node["duration"].optionalNumber().map { $0 / 1000 }
        video.posterURL = try node["poster"].optionalText()
        video.thumbnailURL = try node["thumbnail"].optionalText()
        video.posterSources = try sourceURLs(node["poster_sources"])
        video.thumbnailSources = try sourceURLs(node["thumbnail_sources"])
        video.sources = try node["sources"].array().map { (entry) throws(CatalogueError) in try source(entry) }
        video.textTracks = try node["text_tracks"].array().map { (entry) throws(CatalogueError) in try textTrack(entry) }
        video.cuePoints = try node["cue_points"].array().map { (entry) throws(CatalogueError) in try cuePoint(entry) }
        video.tags = try node["tags"].array().map { (entry) throws(CatalogueError) in try entry.requiredText() }
        let fields = node["custom_fields"]
        if fields.value != nil, !(fields.value is NSNull) {
            for (key, value) in try fields.object() {
                if let text = Node.scalarText(value) { video.customFields[key] = text } else if !(value is NSNull) {
                    throw .malformed(url: node.url, path: fields.path + "." + key, problem: "a custom field must be text, a number or a boolean")
                }
            }
        }
        return video
    }

    /// The `src` of each object of an array of `{"src": …}` (poster, thumbnail and text track sources).
    static func sourceURLs(_ node: Node) throws(CatalogueError) -> [String] {
        var urls: [String] = []
        for entry in try node.array() {
            if let url = try entry["src"].optionalText() { urls.append(url) }
        }
        return urls
    }

    static func source(_ node: Node) throws(CatalogueError) -> CatalogueSource {
        _ = try node.object()
        var source = CatalogueSource(src: try node["src"].optionalText())
        source.type = try node["type"].optionalText()
        source.container = try node["container"].optionalText()
        let codecs = try node["codecs"].optionalText()
        source.codecs = codecs
        if codecs == nil { source.codecs = try node["codec"].optionalText() }
        source.hlsVersion = try node["ext_x_version"].optionalID()
        source.width = try node["width"].optionalInt()
        source.height = try node["height"].optionalInt()
        source.averageBitrate = try node["avg_bitrate"].optionalInt()
        let systems = node["key_systems"]
        if systems.value != nil, !(systems.value is NSNull) {
            for name in try systems.object().keys.sorted() {
                let entry = systems[name]
                var system = CatalogueKeySystem(name: name)
                if entry.value is [String: Any] {
                    let license = try entry["license_url"].optionalText()
                    system.licenseURL = license
                    if license == nil { system.licenseURL = try entry["key_request_url"].optionalText() }
                    system.certificateURL = try entry["certificate_url"].optionalText()
                }
                source.keySystems.append(system)
            }
        }
        return source
    }

    static func textTrack(_ node: Node) throws(CatalogueError) -> CatalogueTextTrack {
        _ = try node.object()
        var track = CatalogueTextTrack()
        track.id = try node["id"].optionalID()
        track.src = try node["src"].optionalText()
        track.sources = try sourceURLs(node["sources"])
        track.language = try node["srclang"].optionalText()
        track.label = try node["label"].optionalText()
        track.kind = try node["kind"].optionalText()
        track.mimeType = try node["mime_type"].optionalText()
        track.isDefault = try node["default"].optionalBool() ?? false
        return track
    }

    static func cuePoint(_ node: Node) throws(CatalogueError) -> CatalogueCuePoint {
        _ = try node.object()
        guard let time = try node["time"].optionalNumber() else {
            throw .malformed(url: node.url, path: node.path + ".time", problem: "a cue point needs its time in seconds")
        }
        var cue = CatalogueCuePoint(timeSeconds: time)
        cue.id = try node["id"].optionalID()
        cue.name = try node["name"].optionalText()
        cue.type = try node["type"].optionalText()
        cue.metadata = try node["metadata"].optionalText()
        cue.forceStop = try node["force_stop"].optionalBool() ?? false
        return cue
    }

    /// A value in a parsed document with its JSON path, for errors that say where.
    struct Node {
        var value: Any?
        var path: String
        var url: String

        subscript(key: String) -> Node {
            Node(value: (value as? [String: Any])?[key], path: path + "." + key, url: url)
        }

        private func fail(_ problem: String) -> CatalogueError { .malformed(url: url, path: path, problem: problem) }

        private var isAbsent: Bool { value == nil || value is NSNull }

        /// What a JSON value is, for messages.
        private var kind: String {
            switch value {
            case nil, is NSNull: "null"
            case is String: "text"
            case is [Any]: "an array"
            case is [String: Any]: "an object"
            case let number as NSNumber: Node.isBoolean(number) ? "a boolean" : "a number"
            default: "an unknown value"
            }
        }

        func object() throws(CatalogueError) -> [String: Any] {
            guard let object = value as? [String: Any] else { throw fail("expected an object, found \(kind)") }
            return object
        }

        /// The elements with their paths; an absent or null value is an empty array.
        func array() throws(CatalogueError) -> [Node] {
            if isAbsent { return [] }
            guard let array = value as? [Any] else { throw fail("expected an array, found \(kind)") }
            return array.enumerated().map { Node(value: $1, path: "\(path)[\($0)]", url: url) }
        }

        func optionalText() throws(CatalogueError) -> String? {
            if isAbsent { return nil }
            guard let text = value as? String else { throw fail("expected text, found \(kind)") }
            return text
        }

        func requiredText() throws(CatalogueError) -> String {
            guard let text = try optionalText() else { throw fail("missing (text expected)") }
            return text
        }

        /// Text, or an integer written as a number (ids are text in the API, numbers in some copies).
        func optionalID() throws(CatalogueError) -> String? {
            if isAbsent { return nil }
            if let text = value as? String { return text }
            if let number = value as? NSNumber, !Node.isBoolean(number), number.doubleValue == number.doubleValue.rounded() {
                return String(number.int64Value)
            }
            throw fail("expected an id (text or an integer), found \(kind)")
        }

        func requiredID() throws(CatalogueError) -> String {
            guard let id = try optionalID(), !id.isEmpty else { throw fail(isAbsent ? "missing (an id is required)" : "empty (an id is required)") }
            return id
        }

        func optionalNumber() throws(CatalogueError) -> Double? {
            if isAbsent { return nil }
            if let number = value as? NSNumber, !Node.isBoolean(number), number.doubleValue.isFinite { return number.doubleValue }
            if let text = value as? String, let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite { return number }
            throw fail("expected a number, found \(kind)")
        }

        func optionalInt() throws(CatalogueError) -> Int? {
            guard let number = try optionalNumber() else { return nil }
            guard number == number.rounded(), abs(number) < 9e15 else { throw fail("expected an integer, found \(number)") }
            return Int(number)
        }

        func optionalBool() throws(CatalogueError) -> Bool? {
            if isAbsent { return nil }
            if let number = value as? NSNumber, Node.isBoolean(number) { return number.boolValue }
            if let text = value as? String, ["true", "false"].contains(text.lowercased()) { return text.lowercased() == "true" }
            throw fail("expected a boolean, found \(kind)")
        }

        /// A scalar as text: strings as they are, integers without a fraction, booleans as true/false.
        static func scalarText(_ value: Any) -> String? {
            if let text = value as? String { return text }
            if let number = value as? NSNumber {
                if isBoolean(number) { return number.boolValue ? "true" : "false" }
                let double = number.doubleValue
                return double == double.rounded() && abs(double) < 9e15 ? String(Int64(double)) : String(double)
            }
            return nil
        }

        /// Whether a number JSONSerialization gave is a JSON boolean.
        static func isBoolean(_ number: NSNumber) -> Bool {
            #if canImport(Darwin)
            return CFGetTypeID(number) == CFBooleanGetTypeID()
            #else
            // swift-corelibs-foundation gives JSON booleans as its boolean subclass, whose type is "c".
            return type(of: number) != NSNumber.self && String(cString: number.objCType) == "c"
            #endif
        }
    }
}
