/// Turns decoded frames into FFmpeg `framemd5` text, mapping timestamps the way the ffmpeg CLI does
/// by default: counted from the input's earliest timestamp, video in `1/frame rate`, audio in
/// `1/sample rate`. The header waits for the end of the first segment (its streams give the frame
/// rate) and for the first frame of each wanted kind (picture size, sample rate); frames that come
/// before it are held back and written with it.
public final class FrameMD5Output {
    private let kinds: [MediaKind]
    private let software: String
    private let write: (String) -> Void
    private var startSeconds: Double?
    private var startFixed = false
    private var frameRate: Rational?
    private var streams: [MediaKind: DecodedFrame] = [:]   // first frame of each kind
    private var described: [MediaKind: FrameMD5Writer.Stream] = [:]
    private var held: [DecodedFrame] = []
    private var headerWritten = false

    /// Creates an output for `kinds` (in output stream order) writing text through `write`.
    public init(kinds: [MediaKind], software: String, write: @escaping (String) -> Void) {
        self.kinds = kinds
        self.software = software
        self.write = write
    }

    /// Notes a demuxed packet: the earliest packet timestamp of the first segment is the input's start time.
    public func note(_ packet: Packet) {
        guard !startFixed, let pts = packet.pts else { return }
        let seconds = Double(pts) * packet.timeBase.doubleValue
        startSeconds = min(startSeconds ?? seconds, seconds)
    }

    /// Notes a segment's streams: the video frame rate sets the video time base.
    public func note(_ report: SegmentDecodeReport) { note(streams: report.streams) }

    /// Notes a segment's streams (call after its packets): the first segment fixes the start time,
    /// and its video frame rate sets the video time base.
    public func note(streams: [StreamInfo]) {
        startFixed = true
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
            if startFixed, kinds.allSatisfy({ streams[$0] != nil }) { flushHeader() }
        }
    }

    /// Writes what is still held (the header with the streams that did appear).
    public func finish() { if !headerWritten { flushHeader() } }

    private var present: [MediaKind] { kinds.filter { streams[$0] != nil } }

    private func flushHeader() {
        headerWritten = true
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
            return .init(kind: .video, timeBase: Rational(rate.den, rate.num), width: frame.width, height: frame.height)
        default:
            return .init(kind: .audio, timeBase: Rational(1, Int32(frame.sampleRate)), sampleRate: frame.sampleRate, channels: frame.channels)
        }
    }

    private func emit(_ frame: DecodedFrame) {
        guard let index = present.firstIndex(of: frame.kind), let stream = described[frame.kind] else { return }
        let outUnit = stream.timeBase.doubleValue
        let seconds = (frame.ptsSeconds ?? 0) - (startSeconds ?? 0)
        // Video: rounded down onto the output frame grid. This reproduces ffmpeg 5.1's columns for TS
        // renditions; for fMP4 ffmpeg's CLI rounds the sub-frame start offset up instead, so there the
        // timestamp columns can be one frame lower than ffmpeg's (hash and size columns are exact).
        let units = seconds / outUnit
        let pts = Int64(frame.kind == .video ? (units + 1e-6).rounded(.down) : units.rounded())
        let duration = frame.kind == .video ? 1 : Int64(frame.sampleCount)
        write(FrameMD5Writer.line(stream: index, pts: pts, duration: duration, size: frame.hashedSize, md5: frame.md5!))
    }
}
