/// One WebVTT cue: its identifier, timing, raw text and the cue settings that place it.
///
/// A cue built with `init` has the defaults the spec gives a new cue: line auto, line alignment
/// start, position auto, position alignment auto, size 100, text alignment center, horizontal, no
/// region.
public struct WebVTTCue: Sendable, Equatable, Codable {
    /// The cue identifier (the line before the timings), or `""`.
    public var id: String
    /// When the cue starts, in seconds.
    public var startTime: Double
    /// When the cue ends, in seconds. The parser does not require it to be after ``startTime``.
    public var endTime: Double
    /// The raw cue text, markup and character references included, lines joined by `"\n"`.
    public var text: String
    /// The writing direction: `""` horizontal, `"rl"` vertical growing left, `"lr"` vertical
    /// growing right.
    public var vertical: String
    /// The line offset (`line:` setting).
    public var line: WebVTTLine
    /// Which edge of the cue box ``line`` places (`line:<offset>,<align>`).
    public var lineAlign: WebVTTLineAlign
    /// The indent of the cue box, in percent of the viewport (`position:` setting); `nil` is auto.
    public var position: Double?
    /// Which edge of the cue box ``position`` places (`position:<pct>,<align>`).
    public var positionAlign: WebVTTPositionAlign
    /// The size of the cue box, in percent of the viewport (default 100).
    public var size: Double
    /// The alignment of the text within the cue box (default center).
    public var align: WebVTTTextAlign
    /// The identifier of the region the cue is shown in, or `nil`. The spec drops the region when
    /// the cue is vertical, has an explicit line or a size other than 100 (in setting order).
    public var region: String?

    /// A cue with the spec's default settings unless given.
    public init(
        id: String = "", startTime: Double, endTime: Double, text: String = "",
        vertical: String = "", line: WebVTTLine = .auto, lineAlign: WebVTTLineAlign = .start,
        position: Double? = nil, positionAlign: WebVTTPositionAlign = .auto, size: Double = 100,
        align: WebVTTTextAlign = .center, region: String? = nil
    ) {
        self.id = id
        self.startTime = startTime
        self.endTime = endTime
        self.text = text
        self.vertical = vertical
        self.line = line
        self.lineAlign = lineAlign
        self.position = position
        self.positionAlign = positionAlign
        self.size = size
        self.align = align
        self.region = region
    }

    /// The snap-to-lines flag: false only for a percentage ``line``.
    public var snapToLines: Bool {
        if case .percentage = line { return false }
        return true
    }

    /// The position alignment the renderer uses when ``positionAlign`` is auto, derived from
    /// ``align`` as the spec's "computed position alignment" does, for left-to-right text.
    public var computedPositionAlign: WebVTTPositionAlign {
        if positionAlign != .auto { return positionAlign }
        switch align {
        case .left, .start: return .lineLeft
        case .right, .end: return .lineRight
        case .center: return .center
        }
    }
}

/// The line offset of a cue: automatic, a line number (snap-to-lines), or a percentage of the
/// viewport. Encoded as `"auto"`, a number, or a string such as `"50%"`.
public enum WebVTTLine: Sendable, Equatable, Codable {
    /// Placed by the renderer (the default).
    case auto
    /// A line number; negative numbers count from the far edge. Snap-to-lines is true.
    case lineNumber(Double)
    /// A percentage of the viewport (0–100). Snap-to-lines is false.
    case percentage(Double)

    /// Decodes `"auto"`, a number, or a `"<n>%"` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .lineNumber(number)
            return
        }
        let text = try container.decode(String.self)
        if text == "auto" {
            self = .auto
        } else if text.hasSuffix("%"), let number = Double(text.dropLast()) {
            self = .percentage(number)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \"auto\", a number or \"<n>%\", got \(text)")
        }
    }

    /// Encodes `"auto"`, a number, or a `"<n>%"` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .auto: try container.encode("auto")
        case .lineNumber(let number): try container.encode(number)
        case .percentage(let number): try container.encode("\(number)%")
        }
    }
}

/// The line alignment of a cue (`line:<offset>,<align>`).
public enum WebVTTLineAlign: String, Sendable, Equatable, Codable {
    /// The start edge of the cue box is at the line offset (the default).
    case start
    /// The centre of the cue box is at the line offset.
    case center
    /// The end edge of the cue box is at the line offset.
    case end
}

/// The position alignment of a cue (`position:<pct>,<align>`).
public enum WebVTTPositionAlign: String, Sendable, Equatable, Codable {
    /// Derived from the text alignment (the default); see ``WebVTTCue/computedPositionAlign``.
    case auto
    /// The line-left edge of the cue box is at the position.
    case lineLeft = "line-left"
    /// The centre of the cue box is at the position.
    case center
    /// The line-right edge of the cue box is at the position.
    case lineRight = "line-right"
}

/// The text alignment of a cue (`align:` setting).
public enum WebVTTTextAlign: String, Sendable, Equatable, Codable {
    /// Aligned to the start of the line, by the text's direction.
    case start
    /// Centred (the default).
    case center
    /// Aligned to the end of the line, by the text's direction.
    case end
    /// Aligned to the left, whatever the text's direction.
    case left
    /// Aligned to the right, whatever the text's direction.
    case right
}
