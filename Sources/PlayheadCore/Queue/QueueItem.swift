import Foundation

/// One entry of a ``PlaybackQueue``: a playlist URL to play, or an entry that could not be resolved
/// (a catalogue video without an HLS source, a lookup that failed), which the queue reports as failed
/// when its turn comes and then goes on.
public struct QueueItem: Sendable, Equatable, Codable {
    /// What the entry is for.
    public enum Role: String, Sendable, Equatable, Codable {
        /// The content asked for.
        case content
        /// A bumper played before content (the PSDK's bumper support).
        case bumper
    }

    /// The multivariant or media playlist to play; nil when the entry could not be resolved.
    public var url: String?
    /// How messages and reports name it: the URL, or `bc:ID` with the video's name.
    public var title: String
    /// The catalogue video id, for entries made from one.
    public var videoId: String?
    /// Content or bumper.
    public var role: Role
    /// Why the entry cannot play (it was not resolved); nil for a playable entry.
    public var failure: String?

    /// An entry playing `url`.
    public init(url: String, title: String? = nil, videoId: String? = nil, role: Role = .content) {
        self.url = url
        self.title = title ?? url
        self.videoId = videoId
        self.role = role
        failure = nil
    }

    /// An entry that will fail with `reason` when its turn comes.
    public static func failed(title: String, reason: String, videoId: String? = nil, role: Role = .content) -> QueueItem {
        var item = QueueItem(url: "", title: title, videoId: videoId, role: role)
        item.url = nil
        item.failure = reason
        return item
    }

    /// An entry for a catalogue video: the source `policy` selects, or a failed entry saying why there is none.
    public static func video(_ video: CatalogueVideo, policy: SourceSelectionPolicy = .default, role: Role = .content) -> QueueItem {
        let title = "bc:\(video.id)" + (video.name.map { " (\($0))" } ?? "")
        do {
            let source = try policy.select(from: video)
            return QueueItem(url: source.src ?? "", title: title, videoId: video.id, role: role)
        } catch {
            return .failed(title: title, reason: error.description, videoId: video.id, role: role)
        }
    }
}

/// How a bumper is placed in a queue.
public enum BumperPlacement: String, Sendable, Equatable, Codable {
    /// Once, before the first content item (a player's bumper before its playlist).
    case once
    /// Before every content item.
    case everyItem
}
