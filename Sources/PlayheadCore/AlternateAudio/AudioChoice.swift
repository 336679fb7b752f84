import PlayheadHLS

/// Which audio rendition a session plays when the variants name an AUDIO group (the PSDK's
/// `audioOptions`, chosen up front): `automatic` takes the rendition marked DEFAULT=YES, else the group's
/// first; `main` the variant's own audio (the PSDK's "default" label).
public enum AudioChoice: Sendable, Equatable, TrackChoiceSpelling {
    /// DEFAULT=YES, else the first of the group.
    case automatic
    /// The main audio, which the PSDK labels "default": the group's rendition without URI (the audio in
    /// the variant's own segments), else, when every rendition has its own playlist, the variant's own
    /// audio with no rendition loaded (none in a video-only variant).
    case main
    /// The rendition whose NAME equals this, else whose LANGUAGE is this tag or starts with it and `-`,
    /// compared without case.
    case track(String)

    /// Reads `auto`, `default` (or `main`), or a rendition's name or language.
    public init(_ text: String) {
        switch text.lowercased() {
        case "auto", "automatic": self = .automatic
        case "default", "main": self = .main
        default: self = .track(text)
        }
    }

    /// How the choice is written on the command line.
    public var description: String {
        switch self {
        case .automatic: "auto"
        case .main: "default"
        case let .track(name): name
        }
    }

    /// The index in `options` this choice selects, or nil when a named one is not there (for `main`:
    /// when no rendition is without URI, and the variant's own audio plays).
    public func pick(from options: [AudioOption]) -> Int? {
        switch self {
        case .automatic:
            return options.isEmpty ? nil : options.firstIndex(where: \.isDefault) ?? 0
        case .main:
            return options.firstIndex { $0.url == nil }
        case let .track(wanted):
            return AudioChoice.index(of: wanted, names: options.map(\.name), languages: options.map(\.language))
        }
    }
}

/// An audio rendition of the variants' AUDIO group (EXT-X-MEDIA TYPE=AUDIO).
public struct AudioOption: Sendable, Equatable, Codable, OfferedTrack {
    /// NAME.
    public var name: String
    /// LANGUAGE, if given.
    public var language: String?
    /// DEFAULT=YES.
    public var isDefault: Bool
    /// AUTOSELECT=YES.
    public var autoselect: Bool
    /// CHANNELS as written.
    public var channels: String?
    /// GROUP-ID.
    public var groupId: String
    /// Its media playlist, resolved; nil when the rendition is the variant's own muxed audio.
    public var url: String?

    /// Creates an option.
    public init(name: String, language: String?, isDefault: Bool, autoselect: Bool, channels: String?, groupId: String, url: String?) {
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.channels = channels
        self.groupId = groupId
        self.url = url
    }

    /// The AUDIO renditions of `group`, in playlist order, URIs resolved against `baseURL` (one that does
    /// not resolve, or names a local file from a remote playlist, is left out and said in `refused`).
    public static func options(in multivariant: MultivariantPlaylist, group: String, baseURL: String, refused: inout [String]) -> [AudioOption] {
        multivariant.media.compactMap { rendition in
            guard rendition.type == .audio, rendition.groupId == group else { return nil }
            var url: String?
            if let uri = rendition.uri {
                do { url = try ResourceURL.resolve(uri, against: baseURL) } catch {
                    refused.append("audio rendition \"\(rendition.name)\" left out: \(error)")
                    return nil
                }
            }
            return AudioOption(name: rendition.name, language: rendition.language, isDefault: rendition.default,
                               autoselect: rendition.autoselect, channels: rendition.channels, groupId: group, url: url)
        }
    }
}

/// The audio of a session whose variants name an AUDIO group: the options, the one played, and how it went.
public struct AudioReport: Sendable, Equatable, Codable {
    /// The renditions offered, in playlist order.
    public var options: [AudioOption] = []
    /// Index in `options` of the one played (nil: the variant's own audio played: `main` chosen and every
    /// rendition has a URI, or none matched the choice and the group has no default).
    public var selected: Int?
    /// How it was chosen (`--audio`).
    public var choice: AudioChoice = .automatic
    /// Segments of the rendition loaded.
    public var segmentsLoaded = 0
    /// Problems: segments that failed (their audio is missing), a playlist that did not load.
    public var issues: [String] = []

    /// Creates an empty report.
    public init() {}
}
