import PlayheadHLS

/// The human-readable form of `playhead inspect playlist`.
enum PlaylistSummary {
    static func text(_ parsed: ParsedPlaylist, url: String) -> String {
        var out = ""
        switch parsed.playlist {
        case let .multivariant(playlist):
            out += "multivariant playlist \(url)\n"
            out += "  \(playlist.variants.count) variants, \(playlist.iFrameVariants.count) I-frame variants, \(playlist.media.count) renditions\n"
            for (index, variant) in playlist.variants.enumerated() {
                let resolution = variant.resolution.map { " \($0.width)x\($0.height)" } ?? ""
                out += "  [\(index)] \(variant.bandwidth) bit/s\(resolution)\(variant.codecs.map { " \($0)" } ?? "")  \(variant.uri)\n"
            }
            for media in playlist.media {
                out += "  \(media.type) group \(media.groupId) \"\(media.name)\"\(media.uri.map { "  \($0)" } ?? "")\n"
            }
        case let .media(playlist):
            let kind = playlist.endList ? "VOD" : (playlist.playlistType == .event ? "event" : "live")
            out += "media playlist \(url) (\(kind))\n"
            out += "  \(playlist.segments.count) segments, \(String(format: "%.3f", playlist.totalDurationSeconds)) s, target duration \(playlist.targetDuration.map(String.init) ?? "?") s, media sequence \(playlist.mediaSequence)\n"
            let discontinuities = playlist.segments.filter(\.discontinuity).count
            if discontinuities > 0 { out += "  \(discontinuities) discontinuities\n" }
            out += encryption(playlist.segments)
            if playlist.segments.contains(where: { $0.map != nil }) { out += "  fMP4 (EXT-X-MAP)\n" }
        }
        for warning in parsed.warnings { out += "  warning: \(warning)\n" }
        return out
    }

    /// One line for each kind of key the segments name: how many segments, the method, the key format, and
    /// whether Playhead decrypts it (nothing when no segment is encrypted).
    static func encryption(_ segments: [MediaSegment]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for segment in segments {
            for key in segment.keys where key.method != .none {
                let format = key.isIdentityFormat ? "identity key" : "KEYFORMAT \"\(key.keyFormat ?? "")\""
                let decrypted = switch key.method {
                case .aes128: key.isIdentityFormat || segment.keys.allSatisfy { $0.method == .none || !$0.isIdentityFormat }
                case .sampleAES: key.isIdentityFormat
                default: false
                }
                let line = "METHOD=\(key.method.text), \(format)" + (decrypted ? "" : " (not decrypted here)")
                if counts[line] == nil { order.append(line) }
                counts[line, default: 0] += 1
            }
        }
        return order.map { "  encrypted: \(counts[$0]!) of \(segments.count) segments, \($0)\n" }.joined()
    }
}
