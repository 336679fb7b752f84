/// avail_descriptor() (tag 0x00): the provider's id for an avail.
public struct AvailDescriptor: Sendable, Equatable, Codable {
    /// provider_avail_id (32 bits).
    public var providerAvailId: UInt32

    /// An avail descriptor.
    public init(providerAvailId: UInt32) { self.providerAvailId = providerAvailId }
}

/// DTMF_descriptor() (tag 0x01): DTMF tones a receiver emits before a splice.
public struct DTMFDescriptor: Sendable, Equatable, Codable {
    /// preroll: tenths of a second between the tones and the splice.
    public var prerollTenthsOfSecond: UInt8
    /// DTMF_char values (ASCII "0"–"9", "*", "#"); dtmf_count is their count.
    public var dtmfChars: String

    /// A DTMF descriptor.
    public init(prerollTenthsOfSecond: UInt8, dtmfChars: String) {
        self.prerollTenthsOfSecond = prerollTenthsOfSecond
        self.dtmfChars = dtmfChars
    }

    enum CodingKeys: String, CodingKey { case prerollTenthsOfSecond = "preroll", dtmfChars }
}

/// time_descriptor() (tag 0x03): TAI time of the splice, for systems without PTS.
public struct TimeDescriptor: Sendable, Equatable, Codable {
    /// TAI_seconds (48 bits).
    public var taiSeconds: UInt64
    /// TAI_ns (32 bits).
    public var taiNanoseconds: UInt32
    /// UTC_offset: seconds to subtract from TAI to get UTC (16 bits).
    public var utcOffsetSeconds: UInt16

    /// A time descriptor.
    public init(taiSeconds: UInt64, taiNanoseconds: UInt32, utcOffsetSeconds: UInt16) {
        self.taiSeconds = taiSeconds
        self.taiNanoseconds = taiNanoseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    enum CodingKeys: String, CodingKey { case taiSeconds, taiNanoseconds = "taiNs", utcOffsetSeconds = "utcOffset" }
}

/// audio_descriptor() (tag 0x04): the audio services of the content.
public struct AudioDescriptor: Sendable, Equatable, Codable {
    /// One audio service.
    public struct Component: Sendable, Equatable, Codable {
        /// component_tag.
        public var componentTag: UInt8
        /// ISO_code: an ISO 639-2 language code (24 bits, three characters).
        public var isoCode: String
        /// Bit_Stream_Mode (3 bits, A/52).
        public var bitStreamMode: UInt8
        /// Num_Channels (4 bits, A/52).
        public var numChannels: UInt8
        /// Full_Srvc_Audio.
        public var fullServiceAudio: Bool

        /// An audio component.
        public init(componentTag: UInt8, isoCode: String, bitStreamMode: UInt8, numChannels: UInt8, fullServiceAudio: Bool) {
            self.componentTag = componentTag
            self.isoCode = isoCode
            self.bitStreamMode = bitStreamMode
            self.numChannels = numChannels
            self.fullServiceAudio = fullServiceAudio
        }
    }

    /// The components (audio_count of them).
    public var components: [Component]

    /// An audio descriptor.
    public init(components: [Component]) { self.components = components }
}

/// A descriptor this decoder does not interpret (private identifier or unknown tag), or a known
/// one whose body did not fit its length.
public struct RawDescriptor: Sendable, Equatable {
    /// splice_descriptor_tag.
    public var tag: UInt8
    /// identifier (32 bits; 0x43554549 "CUEI" for SCTE-35's own).
    public var identifier: UInt32
    /// The bytes after the identifier.
    public var bytes: [UInt8]
    /// Why a known descriptor could not be decoded; nil for descriptors kept raw by design.
    public var problem: String?

    /// A raw descriptor.
    public init(tag: UInt8, identifier: UInt32, bytes: [UInt8], problem: String? = nil) {
        self.tag = tag
        self.identifier = identifier
        self.bytes = bytes
        self.problem = problem
    }
}

/// One entry of the splice_descriptor loop.
public enum SpliceDescriptor: Sendable, Equatable {
    /// avail_descriptor (0x00).
    case avail(AvailDescriptor)
    /// DTMF_descriptor (0x01).
    case dtmf(DTMFDescriptor)
    /// segmentation_descriptor (0x02).
    case segmentation(SegmentationDescriptor)
    /// time_descriptor (0x03).
    case time(TimeDescriptor)
    /// audio_descriptor (0x04).
    case audio(AudioDescriptor)
    /// Anything else, kept raw.
    case raw(RawDescriptor)

    /// The identifier SCTE-35's own descriptors carry: "CUEI".
    public static let cueIdentifier: UInt32 = 0x4355_4549

    /// splice_descriptor_tag.
    public var tag: UInt8 {
        switch self {
        case .avail: return 0x00
        case .dtmf: return 0x01
        case .segmentation: return 0x02
        case .time: return 0x03
        case .audio: return 0x04
        case .raw(let raw): return raw.tag
        }
    }

    /// identifier.
    public var identifier: UInt32 {
        if case .raw(let raw) = self { return raw.identifier }
        return Self.cueIdentifier
    }

    /// The spec's name of the descriptor.
    public var name: String {
        switch self {
        case .avail: return "Avail Descriptor"
        case .dtmf: return "DTMF Descriptor"
        case .segmentation: return "Segmentation Descriptor"
        case .time: return "Time Descriptor"
        case .audio: return "Audio Descriptor"
        case .raw(let raw): return raw.problem == nil ? "Private or Unknown Descriptor" : "Malformed Descriptor"
        }
    }

    /// Reads the descriptor loop from `reader` (bounded by descriptor_loop_length).
    static func parseLoop(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> [SpliceDescriptor] {
        var descriptors: [SpliceDescriptor] = []
        while !reader.isAtEnd {
            let tag = try reader.uint8("splice_descriptor_tag")
            let length = Int(try reader.uint8("descriptor_length"))
            var body = try reader.window(length, "descriptor_length")
            guard length >= 4 else {
                let bytes = try body.byteArray(length, "identifier")
                descriptors.append(.raw(RawDescriptor(tag: tag, identifier: 0, bytes: bytes,
                                                      problem: "descriptor_length \(length) is too short for the 4-byte identifier")))
                continue
            }
            let identifier = try body.uint32("identifier")
            let start = body.byteOffset
            do {
                descriptors.append(try parseBody(tag: tag, identifier: identifier, &body))
            } catch {
                let bytes = Array(body.bytes[start..<body.endByte])
                descriptors.append(.raw(RawDescriptor(tag: tag, identifier: identifier, bytes: bytes,
                                                      problem: error.description)))
            }
        }
        return descriptors
    }

    /// Reads one descriptor's body after its identifier.
    private static func parseBody(tag: UInt8, identifier: UInt32, _ body: inout SCTE35BitReader) throws(SCTE35Error) -> SpliceDescriptor {
        guard identifier == cueIdentifier, tag <= 0x04 else {
            return .raw(RawDescriptor(tag: tag, identifier: identifier, bytes: try body.byteArray(body.remainingBytes, "private_byte")))
        }
        switch tag {
        case 0x00:
            return .avail(AvailDescriptor(providerAvailId: try body.uint32("provider_avail_id")))
        case 0x01:
            let preroll = try body.uint8("preroll")
            let count = Int(try body.bits(3, "dtmf_count"))
            try body.skip(5)
            let chars = try body.byteArray(count, "DTMF_char")
            return .dtmf(DTMFDescriptor(prerollTenthsOfSecond: preroll, dtmfChars: String(decoding: chars, as: UTF8.self)))
        case 0x02:
            return .segmentation(try SegmentationDescriptor.parse(&body))
        case 0x03:
            return .time(TimeDescriptor(taiSeconds: try body.bits(48, "TAI_seconds"), taiNanoseconds: try body.uint32("TAI_ns"),
                                        utcOffsetSeconds: try body.uint16("UTC_offset")))
        default:
            let count = Int(try body.bits(4, "audio_count"))
            try body.skip(4)
            var components: [AudioDescriptor.Component] = []
            for _ in 0..<count {
                let tag = try body.uint8("component_tag")
                let code = try body.byteArray(3, "ISO_code")
                components.append(AudioDescriptor.Component(
                    componentTag: tag, isoCode: String(decoding: code, as: UTF8.self),
                    bitStreamMode: UInt8(try body.bits(3, "Bit_Stream_Mode")),
                    numChannels: UInt8(try body.bits(4, "Num_Channels")),
                    fullServiceAudio: try body.flag("Full_Srvc_Audio")))
            }
            return .audio(AudioDescriptor(components: components))
        }
    }
}
