/// time_signal() (command type 0x06): a splice_time() that descriptors (usually segmentation) refer to.
public struct TimeSignal: Sendable, Equatable, Codable {
    /// The signalled time.
    public var spliceTime: SpliceTime

    /// A time signal at `spliceTime`.
    public init(spliceTime: SpliceTime) { self.spliceTime = spliceTime }
}

/// private_command() (command type 0xFF): an owner's identifier and opaque bytes.
public struct PrivateCommand: Sendable, Equatable, Codable {
    /// identifier: a 32-bit registered format identifier (often four ASCII characters).
    public var identifier: UInt32
    /// The private bytes after the identifier.
    public var privateBytes: [UInt8]

    /// A private command.
    public init(identifier: UInt32, privateBytes: [UInt8]) {
        self.identifier = identifier
        self.privateBytes = privateBytes
    }

    /// `identifier` as four characters when they are printable ASCII, else nil.
    public var identifierText: String? { fourCharacterCode(identifier) }

    enum CodingKeys: String, CodingKey { case identifier, privateBytes }

    enum ExtraKeys: String, CodingKey { case identifierText }

    /// Encodes `identifier` (number), `identifierText` and `privateBytes` as lower-case hex.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(hexString(privateBytes), forKey: .privateBytes)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encodeIfPresent(identifierText, forKey: .identifierText)
    }

    /// Reads `identifier` and hex `privateBytes`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(UInt32.self, forKey: .identifier)
        let text = try container.decode(String.self, forKey: .privateBytes)
        guard let bytes = bytesFromHex(text) else {
            throw DecodingError.dataCorruptedError(forKey: .privateBytes, in: container, debugDescription: "not hex")
        }
        privateBytes = bytes
    }
}

/// The splice command of a splice_info_section.
public enum SpliceCommand: Sendable, Equatable {
    /// splice_null() (0x00): a heartbeat, or a carrier for descriptors.
    case spliceNull
    /// splice_schedule() (0x04).
    case spliceSchedule(SpliceSchedule)
    /// splice_insert() (0x05).
    case spliceInsert(SpliceInsert)
    /// time_signal() (0x06).
    case timeSignal(TimeSignal)
    /// bandwidth_reservation() (0x07): no fields.
    case bandwidthReservation
    /// private_command() (0xFF).
    case privateCommand(PrivateCommand)
    /// A reserved command type, kept as raw bytes.
    case unknown(type: UInt8, bytes: [UInt8])
    /// An encrypted section: everything from splice_command_type to before CRC_32, undecoded.
    case encrypted(bytes: [UInt8])

    /// The spec's name for a splice_command_type value.
    public static func name(ofType type: UInt8) -> String {
        switch type {
        case 0x00: return "Splice Null"
        case 0x04: return "Splice Schedule"
        case 0x05: return "Splice Insert"
        case 0x06: return "Time Signal"
        case 0x07: return "Bandwidth Reservation"
        case 0xFF: return "Private Command"
        default: return "Reserved"
        }
    }

    /// Parses a command of `type`. `reader` is bounded by the declared length, or, for the legacy
    /// 0xFFF length, by what can hold a command (the command's own syntax then finds its end).
    static func parse(type: UInt8, _ reader: inout SCTE35BitReader, lengthKnown: Bool) throws(SCTE35Error) -> SpliceCommand {
        switch type {
        case 0x00: return .spliceNull
        case 0x04: return .spliceSchedule(try SpliceSchedule.parse(&reader))
        case 0x05: return .spliceInsert(try SpliceInsert.parse(&reader))
        case 0x06: return .timeSignal(TimeSignal(spliceTime: try SpliceTime.parse(&reader)))
        case 0x07: return .bandwidthReservation
        default:
            guard lengthKnown else { throw .unknownCommandLength(commandType: type, byteOffset: 11) }
            if type == 0xFF {
                let identifier = try reader.uint32("identifier")
                return .privateCommand(PrivateCommand(identifier: identifier,
                                                      privateBytes: try reader.byteArray(reader.remainingBytes, "private_byte")))
            }
            return .unknown(type: type, bytes: try reader.byteArray(reader.remainingBytes, "splice_command"))
        }
    }
}

/// Four printable ASCII characters spelled by `value`, or nil.
func fourCharacterCode(_ value: UInt32) -> String? {
    let bytes = [24, 16, 8, 0].map { UInt8((value >> UInt32($0)) & 0xFF) }
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}
