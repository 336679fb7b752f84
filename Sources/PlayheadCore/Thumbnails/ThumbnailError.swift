import PlayheadMedia

/// Why no thumbnail could be made. Every case names the resource concerned (and, for a WebVTT track,
/// the line of the cue).
public enum ThumbnailError: Error, CustomStringConvertible {
    /// A playlist, segment or image could not be had (network, parse, decryption).
    case load(PlayheadError)
    /// The time asked for is not on the stream's timeline (0 to its duration).
    case timeOutOfRange(time: Double, duration: Double, url: String)
    /// `--source iframe` was asked for and the stream lists no I-frame playlist.
    case noIFramePlaylist(url: String)
    /// `--source vtt` was asked for without a WebVTT thumbnail track.
    case noThumbnailTrack
    /// The WebVTT track has no cue at the time asked for; `skipped` says what the parser left out (line: why).
    case noCue(time: Double, url: String, cueCount: Int, covered: ClosedRange<Double>?, skipped: [String])
    /// The WebVTT track is not WebVTT (no signature).
    case badTrack(url: String, detail: String)
    /// A cue's payload is not a usable image reference, or its `#xywh=` fragment is malformed.
    case badCue(url: String, line: Int?, detail: String)
    /// The cue's rectangle is not inside its image.
    case rectangleOutside(url: String, line: Int?, rect: ThumbnailRect, image: String, width: Int, height: Int)
    /// A cue's picture could not be fetched or decoded: the track, the cue's line, the image and why.
    case cueImage(url: String, line: Int?, image: String, detail: String)
    /// A segment or I-frame byte range gave no picture.
    case undecodableMedia(url: String, byteRange: String?, detail: String)
    /// Converting, scaling or encoding the picture failed.
    case image(MediaError)

    /// One line naming what went wrong and where.
    public var description: String {
        switch self {
        case let .load(error):
            return error.description
        case let .timeOutOfRange(time, duration, url):
            return "\(url): time \(Self.seconds(time)) s is outside the stream (0 to \(Self.seconds(duration)) s)"
        case let .noIFramePlaylist(url):
            return "\(url): no I-frame playlist (neither EXT-X-I-FRAME-STREAM-INF nor EXT-X-I-FRAMES-ONLY)"
        case .noThumbnailTrack:
            return "no WebVTT thumbnail track given (--vtt URL)"
        case let .noCue(time, url, count, covered, skipped):
            let range = covered.map { " (its \(count) cues cover \(Self.seconds($0.lowerBound)) to \(Self.seconds($0.upperBound)) s)" } ?? " (it has no cues)"
            let left = skipped.isEmpty ? "" : "; the parser left out: " + skipped.prefix(3).joined(separator: "; ") + (skipped.count > 3 ? "; …" : "")
            return "\(url): no cue at \(Self.seconds(time)) s\(range)\(left)"
        case let .badTrack(url, detail):
            return "\(url): \(detail)"
        case let .badCue(url, line, detail):
            return "\(url)\(line.map { ":\($0)" } ?? ""): \(detail)"
        case let .rectangleOutside(url, line, rect, image, width, height):
            return "\(url)\(line.map { ":\($0)" } ?? ""): #xywh=\(rect) is not inside \(image) (\(width)x\(height))"
        case let .cueImage(url, line, image, detail):
            return "\(url)\(line.map { ":\($0)" } ?? ""): its image \(image): \(detail)"
        case let .undecodableMedia(url, range, detail):
            return "\(url)\(range.map { " bytes \($0)" } ?? ""): \(detail)"
        case let .image(error):
            return error.description
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
