/// A client-defined (`X-…`) attribute of EXT-X-DATERANGE, with its value kept typed.
public struct ClientAttribute: Sendable, Equatable, Codable {
    /// The attribute name, e.g. `X-COM-EXAMPLE-AD-ID`.
    public var name: String
    /// The value as parsed.
    public var value: AttributeValue

    /// Creates a client attribute.
    public init(name: String, value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// EXT-X-DATERANGE: a range of time with attributes (ads, SCTE-35 cues, interstitials).
public struct DateRange: Sendable, Equatable, Codable {
    /// ID.
    public var id: String
    /// CLASS.
    public var classIdentifier: String?
    /// START-DATE (may be absent in playlists that only update a range).
    public var startDate: ProgramDateTime?
    /// CUE (interstitials), as written, e.g. `PRE,ONCE`.
    public var cue: String?
    /// END-DATE.
    public var endDate: ProgramDateTime?
    /// DURATION in seconds.
    public var durationSeconds: Double?
    /// PLANNED-DURATION in seconds.
    public var plannedDurationSeconds: Double?
    /// SCTE35-CMD as written (`0x…`).
    public var scte35Cmd: String?
    /// SCTE35-OUT as written (`0x…`).
    public var scte35Out: String?
    /// SCTE35-IN as written (`0x…`).
    public var scte35In: String?
    /// END-ON-NEXT=YES.
    public var endOnNext: Bool
    /// `X-…` attributes in order.
    public var clientAttributes: [ClientAttribute]
    /// Index of the segment the tag precedes (`segments.count` when after the last segment;
    /// always 0 in a multivariant playlist).
    public var segmentIndex: Int

    /// Creates a date range.
    public init(id: String, classIdentifier: String? = nil, startDate: ProgramDateTime? = nil, cue: String? = nil,
                endDate: ProgramDateTime? = nil, durationSeconds: Double? = nil,
                plannedDurationSeconds: Double? = nil, scte35Cmd: String? = nil, scte35Out: String? = nil,
                scte35In: String? = nil, endOnNext: Bool = false, clientAttributes: [ClientAttribute] = [],
                segmentIndex: Int = 0) {
        self.id = id
        self.classIdentifier = classIdentifier
        self.startDate = startDate
        self.cue = cue
        self.endDate = endDate
        self.durationSeconds = durationSeconds
        self.plannedDurationSeconds = plannedDurationSeconds
        self.scte35Cmd = scte35Cmd
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.endOnNext = endOnNext
        self.clientAttributes = clientAttributes
        self.segmentIndex = segmentIndex
    }

    /// SCTE35-OUT decoded to bytes (a splice_info_section).
    public var scte35OutBytes: [UInt8]? { scte35Out.flatMap { HexBytes.decode(Substring($0)) } }
    /// SCTE35-IN decoded to bytes.
    public var scte35InBytes: [UInt8]? { scte35In.flatMap { HexBytes.decode(Substring($0)) } }
    /// SCTE35-CMD decoded to bytes.
    public var scte35CmdBytes: [UInt8]? { scte35Cmd.flatMap { HexBytes.decode(Substring($0)) } }
}
