import Foundation

/// A VOD media playlist replayed as a live stream: pure text in, text out, for a time since the stream
/// "started". Both ``SimulatedLiveNetwork`` (the virtual clock) and `playhead origin --live` (the wall
/// clock of the origin) window playlists through it.
///
/// At time t the playlist lists the segments that exist by then: ``initialSegments`` at t = 0, then one
/// more each time a segment's EXTINF duration has passed. A window of ``windowSegments`` slides over
/// them (nil keeps them all: an event playlist), moving EXT-X-MEDIA-SEQUENCE, and EXT-X-DISCONTINUITY-SEQUENCE
/// as discontinuities slide out. Without ``loops`` EXT-X-ENDLIST comes once every segment is out; with it
/// the playlist wraps around for ever, a discontinuity before each new pass and the media sequence
/// still increasing. Tags that go with a segment (cues, date ranges, program date times) stay with it;
/// the EXT-X-KEY and EXT-X-MAP in force where the window begins are written before its first segment
/// when that segment has none of its own (a new pass starts with no key and the MAP of the playlist's top); a window
/// that begins inside an avail whose EXT-X-CUE-OUT has slid out begins with an EXT-X-CUE-OUT-CONT. Each later
/// pass moves program date times and date ranges on by the playlist's duration per pass (a date range's ID gets
/// `-loopN`), so that the dates keep going forward as a live stream's do.
public struct LiveWindow: Sendable, Equatable {
    /// Segments listed at time 0 (at least 1).
    public var initialSegments: Int
    /// Segments kept in the window (nil: every segment since the start).
    public var windowSegments: Int?
    /// Whether the playlist wraps around to its first segment instead of ending.
    public var loops: Bool

    /// Creates a window.
    /// - Parameters:
    ///   - initialSegments: Segments listed at time 0 (values below 1 count as 1).
    ///   - windowSegments: Segments kept in the window; nil keeps them all.
    ///   - loops: Wrap around for ever instead of ending.
    public init(initialSegments: Int = 3, windowSegments: Int? = nil, loops: Bool = false) {
        self.initialSegments = max(1, initialSegments)
        self.windowSegments = windowSegments.map { max(1, $0) }
        self.loops = loops
    }

    /// Whether `text` is a VOD media playlist this window applies to: it has EXTINF and EXT-X-ENDLIST
    /// (a multivariant playlist has neither).
    public static func isVODMediaPlaylist(_ text: String) -> Bool {
        text.contains("#EXTINF") && text.contains("#EXT-X-ENDLIST")
    }

    /// Tags of the whole playlist, kept at its top when they come before the first segment.
    static let playlistTags = ["#EXTM3U", "#EXT-X-VERSION", "#EXT-X-TARGETDURATION", "#EXT-X-INDEPENDENT-SEGMENTS",
                               "#EXT-X-I-FRAMES-ONLY", "#EXT-X-START", "#EXT-X-DEFINE", "#EXT-X-ALLOW-CACHE"]

    /// One segment of the VOD playlist: its lines (tags, then the URI) and what the window needs of them.
    struct Segment {
        var lines: [String] = []
        var duration = 0.0
        var hasDiscontinuity = false
        var key: String?
        var map: String?
    }

    /// The live playlist of VOD playlist `text` at `seconds` since the start.
    public func playlist(from text: String, at seconds: Double) -> String {
        var header: [String] = []
        var segments: [Segment] = []
        var pending = Segment()
        var headerMap: String?
        var baseDiscontinuity = 0
        var baseSequence = 0
        var inSegments = false
        for line in text.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                baseSequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                continue
            }
            if line.hasPrefix("#EXT-X-ENDLIST") || line.hasPrefix("#EXT-X-PLAYLIST-TYPE") { continue }
            if line.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE:") {
                baseDiscontinuity = Int(line.dropFirst("#EXT-X-DISCONTINUITY-SEQUENCE:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                continue
            }
            if !inSegments, Self.playlistTags.contains(where: { line.hasPrefix($0) }) || line.hasPrefix("#EXT-X-MAP") && pending.lines.isEmpty {
                if line.hasPrefix("#EXT-X-MAP") { headerMap = line }
                header.append(line)
                continue
            }
            inSegments = true
            pending.lines.append(line)
            if line.hasPrefix("#EXTINF:") {
                pending.duration = Double(line.dropFirst(8).prefix { $0 != "," }.trimmingCharacters(in: .whitespaces)) ?? 0
            } else if line.trimmingCharacters(in: .whitespaces) == "#EXT-X-DISCONTINUITY" {
                pending.hasDiscontinuity = true
            } else if line.hasPrefix("#EXT-X-KEY:") {
                pending.key = line
            } else if line.hasPrefix("#EXT-X-MAP:") {
                pending.map = line
            } else if !line.hasPrefix("#"), !line.isEmpty {
                segments.append(pending)
                pending = Segment()
            }
        }
        let count = segments.count
        guard count > 0 else { return text }
        let cycle = segments.reduce(0) { $0 + $1.duration }
        let loops = self.loops && cycle > 0

        // Segment k (0-based, counting on across passes) is out once the durations of segments
        // initialSegments…k have passed.
        var available = loops ? initialSegments : min(initialSegments, count)
        var clock = 0.0
        if loops, seconds > 2 * cycle {
            let passes = Int((seconds / cycle).rounded(.down)) - 1
            available += passes * count
            clock += Double(passes) * cycle
        }
        while loops || available < count, clock + segments[available % count].duration <= seconds + 1e-9 {
            clock += segments[available % count].duration
            available += 1
        }
        let first = windowSegments.map { max(0, available - $0) } ?? 0

        // Discontinuities of the segments that slid out: each segment's own, and one at each wrap.
        let ownPerPass = segments.count(where: \.hasDiscontinuity)
        let (passes, position) = first.quotientAndRemainder(dividingBy: count)
        var slidOut = passes * ownPerPass + segments[..<position].count(where: \.hasDiscontinuity)
        if loops, first > 0, !segments[0].hasDiscontinuity { slidOut += (first - 1) / count }

        let anyKey = segments.contains { $0.key != nil }
        let mapsChange = segments.contains { $0.map != nil }
        // Numbered on from the playlist's own first sequence number, so that the first pass keeps its numbers
        // (an AES-128 key without IV takes its IV from them).
        var out = header + ["#EXT-X-MEDIA-SEQUENCE:\(baseSequence + first)"]
        if baseDiscontinuity + slidOut != 0 { out.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(baseDiscontinuity + slidOut)") }
        for k in first..<available {
            let (pass, index) = k.quotientAndRemainder(dividingBy: count)
            let segment = segments[index]
            var before: [String] = []
            if index == 0, pass > 0 {
                // A new pass: a discontinuity, and the state of the playlist's top again.
                if !segment.hasDiscontinuity { before.append("#EXT-X-DISCONTINUITY") }
                if anyKey, segment.key == nil { before.append("#EXT-X-KEY:METHOD=NONE") }
                if mapsChange, segment.map == nil, let headerMap { before.append(headerMap) }
            } else if k == first {
                // The window's first segment carries the key and map in force there.
                if segment.key == nil, let key = segments[..<index].last(where: { $0.key != nil })?.key
                    ?? (pass > 0 && anyKey ? "#EXT-X-KEY:METHOD=NONE" : nil) {
                    before.append(key)
                }
                if segment.map == nil, let map = segments[..<index].last(where: { $0.map != nil })?.map { before.append(map) }
                if let continuation = Self.cueOutContinuation(segments, at: index) { before.append(continuation) }
            }
            var lines = segment.lines
            // A later pass numbers the segment anew: an AES-128 key without IV would take the new number as its
            // IV, so the segment gets its key with the IV of its first-pass number written out.
            if pass > 0, let key = segments[...index].last(where: { $0.key != nil })?.key, let explicit = Self.withIV(key, sequence: baseSequence + index) {
                if let own = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-KEY:") }) {
                    lines[own] = explicit
                } else if let carried = before.firstIndex(of: key) {
                    before[carried] = explicit  // the window's first segment: the key in force, written once
                } else {
                    before.append(explicit)
                }
            }
            if pass > 0 { lines = lines.map { Self.movedOn($0, by: Double(pass) * cycle, pass: pass) } }
            out += before + lines
        }
        // Once every segment is out, so are the tags after the last one.
        if !loops, available == count { out += pending.lines + ["#EXT-X-ENDLIST"] }
        return out.joined(separator: "\n") + "\n"
    }

    /// The EXT-X-CUE-OUT-CONT a window that begins at segment `index` needs when that segment lies inside an
    /// avail whose EXT-X-CUE-OUT came earlier (and has slid out), as live origins write on the segments of an
    /// avail: the seconds since the CUE-OUT, and its duration when it gave one. Nil when the segment carries a cue
    /// of its own or no avail is open there.
    static func cueOutContinuation(_ segments: [Segment], at index: Int) -> String? {
        func isCueOut(_ line: String) -> Bool { line.hasPrefix("#EXT-X-CUE-OUT") && !line.hasPrefix("#EXT-X-CUE-OUT-CONT") }
        guard index < segments.count,
              !segments[index].lines.contains(where: { $0.hasPrefix("#EXT-X-CUE-OUT") || $0.hasPrefix("#EXT-X-CUE-IN") }) else { return nil }
        for start in stride(from: index - 1, through: 0, by: -1) {
            let lines = segments[start].lines
            if lines.contains(where: { $0.hasPrefix("#EXT-X-CUE-IN") }) { return nil }
            guard let cueOut = lines.last(where: isCueOut) else { continue }
            let elapsed = segments[start..<index].reduce(0) { $0 + $1.duration }
            let value = cueOut.drop { $0 != ":" }.dropFirst()
            let durationText = value.split(separator: ",").lazy.compactMap { part -> Substring? in
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { return pair[0].uppercased() == "DURATION" ? pair[1] : nil }
                return part
            }.first
            let duration = durationText.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            // An avail whose duration has run out is over, whenever its CUE-IN comes.
            if let duration, elapsed >= duration - 1e-9 { return nil }
            return "#EXT-X-CUE-OUT-CONT:ElapsedTime=" + String(format: "%.3f", elapsed)
                + (duration.map { ",Duration=" + String(format: "%.3f", $0) } ?? "")
        }
        return nil
    }

    /// `line` as pass `pass` (> 0) carries it: an EXT-X-PROGRAM-DATE-TIME, or an EXT-X-DATERANGE's START-DATE
    /// and END-DATE, `seconds` later, and a date range's ID made the pass's own (`ID-loopN`: the same ID with
    /// other dates would be an error); any other line, or a date that does not read, as it is.
    static func movedOn(_ line: String, by seconds: Double, pass: Int) -> String {
        func moved(_ text: Substring) -> String? {
            // To the millisecond, rounded: the formatter truncates, and 17.000 + 30.03 came out as 47.029.
            EventJSON.date(iso8601: String(text)).map { date in
                // (A twentieth of a millisecond on top: the rounded value itself may sit just below it.)
                EventJSON.iso8601(Date(timeIntervalSince1970: ((date.timeIntervalSince1970 + seconds) * 1000).rounded() / 1000 + 0.00005))
            }
        }
        let pdt = "#EXT-X-PROGRAM-DATE-TIME:"
        if line.hasPrefix(pdt) {
            return moved(line.dropFirst(pdt.count).drop { $0 == " " }).map { pdt + $0 } ?? line
        }
        guard line.hasPrefix("#EXT-X-DATERANGE:") else { return line }
        var result = line
        for name in ["START-DATE", "END-DATE", "ID"] {
            // The attribute's quoted value, not a longer name ending the same way (X-ID).
            guard let open = result.ranges(of: name + "=\"").first(where: { range in
                range.lowerBound == result.startIndex || [":", ","].contains(result[result.index(before: range.lowerBound)])
            }), let close = result[open.upperBound...].firstIndex(of: "\"") else { continue }
            let value = result[open.upperBound..<close]
            let replacement = name == "ID" ? "\(value)-loop\(pass)" : moved(value)
            if let replacement { result.replaceSubrange(open.upperBound..<close, with: replacement) }
        }
        return result
    }

    /// `keyLine` (an EXT-X-KEY) with `IV=` the 128-bit big-endian `sequence`, when it is METHOD=AES-128
    /// without an IV of its own; nil otherwise.
    static func withIV(_ keyLine: String, sequence: Int) -> String? {
        guard keyLine.contains("METHOD=AES-128"), !keyLine.contains("IV=") else { return nil }
        return keyLine + ",IV=0x" + String(repeating: "0", count: 16) + String(format: "%016llx", UInt64(truncatingIfNeeded: sequence))
    }
}
