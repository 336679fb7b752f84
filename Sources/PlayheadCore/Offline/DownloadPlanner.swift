import PlayheadHLS
import PlayheadNet

/// A download before any media is fetched: the manifest (every file pending) and the rewritten
/// playlists' text by path.
public struct DownloadPlan: Sendable {
    /// The manifest to write first.
    public var manifest: DownloadManifest
    /// Each playlist to write (`master.m3u8` and the kept media playlists), by path inside the folder.
    public var playlists: [(path: String, source: String, text: String)]
}

/// Fetches a stream's playlists, chooses what to keep and rewrites the playlists to name local files.
///
/// Layout: `master.m3u8` at the top: for a multivariant source, a multivariant playlist naming only the
/// kept variant (`variant/index.m3u8`) and renditions (`audio-en/index.m3u8`, `subtitles-fr/…`, …); for a
/// media playlist source, the media playlist itself with its files in `media/`. Each media playlist's
/// segments, init sections and keys are files beside it (keys in `keys/`), named by relative URIs. A
/// resource that EXT-X-BYTERANGE tags cut is downloaded whole, once, and the ranges are kept: no Range
/// request is made, so a server without Range support costs nothing more. Every other tag is kept
/// (DISCONTINUITY, PROGRAM-DATE-TIME, DATERANGE, cue and unknown tags, EXT-X-MAP); variable references
/// are written substituted (EXT-X-DEFINE dropped); I-frame variants, session keys, session data with a
/// URI, content steering and low-latency parts are left out.
public struct DownloadPlanner: Sendable {
    /// The loader the playlists are fetched with.
    public let loader: PlaylistLoader

    /// Creates a planner fetching with `client`.
    public init(client: HTTPClient) { loader = PlaylistLoader(client: client) }

    /// Attempts at a playlist: a transient failure (5xx, 408, 429, a timeout, a transport error) is tried again
    /// after 0.5 s, then 1 s, 2 s, as the downloader's files are.
    static let playlistAttempts = 4

    /// Loads a playlist, trying again after transient failures.
    private func load(_ url: String, imported: [String: String] = [:]) async throws(PlayheadError) -> LoadedPlaylist {
        var delay = Duration.milliseconds(500)
        var attempt = 1
        while true {
            do {
                return try await loader.load(url, imported: imported)
            } catch {
                guard attempt < Self.playlistAttempts, case let .network(failure) = error, failure.isRetryable,
                      (try? await Task.sleep(for: delay)) != nil else { throw error }
                delay *= 2
                attempt += 1
            }
        }
    }

    /// Plans the download of `request`.
    /// - Throws: `DownloadError.player` (a playlist that fails or does not parse), `.live`, `.noMatch`.
    public func plan(_ request: DownloadRequest) async throws(DownloadError) -> DownloadPlan {
        let first: LoadedPlaylist
        do { first = try await load(request.source) } catch { throw .player(error) }
        var names = LocalNames(reserved: [DownloadManifest.fileName, "master.m3u8"])
        var chosen = DownloadChoice()
        var playlists: [(path: String, source: String, text: String)] = []
        switch first.parsed.playlist {
        case let .media(media):
            if request.variantIndex != nil || request.bitrate != nil {
                chosen.notes.append("\(request.source) is a media playlist: no variant to choose")
            }
            let local = try localize(media, url: request.source, baseURL: first.effectiveURL, path: "master.m3u8", folder: "media",
                                     names: &names, notes: &chosen.notes)
            playlists.append(("master.m3u8", request.source, local.serialize()))
        case let .multivariant(multivariant):
            let (index, reason) = try chooseVariant(multivariant.variants, request: request, url: request.source)
            var variant = multivariant.variants[index]
            if reason.hasPrefix("none at or below") { chosen.notes.append("no variant at or below \(request.bitrate ?? 0) bit/s: kept the lowest") }
            let variantURL: String
            do { variantURL = try ResourceURL.resolve(variant.uri, against: first.effectiveURL) } catch { throw .player(error) }
            chosen.variant = ChosenVariant(index: index, bandwidth: variant.bandwidth,
                                           resolution: variant.resolution.map { "\($0.width)x\($0.height)" }, codecs: variant.codecs,
                                           audioOnly: variant.isAudioOnly, source: variantURL, reason: reason)
            // Each kept media playlist once (a rendition may share the variant's playlist).
            var folderByURL: [String: String] = [:]
            var jobs: [(url: String, folder: String)] = []
            func folder(for url: String, wanted: String) -> String {
                if let known = folderByURL[url] { return known }
                var name = wanted
                var number = 2
                while folderByURL.values.contains(name) { name = "\(wanted)-\(number)"; number += 1 }
                folderByURL[url] = name
                jobs.append((url, name))
                names.reserve(name + "/index.m3u8")
                return name
            }
            variant.uri = folder(for: variantURL, wanted: "variant") + "/index.m3u8"
            var renditions: [Rendition] = []
            for rendition in try keptRenditions(of: variant, in: multivariant, request: request, url: request.source) {
                var kept = rendition
                var record = ChosenRendition(type: rendition.type.text, name: rendition.name, language: rendition.language)
                if let uri = rendition.uri {
                    let url: String
                    do { url = try ResourceURL.resolve(uri, against: first.effectiveURL) } catch { throw .player(error) }
                    let label = rendition.language ?? rendition.name
                    let name = folder(for: url, wanted: LocalNames.folderName(type: rendition.type.text.lowercased(), label: label))
                    kept.uri = name + "/index.m3u8"
                    record.source = url
                    record.path = kept.uri
                }
                renditions.append(kept)
                switch rendition.type {
                case .audio: chosen.audio.append(record)
                case .subtitles: chosen.subtitles.append(record)
                default: chosen.other.append(record)
                }
            }
            var master = multivariant
            master.defines = []
            master.variants = [variant]
            master.iFrameVariants = []
            master.media = renditions
            master.sessionData = multivariant.sessionData.filter { $0.uri == nil }
            master.sessionKeys = []
            master.contentSteering = nil
            variant.pathwayId = nil
            // A group none of whose renditions is kept (`--subtitles none`) is no longer named by the variant.
            if let group = variant.subtitles, !renditions.contains(where: { $0.type == .subtitles && $0.groupId == group }) { variant.subtitles = nil }
            if let group = variant.audio, !renditions.contains(where: { $0.type == .audio && $0.groupId == group }) { variant.audio = nil }
            master.variants = [variant]
            playlists.append(("master.m3u8", request.source, master.serialize()))
            for job in jobs {
                let loaded: LoadedPlaylist
                do { loaded = try await load(job.url, imported: multivariant.variableValues) } catch { throw .player(error) }
                guard case let .media(media) = loaded.parsed.playlist else {
                    throw .player(.unexpectedPlaylist(url: job.url, detail: "a multivariant playlist where a media playlist was expected"))
                }
                let path = job.folder + "/index.m3u8"
                let local = try localize(media, url: job.url, baseURL: loaded.effectiveURL, path: path, folder: job.folder,
                                         names: &names, notes: &chosen.notes)
                playlists.append((path, job.url, local.serialize()))
            }
        }
        let playlistFiles = playlists.map { DownloadFile(path: $0.path, source: $0.source, kind: .playlist) }
        let manifest = DownloadManifest(request: request, chosen: chosen, status: .pending, files: playlistFiles + names.files)
        return DownloadPlan(manifest: manifest, playlists: playlists)
    }

    /// The kept variant's index and why: `--variant N`; the highest at or below `--bitrate` (else the
    /// lowest); by default the highest BANDWIDTH (among the video variants when there are any).
    func chooseVariant(_ variants: [VariantStream], request: DownloadRequest, url: String) throws(DownloadError) -> (Int, String) {
        guard !variants.isEmpty else { throw .player(.noSuchVariant(url: url, detail: "multivariant playlist lists no variants")) }
        if let index = request.variantIndex {
            guard variants.indices.contains(index) else {
                throw .player(.noSuchVariant(url: url, detail: "no variant \(index); the playlist has \(variants.count) (0...\(variants.count - 1))"))
            }
            return (index, "--variant \(index)")
        }
        let candidates = variants.playableIndices
        if let limit = request.bitrate {
            let index: Int
            do { index = try VariantChoice.bandwidth(limit).pick(from: variants, url: url) } catch { throw .player(error) }
            if variants[index].bandwidth <= limit { return (index, "the highest at or below \(limit) bit/s") }
            return (index, "none at or below \(limit) bit/s: the lowest")
        }
        let highest = candidates.max { variants[$0].bandwidth < variants[$1].bandwidth }!
        return (highest, "the highest BANDWIDTH")
    }

    /// The renditions of the variant's groups that are kept: every VIDEO and CLOSED-CAPTIONS rendition,
    /// the AUDIO and SUBTITLES ones as the request chooses.
    func keptRenditions(of variant: VariantStream, in multivariant: MultivariantPlaylist, request: DownloadRequest,
                        url: String) throws(DownloadError) -> [Rendition] {
        func group(_ type: MediaType, _ id: String?) -> [Rendition] {
            guard let id else { return [] }
            return multivariant.media.filter { $0.type == type && $0.groupId == id }
        }
        func matching(_ renditions: [Rendition], _ wanted: [String], what: String) throws(DownloadError) -> [Rendition] {
            for word in wanted where !renditions.contains(where: { Self.matches($0, word) }) {
                let offered = renditions.map { "\($0.name)" + ($0.language.map { " (\($0))" } ?? "") }
                throw .noMatch(url: url, detail: "no \(what) rendition of the kept variant has LANGUAGE or NAME \"\(word)\""
                    + (offered.isEmpty ? " (it has none)" : " (there are: \(offered.joined(separator: ", ")))"))
            }
            return renditions.filter { rendition in wanted.isEmpty || wanted.contains { Self.matches(rendition, $0) } }
        }
        let audio = try matching(group(.audio, variant.audio), request.audio, what: "AUDIO")
        let subtitles: [Rendition]
        switch request.subtitles {
        case .all: subtitles = group(.subtitles, variant.subtitles)
        case .none: subtitles = []
        case let .matching(words): subtitles = try matching(group(.subtitles, variant.subtitles), words, what: "SUBTITLES")
        }
        var captions: [Rendition] = []
        if case let .group(id) = variant.closedCaptions { captions = group(.closedCaptions, id) }
        let keep = group(.video, variant.video) + audio + subtitles + captions
        // In the source's order.
        return multivariant.media.filter { rendition in keep.contains(rendition) }
    }

    /// Whether `word` is the rendition's LANGUAGE or NAME (case-insensitive).
    static func matches(_ rendition: Rendition, _ word: String) -> Bool {
        rendition.name.lowercased() == word.lowercased() || rendition.language?.lowercased() == word.lowercased()
    }

    /// The media playlist rewritten to name local files (recorded in `names`); refuses a live one.
    func localize(_ media: MediaPlaylist, url: String, baseURL: String, path: String, folder: String,
                  names: inout LocalNames, notes: inout [String]) throws(DownloadError) -> MediaPlaylist {
        guard media.endList else { throw .live(url: url) }
        var local = media
        local.defines = []
        local.serverControl = nil
        local.partInf = nil
        local.skip = nil
        local.trailingParts = []
        local.preloadHints = []
        local.renditionReports = []
        func localURI(_ uri: String, kind: DownloadFile.Kind, range: ByteRange?) throws(DownloadError) -> String {
            let resolved: String
            do { resolved = try ResourceURL.resolve(uri, against: baseURL) } catch { throw .player(error) }
            let file = names.path(for: resolved, kind: kind, folder: kind == .key ? "keys" : folder, rangeEnd: range?.endOffset)
            return LocalNames.relativeURI(from: path, to: file)
        }
        /// `decrypts`: the key the player decrypts with (a segment's primary key): an AES-128 key of another
        /// KEYFORMAT with no identity key beside it is fetched as a raw key, so it is downloaded too.
        func localKey(_ key: SegmentKey, decrypts: Bool = false) throws(DownloadError) -> SegmentKey {
            guard key.method != .none, let uri = key.uri, !uri.hasPrefix("data:") else { return key }
            var key = key
            if key.isIdentityFormat || (decrypts && key.method == .aes128) {
                key.uri = try localURI(uri, kind: .key, range: nil)
            } else {
                // A DRM system's key (FairPlay, Widevine, …) needs its license server: named by its absolute URL.
                do { key.uri = try ResourceURL.resolve(uri, against: baseURL) } catch { throw .player(error) }
                let note = "\(url): KEYFORMAT \"\(key.keyFormat ?? "")\" keys are not downloaded (they need a license server)"
                if !notes.contains(note) { notes.append(note) }
            }
            return key
        }
        for index in local.segments.indices {
            var segment = local.segments[index]
            segment.parts = []
            if segment.gap {
                // EXT-X-GAP: nothing to fetch (the resource may not exist); named by its absolute URL.
                do { segment.uri = try ResourceURL.resolve(segment.uri, against: baseURL) } catch { throw .player(error) }
            } else {
                segment.uri = try localURI(segment.uri, kind: .segment, range: segment.byteRange)
            }
            if var map = segment.map {
                map.uri = try localURI(map.uri, kind: .initSection, range: map.byteRange)
                var mapKeys: [SegmentKey] = []
                for key in map.keys { mapKeys.append(try localKey(key)) }
                map.keys = mapKeys
                segment.map = map
            }
            if let key = segment.key { segment.key = try localKey(key, decrypts: true) }
            var others: [SegmentKey] = []
            for key in segment.otherKeys { others.append(try localKey(key)) }
            segment.otherKeys = others
            local.segments[index] = segment
        }
        return local
    }
}
