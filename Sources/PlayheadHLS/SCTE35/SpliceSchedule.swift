/// splice_schedule() (command type 0x04): splice events announced ahead in UTC (GPS seconds).
public struct SpliceSchedule: Sendable, Equatable, Codable {
    /// One component's UTC splice time in component splice mode.
    public struct Component: Sendable, Equatable, Codable {
        /// component_tag: identifies the elementary stream.
        public var componentTag: UInt8
        /// utc_splice_time: seconds since the GPS epoch (1980-01-06T00:00:00Z).
        public var utcSpliceTime: UInt32

        /// A component entry.
        public init(componentTag: UInt8, utcSpliceTime: UInt32) {
            self.componentTag = componentTag
            self.utcSpliceTime = utcSpliceTime
        }
    }

    /// One scheduled splice event. When cancelled, the flags read false and the optionals are nil.
    public struct Event: Sendable, Equatable, Codable {
        /// splice_event_id (32 bits).
        public var spliceEventId: UInt32
        /// splice_event_cancel_indicator.
        public var spliceEventCancelIndicator: Bool
        /// event_id_compliance_flag (SCTE 35 2022; reserved before).
        public var eventIdComplianceFlag: Bool
        /// out_of_network_indicator.
        public var outOfNetworkIndicator: Bool
        /// program_splice_flag.
        public var programSpliceFlag: Bool
        /// duration_flag.
        public var durationFlag: Bool
        /// utc_splice_time in GPS seconds, in program splice mode.
        public var utcSpliceTime: UInt32?
        /// Component entries in component splice mode.
        public var components: [Component]
        /// break_duration(), when `durationFlag` is set.
        public var breakDuration: BreakDuration?
        /// unique_program_id; nil when cancelled.
        public var uniqueProgramId: UInt16?
        /// avail_num; nil when cancelled.
        public var availNum: UInt8?
        /// avails_expected; nil when cancelled.
        public var availsExpected: UInt8?

        /// An event with only its id set.
        public init(spliceEventId: UInt32) {
            self.spliceEventId = spliceEventId
            spliceEventCancelIndicator = false
            eventIdComplianceFlag = true
            outOfNetworkIndicator = false
            programSpliceFlag = false
            durationFlag = false
            components = []
        }
    }

    /// The scheduled events (splice_count of them).
    public var events: [Event]

    /// A schedule of `events`.
    public init(events: [Event]) { self.events = events }

    /// Reads splice_schedule().
    static func parse(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> SpliceSchedule {
        let countOffset = reader.byteOffset
        let count = Int(try reader.uint8("splice_count"))
        guard count * 5 <= reader.remainingBytes else {
            throw .invalidValue(field: "splice_count", byteOffset: countOffset,
                                reason: "\(count) events need at least \(count * 5) bytes, \(reader.remainingBytes) remain")
        }
        var events: [Event] = []
        for _ in 0..<count {
            events.append(try parseEvent(&reader))
        }
        return SpliceSchedule(events: events)
    }

    /// Reads one event of the splice_count loop.
    private static func parseEvent(_ reader: inout SCTE35BitReader) throws(SCTE35Error) -> Event {
        var event = Event(spliceEventId: try reader.uint32("splice_event_id"))
        event.spliceEventCancelIndicator = try reader.flag("splice_event_cancel_indicator")
        event.eventIdComplianceFlag = try reader.flag("event_id_compliance_flag")
        try reader.skip(6)
        guard !event.spliceEventCancelIndicator else { return event }
        event.outOfNetworkIndicator = try reader.flag("out_of_network_indicator")
        event.programSpliceFlag = try reader.flag("program_splice_flag")
        event.durationFlag = try reader.flag("duration_flag")
        try reader.skip(5)
        if event.programSpliceFlag {
            event.utcSpliceTime = try reader.uint32("utc_splice_time")
        } else {
            let countOffset = reader.byteOffset
            let count = Int(try reader.uint8("component_count"))
            guard count * 5 <= reader.remainingBytes else {
                throw .invalidValue(field: "component_count", byteOffset: countOffset,
                                    reason: "\(count) components need \(count * 5) bytes, \(reader.remainingBytes) remain")
            }
            for _ in 0..<count {
                let tag = try reader.uint8("component_tag")
                event.components.append(Component(componentTag: tag, utcSpliceTime: try reader.uint32("utc_splice_time")))
            }
        }
        if event.durationFlag {
            event.breakDuration = try BreakDuration.parse(&reader)
        }
        event.uniqueProgramId = try reader.uint16("unique_program_id")
        event.availNum = try reader.uint8("avail_num")
        event.availsExpected = try reader.uint8("avails_expected")
        return event
    }
}
