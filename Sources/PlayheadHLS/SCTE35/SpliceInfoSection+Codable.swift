/// JSON form of a section (schema: docs/scte35-json.md). 90 kHz values are integer ticks; fields
/// ending in `Seconds` are derived and ignored when decoding.
extension SpliceInfoSection: Codable {
    enum CodingKeys: String, CodingKey {
        case tableId, sectionSyntaxIndicator, privateIndicator, sapType, sectionLength, protocolVersion
        case encryptedPacket, encryptionAlgorithm, ptsAdjustment, ptsAdjustmentSeconds, cwIndex, tier
        case spliceCommandLength, spliceCommandType, spliceCommandTypeName, spliceCommand
        case descriptorLoopLength, descriptors, crc32, crcValid
        case spliceTimeSeconds, breakDurationSeconds, outOfNetworkStart
    }

    /// Encodes the section with the keys of docs/scte35-json.md.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tableId, forKey: .tableId)
        try c.encode(sectionSyntaxIndicator, forKey: .sectionSyntaxIndicator)
        try c.encode(privateIndicator, forKey: .privateIndicator)
        try c.encode(sapType, forKey: .sapType)
        try c.encode(sectionLength, forKey: .sectionLength)
        try c.encode(protocolVersion, forKey: .protocolVersion)
        try c.encode(encryptedPacket, forKey: .encryptedPacket)
        try c.encode(encryptionAlgorithm, forKey: .encryptionAlgorithm)
        try c.encode(ptsAdjustmentTicks, forKey: .ptsAdjustment)
        try c.encode(jsonSeconds(ptsAdjustmentSeconds), forKey: .ptsAdjustmentSeconds)
        try c.encode(cwIndex, forKey: .cwIndex)
        try c.encode(tier, forKey: .tier)
        try c.encode(spliceCommandLength, forKey: .spliceCommandLength)
        try c.encodeIfPresent(spliceCommandType, forKey: .spliceCommandType)
        try c.encode(spliceCommandTypeName, forKey: .spliceCommandTypeName)
        try spliceCommand.encodePayload(to: c.superEncoder(forKey: .spliceCommand))
        try c.encodeIfPresent(descriptorLoopLength, forKey: .descriptorLoopLength)
        try c.encode(descriptors, forKey: .descriptors)
        try c.encode("0x" + hexString([24, 16, 8, 0].map { UInt8((crc32 >> UInt32($0)) & 0xFF) }), forKey: .crc32)
        try c.encode(crcValid, forKey: .crcValid)
        try c.encodeIfPresent(spliceTimeSeconds.map(jsonSeconds), forKey: .spliceTimeSeconds)
        try c.encodeIfPresent(breakDurationSeconds.map(jsonSeconds), forKey: .breakDurationSeconds)
        try c.encode(isOutOfNetworkStart, forKey: .outOfNetworkStart)
    }

    /// Decodes what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let crcText = try c.decode(String.self, forKey: .crc32)
        guard let crcBytes = bytesFromHex(String(crcText.dropFirst(2))), crcBytes.count == 4 else {
            throw DecodingError.dataCorruptedError(forKey: .crc32, in: c, debugDescription: "expected 0x and 8 hex digits")
        }
        let encrypted = try c.decode(Bool.self, forKey: .encryptedPacket)
        let type = try c.decodeIfPresent(UInt8.self, forKey: .spliceCommandType)
        let command = try SpliceCommand.decodePayload(type: type, encrypted: encrypted,
                                                      from: c.superDecoder(forKey: .spliceCommand))
        self.init(
            tableId: try c.decode(UInt8.self, forKey: .tableId),
            sectionSyntaxIndicator: try c.decode(Bool.self, forKey: .sectionSyntaxIndicator),
            privateIndicator: try c.decode(Bool.self, forKey: .privateIndicator),
            sapType: try c.decode(UInt8.self, forKey: .sapType),
            sectionLength: try c.decode(Int.self, forKey: .sectionLength),
            protocolVersion: try c.decode(UInt8.self, forKey: .protocolVersion),
            encryptedPacket: encrypted,
            encryptionAlgorithm: try c.decode(UInt8.self, forKey: .encryptionAlgorithm),
            ptsAdjustmentTicks: try c.decode(UInt64.self, forKey: .ptsAdjustment),
            cwIndex: try c.decode(UInt8.self, forKey: .cwIndex),
            tier: try c.decode(UInt16.self, forKey: .tier),
            spliceCommandLength: try c.decode(Int.self, forKey: .spliceCommandLength),
            spliceCommandType: type, spliceCommand: command,
            descriptorLoopLength: try c.decodeIfPresent(Int.self, forKey: .descriptorLoopLength),
            descriptors: try c.decode([SpliceDescriptor].self, forKey: .descriptors),
            crc32: crcBytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) },
            crcValid: try c.decode(Bool.self, forKey: .crcValid))
    }
}

extension SpliceCommand {
    /// Keys of the payloads that are not a struct of their own.
    private enum RawKeys: String, CodingKey { case bytes, encryptedBytes }

    /// Encodes the command's fields (its type is encoded beside it, by the section).
    func encodePayload(to encoder: any Encoder) throws {
        switch self {
        case .spliceNull, .bandwidthReservation:
            _ = encoder.container(keyedBy: RawKeys.self)
        case .spliceSchedule(let schedule): try schedule.encode(to: encoder)
        case .spliceInsert(let insert): try insert.encode(to: encoder)
        case .timeSignal(let signal): try signal.encode(to: encoder)
        case .privateCommand(let command): try command.encode(to: encoder)
        case .unknown(_, let bytes):
            var c = encoder.container(keyedBy: RawKeys.self)
            try c.encode(hexString(bytes), forKey: .bytes)
        case .encrypted(let bytes):
            var c = encoder.container(keyedBy: RawKeys.self)
            try c.encode(hexString(bytes), forKey: .encryptedBytes)
        }
    }

    /// Decodes the fields of a command of `type`.
    static func decodePayload(type: UInt8?, encrypted: Bool, from decoder: any Decoder) throws -> SpliceCommand {
        let c = try decoder.container(keyedBy: RawKeys.self)
        if encrypted {
            return .encrypted(bytes: bytesFromHex(try c.decode(String.self, forKey: .encryptedBytes)) ?? [])
        }
        switch type {
        case 0x00, nil: return .spliceNull
        case 0x04: return .spliceSchedule(try SpliceSchedule(from: decoder))
        case 0x05: return .spliceInsert(try SpliceInsert(from: decoder))
        case 0x06: return .timeSignal(try TimeSignal(from: decoder))
        case 0x07: return .bandwidthReservation
        case 0xFF: return .privateCommand(try PrivateCommand(from: decoder))
        case let other?:
            return .unknown(type: other, bytes: bytesFromHex(try c.decode(String.self, forKey: .bytes)) ?? [])
        }
    }
}
