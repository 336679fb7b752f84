/// Writes decoded frames as FFmpeg's `framemd5` text (version 2), so output can be diffed against
/// `ffmpeg -i URL -f framemd5 -`.
///
/// Timestamps follow what the ffmpeg CLI does with its default encoders: video in `1/frame rate`
/// units, audio in `1/sample rate` units, both counted from the earliest timestamp of the input.
/// The hash and size columns are exact; the timestamp columns are a best effort.
public struct FrameMD5Writer {
    /// One output stream of the file.
    public struct Stream: Sendable {
        /// Video or audio.
        public var kind: MediaKind
        /// Output time base (`#tb`).
        public var timeBase: Rational
        /// Video dimensions, audio sample rate and channel count.
        public var width = 0, height = 0, sampleRate = 0, channels = 0
        /// Video sample aspect ratio as FFmpeg prints it (`0/1` unknown).
        public var sampleAspectRatio = Rational(1, 1)
        /// Audio channel layout name as FFmpeg prints it; nil: named from the channel count.
        public var channelLayoutName: String?

        /// Creates a stream description.
        public init(kind: MediaKind, timeBase: Rational, width: Int = 0, height: Int = 0, sampleRate: Int = 0, channels: Int = 0) {
            self.kind = kind; self.timeBase = timeBase; self.width = width; self.height = height
            self.sampleRate = sampleRate; self.channels = channels
        }
    }

    /// The output streams, in output index order.
    public let streams: [Stream]

    /// Creates a writer for `streams`.
    public init(streams: [Stream]) { self.streams = streams }

    /// The header lines, each ending in a newline.
    public func header(software: String) -> String {
        var lines = ["#format: frame checksums", "#version: 2", "#hash: MD5", "#software: \(software)"]
        for (index, stream) in streams.enumerated() {
            lines.append("#tb \(index): \(stream.timeBase)")
            switch stream.kind {
            case .video:
                lines += ["#media_type \(index): video", "#codec_id \(index): rawvideo",
                          "#dimensions \(index): \(stream.width)x\(stream.height)", "#sar \(index): \(stream.sampleAspectRatio)"]
            default:
                lines += ["#media_type \(index): audio", "#codec_id \(index): pcm_s16le",
                          "#sample_rate \(index): \(stream.sampleRate)",
                          "#channel_layout_name \(index): \(stream.channelLayoutName ?? Self.layoutName(stream.channels))"]
            }
        }
        lines.append("#stream#, dts,        pts, duration,     size, hash")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One frame line: `stream, dts, pts, duration, size, hash` with FFmpeg's column widths.
    public static func line(stream: Int, pts: Int64, duration: Int64, size: Int, md5: String) -> String {
        "\(stream), \(pad(pts, 10)), \(pad(pts, 10)), \(pad(duration, 8)), \(pad(Int64(size), 8)), \(md5)\n"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    private static func layoutName(_ channels: Int) -> String {
        switch channels {
        case 1: return "mono"
        case 2: return "stereo"
        case 6: return "5.1"
        default: return "\(channels) channels"
        }
    }
}
