import CFFmpeg

/// One demuxed packet, owning its `AVPacket`. Not thread-safe; use where it was made.
public final class Packet {
    let raw: UnsafeMutablePointer<AVPacket>
    /// Time base of the timestamps.
    public let timeBase: Rational
    /// Kind of the stream the packet belongs to.
    public let kind: MediaKind

    init(raw: UnsafeMutablePointer<AVPacket>, timeBase: Rational, kind: MediaKind) {
        self.raw = raw
        self.timeBase = timeBase
        self.kind = kind
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = raw
        av_packet_free(&pointer)
    }

    /// Index of the stream in the segment's container.
    public var streamIndex: Int { Int(raw.pointee.stream_index) }
    /// Presentation timestamp in `timeBase` units, if the packet has one.
    public var pts: Int64? { raw.pointee.pts == noPTS ? nil : raw.pointee.pts }
    /// Decoding timestamp in `timeBase` units, if the packet has one.
    public var dts: Int64? { raw.pointee.dts == noPTS ? nil : raw.pointee.dts }
    /// Duration in `timeBase` units (0 when unknown).
    public var duration: Int64 { raw.pointee.duration }
    /// Whether the packet starts a keyframe.
    public var isKeyframe: Bool { raw.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Whether the demuxer flagged the packet as corrupt.
    public var isCorrupt: Bool { raw.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }
    /// Payload size in bytes.
    public var size: Int { Int(raw.pointee.size) }
    /// Byte position of the packet in the segment, if known.
    public var bytePosition: Int64? { raw.pointee.pos < 0 ? nil : raw.pointee.pos }
    /// Moves the packet's timestamps by `seconds` (rounded to its time base): a rendition packaged on
    /// another clock, put on the one it plays with.
    public func shiftTimestamps(bySeconds seconds: Double) {
        let ticks = Int64((seconds / timeBase.doubleValue).rounded())
        if raw.pointee.pts != noPTS { raw.pointee.pts += ticks }
        if raw.pointee.dts != noPTS { raw.pointee.dts += ticks }
    }

    /// A copy of the payload.
    public var bytes: [UInt8] {
        guard let data = raw.pointee.data, raw.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(raw.pointee.size)))
    }
}
