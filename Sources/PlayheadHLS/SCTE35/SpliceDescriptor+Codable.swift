/// JSON form of a descriptor: `tag`, `identifier` (four characters, or `0x` and 8 hex digits),
/// `name`, then the descriptor's own fields at the same level.
extension SpliceDescriptor: Codable {
    enum CodingKeys: String, CodingKey { case tag, identifier, name, bytes, problem }

    /// Encodes the common keys and the descriptor's fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tag, forKey: .tag)
        try c.encode(fourCharacterCode(identifier) ?? String(format8: identifier), forKey: .identifier)
        try c.encode(name, forKey: .name)
        switch self {
        case .avail(let d): try d.encode(to: encoder)
        case .dtmf(let d): try d.encode(to: encoder)
        case .segmentation(let d): try d.encode(to: encoder)
        case .time(let d): try d.encode(to: encoder)
        case .audio(let d): try d.encode(to: encoder)
        case .raw(let raw):
            try c.encode(hexString(raw.bytes), forKey: .bytes)
            try c.encodeIfPresent(raw.problem, forKey: .problem)
        }
    }

    /// Decodes what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try c.decode(UInt8.self, forKey: .tag)
        let text = try c.decode(String.self, forKey: .identifier)
        let identifier: UInt32
        if text.hasPrefix("0x"), let bytes = bytesFromHex(String(text.dropFirst(2))), bytes.count == 4 {
            identifier = bytes.reduce(0) { $0 << 8 | UInt32($1) }
        } else if text.utf8.count == 4 {
            identifier = text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
        } else {
            throw DecodingError.dataCorruptedError(forKey: .identifier, in: c, debugDescription: "expected 4 characters or 0x and 8 hex digits")
        }
        if let bytesText = try c.decodeIfPresent(String.self, forKey: .bytes) {
            self = .raw(RawDescriptor(tag: tag, identifier: identifier, bytes: bytesFromHex(bytesText) ?? [],
                                      problem: try c.decodeIfPresent(String.self, forKey: .problem)))
            return
        }
        switch tag {
        case 0x00: self = .avail(try AvailDescriptor(from: decoder))
        case 0x01: self = .dtmf(try DTMFDescriptor(from: decoder))
        case 0x02: self = .segmentation(try SegmentationDescriptor(from: decoder))
        case 0x03: self = .time(try TimeDescriptor(from: decoder))
        default: self = .audio(try AudioDescriptor(from: decoder))
        }
    }
}

extension String {
    /// `0x` and eight lower-case hex digits of `value`.
    init(format8 value: UInt32) {
        self = "0x" + hexString([24, 16, 8, 0].map { UInt8((value >> UInt32($0)) & 0xFF) })
    }
}
