import PlayheadHLS
import Testing

/// Builds media playlists as text and parses them with `Playlist.parse`, so tests exercise the same
/// model the player gets from the network.
enum SyntheticPlaylist {
    /// A playlist of `count` segments numbered from `first`, each `segmentSeconds` long.
    /// - Parameters:
    ///   - first: EXT-X-MEDIA-SEQUENCE.
    ///   - count: number of segments.
    ///   - targetSeconds: EXT-X-TARGETDURATION.
    ///   - segmentSeconds: every EXTINF.
    ///   - discontinuitySequence: EXT-X-DISCONTINUITY-SEQUENCE.
    ///   - discontinuityBefore: media sequence numbers preceded by EXT-X-DISCONTINUITY.
    ///   - header: extra tags after the header (EXT-X-START, EXT-X-SERVER-CONTROL, playlist type).
    ///   - endList: append EXT-X-ENDLIST.
    ///   - name: how segment URIs start (`seg12.ts`).
    ///   - nameOffset: added to the media sequence number in the URI (an origin that numbers its
    ///     playlist apart from its file names).
    static func window(first: Int, count: Int, targetSeconds: Int = 6, segmentSeconds: Double = 6,
                       discontinuitySequence: Int = 0, discontinuityBefore: Set<Int> = [],
                       header: [String] = [], endList: Bool = false, name: String = "seg",
                       nameOffset: Int = 0) throws -> MediaPlaylist {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:\(targetSeconds)",
                     "#EXT-X-MEDIA-SEQUENCE:\(first)", "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)"]
        lines += header
        for sequence in first..<(first + count) {
            if discontinuityBefore.contains(sequence) { lines.append("#EXT-X-DISCONTINUITY") }
            lines += ["#EXTINF:\(segmentSeconds),", "\(name)\(sequence + nameOffset).ts"]
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return try parse(lines.joined(separator: "\n") + "\n")
    }

    /// Parses playlist text that must be a media playlist.
    static func parse(_ text: String) throws -> MediaPlaylist {
        try #require(try Playlist.parse(text).playlist.media)
    }
}
