/// JSON form of a segmentation descriptor: the restriction flags are flattened, the UPID appears
/// as type, type name, length, string form and hex (MID adds `segmentationUpids`), durations in
/// ticks with a `…Seconds` twin.
extension SegmentationDescriptor: Codable {
    enum CodingKeys: String, CodingKey {
        case segmentationEventId, segmentationEventCancelIndicator, segmentationEventIdComplianceIndicator
        case programSegmentationFlag, segmentationDurationFlag, deliveryNotRestrictedFlag
        case webDeliveryAllowedFlag, noRegionalBlackoutFlag, archiveAllowedFlag, deviceRestrictions
        case components, segmentationDuration, segmentationDurationSeconds
        case segmentationUpidType, segmentationUpidTypeName, segmentationUpidLength, segmentationUpid
        case segmentationUpidHex, segmentationUpids
        case segmentationTypeId, segmentationTypeName, segmentNum, segmentsExpected
        case subSegmentNum, subSegmentsExpected
    }

    /// Encodes the descriptor's fields (the descriptor's tag and identifier are written beside them).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(segmentationEventId, forKey: .segmentationEventId)
        try c.encode(segmentationEventCancelIndicator, forKey: .segmentationEventCancelIndicator)
        try c.encode(segmentationEventIdComplianceIndicator, forKey: .segmentationEventIdComplianceIndicator)
        guard !segmentationEventCancelIndicator else { return }
        try c.encode(programSegmentationFlag, forKey: .programSegmentationFlag)
        try c.encode(segmentationDurationFlag, forKey: .segmentationDurationFlag)
        try c.encode(deliveryNotRestrictedFlag, forKey: .deliveryNotRestrictedFlag)
        if let restrictions = deliveryRestrictions {
            try c.encode(restrictions.webDeliveryAllowedFlag, forKey: .webDeliveryAllowedFlag)
            try c.encode(restrictions.noRegionalBlackoutFlag, forKey: .noRegionalBlackoutFlag)
            try c.encode(restrictions.archiveAllowedFlag, forKey: .archiveAllowedFlag)
            try c.encode(restrictions.deviceRestrictions, forKey: .deviceRestrictions)
        }
        if !programSegmentationFlag { try c.encode(components, forKey: .components) }
        try c.encodeIfPresent(segmentationDurationTicks, forKey: .segmentationDuration)
        try c.encodeIfPresent(segmentationDurationSeconds.map(jsonSeconds), forKey: .segmentationDurationSeconds)
        if let upid = segmentationUpid {
            try c.encode(upid.type, forKey: .segmentationUpidType)
            try c.encode(SegmentationUPID.name(ofType: upid.type), forKey: .segmentationUpidTypeName)
            try c.encode(upid.bytes.count, forKey: .segmentationUpidLength)
            try c.encode(upid.stringForm, forKey: .segmentationUpid)
            try c.encode(hexString(upid.bytes), forKey: .segmentationUpidHex)
            if case .mid(let parts) = upid {
                try c.encode(parts.map(UPIDEntry.init), forKey: .segmentationUpids)
            }
        }
        try c.encodeIfPresent(segmentationTypeId, forKey: .segmentationTypeId)
        try c.encodeIfPresent(segmentationTypeName, forKey: .segmentationTypeName)
        try c.encodeIfPresent(segmentNum, forKey: .segmentNum)
        try c.encodeIfPresent(segmentsExpected, forKey: .segmentsExpected)
        try c.encodeIfPresent(subSegmentNum, forKey: .subSegmentNum)
        try c.encodeIfPresent(subSegmentsExpected, forKey: .subSegmentsExpected)
    }

    /// Decodes what ``encode(to:)`` wrote; the UPID is rebuilt from its type and hex.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(segmentationEventId: try c.decode(UInt32.self, forKey: .segmentationEventId))
        segmentationEventCancelIndicator = try c.decode(Bool.self, forKey: .segmentationEventCancelIndicator)
        segmentationEventIdComplianceIndicator = try c.decode(Bool.self, forKey: .segmentationEventIdComplianceIndicator)
        guard !segmentationEventCancelIndicator else {
            programSegmentationFlag = false
            deliveryNotRestrictedFlag = false
            return
        }
        programSegmentationFlag = try c.decode(Bool.self, forKey: .programSegmentationFlag)
        segmentationDurationFlag = try c.decode(Bool.self, forKey: .segmentationDurationFlag)
        deliveryNotRestrictedFlag = try c.decode(Bool.self, forKey: .deliveryNotRestrictedFlag)
        if let device = try c.decodeIfPresent(UInt8.self, forKey: .deviceRestrictions) {
            deliveryRestrictions = DeliveryRestrictions(
                webDeliveryAllowedFlag: try c.decode(Bool.self, forKey: .webDeliveryAllowedFlag),
                noRegionalBlackoutFlag: try c.decode(Bool.self, forKey: .noRegionalBlackoutFlag),
                archiveAllowedFlag: try c.decode(Bool.self, forKey: .archiveAllowedFlag),
                deviceRestrictions: device)
        }
        components = try c.decodeIfPresent([Component].self, forKey: .components) ?? []
        segmentationDurationTicks = try c.decodeIfPresent(UInt64.self, forKey: .segmentationDuration)
        if let type = try c.decodeIfPresent(UInt8.self, forKey: .segmentationUpidType) {
            let hex = try c.decode(String.self, forKey: .segmentationUpidHex)
            guard let bytes = bytesFromHex(hex) else {
                throw DecodingError.dataCorruptedError(forKey: .segmentationUpidHex, in: c, debugDescription: "not hex")
            }
            segmentationUpid = SegmentationUPID.parse(type: type, bytes: bytes)
        }
        segmentationTypeId = try c.decodeIfPresent(UInt8.self, forKey: .segmentationTypeId)
        segmentNum = try c.decodeIfPresent(UInt8.self, forKey: .segmentNum)
        segmentsExpected = try c.decodeIfPresent(UInt8.self, forKey: .segmentsExpected)
        subSegmentNum = try c.decodeIfPresent(UInt8.self, forKey: .subSegmentNum)
        subSegmentsExpected = try c.decodeIfPresent(UInt8.self, forKey: .subSegmentsExpected)
    }
}

/// One sub-UPID of a MID, as written in `segmentationUpids`.
struct UPIDEntry: Encodable {
    let segmentationUpidType: UInt8
    let segmentationUpidTypeName: String
    let segmentationUpid: String
    let segmentationUpidHex: String

    init(_ upid: SegmentationUPID) {
        segmentationUpidType = upid.type
        segmentationUpidTypeName = SegmentationUPID.name(ofType: upid.type)
        segmentationUpid = upid.stringForm
        segmentationUpidHex = hexString(upid.bytes)
    }
}
