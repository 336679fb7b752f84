/// segmentation_upid(): the unique program identifier of a segmentation descriptor.
///
/// Each case keeps the bytes exactly as sent (a length that breaks the spec's fixed size is kept,
/// not refused); ``stringForm`` renders them. Types 0x0B (ATSC), 0x0C (MPU) and 0x0D (MID) are
/// structured; when their bytes do not fit the structure they become ``other(type:bytes:)``.
public enum SegmentationUPID: Sendable, Equatable {
    /// 0x00 Not Used (normally zero bytes).
    case notUsed([UInt8])
    /// 0x01 User Defined (deprecated).
    case userDefined([UInt8])
    /// 0x02 ISCI (deprecated): 8 ASCII characters.
    case isci([UInt8])
    /// 0x03 Ad-ID: 12 ASCII characters.
    case adID([UInt8])
    /// 0x04 UMID (SMPTE 330M): 32 bytes.
    case umid([UInt8])
    /// 0x05 ISAN (deprecated): 8 bytes, root and episode.
    case isanDeprecated([UInt8])
    /// 0x06 ISAN (V-ISAN): 12 bytes, root, episode and version.
    case isan([UInt8])
    /// 0x07 TID (Tribune Media Systems program identifier): 12 ASCII characters.
    case tid([UInt8])
    /// 0x08 TI (AiringID): 8 bytes.
    case ti([UInt8])
    /// 0x09 ADI (CableLabs metadata identifier): ASCII.
    case adi([UInt8])
    /// 0x0A EIDR: 12 bytes, a 16-bit DOI prefix suffix and the 80-bit EIDR suffix.
    case eidr([UInt8])
    /// 0x0B ATSC Content Identifier (A/57B).
    case atsc(ATSCContentIdentifier)
    /// 0x0C MPU: a format identifier and private data.
    case mpu(formatIdentifier: UInt32, privateData: [UInt8])
    /// 0x0D MID: several UPIDs in one.
    case mid([SegmentationUPID])
    /// 0x0E ADS Information: advertising information, usually ASCII.
    case adsInformation([UInt8])
    /// 0x0F URI (RFC 3986): ASCII.
    case uri([UInt8])
    /// 0x10 UUID (RFC 4122): 16 bytes.
    case uuid([UInt8])
    /// 0x11 SCR (Subscriber Company Reporting, SCTE 35 2022): ASCII.
    case scr([UInt8])
    /// A reserved type, or a structured type whose bytes do not fit its structure.
    case other(type: UInt8, bytes: [UInt8])

    /// The segmentation_upid_type this value is sent with.
    public var type: UInt8 {
        switch self {
        case .notUsed: return 0x00
        case .userDefined: return 0x01
        case .isci: return 0x02
        case .adID: return 0x03
        case .umid: return 0x04
        case .isanDeprecated: return 0x05
        case .isan: return 0x06
        case .tid: return 0x07
        case .ti: return 0x08
        case .adi: return 0x09
        case .eidr: return 0x0A
        case .atsc: return 0x0B
        case .mpu: return 0x0C
        case .mid: return 0x0D
        case .adsInformation: return 0x0E
        case .uri: return 0x0F
        case .uuid: return 0x10
        case .scr: return 0x11
        case .other(let type, _): return type
        }
    }

    /// The bytes as they appear after segmentation_upid_length.
    public var bytes: [UInt8] {
        switch self {
        case .notUsed(let b), .userDefined(let b), .isci(let b), .adID(let b), .umid(let b),
             .isanDeprecated(let b), .isan(let b), .tid(let b), .ti(let b), .adi(let b), .eidr(let b),
             .adsInformation(let b), .uri(let b), .uuid(let b), .scr(let b), .other(_, let b):
            return b
        case .atsc(let identifier): return identifier.bytes
        case .mpu(let format, let data):
            return [24, 16, 8, 0].map { UInt8((format >> UInt32($0)) & 0xFF) } + data
        case .mid(let upids):
            return upids.flatMap { [$0.type, UInt8(truncatingIfNeeded: $0.bytes.count)] + $0.bytes }
        }
    }

    /// The spec's name for a segmentation_upid_type value.
    public static func name(ofType type: UInt8) -> String {
        let names = ["Not Used", "User Defined (deprecated)", "ISCI (deprecated)", "Ad-ID", "UMID",
                     "ISAN (deprecated)", "ISAN", "TID", "TI", "ADI", "EIDR", "ATSC Content Identifier",
                     "MPU", "MID", "ADS Information", "URI", "UUID", "SCR"]
        return Int(type) < names.count ? names[Int(type)] : "Reserved"
    }

    /// Builds the UPID of `type` from its bytes.
    public static func parse(type: UInt8, bytes: [UInt8]) -> SegmentationUPID {
        switch type {
        case 0x00: return .notUsed(bytes)
        case 0x01: return .userDefined(bytes)
        case 0x02: return .isci(bytes)
        case 0x03: return .adID(bytes)
        case 0x04: return .umid(bytes)
        case 0x05: return .isanDeprecated(bytes)
        case 0x06: return .isan(bytes)
        case 0x07: return .tid(bytes)
        case 0x08: return .ti(bytes)
        case 0x09: return .adi(bytes)
        case 0x0A: return .eidr(bytes)
        case 0x0B:
            return ATSCContentIdentifier(bytes: bytes).map { .atsc($0) } ?? .other(type: type, bytes: bytes)
        case 0x0C:
            guard bytes.count >= 4 else { return .other(type: type, bytes: bytes) }
            let format = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return .mpu(formatIdentifier: format, privateData: Array(bytes[4...]))
        case 0x0D: return parseMID(bytes).map { .mid($0) } ?? .other(type: type, bytes: bytes)
        case 0x0E: return .adsInformation(bytes)
        case 0x0F: return .uri(bytes)
        case 0x10: return .uuid(bytes)
        case 0x11: return .scr(bytes)
        default: return .other(type: type, bytes: bytes)
        }
    }

    /// The sub-UPIDs of a MID, or nil when the loop does not end exactly at the end of `bytes`.
    private static func parseMID(_ bytes: [UInt8]) -> [SegmentationUPID]? {
        var upids: [SegmentationUPID] = []
        var index = 0
        while index < bytes.count {
            guard index + 2 <= bytes.count else { return nil }
            let type = bytes[index], length = Int(bytes[index + 1])
            guard index + 2 + length <= bytes.count else { return nil }
            upids.append(parse(type: type, bytes: Array(bytes[index + 2..<index + 2 + length])))
            index += 2 + length
        }
        return upids
    }
}

/// An ATSC A/57B content identifier carried as UPID type 0x0B.
public struct ATSCContentIdentifier: Sendable, Equatable, Codable {
    /// TSID: the transport stream id of the content's origin (16 bits).
    public var tsid: UInt16
    /// The 2 reserved bits, kept so the bytes round-trip.
    public var reserved: UInt8
    /// end_of_day: the hour (0–23) after which the content id may be reused (5 bits).
    public var endOfDay: UInt8
    /// unique_for: days the content id stays unique (9 bits).
    public var uniqueFor: UInt16
    /// content_id: the remaining bytes.
    public var contentId: [UInt8]

    /// Reads the identifier from at least 4 bytes; nil when shorter.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        tsid = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        reserved = bytes[2] >> 6
        endOfDay = (bytes[2] >> 1) & 0x1F
        uniqueFor = UInt16(bytes[2] & 0x01) << 8 | UInt16(bytes[3])
        contentId = Array(bytes[4...])
    }

    /// The identifier's bytes.
    public var bytes: [UInt8] {
        [UInt8(tsid >> 8), UInt8(tsid & 0xFF),
         reserved << 6 | (endOfDay & 0x1F) << 1 | UInt8(uniqueFor >> 8 & 1), UInt8(uniqueFor & 0xFF)] + contentId
    }
}
