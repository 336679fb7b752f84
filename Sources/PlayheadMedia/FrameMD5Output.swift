/// Turns decoded frames into FFmpeg `framemd5` text, mapping timestamps the way the ffmpeg 5.1 CLI does
/// by default: counted from the input's start time, video in `1/frame rate` (rounded to the nearest
/// frame, as its variable-frame-rate sync does), audio in `1/sample rate`. The start time is the
/// earliest timestamp of every stream; for MPEG-TS (timestamps that wrap, below 64 bits) the CLI
/// corrects it to the streams it outputs (`-map 0:v`: the video's own start), for fMP4 it does not. The header waits for the end of the first segment (its streams give the frame
/// rate) and for the first frame of each wanted kind (picture size, sample rate); frames that come
/// before it are held back and written with it.
public final class FrameMD5Output {
    private let kinds: [MediaKind]
    private let software: String
    private let write: (String) -> Void
    /// The first segment's earliest timestamp of each kind, seconds.
    private var starts: [MediaKind: Double] = [:]
    /// Whether the container's timestamps wrap below 64 bits (MPEG-TS).
    private var wrapsBelow64 = false
    private var startFixed = false
    /// The start time, fixed with the header (``inputStart``); 0 before.
    private var startSeconds = 0.0
    /// A segment's streams were noted (the frame rate and the container are known).
    private var streamsNoted = false
    private var frameRate: Rational?
    private var streams: [MediaKind: DecodedFrame] = [:]   // first frame of each kind
    private var described: [MediaKind: FrameMD5Writer.Stream] = [:]
    private var held: [DecodedFrame] = []
    private var headerWritten = false
    /// With several kinds: lines waiting to be interleaved, per output stream, oldest first, with the
    /// frame's time in seconds.
    private var pending: [[(pts: Int64, timeBase: Rational, line: String)]] = []

    /// Creates an output for `kinds` (in output stream order) writing text through `write`.
    public init(kinds: [MediaKind], software: String, write: @escaping (String) -> Void) {
        self.kinds = kinds
        self.software = software
        self.write = write
    }

    /// Notes a demuxed packet: the earliest packet timestamps of the first segment give the input's start time.
    public func note(_ packet: Packet) {
        guard !startFixed, let pts = packet.pts else { return }
        let seconds = Double(pts) * packet.timeBase.doubleValue
        starts[packet.kind] = min(starts[packet.kind] ?? seconds, seconds)
    }

    /// The start time timestamps count from: the earliest of every stream, or for MPEG-TS of the kinds
    /// written (the ffmpeg CLI's start-time correction for the streams it uses).
    private var inputStart: Double? {
        let used = wrapsBelow64 ? starts.filter { kinds.contains($0.key) } : starts
        return (used.isEmpty ? starts : used).values.min()
    }

    /// Notes a segment's streams: the video frame rate sets the video time base.
    public func note(_ report: SegmentDecodeReport) { note(streams: report.streams) }

    /// Notes a segment's streams (before or after its packets): the first segment's tell the container,
    /// and its video frame rate sets the video time base. The start time is fixed when the header is
    /// written, from the packets noted by then.
    public func note(streams: [StreamInfo]) {
        if !streamsNoted { wrapsBelow64 = streams.contains { $0.ptsWrapBits < 64 } }
        streamsNoted = true
        if frameRate == nil { frameRate = streams.first { $0.kind == .video }?.frameRate }
        if !headerWritten, kinds.allSatisfy({ self.streams[$0] != nil }) { flushHeader() }
    }

    /// Adds a frame (ignored unless its kind was asked for and it has a hash).
    public func add(_ frame: DecodedFrame) {
        guard kinds.contains(frame.kind), frame.md5 != nil else { return }
        if headerWritten {
            emit(frame)
        } else {
            if streams[frame.kind] == nil { streams[frame.kind] = frame }
            held.append(frame)
            if streamsNoted, kinds.allSatisfy({ streams[$0] != nil }) { flushHeader() }
        }
    }

    /// Writes what is still held (the header with the streams that did appear, the lines not yet
    /// interleaved).
    public func finish() {
        if !headerWritten { flushHeader() }
        interleave(draining: true)
    }

    private var present: [MediaKind] { kinds.filter { streams[$0] != nil } }

    private func flushHeader() {
        headerWritten = true
        startFixed = true
        startSeconds = inputStart ?? 0
        for kind in present { described[kind] = describe(streams[kind]!) }
        write(FrameMD5Writer(streams: present.map { described[$0]! }).header(software: software))
        let pending = held
        held = []
        pending.forEach(emit)
    }

    private func describe(_ frame: DecodedFrame) -> FrameMD5Writer.Stream {
        switch frame.kind {
        case .video:
            let rate = frameRate ?? Rational(Int32(clamping: Int((1 / max(frame.durationSeconds, 0.001)).rounded())), 1)
            var stream = FrameMD5Writer.Stream(kind: .video, timeBase: Rational(rate.den, rate.num), width: frame.width, height: frame.height)
            stream.sampleAspectRatio = frame.sampleAspectRatio
            return stream
        default:
            var stream = FrameMD5Writer.Stream(kind: .audio, timeBase: Rational(1, Int32(frame.sampleRate)), sampleRate: frame.sampleRate,
                                               channels: frame.channels)
            stream.channelLayoutName = frame.channelLayoutName
            return stream
        }
    }

    private func emit(_ frame: DecodedFrame) {
        guard let index = present.firstIndex(of: frame.kind), let stream = described[frame.kind] else { return }
        let outUnit = stream.timeBase.doubleValue
        let seconds = (frame.ptsSeconds ?? 0) - startSeconds
        let pts = Int64((seconds / outUnit).rounded())
        let duration = frame.kind == .video ? 1 : Int64(frame.sampleCount)
        let line = FrameMD5Writer.line(stream: index, pts: pts, duration: duration, size: frame.hashedSize, md5: frame.md5!)
        guard present.count > 1 else { return write(line) }
        // Several streams: in time order across them, as ffmpeg's muxer interleaves its packets (ties go
        // to the lower stream), so the order does not depend on how late each decoder hands frames out.
        if pending.count < present.count { pending = Array(repeating: [], count: present.count) }
        pending[index].append((pts, stream.timeBase, line))
        interleave(draining: false)
    }

    /// Writes pending lines in time order while every stream has one waiting (all of them when draining).
    private func interleave(draining: Bool) {
        while true {
            let waiting = pending.indices.filter { !pending[$0].isEmpty }
            guard !waiting.isEmpty, draining || waiting.count == pending.count else { return }
            // Exact comparison of pts × time base (a video frame at 48/30 s and audio at 76800/48000 s tie).
            func earlier(_ a: Int, _ b: Int) -> Bool {
                let x = pending[a][0], y = pending[b][0]
                return x.pts * Int64(x.timeBase.num) * Int64(y.timeBase.den) < y.pts * Int64(y.timeBase.num) * Int64(x.timeBase.den)
            }
            let next = waiting.min(by: earlier)!
            write(pending[next].removeFirst().line)
        }
    }
}
