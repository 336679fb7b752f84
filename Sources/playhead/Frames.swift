import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// `playhead frames URL`: fetch every segment of one rendition, decode, and describe each frame.
struct Frames: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch, demux and decode every segment of one rendition; print its frames.",
        discussion: """
        With --framemd5, writes one line per frame in FFmpeg's framemd5 format: the hash column equals \
        `ffmpeg -i URL -map 0:v -f framemd5 -` for the same frames. Without it, prints a summary per \
        segment and totals (no hashing, so it measures decoding alone). Exit status: 0 on success, \
        1 when a playlist, segment or key could not be had or parsed (frames already written stay written), 2 on usage errors.
        """
    )

    /// Which streams to decode.
    enum StreamChoice: String, ExpressibleByArgument, CaseIterable {
        case video, audio, all
        var kinds: [MediaKind] {
            switch self {
            case .video: return [.video]
            case .audio: return [.audio]
            case .all: return [.video, .audio]
            }
        }
    }

    @Argument(help: "A multivariant or media playlist: http(s) or file URL, or a file path.")
    var source: String

    @Option(parsing: .unconditional, help: "Variant index in a multivariant playlist, as listed (default: the first).")
    var variant: Int?

    @Option(parsing: .unconditional, help: "Pick the highest variant whose BANDWIDTH is at most this many bits per second.")
    var bandwidth: Int?

    @Option(help: "Streams to decode: video, audio or all.")
    var stream: StreamChoice = .video

    @Option(help: "Write framemd5 lines to FILE, or - for standard output.")
    var framemd5: String?

    @Option(help: "Decoding mode: decode, demux (packets only) or keyframes.")
    var mode: DecodeMode = .decode

    @Option(parsing: .unconditional, help: "Decoder threads per stream (0: FFmpeg chooses).")
    var threads: Int = 0

    @Flag(help: "Let FFmpeg print its own warnings on standard error.")
    var verbose = false

    @OptionGroup(title: "Keys")
    var keyOptions: KeyOptions

    func validate() throws {
        if variant != nil, bandwidth != nil { throw ValidationError("give --variant or --bandwidth, not both") }
        // Demux mode decodes nothing: the framemd5 file would hold a header and no frame.
        if framemd5 != nil, mode == .demux { throw ValidationError("--framemd5 hashes decoded frames; --mode demux decodes none (use decode or keyframes)") }
        if let variant, variant < 0 { throw ValidationError("--variant must be 0 or more") }
        if let bandwidth, bandwidth <= 0 { throw ValidationError("--bandwidth must be a positive number of bits per second, got \(bandwidth)") }
        if !(0...64).contains(threads) { throw ValidationError("--threads must be from 0 (FFmpeg chooses) to 64, got \(threads)") }
    }

    func run() async throws {
        // The work runs in a task a signal cancels: what was decoded by then is still written (it was
        // lost in the output buffers), and the exit status is 128 + the signal.
        let work = Task { () async -> Int32 in await read() }
        let interruption = SignalStop(what: "reading") { work.cancel() }
        let status = await work.value
        interruption.cancel()
        if let signal = interruption.received { throw ExitCode(128 + signal) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads the rendition; returns the exit status (0, 1, or 2 when an output cannot be written).
    private func read() async -> Int32 {
        MediaLog.level = verbose ? .warning : .quiet
        let url = ResourceURL.fromArgument(source)
        let client = HTTPClient()
        defer { client.shutdown() }
        let choice: VariantChoice = variant.map { .index($0) } ?? bandwidth.map { .bandwidth($0) } ?? .first

        var options = RenditionDecoderOptions()
        options.mode = mode
        options.kinds = Set(stream.kinds)
        options.threads = threads
        options.hashFrames = framemd5 != nil
        let decoder = RenditionDecoder(options: options)

        let sink: FrameSink
        do { sink = try FrameSink(framemd5: framemd5, kinds: stream.kinds) } catch { return 2 }
        let started = ContinuousClock.now
        do throws(PlayheadError) {
            let loaded = try await PlaylistLoader(client: client).loadMedia(url, choice: choice)
            for warning in loaded.media.parsed.warnings { printError("warning: \(loaded.media.url): \(warning)") }
            if let bandwidth, let chosen = loaded.variantBandwidth, chosen > bandwidth {
                printError("warning: no variant of \(url) is at most \(bandwidth) bit/s: reading the lowest, \(chosen) bit/s")
            }
            if loaded.variantIndex == nil, variant != nil || bandwidth != nil {
                printError("warning: \(loaded.media.url) is a media playlist: --\(variant != nil ? "variant" : "bandwidth") has no variant to choose")
            }
            if loaded.playlist.segments.isEmpty {
                throw .unexpectedPlaylist(url: loaded.media.url, detail: "the playlist lists no segments: no frames to read")
            }
            let reader = RenditionReader(client: client, playlist: loaded.playlist, baseURL: loaded.media.effectiveURL, keyProvider: keyOptions.provider)
            try await reader.read(decoder: decoder, onSegment: sink.segment, onPacket: sink.packet, onFrame: sink.frame)
            sink.finish(elapsed: ContinuousClock.now - started)
            if sink.damageCount > 0, loaded.playlist.segments.contains(where: { $0.key?.method == .sampleAES }) {
                // SAMPLE-AES carries no check of its own (no padding to fail): a wrong key or IV decodes to damage.
                printError("note: \(loaded.media.url) is SAMPLE-AES: damage in its frames is what a wrong key or IV gives too")
            }
            // As ffmpeg's `-map 0:a` on a stream without audio: an error, not an empty output.
            let missing = stream.kinds.filter { !sink.kindsSeen.contains($0) }
            if stream == .all ? missing.count == stream.kinds.count : !missing.isEmpty {
                printError("\(loaded.media.url): no \(missing.map(\.rawValue).joined(separator: " or ")) stream in its segments"
                           + (missing.contains(.audio) ? " (audio in a separate rendition, EXT-X-MEDIA TYPE=AUDIO, is read from its own playlist URL)" : ""))
                return 1
            }
            // Packets came and none decoded (ffmpeg cannot either): that is a failure, not an empty success; so
            // is a stream asked for and present whose frames all failed while another's decoded (--stream all).
            // (Keyframes mode decodes video keyframes alone: no audio frame is expected there.)
            let undecoded = mode == .decode ? stream.kinds.filter { sink.kindsSeen.contains($0) && sink.frames(of: $0) == 0 } : []
            if mode != .demux, sink.framesDecoded == 0 || !undecoded.isEmpty {
                let what = sink.framesDecoded == 0 ? "no frame" : "no \(undecoded.map(\.rawValue).joined(separator: " or ")) frame"
                printError("\(loaded.media.url): \(what) could be decoded from its \(sink.packetCount) packets"
                           + (sink.damageCount > 0 ? " (\(sink.damageCount) damage reports, above)" : ""))
                return 1
            }
        } catch {
            // Totals only when something was read: a run that failed before its first segment (no such variant,
            // a playlist that does not load) has none to give, and a "total: 0 frames" line read as a success.
            sink.finish(elapsed: ContinuousClock.now - started, writeTotal: sink.segmentsRead > 0)
            if !Task.isCancelled { printError(error.description) }
            return Task.isCancelled ? 0 : 1
        }
        return 0
    }
}

/// Where `frames` sends what it sees: framemd5 lines, or a summary on standard output.
final class FrameSink {
    private let output: OutputBuffer?
    private let md5: FrameMD5Output?
    private let summary: OutputBuffer?
    private var frames: [MediaKind: Int] = [:]
    /// The segment each packet came from, by stream and PTS, so that a frame the decoder gives out
    /// later (B-frame reordering, frame threads) counts for its own segment.
    private var segmentOfPacket: [PacketKey: Int] = [:]
    /// Frames counted per segment index.
    private var framesOfSegment: [Int: Int] = [:]
    /// The segment of each frame decoded with concealed errors, and the URL of each segment seen, so
    /// that such a frame given out while the next segment goes in is blamed on its own.
    private var segmentOfCorruptFrame: [PacketKey: Int] = [:]
    private var segmentURLs: [Int: String] = [:]
    /// The index of the segment whose packets arrive now.
    private var feedingIndex = 0
    /// Segments whose outcome came in (read, damaged or not).
    private(set) var segmentsRead = 0
    /// The summary line of the segment before, written once the next segment is in (its last frames
    /// are out by then) or at the end.
    private var heldLine: (index: Int, text: (_ frames: Int, _ damaged: Int) -> String)?
    /// Damage reports counted per segment index (a late frame's counts for its own segment).
    private var damageOfSegment: [Int: Int] = [:]
    private var packets = 0
    private var bytes = 0
    private var damage = 0
    /// Frames decoded, every kind.
    var framesDecoded: Int { frames.values.reduce(0, +) }
    /// Frames decoded of `kind`.
    func frames(of kind: MediaKind) -> Int { frames[kind, default: 0] }
    /// Packets read.
    var packetCount: Int { packets }
    /// Damage reports written.
    var damageCount: Int { damage }
    /// The kinds of stream the segments held.
    private(set) var kindsSeen: Set<MediaKind> = []

    init(framemd5: String?, kinds: [MediaKind]) throws {
        if let framemd5 {
            let output: OutputBuffer
            if framemd5 == "-" {
                output = OutputBuffer(fd: OutputBuffer.standardOutput)
            } else {
                guard let file = OutputBuffer(path: framemd5) else {
                    printError("cannot write \(framemd5): \(String(cString: strerror(errno)))")
                    throw ExitCode(2)
                }
                output = file
            }
            self.output = output
            md5 = FrameMD5Output(kinds: kinds, software: "playhead \(Playhead.version)", write: output.write)
            summary = framemd5 == "-" ? nil : OutputBuffer(fd: OutputBuffer.standardError)
        } else {
            output = nil
            md5 = nil
            summary = OutputBuffer(fd: OutputBuffer.standardOutput)
        }
    }

    /// A packet's stream and timestamp, as its frame carries them.
    private struct PacketKey: Hashable {
        let stream: Int
        let pts: Int64
    }

    func packet(_ packet: Packet) {
        md5?.note(packet)
        if let pts = packet.pts { segmentOfPacket[PacketKey(stream: packet.streamIndex, pts: pts)] = feedingIndex }
    }

    func frame(_ frame: DecodedFrame) {
        frames[frame.kind, default: 0] += 1
        let index = frame.pts.flatMap { segmentOfPacket.removeValue(forKey: PacketKey(stream: frame.streamIndex, pts: $0)) } ?? feedingIndex
        if frame.isCorrupt, let pts = frame.pts { segmentOfCorruptFrame[PacketKey(stream: frame.streamIndex, pts: pts)] = index }
        framesOfSegment[index, default: 0] += 1
        md5?.add(frame)
    }

    /// Writes the held summary line with the frames counted for its segment.
    private func writeHeldLine() {
        guard let held = heldLine else { return }
        summary?.write(held.text(framesOfSegment.removeValue(forKey: held.index) ?? 0, damageOfSegment.removeValue(forKey: held.index) ?? 0))
        // Packets of that segment whose frames never came (streams not decoded, damage) are forgotten.
        segmentOfPacket = segmentOfPacket.filter { $0.value > held.index }
        summary?.flush()
        heldLine = nil
    }

    func segment(_ outcome: RenditionReader.SegmentOutcome) {
        md5?.note(outcome.report)
        kindsSeen.formUnion(outcome.report.streams.map(\.kind))
        packets += outcome.report.packets
        bytes += outcome.byteCount
        damage += outcome.report.damage.count + outcome.fetchDamage.count
        for item in outcome.fetchDamage { printError("damage: \(item)") }
        segmentURLs[outcome.index] = outcome.url
        segmentURLs = segmentURLs.filter { $0.key >= outcome.index - 8 }
        for item in outcome.report.damage {
            let owner = item.framePTS.flatMap { pts in item.frameStreamIndex.flatMap { segmentOfCorruptFrame.removeValue(forKey: PacketKey(stream: $0, pts: pts)) } }
            printError("damage in \(owner.flatMap { segmentURLs[$0] } ?? outcome.url): \(item)")
            damageOfSegment[owner ?? outcome.index, default: 0] += 1
        }
        let ms = Int(outcome.transferSeconds * 1000)
        writeHeldLine()
        let (index, byteCount, packetCount) = (outcome.index, outcome.byteCount, outcome.report.packets)
        heldLine = (index, { frames, damaged in
            "segment \(index): \(byteCount) bytes in \(ms) ms, \(packetCount) packets, \(frames) frames\(damaged == 0 ? "" : ", \(damaged) damaged")\n"
        })
        feedingIndex = outcome.index + 1
        segmentsRead += 1
    }

    func finish(elapsed: Duration, writeTotal: Bool = true) {
        md5?.finish()
        writeHeldLine()
        output?.flush()
        guard writeTotal else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let counts = MediaKind.allCases.compactMap { kind in frames[kind].map { "\($0) \(kind.rawValue)" } }
        summary?.write("total: \(counts.isEmpty ? "0" : counts.joined(separator: ", ")) frames, \(packets) packets, \(bytes) bytes, \(damage) damage reports, \(String(format: "%.2f", seconds)) s\n")
        summary?.flush()
    }
}

extension DecodeMode: ExpressibleByArgument {}
