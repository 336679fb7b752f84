/// A parsed WebVTT file: the header text, the cues and regions in file order, the HLS timestamp
/// mapping if the header carries one, and the problems the parser stepped over.
///
/// Parsing follows the W3C WebVTT parser algorithm: only a missing file signature is an error;
/// anything else that is malformed is dropped (or ignored) and listed in ``issues``.
public struct WebVTTDocument: Sendable, Equatable, Codable {
    /// The text after `WEBVTT` on the first line (without the space or tab that separates it), then
    /// the header lines that follow it up to the first blank line, joined by `"\n"`. Empty parts are
    /// left out, so a bare `WEBVTT` line with no header lines gives `""`.
    public var header: String
    /// The cues, in the order of the file.
    public var cues: [WebVTTCue]
    /// The regions defined by `REGION` blocks, in the order of the file.
    public var regions: [WebVTTRegion]
    /// The HLS `X-TIMESTAMP-MAP` header line (RFC 8216 §3.5), if the header has a valid one.
    public var timestampMap: WebVTTTimestampMap?
    /// Non-fatal problems, each with its 1-based line number.
    public var issues: [WebVTTIssue]

    /// A document from its parts; every part defaults to empty.
    public init(
        header: String = "", cues: [WebVTTCue] = [], regions: [WebVTTRegion] = [],
        timestampMap: WebVTTTimestampMap? = nil, issues: [WebVTTIssue] = []
    ) {
        self.header = header
        self.cues = cues
        self.regions = regions
        self.timestampMap = timestampMap
        self.issues = issues
    }

    /// The region a cue is shown in: the last region whose identifier is the cue's ``WebVTTCue/region``
    /// (REGION blocks all come before the first cue, so this is the region the spec's parser picks).
    public func region(of cue: WebVTTCue) -> WebVTTRegion? {
        guard let id = cue.region else { return nil }
        return regions.last { $0.id == id }
    }
}

/// The HLS `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<timestamp>` header line (RFC 8216 §3.5): the
/// cue time `local` corresponds to the MPEG-2 transport stream time `mpegts`.
public struct WebVTTTimestampMap: Sendable, Equatable, Codable {
    /// The MPEG-2 presentation time stamp, in 90 kHz ticks.
    public var mpegts: Int64
    /// The WebVTT cue time that maps to ``mpegts``, in seconds.
    public var local: Double

    /// A mapping of cue time `local` (seconds) to `mpegts` (90 kHz ticks).
    public init(mpegts: Int64, local: Double) {
        self.mpegts = mpegts
        self.local = local
    }

    /// The offset in seconds to add to a cue time to get media time on the 90 kHz clock:
    /// `mpegts / 90000 - local`.
    public var offsetSeconds: Double { Double(mpegts) / 90_000 - local }
}

/// A non-fatal problem found while parsing: what was dropped or ignored, and where.
public struct WebVTTIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The 1-based line number (a CRLF pair, a lone CR and a lone LF each end one line).
    public var line: Int
    /// What was wrong and what the parser did about it.
    public var message: String

    /// An issue at a 1-based line.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`.
    public var description: String { "line \(line): \(message)" }
}
