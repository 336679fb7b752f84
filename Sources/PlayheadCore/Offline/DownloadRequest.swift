/// What `playhead download` was asked to keep (F33): the source and the choices as given. A folder's
/// manifest records it, and a later run into the same folder must ask for the same to resume there.
public struct DownloadRequest: Sendable, Codable, Equatable {
    /// The multivariant or media playlist's URL.
    public var source: String
    /// The variant by its index as listed (`--variant N`), when given.
    public var variantIndex: Int?
    /// The highest variant at or below this many bits per second (`--bitrate BPS`), when given.
    public var bitrate: Int?
    /// AUDIO renditions to keep, each a LANGUAGE or NAME (case-insensitive); empty keeps them all.
    public var audio: [String]
    /// SUBTITLES renditions to keep: `all`, `none`, or LANGUAGEs and NAMEs (case-insensitive).
    public var subtitles: SubtitleSelection

    /// Creates a request; without a variant or bitrate the highest-BANDWIDTH video variant is kept.
    public init(source: String, variantIndex: Int? = nil, bitrate: Int? = nil, audio: [String] = [], subtitles: SubtitleSelection = .all) {
        self.source = source
        self.variantIndex = variantIndex
        self.bitrate = bitrate
        self.audio = audio
        self.subtitles = subtitles
    }

    /// The choices in the command line's words, e.g. `--bitrate 1000000 --audio fr --subtitles none`.
    public var choiceDescription: String {
        var words: [String] = []
        if let variantIndex { words.append("--variant \(variantIndex)") }
        if let bitrate { words.append("--bitrate \(bitrate)") }
        words += audio.map { "--audio \($0)" }
        switch subtitles {
        case .all: break
        case .none: words.append("--subtitles none")
        case let .matching(names): words += names.map { "--subtitles \($0)" }
        }
        return words.isEmpty ? "(the defaults)" : words.joined(separator: " ")
    }
}

/// Which SUBTITLES renditions a download keeps.
public enum SubtitleSelection: Sendable, Codable, Equatable {
    /// Every subtitle rendition of the kept variant's group.
    case all
    /// None.
    case none
    /// Those whose LANGUAGE or NAME is one of these (case-insensitive).
    case matching([String])

    /// Reads `--subtitles` values: `all`, `none`, or names and languages (`all`/`none` only alone).
    public init?(arguments: [String]) {
        switch arguments.map({ $0.lowercased() }) {
        case []: self = .all
        case ["all"]: self = .all
        case ["none"]: self = .none
        case let words where words.contains("all") || words.contains("none"): return nil
        default: self = .matching(arguments)
        }
    }
}
