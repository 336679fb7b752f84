/// One closed-caption cue decoded from the content's video, on the content timeline.
public struct CaptionCueRecord: Sendable, Equatable, Codable {
    /// The 608 channel: `CC1`, `CC2` (field 1), `CC3`, `CC4` (field 2).
    public var channel: String
    /// Content seconds at which it appeared.
    public var startSeconds: Double
    /// Content seconds at which it left the screen.
    public var endSeconds: Double
    /// Its text, rows joined by a newline.
    public var text: String
    /// The NAME of the multivariant playlist's EXT-X-MEDIA TYPE=CLOSED-CAPTIONS rendition with this INSTREAM-ID
    /// in the variant's group, when it declares one.
    public var name: String?
    /// That rendition's LANGUAGE, when given.
    public var language: String?

    /// Creates a record.
    public init(channel: String, startSeconds: Double, endSeconds: Double, text: String, name: String? = nil, language: String? = nil) {
        self.channel = channel
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
        self.name = name
        self.language = language
    }
}

/// The closed captions found in the content's video (CEA-608 CC1–CC4, decoded by FFmpeg's cc_dec).
public struct CaptionReport: Sendable, Equatable, Codable {
    /// Every cue decoded, once each, in the order decoded.
    public var cues: [CaptionCueRecord] = []

    /// Creates an empty report.
    public init() {}
}
