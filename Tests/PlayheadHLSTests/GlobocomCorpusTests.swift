// Corpus comparison against the Python m3u8 6.0.0 library (`<name>.pym3u8.json`); `index.json`
// says which files that library parses (`nonstrict_parse == "ok"`); only those must parse here.
//
// Field mapping (theirs → ours):
//   segments[].uri                     → MediaSegment.uri
//   segments[].duration                → MediaSegment.duration (seconds)
//   segments[].byterange "n@o" | "n"   → MediaSegment.byteRange (their text is as written; an
//                                        absent offset is compared only by length, ours is resolved)
//   segments[].key{method,uri,iv}      → MediaSegment.key; their IV is "0X…" text, ours bytes;
//                                        their METHOD=NONE key has uri "", ours nil
//   segments[].init_section{uri,byterange} → MediaSegment.map{uri,byteRange}
//   segments[].discontinuity           → MediaSegment.discontinuity
//   targetduration                     → MediaPlaylist.targetDuration
//   media_sequence                     → MediaPlaylist.mediaSequence (None → 0)
//   is_endlist                         → MediaPlaylist.endList
//   playlists[].uri                    → VariantStream.uri
//   playlists[].stream_info.bandwidth  → VariantStream.bandwidth
//   playlists[].stream_info.resolution → VariantStream.resolution ("WxH" text or [w, h])
//   playlists[].stream_info.codecs     → VariantStream.codecs
//   iframe_playlists[]…                → MultivariantPlaylist.iFrameVariants[], same fields
import Foundation
import PlayheadHLS
import Testing

/// Files Python m3u8 accepts and we reject, each with the reason.
let globocomExpectedFailures: [String: String] = [
    "WINDOWS_PLAYLIST": "line 1 is a stray `\\` before #EXTM3U: missing header is an error by design",
    "VARIANT_PLAYLIST_WITH_STABLE_VARIANT_ID": "the file has no #EXTM3U line (missing header is an error by design)",
    "VARIANT_PLAYLIST_WITH_IFRAME_STABLE_VARIANT_ID": "the file has no #EXTM3U line (missing header is an error)",
    "VARIANT_PLAYLIST_WITH_STABLE_RENDITION_ID": "the file has no #EXTM3U line (missing header is an error)",
    "VARIANT_PLAYLIST_WITH_HDCP_LEVEL": "EXT-X-STREAM-INF without BANDWIDTH (required attribute): error by design",
    "VARIANT_PLAYLIST_WITH_IFRAME_HDCP_LEVEL": "EXT-X-STREAM-INF without BANDWIDTH: error by design",
    "VARIANT_PLAYLIST_WITH_VIDEO_RANGE": "EXT-X-STREAM-INF without BANDWIDTH: error by design",
    "VARIANT_PLAYLIST_WITH_IFRAME_VIDEO_RANGE": "EXT-X-STREAM-INF without BANDWIDTH: error by design",
    "PLAYLIST_WITH_SLASH_IN_QUERY_STRING": "ends with an EXTINF that has no URI: treated as truncated, error by design",
    "PLAYLIST_WITH_TAG_MEDIA_READY": "IV=[IV] is a template placeholder, not a hexadecimal sequence: bad value error",
]

/// Individual fields where Python m3u8 differs, per file.
let globocomFieldExceptions: [String: (field: String, reason: String)] = [
    "SIMPLE_PLAYLIST_MESSY": ("segments.count",
        "Python drops the URI line `JUNK` that has no EXTINF; we keep it as a segment with a missing-extinf "
            + "warning, as videojs does (see videojs missingExtinf)"),
    "INVALID_VERSIONED__M3U8_RULE_BYTE_RANGE": ("segments[0].byteRange",
        "`#EXT-X-BYTERANGE: 200000@1000` is length 200000 at offset 1000; Python reports length 1000"),
]

@Suite struct GlobocomCorpusTests {
    static let folder = "m3u8/globocom-m3u8"

    @Test(.enabled(if: Corpus.root != nil, Corpus.skipComment))
    func everyAcceptedPlaylistParsesAndAgrees() throws {
        let dir = try #require(Corpus.root).appendingPathComponent(Self.folder)
        let index = try Corpus.json(dir.appendingPathComponent("index.json"))
        let entries = index["entries"] as? [[String: Any]] ?? []
        var compared = 0
        var mismatches: [String] = []
        for entry in entries where entry["nonstrict_parse"] as? String == "ok" {
            guard let file = entry["file"] as? String else { continue }
            let url = dir.appendingPathComponent(file)
            let name = Corpus.name(url)
            let expected = try Corpus.json(url.deletingPathExtension().appendingPathExtension("pym3u8.json"))
            let parsed: ParsedPlaylist
            do {
                parsed = try Playlist.parse(data: try Corpus.bytes(url))
            } catch {
                if globocomExpectedFailures[name] == nil { mismatches.append("\(name): unexpected error \(error)") }
                continue
            }
            if globocomExpectedFailures[name] != nil { mismatches.append("\(name): expected to fail but parsed") }
            var diff = FieldDiff(file: name, exceptions: globocomFieldExceptions[name].map { [$0.field] } ?? [])
            compare(parsed.playlist, expected, &diff)
            mismatches += diff.problems
            compared += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(compared >= 90)
    }

    private func compare(_ playlist: Playlist, _ e: [String: Any], _ d: inout FieldDiff) {
        let theirVariants = e["playlists"] as? [[String: Any]] ?? []
        let theirIFrames = e["iframe_playlists"] as? [[String: Any]] ?? []
        switch playlist {
        case .multivariant(let m):
            compareVariants("variants", m.variants, theirVariants, "stream_info", &d)
            compareVariants("iFrameVariants", m.iFrameVariants, theirIFrames, "iframe_stream_info", &d)
        case .media(let m):
            d.check("variants.count", 0, theirVariants.count)
            d.check("targetDuration", m.targetDuration, e["targetduration"] as? Int)
            d.check("mediaSequence", m.mediaSequence, e["media_sequence"] as? Int ?? 0)
            d.check("endList", m.endList, e["is_endlist"] as? Bool ?? false)
            // Python lists the parts after the last full segment as one more segment without a
            // URI; we keep them in `trailingParts`.
            let all = e["segments"] as? [[String: Any]] ?? []
            let segs = all.filter { $0["uri"] is String }
            d.check("trailingParts.isEmpty", m.trailingParts.isEmpty, segs.count == all.count)
            d.check("segments.count", m.segments.count, segs.count)
            for (i, (s, t)) in zip(m.segments, segs).enumerated() {
                let p = "segments[\(i)]"
                d.check("\(p).uri", s.uri, t["uri"] as? String)
                d.check("\(p).duration", s.duration, (t["duration"] as? NSNumber)?.doubleValue)
                d.check("\(p).discontinuity", s.discontinuity, t["discontinuity"] as? Bool ?? false)
                checkRange("\(p).byteRange", s.byteRange, t["byterange"] as? String, &d)
                let key = t["key"] as? [String: Any]
                d.check("\(p).key.method", s.key?.method.text, key?["method"] as? String)
                let ourKeyURI = s.key?.uri.flatMap { $0.isEmpty ? nil : $0 }  // METHOD=NONE,URI=""
                d.check("\(p).key.uri", ourKeyURI, (key?["uri"] as? String).flatMap { $0.isEmpty ? nil : $0 })
                d.check("\(p).key.iv", s.key?.iv, (key?["iv"] as? String).flatMap { HexBytes.decode(Substring($0)) })
                let map = t["init_section"] as? [String: Any]
                d.check("\(p).map.uri", s.map?.uri, map?["uri"] as? String)
                checkRange("\(p).map.byteRange", s.map?.byteRange, map?["byterange"] as? String, &d)
            }
        }
    }

    private func compareVariants(_ field: String, _ ours: [VariantStream], _ theirs: [[String: Any]],
                                 _ infoKey: String, _ d: inout FieldDiff) {
        d.check("\(field).count", ours.count, theirs.count)
        for (i, (v, t)) in zip(ours, theirs).enumerated() {
            let info = t[infoKey] as? [String: Any] ?? [:]
            d.check("\(field)[\(i)].uri", v.uri, t["uri"] as? String)
            d.check("\(field)[\(i)].bandwidth", v.bandwidth, info["bandwidth"] as? Int)
            d.check("\(field)[\(i)].codecs", v.codecs, info["codecs"] as? String)
            var theirResolution: Resolution?
            if let text = info["resolution"] as? String {
                let parts = text.split(separator: "x").compactMap { Int($0) }
                if parts.count == 2 { theirResolution = Resolution(width: parts[0], height: parts[1]) }
            } else if let pair = info["resolution"] as? [Int], pair.count == 2 {
                theirResolution = Resolution(width: pair[0], height: pair[1])
            }
            d.check("\(field)[\(i)].resolution", v.resolution, theirResolution)
        }
    }

    private func checkRange(_ field: String, _ ours: ByteRange?, _ theirs: String?, _ d: inout FieldDiff) {
        let parts = theirs?.split(separator: "@").compactMap { Int($0) } ?? []
        d.check(field + ".length", ours?.length, parts.first)
        if parts.count == 2 { d.check(field + ".offset", ours?.offset, parts[1]) }
    }
}
