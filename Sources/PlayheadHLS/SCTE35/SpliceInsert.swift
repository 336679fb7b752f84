/// splice_insert() (command type 0x05): a splice point into or out of the network feed.
///
/// When `spliceEventCancelIndicator` is set the spec carries no further fields: the flags read
/// false and the optionals are nil.
public struct SpliceInsert: Sendable, Equatable, Codable {
    /// One component's splice time in component splice mode (`programSpliceFlag == false`).
    public struct Component: Sendable, Equatable, Codable {
        /// component_tag: identifies the elementary stream.
        public var componentTag: UInt8
        /// The component's splice_time(); nil when `spliceImmediateFlag` is set.
        public var spliceTime: SpliceTime?

        /// A component entry.
        public init(componentTag: UInt8, spliceTime: SpliceTime?) {
            self.componentTag = componentTag
            self.spliceTime = spliceTime
        }
    }

    /// splice_event_id (32 bits).
    public var spliceEventId: UInt32
    /// splice_event_cancel_indicator: a previously sent event with this id is cancelled.
    public var spliceEventCancelIndicator: Bool
    /// event_id_compliance_flag (SCTE 35 2022; reserved, normally 1, before it).
    public var eventIdComplianceFlag: Bool
    /// out_of_network_indicator: true leaves the network (break start), false returns to it.
    public var outOfNetworkIndicator: Bool
    /// program_splice_flag: the whole program splices at once (otherwise per component).
    public var programSpliceFlag: Bool
    /// duration_flag: a `breakDuration` is present.
    public var durationFlag: Bool
    /// splice_immediate_flag: splice at the next opportunity, no splice time given.
    public var spliceImmediateFlag: Bool
    /// The program's splice_time(), present in program splice mode when not immediate.
    public var spliceTime: SpliceTime?
    /// Component entries in component splice mode.
    public var components: [Component]
    /// break_duration(), present when `durationFlag` is set.
    public var breakDuration: BreakDuration?
    /// unique_program_id (16 bits); nil when cancelled.
    public var uniqueProgramId: UInt16?
    /// avail_num (8 bits); nil when cancelled.
    public var availNum: UInt8?
    /// avails_expected (8 bits); nil when cancelled.
    public var availsExpected: UInt8?

    /// A splice_insert with every field given.
    public init(spliceEventId: UInt32, spliceEventCancelIndicator: Bool = false, eventIdComplianceFlag: Bool = true,
                outOfNetworkIndicator: Bool = false, programSpliceFlag: Bool = true, durationFlag: Bool = false,
                spliceImmediateFlag: Bool = false, spliceTime: SpliceTime? = nil, components: [Component] = [],
                breakDuration: BreakDuration? = nil, uniqueProgramId: UInt16? = nil, availNum: UInt8? = nil,
                availsExpected: UInt8? = nil) {
        self.spliceEventId = spliceEventId
        self.spliceEventCancelIndicator = spliceEventCancelIndicator
        self.eventIdComplianceFlag = eventIdComplianceFlag
        self.outOfNetworkIndicator = outOfNetworkIndicator
        self.programSpliceFlag = programSpliceFlag
        self.durationFlag = durationFlag
        self.spliceImmediateFlag = spliceImmediateFlag
        self.spliceTime = spliceTime
        self.components = components
        self.breakDuration = breakDuration
        self.uniqueProgramId = uniqueProgramId
        self.availNum = availNum
        self.availsExpected = availsExpected
    }

    /// Reads splice_insert() from `reader`, which is bounded by the command when its length is known.
    static func parse(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> SpliceInsert {
        var insert = SpliceInsert(spliceEventId: try reader.uint32("splice_event_id"))
        insert.spliceEventCancelIndicator = try reader.flag("splice_event_cancel_indicator")
        insert.eventIdComplianceFlag = try reader.flag("event_id_compliance_flag")
        try reader.skip(6)
        guard !insert.spliceEventCancelIndicator else {
            insert.programSpliceFlag = false
            return insert
        }
        insert.outOfNetworkIndicator = try reader.flag("out_of_network_indicator")
        insert.programSpliceFlag = try reader.flag("program_splice_flag")
        insert.durationFlag = try reader.flag("duration_flag")
        insert.spliceImmediateFlag = try reader.flag("splice_immediate_flag")
        try reader.skip(4)
        if insert.programSpliceFlag, !insert.spliceImmediateFlag {
            insert.spliceTime = try SpliceTime.parse(&reader)
        }
        if !insert.programSpliceFlag {
            let countOffset = reader.byteOffset
            let count = Int(try reader.uint8("component_count"))
            let minimumBytes = count * (insert.spliceImmediateFlag ? 1 : 2)
            guard minimumBytes <= reader.remainingBytes else {
                throw .invalidValue(field: "component_count", byteOffset: countOffset,
                                    reason: "\(count) components need at least \(minimumBytes) bytes, \(reader.remainingBytes) remain")
            }
            for _ in 0..<count {
                let tag = try reader.uint8("component_tag")
                let time = insert.spliceImmediateFlag ? nil : try SpliceTime.parse(&reader)
                insert.components.append(Component(componentTag: tag, spliceTime: time))
            }
        }
        if insert.durationFlag {
            insert.breakDuration = try BreakDuration.parse(&reader)
        }
        insert.uniqueProgramId = try reader.uint16("unique_program_id")
        insert.availNum = try reader.uint8("avail_num")
        insert.availsExpected = try reader.uint8("avails_expected")
        return insert
    }
}
