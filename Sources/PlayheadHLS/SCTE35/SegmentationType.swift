/// segmentation_type_id values and their names (SCTE 35 2022, table 23).
public enum SegmentationType {
    /// The spec's name for `id`, or "Reserved".
    public static func name(of id: UInt8) -> String { names[id] ?? "Reserved" }

    /// Types that carry sub_segment_num and sub_segments_expected (placement opportunity starts).
    public static let typesWithSubSegments: Set<UInt8> = [0x34, 0x36, 0x38, 0x3A]

    /// Types that start a break, an advertisement or a placement opportunity (leave the network).
    public static let breakStartTypes: Set<UInt8> = [0x22, 0x30, 0x32, 0x34, 0x36, 0x38, 0x3A, 0x3C, 0x3E, 0x44, 0x46]

    /// Types that end a break, an advertisement or a placement opportunity.
    public static let breakEndTypes: Set<UInt8> = [0x23, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B, 0x3D, 0x3F, 0x45, 0x47]

    /// Names by id.
    private static let names: [UInt8: String] = [
        0x00: "Not Indicated", 0x01: "Content Identification", 0x02: "Call Ad Server",
        0x10: "Program Start", 0x11: "Program End", 0x12: "Program Early Termination",
        0x13: "Program Breakaway", 0x14: "Program Resumption", 0x15: "Program Runover Planned",
        0x16: "Program Runover Unplanned", 0x17: "Program Overlap Start", 0x18: "Program Blackout Override",
        0x19: "Program Join",
        0x20: "Chapter Start", 0x21: "Chapter End", 0x22: "Break Start", 0x23: "Break End",
        0x24: "Opening Credit Start", 0x25: "Opening Credit End",
        0x26: "Closing Credit Start", 0x27: "Closing Credit End",
        0x30: "Provider Advertisement Start", 0x31: "Provider Advertisement End",
        0x32: "Distributor Advertisement Start", 0x33: "Distributor Advertisement End",
        0x34: "Provider Placement Opportunity Start", 0x35: "Provider Placement Opportunity End",
        0x36: "Distributor Placement Opportunity Start", 0x37: "Distributor Placement Opportunity End",
        0x38: "Provider Overlay Placement Opportunity Start", 0x39: "Provider Overlay Placement Opportunity End",
        0x3A: "Distributor Overlay Placement Opportunity Start", 0x3B: "Distributor Overlay Placement Opportunity End",
        0x3C: "Provider Promo Start", 0x3D: "Provider Promo End",
        0x3E: "Distributor Promo Start", 0x3F: "Distributor Promo End",
        0x40: "Unscheduled Event Start", 0x41: "Unscheduled Event End",
        0x42: "Alternate Content Opportunity Start", 0x43: "Alternate Content Opportunity End",
        0x44: "Provider Ad Block Start", 0x45: "Provider Ad Block End",
        0x46: "Distributor Ad Block Start", 0x47: "Distributor Ad Block End",
        0x50: "Network Start", 0x51: "Network End",
    ]
}
