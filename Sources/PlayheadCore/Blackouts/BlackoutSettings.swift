import PlayheadHLS

/// Blackouts (the TVSDK's blackout handling): a subscribed tag marks where the main content may not be
/// shown; from the start tag on, the player plays alternate content in its place while it keeps reloading
/// the main playlist in the background, and returns to the main content at the end tag.
public struct BlackoutSettings: Sendable, Equatable, Codable {
    /// The tag that signals blackouts, with its `#` (for example `#EXT-X-BLACKOUT` or `#EXT-OATCLS-SCTE35`).
    public var tag: String
    /// The alternate content played during a blackout: a VOD HLS playlist (multivariant or media),
    /// played from its start and again from its start for as long as the blackout lasts.
    public var alternateURL: String

    /// Blackouts signalled by `tag`, filled with `alternateURL`.
    public init(tag: String, alternateURL: String) {
        self.tag = tag
        self.alternateURL = alternateURL
    }

    /// Checks the tag name as a subscribed tag is checked (a `#`, a name alone, not a tag of the HLS
    /// specification, EXT-X-DATERANGE included), and that an alternate is named.
    public func validate() throws(BlackoutSettingsError) {
        if tag == TimedMetadataScanner.dateRangeTag { throw .dateRange }
        do { try TimedMetadataScanner.validate(tag) } catch { throw .tag(error) }
        if alternateURL.trimmingCharacters(in: .whitespaces).isEmpty { throw .noAlternate }
    }
}

/// Why blackout settings were refused.
public enum BlackoutSettingsError: Error, Equatable, CustomStringConvertible {
    /// The tag is not a custom tag name.
    case tag(SubscribedTagError)
    /// EXT-X-DATERANGE: its ranges are not read as blackouts.
    case dateRange
    /// The alternate content's URL is empty.
    case noAlternate

    /// One sentence saying what to give instead.
    public var description: String {
        switch self {
        case let .tag(error): error.description
        case .dateRange: "#EXT-X-DATERANGE does not signal blackouts here: name a custom tag (for example #EXT-X-BLACKOUT or #EXT-OATCLS-SCTE35)"
        case .noAlternate: "the alternate content is empty: give the URL or path of a VOD playlist to play during blackouts"
        }
    }
}

/// What one blackout tag says.
public enum BlackoutSignal: Sendable, Equatable {
    /// The blackout with this id starts at the tag.
    case start(id: String)
    /// The blackout with this id (nil: whichever is open) ends at the tag.
    case end(id: String?)

    /// Reads a blackout tag's value (everything after its `:`):
    /// - `START` or `END` alone, or an attribute list whose `TYPE` (else `STATE`) is `START` or `END`
    ///   (any case); its `ID` names the blackout (else the start's place in the playlist, `fallbackID`);
    /// - an SCTE-35 splice_info_section in base64 or hex (as `#EXT-OATCLS-SCTE35` carries): a
    ///   segmentation descriptor that starts a program, chapter, unscheduled event or network segment
    ///   (Program Start, Resumption, Overlap Start, Join, Chapter Start, Unscheduled Event Start, Network
    ///   Start) with its delivery restricted and web delivery not allowed starts the blackout named by its
    ///   segmentation_event_id; a descriptor of that event id of an end type (Program End, Early
    ///   Termination, Breakaway, Chapter End, Unscheduled Event End, Network End), or one cancelling it,
    ///   ends it, and so does a Program Blackout Override. Restrictions on advertisement and placement
    ///   opportunity segments are left to the ad splicer: they start no blackout. A cue whose CRC-32 is
    ///   wrong (damaged) says nothing. The end is matched by event id alone, whatever the start's type.
    ///
    /// Nil when the value says neither (the tag is then only timed metadata).
    public static func read(_ value: String, fallbackID: String) -> BlackoutSignal? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch trimmed.uppercased() {
        case "START": return .start(id: fallbackID)
        case "END": return .end(id: nil)
        default: break
        }
        let attributes = CueAttributes.parse(trimmed)
        if let type = (attributes["TYPE"] ?? attributes["STATE"])?.uppercased() {
            let id = attributes["ID"].flatMap { $0.isEmpty ? nil : $0 }
            if type == "START" { return .start(id: id ?? fallbackID) }
            if type == "END" { return .end(id: id) }
            return nil
        }
        return scte35(trimmed)
    }

    /// The blackout an SCTE-35 cue starts or ends (see ``read(_:fallbackID:)``).
    static func scte35(_ text: String) -> BlackoutSignal? {
        guard !text.isEmpty, let section = try? SCTE35.decode(text), section.crcValid else { return nil }
        for descriptor in section.segmentationDescriptors {
            let id = "scte35-\(descriptor.segmentationEventId)"
            if descriptor.segmentationEventCancelIndicator { return .end(id: id) }
            guard let type = descriptor.segmentationTypeId else { continue }
            if type == blackoutOverride { return .end(id: nil) }
            if endTypes.contains(type) { return .end(id: id) }
            if startTypes.contains(type), !descriptor.deliveryNotRestrictedFlag, descriptor.deliveryRestrictions?.webDeliveryAllowedFlag == false {
                return .start(id: id)
            }
        }
        return nil
    }

    /// segmentation_type_id values whose restricted segment is a blackout.
    static let startTypes: Set<UInt8> = [0x10, 0x14, 0x17, 0x19, 0x20, 0x40, 0x50]
    /// segmentation_type_id values that end such a segment.
    static let endTypes: Set<UInt8> = [0x11, 0x12, 0x13, 0x21, 0x41, 0x51]
    /// Program Blackout Override: the blackout is lifted.
    static let blackoutOverride: UInt8 = 0x18
}
