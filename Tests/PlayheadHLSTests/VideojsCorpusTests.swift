// Corpus comparison against videojs/m3u8-parser's object model (`<name>.expected.json`).
//
// Field mapping (theirs → ours):
//   segments[].uri                      → MediaSegment.uri
//   segments[].duration                 → MediaSegment.duration (seconds)
//   segments[].byterange{length,offset} → MediaSegment.byteRange{length,offset} (both resolved)
//   segments[].key{method,uri,iv}       → MediaSegment.key{method,uri,iv}; their `iv` is four
//                                         big-endian UInt32 words, ours 16 bytes; they omit the
//                                         key after METHOD=NONE, we keep `method == .none`
//   segments[].map{uri,byterange}       → MediaSegment.map{uri,byteRange}
//   segments[].discontinuity            → MediaSegment.discontinuity
//   segments[].timeline                 → MediaSegment.discontinuitySequence
//   targetDuration                      → MediaPlaylist.targetDuration
//   mediaSequence                       → MediaPlaylist.mediaSequence (both default to 0)
//   endList                             → MediaPlaylist.endList
//   playlists[].uri                     → VariantStream.uri
//   playlists[].attributes.BANDWIDTH    → VariantStream.bandwidth
//   playlists[].attributes.RESOLUTION   → VariantStream.resolution{width,height}
//   playlists[].attributes.CODECS       → VariantStream.codecs
import Foundation
import PlayheadHLS
import Testing

/// Files videojs accepts and we reject, each with the reason.
let videojsExpectedFailures: [String: String] = [
    "empty": "empty file has no #EXTM3U; videojs accepts any text, we require the header (RFC 8216bis 4.4.1.1)",
    "manifestNoExtM3u": "no #EXTM3U line; missing header is an error by design",
    "start": "the file has no #EXTM3U line; missing header is an error by design",
    "extinf": "`#EXTINF:;asljasdfii11)))00` is not a number: bad-number error by design (videojs drops it)",
    "streamInfInvalid": "EXT-X-STREAM-INF without BANDWIDTH (required, RFC 8216bis 4.4.6.2): error by design",
]

/// Individual fields where videojs differs by convention, per file.
let videojsFieldExceptions: [String: (field: String, reason: String)] = [
    "multipleTargetDurations": ("segments[0].duration",
        "001.ts has neither EXTINF nor a target duration before it: videojs leaves the duration unset, we use 0"),
    "zeroDuration": ("segments[0].duration",
        "EXTINF:0 — videojs replaces a zero duration with 0.01 s; we keep the 0 the playlist says"),
]

@Suite struct VideojsCorpusTests {
    static let folder = "m3u8/videojs-m3u8-parser"

    @Test(.enabled(if: Corpus.root != nil, Corpus.skipComment))
    func everyAcceptedPlaylistParsesAndAgrees() throws {
        let files = Corpus.playlists(Self.folder)
        var compared = 0
        var mismatches: [String] = []
        for url in files {
            let name = Corpus.name(url)
            let expectedURL = url.deletingPathExtension().appendingPathExtension("expected.json")
            guard FileManager.default.fileExists(atPath: expectedURL.path) else { continue }
            let expected = try Corpus.json(expectedURL)
            let parsed: ParsedPlaylist
            do {
                parsed = try Playlist.parse(data: try Corpus.bytes(url))
            } catch {
                if videojsExpectedFailures[name] == nil { mismatches.append("\(name): unexpected error \(error)") }
                continue
            }
            if videojsExpectedFailures[name] != nil { mismatches.append("\(name): expected to fail but parsed") }
            var diff = FieldDiff(file: name, exceptions: videojsFieldExceptions[name].map { [$0.field] } ?? [])
            compare(parsed.playlist, expected, &diff)
            mismatches += diff.problems
            compared += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(compared >= 55)
    }

    private func compare(_ playlist: Playlist, _ e: [String: Any], _ d: inout FieldDiff) {
        let theirVariants = e["playlists"] as? [[String: Any]] ?? []
        switch playlist {
        case .multivariant(let m):
            d.check("variants.count", m.variants.count, theirVariants.count)
            for (i, (v, t)) in zip(m.variants, theirVariants).enumerated() {
                let attrs = t["attributes"] as? [String: Any] ?? [:]
                d.check("variants[\(i)].uri", v.uri, t["uri"] as? String)
                d.check("variants[\(i)].bandwidth", v.bandwidth, attrs["BANDWIDTH"] as? Int)
                d.check("variants[\(i)].codecs", v.codecs, attrs["CODECS"] as? String)
                let r = attrs["RESOLUTION"] as? [String: Any]
                d.check("variants[\(i)].resolution", v.resolution?.width, r?["width"] as? Int)
                d.check("variants[\(i)].resolution", v.resolution?.height, r?["height"] as? Int)
            }
        case .media(let m):
            d.check("variants.count", 0, theirVariants.count)
            d.check("targetDuration", m.targetDuration, e["targetDuration"] as? Int)
            d.check("mediaSequence", m.mediaSequence, e["mediaSequence"] as? Int ?? 0)
            d.check("endList", m.endList, e["endList"] as? Bool ?? false)
            let segs = e["segments"] as? [[String: Any]] ?? []
            d.check("segments.count", m.segments.count, segs.count)
            for (i, (s, t)) in zip(m.segments, segs).enumerated() {
                let p = "segments[\(i)]"
                d.check("\(p).uri", s.uri, t["uri"] as? String)
                d.check("\(p).duration", s.duration, (t["duration"] as? NSNumber)?.doubleValue)
                d.check("\(p).discontinuity", s.discontinuity, t["discontinuity"] as? Bool ?? false)
                d.check("\(p).timeline", s.discontinuitySequence, t["timeline"] as? Int)
                d.checkRange("\(p).byteRange", s.byteRange, t["byterange"] as? [String: Any])
                let key = t["key"] as? [String: Any]
                let ourKey = s.key?.method == KeyMethod.none ? nil : s.key
                d.check("\(p).key.method", ourKey?.method.text, key?["method"] as? String)
                d.check("\(p).key.uri", ourKey?.uri, key?["uri"] as? String)
                d.check("\(p).key.iv", ourKey?.iv, Self.ivBytes(key?["iv"]))
                let map = t["map"] as? [String: Any]
                d.check("\(p).map.uri", s.map?.uri, map?["uri"] as? String)
                d.checkRange("\(p).map.byteRange", s.map?.byteRange, map?["byterange"] as? [String: Any])
            }
        }
    }

    /// videojs writes the IV as four big-endian UInt32 words keyed "0"…"3".
    static func ivBytes(_ value: Any?) -> [UInt8]? {
        guard let words = value as? [String: Any] else { return nil }
        var bytes: [UInt8] = []
        for k in 0..<4 {
            let w = (words[String(k)] as? NSNumber)?.uint32Value ?? 0
            bytes += [UInt8(w >> 24), UInt8(w >> 16 & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w & 0xFF)]
        }
        return bytes
    }
}

/// Collects field mismatches for one file.
struct FieldDiff {
    let file: String
    let exceptions: [String]
    var problems: [String] = []

    mutating func check<T: Equatable>(_ field: String, _ ours: T?, _ theirs: T?) {
        guard ours != theirs, !exceptions.contains(where: { field.hasPrefix($0) }) else { return }
        problems.append("\(file): \(field): ours \(String(describing: ours)) ≠ theirs \(String(describing: theirs))")
    }

    mutating func checkRange(_ field: String, _ ours: ByteRange?, _ theirs: [String: Any]?) {
        check(field + ".length", ours?.length, theirs?["length"] as? Int)
        check(field + ".offset", ours?.offset, theirs?["offset"] as? Int)
    }
}
