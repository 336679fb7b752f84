/// Picks the media file Playhead plays for a linear creative. Playhead splices HLS ads into HLS
/// content, so only HLS media qualify; among several HLS files the first with streaming delivery
/// wins, else the first in document order.
public enum VASTMediaSelector {
    /// The outcome of a selection.
    public enum Selection: Sendable, Equatable {
        /// An HLS playlist to play.
        case hls(VASTMediaFile)
        /// Media exist but none is HLS (typically MP4 only); the MIME types found are listed.
        case noHLS(mimeTypes: [String])
        /// The creative has no media file at all.
        case noMedia
    }

    /// Chooses among `files`.
    ///
    /// - Parameter files: a linear creative's media files in document order.
    /// - Returns: the HLS file to play, or why there is none.
    public static func select(_ files: [VASTMediaFile]) -> Selection {
        guard !files.isEmpty else { return .noMedia }
        let hls = files.filter(\.isHLS)
        if let streaming = hls.first(where: { $0.delivery?.lowercased() == "streaming" }) { return .hls(streaming) }
        if let first = hls.first { return .hls(first) }
        var seen: [String] = []
        for mime in files.map({ $0.mimeType ?? "unknown" }) where !seen.contains(mime) { seen.append(mime) }
        return .noHLS(mimeTypes: seen)
    }
}
