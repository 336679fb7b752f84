/// The readable dump of `playhead inspect scte35` (without `--json`).
extension SpliceInfoSection {
    /// An indented, line-per-field rendering of the section; ends in a newline.
    public var textDump: String {
        var out = TextDump()
        out.line("splice_info_section", 0)
        out.line("table_id: 0x\(hex2(tableId))  section_length: \(sectionLength)  protocol_version: \(protocolVersion)", 1)
        out.line("sap_type: \(sapType)  tier: 0x\(String(tier, radix: 16, uppercase: true))  cw_index: \(cwIndex)", 1)
        out.line("encrypted_packet: \(encryptedPacket)  encryption_algorithm: \(encryptionAlgorithm)", 1)
        out.line("pts_adjustment: \(ptsAdjustmentTicks) (\(seconds(ptsAdjustmentTicks)))", 1)
        let legacy = spliceCommandLength == Self.legacyUnknownCommandLength ? " (legacy: unknown)" : ""
        out.line("splice_command_length: \(spliceCommandLength)\(legacy)", 1)
        let typeText = spliceCommandType.map { "0x" + hex2($0) } ?? "none"
        out.line("splice_command_type: \(typeText) \(spliceCommandTypeName)", 1)
        out.command(spliceCommand)
        out.line("descriptors: \(descriptors.count)", 1)
        for descriptor in descriptors { out.descriptor(descriptor) }
        out.line("crc_32: \(String(format8: crc32)) (\(crcValid ? "valid" : "INVALID"))", 1)
        if let time = spliceTimeSeconds { out.line("splice time (adjusted): \(seconds(time))", 1) }
        if let duration = breakDurationSeconds { out.line("break duration: \(seconds(duration))", 1) }
        if isOutOfNetworkStart { out.line("out-of-network start", 1) }
        return out.text
    }
}

/// Renders ticks of the 90 kHz clock as seconds with 6 decimals.
func seconds(_ ticks: UInt64) -> String { seconds(Double(ticks) / scte35TicksPerSecond) }

/// Renders seconds with 6 decimals and an `s`.
func seconds(_ value: Double) -> String {
    let micros = Int64((value * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)s"
}

/// Accumulates indented lines.
private struct TextDump {
    var text = ""

    mutating func line(_ content: String, _ depth: Int) {
        text += String(repeating: "  ", count: depth) + content + "\n"
    }

    mutating func time(_ label: String, _ time: SpliceTime?, _ depth: Int) {
        guard let time else { return }
        line("\(label): " + (time.ptsTimeTicks.map { "pts_time \($0) (\(seconds($0)))" } ?? "not specified"), depth)
    }

    mutating func breakDuration(_ duration: BreakDuration?, _ depth: Int) {
        guard let duration else { return }
        line("break_duration: \(duration.durationTicks) (\(seconds(duration.durationTicks))) auto_return: \(duration.autoReturn)", depth)
    }

    mutating func command(_ command: SpliceCommand) {
        switch command {
        case .spliceNull, .bandwidthReservation: break
        case .timeSignal(let signal): time("splice_time", signal.spliceTime, 2)
        case .spliceInsert(let insert):
            line("splice_event_id: \(insert.spliceEventId) (0x\(String(insert.spliceEventId, radix: 16)))  cancel: \(insert.spliceEventCancelIndicator)", 2)
            guard !insert.spliceEventCancelIndicator else { return }
            line("out_of_network: \(insert.outOfNetworkIndicator)  program_splice: \(insert.programSpliceFlag)  duration_flag: \(insert.durationFlag)  splice_immediate: \(insert.spliceImmediateFlag)  event_id_compliance: \(insert.eventIdComplianceFlag)", 2)
            time("splice_time", insert.spliceTime, 2)
            for component in insert.components {
                line("component \(component.componentTag)", 2)
                time("splice_time", component.spliceTime, 3)
            }
            breakDuration(insert.breakDuration, 2)
            line("unique_program_id: \(insert.uniqueProgramId ?? 0)  avail_num: \(insert.availNum ?? 0)  avails_expected: \(insert.availsExpected ?? 0)", 2)
        case .spliceSchedule(let schedule):
            for event in schedule.events {
                line("event \(event.spliceEventId)  cancel: \(event.spliceEventCancelIndicator)  out_of_network: \(event.outOfNetworkIndicator)", 2)
                if let utc = event.utcSpliceTime { line("utc_splice_time: \(utc) (GPS seconds)", 3) }
                for component in event.components { line("component \(component.componentTag) utc_splice_time: \(component.utcSpliceTime)", 3) }
                breakDuration(event.breakDuration, 3)
            }
        case .privateCommand(let command):
            line("identifier: \(command.identifierText ?? String(format8: command.identifier))  private_bytes: \(hexString(command.privateBytes))", 2)
        case .unknown(_, let bytes): line("bytes: \(hexString(bytes))", 2)
        case .encrypted(let bytes): line("encrypted: \(bytes.count) bytes not decoded", 2)
        }
    }

    mutating func descriptor(_ descriptor: SpliceDescriptor) {
        let identifier = fourCharacterCode(descriptor.identifier) ?? String(format8: descriptor.identifier)
        line("- \(descriptor.name) (tag 0x\(hex2(descriptor.tag)), \(identifier))", 2)
        switch descriptor {
        case .avail(let d): line("provider_avail_id: \(d.providerAvailId)", 3)
        case .dtmf(let d): line("preroll: \(d.prerollTenthsOfSecond) (tenths of a second)  dtmf_chars: \(d.dtmfChars)", 3)
        case .time(let d): line("tai_seconds: \(d.taiSeconds)  tai_ns: \(d.taiNanoseconds)  utc_offset: \(d.utcOffsetSeconds)", 3)
        case .audio(let d):
            for c in d.components {
                line("component \(c.componentTag): \(c.isoCode) bsmod \(c.bitStreamMode) channels \(c.numChannels) full_service \(c.fullServiceAudio)", 3)
            }
        case .raw(let raw):
            line("bytes: \(hexString(raw.bytes))", 3)
            if let problem = raw.problem { line("problem: \(problem)", 3) }
        case .segmentation(let d): segmentation(d)
        }
    }

    mutating func segmentation(_ d: SegmentationDescriptor) {
        line("segmentation_event_id: \(d.segmentationEventId) (0x\(String(d.segmentationEventId, radix: 16)))  cancel: \(d.segmentationEventCancelIndicator)", 3)
        guard !d.segmentationEventCancelIndicator else { return }
        if let typeId = d.segmentationTypeId {
            line("segmentation_type_id: 0x\(hex2(typeId)) \(SegmentationType.name(of: typeId))", 3)
        }
        if let upid = d.segmentationUpid {
            line("upid: type 0x\(hex2(upid.type)) \(SegmentationUPID.name(ofType: upid.type)), \(upid.bytes.count) bytes: \(upid.stringForm)", 3)
        }
        if let ticks = d.segmentationDurationTicks { line("segmentation_duration: \(ticks) (\(seconds(ticks)))", 3) }
        line("segment \(d.segmentNum ?? 0) of \(d.segmentsExpected ?? 0)" + (d.subSegmentNum.map { ", sub-segment \($0) of \(d.subSegmentsExpected ?? 0)" } ?? ""), 3)
        if let r = d.deliveryRestrictions {
            line("restricted: web \(r.webDeliveryAllowedFlag) no_regional_blackout \(r.noRegionalBlackoutFlag) archive \(r.archiveAllowedFlag) device \(r.deviceRestrictions)", 3)
        }
        for c in d.components { line("component \(c.componentTag) pts_offset: \(c.ptsOffsetTicks)", 3) }
    }
}
