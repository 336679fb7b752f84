/// A decoded SCTE-35 splice_info_section.
///
/// Values counted in the 90 kHz clock keep their ticks (`…Ticks`); convenience accessors in
/// seconds live in `SpliceInfoSection+Signals.swift`. The CRC is checked but never fatal.
public struct SpliceInfoSection: Sendable, Equatable {
    /// table_id: always 0xFC for a decoded section.
    public var tableId: UInt8
    /// section_syntax_indicator (0 for SCTE-35).
    public var sectionSyntaxIndicator: Bool
    /// private_indicator (0 for SCTE-35).
    public var privateIndicator: Bool
    /// sap_type (2 bits, SCTE 35 2022; reserved before, 3 = not specified).
    public var sapType: UInt8
    /// section_length: bytes after this field, up to and including CRC_32.
    public var sectionLength: Int
    /// protocol_version (0 today).
    public var protocolVersion: UInt8
    /// encrypted_packet: the command and descriptors are encrypted and were not decoded.
    public var encryptedPacket: Bool
    /// encryption_algorithm (6 bits): 0 none, 1 DES-ECB, 2 DES-CBC, 3 triple DES, 32–63 private.
    public var encryptionAlgorithm: UInt8
    /// pts_adjustment in 90 kHz ticks (33 bits), added to every pts_time modulo 2^33.
    public var ptsAdjustmentTicks: UInt64
    /// cw_index: the control word (key) used when encrypted.
    public var cwIndex: UInt8
    /// tier (12 bits): authorization tier; 0xFFF means all.
    public var tier: UInt16
    /// splice_command_length as sent; 0xFFF is the legacy "unknown" value.
    public var spliceCommandLength: Int
    /// splice_command_type as sent (scrambled when `encryptedPacket`; nil if the section ends before it).
    public var spliceCommandType: UInt8?
    /// The decoded command.
    public var spliceCommand: SpliceCommand
    /// descriptor_loop_length; nil when encrypted.
    public var descriptorLoopLength: Int?
    /// The descriptor loop.
    public var descriptors: [SpliceDescriptor]
    /// CRC_32 as sent.
    public var crc32: UInt32
    /// Whether `crc32` matches the CRC-32/MPEG-2 of the bytes before it.
    public var crcValid: Bool

    /// A section with every field given.
    public init(tableId: UInt8 = 0xFC, sectionSyntaxIndicator: Bool = false, privateIndicator: Bool = false,
                sapType: UInt8 = 3, sectionLength: Int, protocolVersion: UInt8 = 0, encryptedPacket: Bool = false,
                encryptionAlgorithm: UInt8 = 0, ptsAdjustmentTicks: UInt64 = 0, cwIndex: UInt8 = 0, tier: UInt16 = 0xFFF,
                spliceCommandLength: Int, spliceCommandType: UInt8?, spliceCommand: SpliceCommand,
                descriptorLoopLength: Int?, descriptors: [SpliceDescriptor], crc32: UInt32, crcValid: Bool) {
        self.tableId = tableId
        self.sectionSyntaxIndicator = sectionSyntaxIndicator
        self.privateIndicator = privateIndicator
        self.sapType = sapType
        self.sectionLength = sectionLength
        self.protocolVersion = protocolVersion
        self.encryptedPacket = encryptedPacket
        self.encryptionAlgorithm = encryptionAlgorithm
        self.ptsAdjustmentTicks = ptsAdjustmentTicks
        self.cwIndex = cwIndex
        self.tier = tier
        self.spliceCommandLength = spliceCommandLength
        self.spliceCommandType = spliceCommandType
        self.spliceCommand = spliceCommand
        self.descriptorLoopLength = descriptorLoopLength
        self.descriptors = descriptors
        self.crc32 = crc32
        self.crcValid = crcValid
    }

    /// The legacy splice_command_length meaning "parse the command to find its end".
    public static let legacyUnknownCommandLength = 0xFFF

    /// The spec's name of `spliceCommandType` ("Encrypted" when encrypted).
    public var spliceCommandTypeName: String {
        if encryptedPacket { return "Encrypted" }
        return spliceCommandType.map(SpliceCommand.name(ofType:)) ?? "Missing"
    }

    /// The segmentation descriptors, in loop order.
    public var segmentationDescriptors: [SegmentationDescriptor] {
        descriptors.compactMap { if case .segmentation(let d) = $0 { return d } else { return nil } }
    }

    /// Decodes a section from `bytes`, which may continue past the section (extra bytes are ignored).
    static func parse(_ bytes: [UInt8]) throws(SCTE35Error) -> SpliceInfoSection {
        var reader = SCTE35BitReader(bytes)
        let tableId = try reader.uint8("table_id")
        guard tableId == 0xFC else { throw .badTableId(found: tableId) }
        let syntax = try reader.flag("section_syntax_indicator")
        let privateFlag = try reader.flag("private_indicator")
        let sap = UInt8(try reader.bits(2, "sap_type"))
        let sectionLength = Int(try reader.bits(12, "section_length"))
        let total = sectionLength + 3
        guard total <= bytes.count else {
            throw .lengthBeyondData(field: "section_length", byteOffset: 1, declaredBytes: sectionLength,
                                    availableBytes: bytes.count - 3)
        }
        reader = SCTE35BitReader(bytes, startByte: 3, endByte: total)
        let version = try reader.uint8("protocol_version")
        let encrypted = try reader.flag("encrypted_packet")
        let algorithm = UInt8(try reader.bits(6, "encryption_algorithm"))
        let adjustment = try reader.bits(33, "pts_adjustment")
        let cwIndex = try reader.uint8("cw_index")
        let tier = UInt16(try reader.bits(12, "tier"))
        let commandLength = Int(try reader.bits(12, "splice_command_length"))
        guard total >= 17 else {
            throw .truncated(field: "CRC_32", byteOffset: total, bitsNeeded: (17 - total) * 8, bytesAvailable: total)
        }
        let crcOffset = total - 4
        let crc = bytes[crcOffset..<total].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var section = SpliceInfoSection(
            sectionSyntaxIndicator: syntax, privateIndicator: privateFlag, sapType: sap, sectionLength: sectionLength,
            protocolVersion: version, encryptedPacket: encrypted, encryptionAlgorithm: algorithm,
            ptsAdjustmentTicks: adjustment, cwIndex: cwIndex, tier: tier, spliceCommandLength: commandLength,
            spliceCommandType: crcOffset > 13 ? bytes[13] : nil, spliceCommand: .spliceNull, descriptorLoopLength: nil,
            descriptors: [], crc32: crc, crcValid: SCTE35CRC32.checksum(bytes, 0..<crcOffset) == crc)
        if encrypted {
            section.spliceCommand = .encrypted(bytes: Array(bytes[13..<crcOffset]))
            return section
        }
        try section.parseBody(bytes, crcOffset: crcOffset)
        return section
    }

    /// Reads the command and the descriptor loop, which sit between byte 13 and the CRC.
    private mutating func parseBody(_ bytes: [UInt8], crcOffset: Int) throws(SCTE35Error) {
        var reader = SCTE35BitReader(bytes, startByte: 13, endByte: crcOffset)
        let type = try reader.uint8("splice_command_type")
        if spliceCommandLength == Self.legacyUnknownCommandLength {
            // The command ends where its syntax ends; leave room for descriptor_loop_length.
            let start = reader.byteOffset
            var command = SCTE35BitReader(bytes, startByte: start, endByte: max(start, crcOffset - 2))
            spliceCommand = try SpliceCommand.parse(type: type, &command, lengthKnown: false)
            _ = try reader.window(command.byteOffset - start, "splice_command")
        } else {
            var command = try reader.window(spliceCommandLength, "splice_command_length")
            spliceCommand = try SpliceCommand.parse(type: type, &command, lengthKnown: true)
        }
        let loopLength = Int(try reader.uint16("descriptor_loop_length"))
        descriptorLoopLength = loopLength
        var loop = try reader.window(loopLength, "descriptor_loop_length")
        descriptors = try SpliceDescriptor.parseLoop(&loop)
    }
}
