/// A DASH/CMAF event message box (`emsg`, ISO/IEC 23009-1 section 5.10.3.3) found at the top level of
/// a fragmented MP4 segment: how timed metadata (ID3 among it) travels in fMP4, where MPEG-TS carries a
/// timed-ID3 stream. libavformat 5.1 skips these boxes; Playhead reads them from the segment's bytes.
public struct EventMessageBox: Sendable, Equatable {
    /// The scheme of timed ID3 in CMAF (AOM, also Apple's for HLS fMP4).
    public static let id3Scheme = "https://aomedia.org/emsg/ID3"

    /// Box version: 0 times the event from the segment's start, 1 on the track's timeline.
    public var version: Int
    /// `scheme_id_uri`.
    public var schemeIdURI: String
    /// `value`.
    public var value: String
    /// Ticks a second of the times.
    public var timescale: UInt32
    /// Version 0: ticks after the segment's earliest presentation time; version 1: the presentation time.
    public var presentationTime: UInt64
    /// Ticks the event lasts (0xFFFFFFFF: unknown).
    public var eventDuration: UInt32
    /// `id`.
    public var id: UInt32
    /// `message_data` (an ID3 tag for ``id3Scheme``).
    public var messageData: [UInt8]

    /// Creates a box.
    public init(version: Int, schemeIdURI: String, value: String, timescale: UInt32, presentationTime: UInt64,
                eventDuration: UInt32, id: UInt32, messageData: [UInt8]) {
        self.version = version
        self.schemeIdURI = schemeIdURI
        self.value = value
        self.timescale = timescale
        self.presentationTime = presentationTime
        self.eventDuration = eventDuration
        self.id = id
        self.messageData = messageData
    }

    /// The event's time in seconds: on the track's timeline (version 1), or after the segment's earliest
    /// presentation time, `segmentStartSeconds` (version 0). Nil with a timescale of 0.
    public func seconds(segmentStartSeconds: Double) -> Double? {
        guard timescale > 0 else { return nil }
        let ticks = Double(presentationTime) / Double(timescale)
        return version == 0 ? segmentStartSeconds + ticks : ticks
    }

    /// The `emsg` boxes at the top level of `bytes` (an fMP4 segment, its initialization section in
    /// front or not), in order; a box cut short or of an unknown version ends the scan.
    public static func boxes(in bytes: [UInt8]) -> [EventMessageBox] {
        var found: [EventMessageBox] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = Int(readUInt32(bytes, offset))
            var header = 8
            if size == 1, offset + 16 <= bytes.count {
                size = Int(clamping: readUInt64(bytes, offset + 8))
                header = 16
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= header, offset + size <= bytes.count else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("emsg".utf8) {
                guard let box = parse(Array(bytes[offset + header..<offset + size])) else { break }
                found.append(box)
            }
            offset += size
        }
        return found
    }

    /// Reads a box's payload (after its size and type).
    static func parse(_ body: [UInt8]) -> EventMessageBox? {
        guard body.count >= 4 else { return nil }
        let version = Int(body[0])
        var at = 4
        func cString() -> String? {
            guard let end = body[at...].firstIndex(of: 0) else { return nil }
            defer { at = end + 1 }
            return String(decoding: body[at..<end], as: UTF8.self)
        }
        func u32() -> UInt32? {
            guard at + 4 <= body.count else { return nil }
            defer { at += 4 }
            return readUInt32(body, at)
        }
        switch version {
        case 0:
            guard let scheme = cString(), let value = cString(), let timescale = u32(), let delta = u32(), let duration = u32(),
                  let id = u32() else { return nil }
            return EventMessageBox(version: 0, schemeIdURI: scheme, value: value, timescale: timescale, presentationTime: UInt64(delta),
                                   eventDuration: duration, id: id, messageData: Array(body[at...]))
        case 1:
            guard let timescale = u32(), at + 8 <= body.count else { return nil }
            let time = readUInt64(body, at)
            at += 8
            guard let duration = u32(), let id = u32(), let scheme = cString(), let value = cString() else { return nil }
            return EventMessageBox(version: 1, schemeIdURI: scheme, value: value, timescale: timescale, presentationTime: time,
                                   eventDuration: duration, id: id, messageData: Array(body[at...]))
        default:
            return nil
        }
    }

    /// The box's bytes (size, type and payload), for tests and tools that write segments.
    public var bytes: [UInt8] {
        var body: [UInt8] = [UInt8(version), 0, 0, 0]
        func u32(_ v: UInt32) { body += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        if version == 0 {
            body += Array(schemeIdURI.utf8) + [0] + Array(value.utf8) + [0]
            u32(timescale); u32(UInt32(truncatingIfNeeded: presentationTime)); u32(eventDuration); u32(id)
        } else {
            u32(timescale); u32(UInt32(presentationTime >> 32)); u32(UInt32(truncatingIfNeeded: presentationTime)); u32(eventDuration); u32(id)
            body += Array(schemeIdURI.utf8) + [0] + Array(value.utf8) + [0]
        }
        body += messageData
        let size = UInt32(body.count + 8)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("emsg".utf8) + body
    }
}

private func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
}

private func readUInt64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    UInt64(readUInt32(bytes, at)) << 32 | UInt64(readUInt32(bytes, at + 4))
}
