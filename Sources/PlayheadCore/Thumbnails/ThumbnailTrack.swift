import Foundation
import PlayheadHLS

/// A rectangle of a picture in pixels: a Media Fragments `#xywh=x,y,w,h` (or `#xywh=pixel:x,y,w,h`).
public struct ThumbnailRect: Sendable, Equatable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `x,y,w,h`.
    public var description: String { "\(x),\(y),\(width),\(height)" }

    /// Parses the value of an `xywh` fragment (after `xywh=`): four non-negative integers, optionally after
    /// `pixel:`; width and height at least 1. `percent:` is refused.
    /// - Returns: The rectangle, or why the value is not one.
    public static func parse(_ value: String) -> Result<ThumbnailRect, ThumbnailRectError> {
        var text = Substring(value)
        if text.hasPrefix("pixel:") { text = text.dropFirst("pixel:".count) }
        if text.hasPrefix("percent:") { return .failure(ThumbnailRectError("percent rectangles are not supported: \(value)")) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return .failure(ThumbnailRectError("expected x,y,w,h (4 numbers), got \"\(value)\"")) }
        let numbers = parts.map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            return .failure(ThumbnailRectError("x,y,w,h must be whole numbers of pixels, 0 or more, got \"\(value)\""))
        }
        let rect = ThumbnailRect(x: numbers[0]!, y: numbers[1]!, width: numbers[2]!, height: numbers[3]!)
        guard rect.width > 0, rect.height > 0 else { return .failure(ThumbnailRectError("an empty rectangle: \"\(value)\"")) }
        return .success(rect)
    }
}

/// Why an `xywh` value is not a rectangle.
public struct ThumbnailRectError: Error, Sendable, Equatable {
    /// What is wrong.
    public var message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
}

/// One cue of a WebVTT thumbnail track: a span of the timeline and the picture standing for it.
public struct ThumbnailCue: Sendable, Equatable {
    /// Position in the track, from 0.
    public var index: Int
    /// Cue start, seconds.
    public var start: Double
    /// Cue end, seconds.
    public var end: Double
    /// The picture's absolute URL, without its fragment.
    public var imageURL: String
    /// The rectangle of the picture (`#xywh=`), nil for the whole picture.
    public var rect: ThumbnailRect?
    /// The line of the cue's payload in the file (1-based: the line after its timings; the timings line itself
    /// for a cue without payload), when known.
    public var line: Int?
    /// Why the payload is unusable (a malformed fragment); nil when it is fine.
    public var problem: String?
}

/// A WebVTT thumbnail track: cues whose payloads are image URLs, optionally with `#xywh=` (sprite sheets).
public struct ThumbnailTrack: Sendable {
    /// The track's URL (image URLs resolve against it).
    public var url: String
    /// The cues, in file order.
    public var cues: [ThumbnailCue]
    /// What the WebVTT parser left out or repaired (a malformed timestamp, a cue ending before it starts), as
    /// `line N: why`: said when no cue is found, and by `--list`.
    public var skipped: [String] = []

    /// Parses a track's bytes.
    /// - Throws: ``ThumbnailError/badTrack(url:detail:)`` when it is not WebVTT; a cue whose payload is not a
    ///   URL keeps its problem (``ThumbnailCue/problem``) and fails only when asked for.
    public init(bytes: [UInt8], url: String) throws(ThumbnailError) {
        self.url = url
        let parsed: (document: WebVTTDocument, cueLines: [Int])
        do { parsed = try WebVTTParser.parseWithCueLines(bytes) } catch { throw .badTrack(url: url, detail: error.description) }
        let document = parsed.document
        skipped = document.issues.map { "line \($0.line): \($0.message)" }
        var extraLines: [String] = []
        cues = document.cues.enumerated().map { index, cue in
            // The image reference is the payload's first line; a cue's line is the one its payload starts on.
            let payloadLines = cue.text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let payload = payloadLines.first ?? ""
            // An empty payload is named by its timings line.
            let line = index < parsed.cueLines.count ? parsed.cueLines[index] + (payload.isEmpty ? 0 : 1) : nil
            if payloadLines.dropFirst().contains(where: { !$0.isEmpty }) {
                extraLines.append("line \(line.map(String.init) ?? "?"): the cue's payload has \(payloadLines.count) lines; the first is its image, the others are left out")
            }
            var item = ThumbnailCue(index: index, start: cue.startTime, end: cue.endTime, imageURL: "", rect: nil, line: line)
            let (reference, fragment) = Self.split(payload)
            if reference.isEmpty || reference.contains(where: \.isWhitespace) {
                item.problem = payload.isEmpty ? "the cue has no payload (an image URL was expected)"
                    : "the cue's payload is not an image URL: \"\(payload)\""
            } else {
                do throws(PlayheadError) { item.imageURL = try ResourceURL.resolve(reference, against: url) } catch { item.problem = error.description }
            }
            if item.problem == nil, let fragment {
                let xywh = fragment.split(separator: "&").first { $0.hasPrefix("xywh=") }
                if let xywh {
                    switch ThumbnailRect.parse(String(xywh.dropFirst(5))) {
                    case let .success(rect): item.rect = rect
                    case let .failure(error): item.problem = "bad #xywh: \(error.message)"
                    }
                }
            }
            return item
        }
        skipped += extraLines
    }

    /// The reference before `#` and the fragment after it.
    private static func split(_ payload: String) -> (String, String?) {
        guard let hash = payload.firstIndex(of: "#") else { return (payload, nil) }
        return (String(payload[..<hash]), String(payload[payload.index(after: hash)...]))
    }

    /// The cue showing at `time`: the last one that starts at or before it and ends after it (the last cue
    /// also takes its own end).
    public func cue(at time: Double) -> ThumbnailCue? {
        if let cue = cues.last(where: { $0.start <= time && time < $0.end }) { return cue }
        if let last = cues.max(by: { $0.end < $1.end }), abs(last.end - time) < 1e-9 { return last }
        return nil
    }

    /// The span the cues cover, earliest start to latest end; nil without cues.
    public var covered: ClosedRange<Double>? {
        guard let start = cues.map(\.start).min(), let end = cues.map(\.end).max(), end >= start else { return nil }
        return start...end
    }
}
