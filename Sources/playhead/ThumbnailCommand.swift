import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// `playhead thumbnail URL --time T [--out FILE.png] [--width W] [--vtt URL] [--source iframe|vtt|segment]`
/// and `playhead thumbnail URL --list`: a thumbnail image for any time (F31).
struct ThumbnailCommand: AsyncParsableCommand {
    /// The subcommand's name, help and exit statuses.
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "A thumbnail for a time, from an I-frame playlist, a WebVTT thumbnail track or the segments; or list them.",
        discussion: """
            Sources: the stream's I-frame playlist (EXT-X-I-FRAME-STREAM-INF, the one closest to --width, else the \
            lowest BANDWIDTH; or a media playlist with EXT-X-I-FRAMES-ONLY): the entry whose span holds the time, \
            its byte range fetched and its keyframe decoded; a WebVTT thumbnail track (--vtt): the cue's image, \
            cut to its #xywh= rectangle; or the keyframe at or before the time in the ordinary variant's segment \
            holding it. Default: vtt when given, else iframe when the stream has one, else segment. Prints the \
            source, the entry, the frame's pts and its md5 (framemd5's hash of the decoded frame; for vtt, of the \
            cut picture in rgb24). Exit status: 0 written, 1 no thumbnail (time outside the stream, no such \
            source, an image or range that cannot be fetched or decoded, a bad #xywh), 2 usage or output error.
            """
    )

    /// The stream.
    @Argument(help: "A multivariant, media or I-frame playlist: http(s) or file URL, or a file path.")
    var source: String

    /// The time wanted.
    @Option(parsing: .unconditional, help: "Seconds on the stream's timeline (from 0).")
    var time: Double?

    /// Where the PNG goes.
    @Option(help: "Write the thumbnail as PNG to FILE (- for standard output; the description then goes to standard error).")
    var out: String?

    /// The picture's width.
    @Option(parsing: .unconditional, help: "Scale to this width, aspect kept, even sides; also picks the I-frame variant closest to it.")
    var width: Int?

    /// A WebVTT thumbnail track.
    @Option(help: "A WebVTT thumbnail track: a URL (a relative one against the stream's URL) or an existing file's path.")
    var vtt: String?

    /// The source to use.
    @Option(name: .customLong("source"), help: "iframe, vtt or segment (default: vtt with --vtt, else iframe when listed, else segment).")
    var sourceKind: ThumbnailSourceKind?

    /// List instead.
    @Flag(help: "List the I-frame playlist's entries and the WebVTT track's cues instead.")
    var list = false

    /// FFmpeg's own warnings.
    @Flag(help: "Let FFmpeg print its own warnings on standard error.")
    var verbose = false

    func validate() throws {
        if list {
            if time != nil || out != nil { throw ValidationError("--list prints the entries: not with --time or --out") }
        } else {
            guard let time else { throw ValidationError("give --time SECONDS (or --list)") }
            if !time.isFinite { throw ValidationError("--time must be a number of seconds, got \(time)") }
        }
        if let width, !(2...8192).contains(width) { throw ValidationError("--width must be from 2 to 8192 pixels, got \(width)") }
        if sourceKind == .vtt, vtt == nil { throw ValidationError("--source vtt needs --vtt URL") }
    }

    func run() async throws {
        MediaLog.level = verbose ? .warning : .quiet
        let url = ResourceURL.fromArgument(source)
        // An existing file is read from disk; anything else is a URL, relative ones to the stream's.
        let trackURL = vtt.map { FileManager.default.fileExists(atPath: $0) ? ResourceURL.fromArgument($0) : $0 }
        let client = HTTPClient()
        defer { client.shutdown() }
        let maker = ThumbnailMaker(client: client)
        let toStandardOutput = out == "-"
        let report: (String) -> Void = { line in
            FileHandle(fileDescriptor: toStandardOutput ? 2 : 1).write(Data((line + "\n").utf8))
        }
        let thumbnail: Thumbnail
        var png: [UInt8] = []
        do throws(ThumbnailError) {
            let sources = try await maker.sources(of: url, trackURL: trackURL, width: width)
            if list {
                report(Self.listing(sources))
                return
            }
            thumbnail = try await maker.thumbnail(at: time!, from: sources, source: sourceKind, width: width)
            if out != nil {
                do { png = try thumbnail.image.pngData() } catch { throw .image(error) }
            }
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        // The file first: a run that cannot write it describes nothing.
        if let out, !toStandardOutput, let problem = FileOutput.writeInPlace(png, to: out) {
            printError("cannot write \(out): \(problem)")
            throw ExitCode(2)
        }
        report(Self.describe(thumbnail, time: time!))
        if let out {
            if toStandardOutput { FileHandle.standardOutput.write(Data(png)) }
            report("png: \(toStandardOutput ? "standard output" : out), \(thumbnail.image.width)x\(thumbnail.image.height), \(png.count) bytes")
        } else if width != nil {
            report("image: \(thumbnail.image.width)x\(thumbnail.image.height) (not written: no --out)")
        }
    }

    /// The lines describing a thumbnail: source, entry, frame, md5.
    static func describe(_ thumbnail: Thumbnail, time: Double) -> String {
        var lines = ["source: \(thumbnail.source.rawValue) \(thumbnail.listURL)"]
        var entry = "entry: \(thumbnail.entryIndex) at \(seconds(thumbnail.entryStart)) s, \(seconds(thumbnail.entryDuration)) s (for \(asked(time)) s): \(thumbnail.resourceURL)"
        if let range = thumbnail.byteRange { entry += " bytes \(range.length)@\(range.offset)" }
        if let rect = thumbnail.rect { entry += " #xywh=\(rect)" }
        lines.append(entry)
        var frame = "frame: "
        if let pts = thumbnail.framePTS, let base = thumbnail.timeBase, let at = thumbnail.frameSeconds {
            frame += "pts \(pts) (\(base), \(String(format: "%.6f", at)) s), "
        } else {
            frame += "image, "
        }
        frame += "\(thumbnail.decodedWidth)x\(thumbnail.decodedHeight) \(thumbnail.pixelFormat)"
        if let rect = thumbnail.rect { frame += ", cut to \(rect.width)x\(rect.height)" }
        lines.append(frame)
        lines.append("md5: \(thumbnail.md5)" + (thumbnail.source == .vtt ? " (rgb24)" : " (\(thumbnail.pixelFormat))"))
        return lines.joined(separator: "\n")
    }

    /// The I-frame entries and track cues, one line each.
    static func listing(_ sources: ThumbnailSources) -> String {
        var lines: [String] = []
        if let iFrames = sources.iFrames {
            let variant = iFrames.variant.map { " (BANDWIDTH=\($0.bandwidth)\($0.resolution.map { ",RESOLUTION=\($0.width)x\($0.height)" } ?? ""))" } ?? ""
            lines.append("iframe \(iFrames.url)\(variant): \(iFrames.entries.count) entries, \(seconds(iFrames.duration)) s")
            for entry in iFrames.entries {
                let range = entry.segment.byteRange.map { " bytes \($0.length)@\($0.offset)" } ?? ""
                lines.append("  \(seconds(entry.start)) +\(seconds(entry.duration))  \(entry.url)\(range)")
            }
        } else if let failure = sources.iFramesError {
            lines.append("iframe: unavailable: \(failure.description)")
        } else {
            lines.append("iframe: none in \(sources.url)")
        }
        if let failure = sources.mediaError { lines.append("segment: unavailable: \(failure.description)") }
        if let track = sources.track {
            lines.append("vtt \(track.url): \(track.cues.count) cues")
            for cue in track.cues {
                let what = cue.problem.map { problem in "(line \(cue.line.map(String.init) ?? "?"): \(problem))" }
                    ?? (cue.imageURL + (cue.rect.map { " #xywh=\($0)" } ?? ""))
                lines.append("  \(seconds(cue.start)) +\(seconds(cue.end - cue.start))  \(what)")
            }
            for issue in track.skipped { lines.append("  (\(issue))") }
        }
        return lines.joined(separator: "\n")
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The time asked for: three decimals, or as many as it has (3.9999 is not shown as 4.000).
    private static func asked(_ value: Double) -> String {
        let short = seconds(value)
        return abs((Double(short) ?? value) - value) < 1e-9 ? short : String(format: "%.9g", value)
    }
}

extension ThumbnailSourceKind: ExpressibleByArgument {}
