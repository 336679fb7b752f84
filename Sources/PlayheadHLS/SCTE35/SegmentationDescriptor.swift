/// segmentation_descriptor() (tag 0x02): marks a segment (program, chapter, ad, placement
/// opportunity…) and identifies its content.
///
/// When `segmentationEventCancelIndicator` is set the spec carries no further fields: the flags
/// read false and the optionals are nil.
public struct SegmentationDescriptor: Sendable, Equatable {
    /// The restriction flags present when `deliveryNotRestrictedFlag` is false.
    public struct DeliveryRestrictions: Sendable, Equatable, Codable {
        /// web_delivery_allowed_flag.
        public var webDeliveryAllowedFlag: Bool
        /// no_regional_blackout_flag.
        public var noRegionalBlackoutFlag: Bool
        /// archive_allowed_flag.
        public var archiveAllowedFlag: Bool
        /// device_restrictions (2 bits: restrict group 0, 1, 2, or 3 = none).
        public var deviceRestrictions: UInt8

        /// Restrictions with every flag given.
        public init(webDeliveryAllowedFlag: Bool, noRegionalBlackoutFlag: Bool, archiveAllowedFlag: Bool,
                    deviceRestrictions: UInt8) {
            self.webDeliveryAllowedFlag = webDeliveryAllowedFlag
            self.noRegionalBlackoutFlag = noRegionalBlackoutFlag
            self.archiveAllowedFlag = archiveAllowedFlag
            self.deviceRestrictions = deviceRestrictions
        }
    }

    /// One component's PTS offset in component segmentation mode.
    public struct Component: Sendable, Equatable, Codable {
        /// component_tag.
        public var componentTag: UInt8
        /// pts_offset in 90 kHz ticks (33 bits).
        public var ptsOffsetTicks: UInt64

        /// A component entry.
        public init(componentTag: UInt8, ptsOffsetTicks: UInt64) {
            self.componentTag = componentTag
            self.ptsOffsetTicks = ptsOffsetTicks
        }

        enum CodingKeys: String, CodingKey { case componentTag, ptsOffsetTicks = "ptsOffset" }
    }

    /// segmentation_event_id (32 bits).
    public var segmentationEventId: UInt32
    /// segmentation_event_cancel_indicator.
    public var segmentationEventCancelIndicator: Bool
    /// segmentation_event_id_compliance_indicator (SCTE 35 2022; reserved before).
    public var segmentationEventIdComplianceIndicator: Bool
    /// program_segmentation_flag: the segment applies to the whole program.
    public var programSegmentationFlag: Bool
    /// segmentation_duration_flag: `segmentationDurationTicks` is present.
    public var segmentationDurationFlag: Bool
    /// delivery_not_restricted_flag: no `deliveryRestrictions` follow.
    public var deliveryNotRestrictedFlag: Bool
    /// The restriction flags, when delivery is restricted.
    public var deliveryRestrictions: DeliveryRestrictions?
    /// Component entries in component segmentation mode.
    public var components: [Component]
    /// segmentation_duration in 90 kHz ticks (40 bits).
    public var segmentationDurationTicks: UInt64?
    /// The UPID (segmentation_upid_type and its bytes); nil when cancelled.
    public var segmentationUpid: SegmentationUPID?
    /// segmentation_type_id; nil when cancelled.
    public var segmentationTypeId: UInt8?
    /// segment_num; nil when cancelled.
    public var segmentNum: UInt8?
    /// segments_expected; nil when cancelled.
    public var segmentsExpected: UInt8?
    /// sub_segment_num, for placement opportunity starts that carry it.
    public var subSegmentNum: UInt8?
    /// sub_segments_expected, for placement opportunity starts that carry it.
    public var subSegmentsExpected: UInt8?

    /// A descriptor with only its event id set (not cancelled, program-wide, unrestricted).
    public init(segmentationEventId: UInt32) {
        self.segmentationEventId = segmentationEventId
        segmentationEventCancelIndicator = false
        segmentationEventIdComplianceIndicator = true
        programSegmentationFlag = true
        segmentationDurationFlag = false
        deliveryNotRestrictedFlag = true
        components = []
    }

    /// The spec's name of `segmentationTypeId`.
    public var segmentationTypeName: String? { segmentationTypeId.map(SegmentationType.name(of:)) }

    /// segmentation_upid_type.
    public var segmentationUpidType: UInt8? { segmentationUpid?.type }

    /// `segmentationDurationTicks` in seconds.
    public var segmentationDurationSeconds: Double? {
        segmentationDurationTicks.map { Double($0) / scte35TicksPerSecond }
    }

    /// Reads the descriptor body after `identifier`; `reader` is bounded by descriptor_length.
    static func parse(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> SegmentationDescriptor {
        var descriptor = SegmentationDescriptor(segmentationEventId: try reader.uint32("segmentation_event_id"))
        descriptor.segmentationEventCancelIndicator = try reader.flag("segmentation_event_cancel_indicator")
        descriptor.segmentationEventIdComplianceIndicator = try reader.flag("segmentation_event_id_compliance_indicator")
        try reader.skip(6)
        guard !descriptor.segmentationEventCancelIndicator else {
            descriptor.programSegmentationFlag = false
            descriptor.deliveryNotRestrictedFlag = false
            return descriptor
        }
        descriptor.programSegmentationFlag = try reader.flag("program_segmentation_flag")
        descriptor.segmentationDurationFlag = try reader.flag("segmentation_duration_flag")
        descriptor.deliveryNotRestrictedFlag = try reader.flag("delivery_not_restricted_flag")
        if descriptor.deliveryNotRestrictedFlag {
            try reader.skip(5)
        } else {
            descriptor.deliveryRestrictions = DeliveryRestrictions(
                webDeliveryAllowedFlag: try reader.flag("web_delivery_allowed_flag"),
                noRegionalBlackoutFlag: try reader.flag("no_regional_blackout_flag"),
                archiveAllowedFlag: try reader.flag("archive_allowed_flag"),
                deviceRestrictions: UInt8(try reader.bits(2, "device_restrictions")))
        }
        if !descriptor.programSegmentationFlag {
            let countOffset = reader.byteOffset
            let count = Int(try reader.uint8("component_count"))
            guard count * 6 <= reader.remainingBytes else {
                throw .invalidValue(field: "component_count", byteOffset: countOffset,
                                    reason: "\(count) components need \(count * 6) bytes, \(reader.remainingBytes) remain")
            }
            for _ in 0..<count {
                let tag = try reader.uint8("component_tag")
                try reader.skip(7)
                descriptor.components.append(Component(componentTag: tag, ptsOffsetTicks: try reader.bits(33, "pts_offset")))
            }
        }
        if descriptor.segmentationDurationFlag {
            descriptor.segmentationDurationTicks = try reader.bits(40, "segmentation_duration")
        }
        let upidType = try reader.uint8("segmentation_upid_type")
        let upidLength = Int(try reader.uint8("segmentation_upid_length"))
        let upidBytes = try reader.byteArray(upidLength, "segmentation_upid")
        descriptor.segmentationUpid = SegmentationUPID.parse(type: upidType, bytes: upidBytes)
        let typeId = try reader.uint8("segmentation_type_id")
        descriptor.segmentationTypeId = typeId
        descriptor.segmentNum = try reader.uint8("segment_num")
        descriptor.segmentsExpected = try reader.uint8("segments_expected")
        // Encoders before 2016 did not send the sub-segment fields: read them only when present.
        if SegmentationType.typesWithSubSegments.contains(typeId), reader.remainingBytes >= 2 {
            descriptor.subSegmentNum = try reader.uint8("sub_segment_num")
            descriptor.subSegmentsExpected = try reader.uint8("sub_segments_expected")
        }
        return descriptor
    }
}
