/// What an opportunity detector asks of a cue.
extension SpliceInfoSection {
    /// Whether the cue starts a break (leaves the network).
    ///
    /// True for a splice_insert that is not cancelled and has out_of_network_indicator set, and for
    /// any other command (usually time_signal) carrying a non-cancelled segmentation descriptor whose
    /// type starts a break, advertisement, placement opportunity, promo or ad block
    /// (``SegmentationType/breakStartTypes``). False for encrypted sections.
    public var isOutOfNetworkStart: Bool {
        switch spliceCommand {
        case .spliceInsert(let insert):
            return insert.outOfNetworkIndicator && !insert.spliceEventCancelIndicator
        case .encrypted:
            return false
        default:
            return breakStartSegmentation != nil
        }
    }

    /// The break's length in seconds.
    ///
    /// A splice_insert's break_duration when it has one; otherwise the segmentation_duration of the
    /// first non-cancelled break-start segmentation descriptor that carries one; else nil.
    public var breakDurationSeconds: Double? {
        if case .spliceInsert(let insert) = spliceCommand, let duration = insert.breakDuration {
            return duration.durationSeconds
        }
        return segmentationDescriptors.first {
            !$0.segmentationEventCancelIndicator && $0.segmentationDurationTicks != nil
                && SegmentationType.breakStartTypes.contains($0.segmentationTypeId ?? 0xFF)
        }?.segmentationDurationSeconds
    }

    /// The splice time in 90 kHz ticks after pts_adjustment, modulo 2^33.
    ///
    /// From a splice_insert in program splice mode or a time_signal, when a time is specified; nil
    /// for immediate splices, component mode, other commands and encrypted sections.
    public var spliceTimeTicks: UInt64? {
        switch spliceCommand {
        case .spliceInsert(let insert): return insert.spliceTime?.adjustedTicks(ptsAdjustmentTicks)
        case .timeSignal(let signal): return signal.spliceTime.adjustedTicks(ptsAdjustmentTicks)
        default: return nil
        }
    }

    /// `spliceTimeTicks` in seconds: (pts_time + pts_adjustment) mod 2^33 / 90 kHz.
    public var spliceTimeSeconds: Double? {
        spliceTimeTicks.map { Double($0) / scte35TicksPerSecond }
    }

    /// `ptsAdjustmentTicks` in seconds.
    public var ptsAdjustmentSeconds: Double { Double(ptsAdjustmentTicks) / scte35TicksPerSecond }

    /// The first non-cancelled segmentation descriptor whose type starts a break, if any.
    private var breakStartSegmentation: SegmentationDescriptor? {
        segmentationDescriptors.first {
            !$0.segmentationEventCancelIndicator && SegmentationType.breakStartTypes.contains($0.segmentationTypeId ?? 0xFF)
        }
    }
}
