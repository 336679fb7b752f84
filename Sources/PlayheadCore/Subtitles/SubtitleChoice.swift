import PlayheadHLS

/// Which subtitle track a session shows (the PSDK's `subtitlesOptions` selection, made up front).
///
/// A headless player has no system language, so `automatic` cannot follow AUTOSELECT: it takes the
/// track marked DEFAULT=YES, else one marked FORCED=YES, else none.
public enum SubtitleChoice: Sendable, Equatable, TrackChoiceSpelling {
    /// No subtitles.
    case off
    /// The DEFAULT=YES track, else a FORCED=YES one, else none.
    case automatic
    /// The track whose NAME equals this, else whose LANGUAGE is this tag or starts with it and `-`
    /// (`en` matches `en-US`), compared without case.
    case track(String)

    /// Reads `off`, `auto` or a track's name or language.
    public init(_ text: String) {
        switch text.lowercased() {
        case "off", "none": self = .off
        case "auto", "automatic", "default": self = .automatic
        default: self = .track(text)
        }
    }

    /// How the choice is written on the command line.
    public var description: String {
        switch self {
        case .off: "off"
        case .automatic: "auto"
        case let .track(name): name
        }
    }

    /// The index in `options` this choice selects, or nil for none.
    public func pick(from options: [SubtitleOption]) -> Int? {
        switch self {
        case .off:
            return nil
        case .automatic:
            return options.firstIndex(where: \.isDefault) ?? options.firstIndex(where: \.forced)
        case let .track(wanted):
            return SubtitleChoice.index(of: wanted, names: options.map(\.name), languages: options.map(\.language))
        }
    }
}

/// A track a choice picks among: an audio rendition or a subtitle track, known by name and language.
public protocol OfferedTrack {
    /// NAME.
    var name: String { get }
    /// LANGUAGE, if given.
    var language: String? { get }
}

extension Array where Element: OfferedTrack {
    /// The tracks as a choice that matched none lists them: `English (en), Deutsch (no language)`, or `none`.
    var offered: String {
        isEmpty ? "none" : map { "\($0.name) (\($0.language ?? "no language"))" }.joined(separator: ", ")
    }
}

/// A track choice written as one word on the command line and in JSON (`auto`, `off`, a name or a language).
public protocol TrackChoiceSpelling: Codable, CustomStringConvertible {
    /// Reads the command-line spelling.
    init(_ text: String)
}

extension TrackChoiceSpelling {
    /// Decodes from its command-line spelling.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as its command-line spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The index of the track named `wanted` (NAME, compared without case), else of the first whose LANGUAGE
    /// is that tag or starts with it and `-` (`en` matches `en-US`), among tracks given by name and language.
    /// Without such a track, the tag is shortened by its last subtag and tried again (RFC 4647 lookup:
    /// `en-US` falls back to `en`).
    static func index(of wanted: String, names: [String], languages: [String?]) -> Int? {
        let key = wanted.lowercased()
        if let byName = names.firstIndex(where: { $0.lowercased() == key }) { return byName }
        var tag = key
        while !tag.isEmpty {
            if let byLanguage = languages.firstIndex(where: { language in
                guard let language = language?.lowercased() else { return false }
                return language == tag || language.hasPrefix(tag + "-")
            }) { return byLanguage }
            guard let cut = tag.lastIndex(of: "-") else { break }
            tag = String(tag[..<cut])
        }
        return nil
    }
}

/// A subtitle track a session may show: an EXT-X-MEDIA TYPE=SUBTITLES rendition of the variant's group,
/// or a sidecar WebVTT file given with the item.
public struct SubtitleOption: Sendable, Equatable, Codable, OfferedTrack {
    /// Where the track comes from.
    public enum Source: String, Sendable, Codable {
        /// A subtitle media playlist of WebVTT segments (EXT-X-MEDIA).
        case playlist
        /// One WebVTT file whose times are the content's (a sidecar track).
        case sidecar
    }

    /// NAME (a sidecar's given name, else its language, else its URL).
    public var name: String
    /// LANGUAGE, if given.
    public var language: String?
    /// DEFAULT=YES.
    public var isDefault: Bool
    /// AUTOSELECT=YES.
    public var autoselect: Bool
    /// FORCED=YES.
    public var forced: Bool
    /// The track's media playlist (a playlist track) or WebVTT file (a sidecar), resolved.
    public var url: String
    /// A playlist track or a sidecar file.
    public var source: Source
    /// GROUP-ID (nil for a sidecar).
    public var groupId: String?

    /// Creates an option.
    public init(name: String, language: String?, isDefault: Bool, autoselect: Bool, forced: Bool, url: String,
                source: Source, groupId: String?) {
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.forced = forced
        self.url = url
        self.source = source
        self.groupId = groupId
    }

    /// The SUBTITLES renditions of `group` that have a playlist, resolved against the multivariant
    /// playlist's URL, in playlist order; a rendition whose URI does not resolve (or names a local file
    /// from a remote playlist) is left out and said in `refused`.
    public static func options(in multivariant: MultivariantPlaylist, group: String, baseURL: String, refused: inout [String]) -> [SubtitleOption] {
        multivariant.media.compactMap { rendition in
            guard rendition.type == .subtitles, rendition.groupId == group, let uri = rendition.uri else { return nil }
            let url: String
            do { url = try ResourceURL.resolve(uri, against: baseURL) } catch {
                refused.append("subtitle track \"\(rendition.name)\" left out: \(error)")
                return nil
            }
            return SubtitleOption(name: rendition.name, language: rendition.language, isDefault: rendition.default,
                                  autoselect: rendition.autoselect, forced: rendition.forced, url: url, source: .playlist,
                                  groupId: group)
        }
    }
}

/// A WebVTT file to show as a subtitle track beside the item's own (Brightcove's sidecar subtitles):
/// its cue times are content seconds.
public struct SidecarSubtitle: Sendable, Equatable, Codable {
    /// The WebVTT file's URL.
    public var url: String
    /// Its language (RFC 5646), if known.
    public var language: String?
    /// Its name (defaults to the language, else the URL).
    public var name: String?

    /// Creates a sidecar track.
    public init(url: String, language: String? = nil, name: String? = nil) {
        self.url = url
        self.language = language
        self.name = name
    }

    /// The option it offers.
    public var option: SubtitleOption {
        SubtitleOption(name: name ?? language ?? url, language: language, isDefault: false, autoselect: false, forced: false,
                       url: url, source: .sidecar, groupId: nil)
    }
}
