import CFFmpeg

/// How much of each segment is processed.
public enum DecodeMode: String, Sendable, CaseIterable, Codable {
    /// Video and audio decoded.
    case decode
    /// Packets only: no decoding, timing from packet timestamps.
    case demux
    /// Video keyframes decoded, everything else demuxed only.
    case keyframes
}

/// Settings of a `RenditionDecoder`.
public struct RenditionDecoderOptions: Sendable {
    /// What to do with each segment. Default `.decode`.
    public var mode: DecodeMode = .decode
    /// Kinds of streams to decode (others are demuxed only). Default video and audio.
    public var kinds: Set<MediaKind> = [.video, .audio]
    /// Decoder threads; 0 lets FFmpeg choose. Default 1 (one core per session).
    public var threads: Int = 1
    /// Compute each frame's framemd5 hash. Default false (hashing costs CPU).
    public var hashFrames = false
    /// Receives each decoded frame's raw data (Y4M, WAV, …). Default nil. The sink is used on the
    /// decoding task only (hence `nonisolated(unsafe)`): do not share one between decoders.
    nonisolated(unsafe) public var dump: FrameDumpSink? = nil
    /// With a ``dump``: instead of handing every decoded frame to it, keep each frame's data on the
    /// frame (``DecodedFrame/retained``) for the caller to hand over with ``RenditionDecoder/dump(_:)``
    /// once it is presented (frames decoded but never shown, before a seek target say, stay out). Default false.
    public var dumpAtPresentation = false

    /// Creates options with the defaults above.
    public init() {}
}

/// Something wrong found in a segment that did not stop it: what could be decoded was.
public struct MediaDamage: Sendable, Equatable, CustomStringConvertible {
    /// Where: demuxer or decoder of a given kind.
    public var stage: String
    /// Byte offset in the segment, when known.
    public var byteOffset: Int64?
    /// FFmpeg's error code, when there was one.
    public var code: Int32?
    /// What went wrong.
    public var message: String
    /// The damaged frame's timestamp and stream, when a decoder found it (a decoder hands a frame out
    /// after later packets went in, so it may belong to an earlier segment than the one decoding).
    public var framePTS: Int64? = nil
    /// The stream of ``framePTS``.
    public var frameStreamIndex: Int? = nil

    /// `stage at byte N: message`.
    public var description: String {
        "\(stage)\(byteOffset.map { " at byte \($0)" } ?? ""): \(message)"
    }
}

/// What one segment gave.
public struct SegmentDecodeReport: Sendable {
    /// The segment's streams.
    public var streams: [StreamInfo] = []
    /// Packets demuxed, all streams.
    public var packets = 0
    /// Frames decoded and handed out, all streams.
    public var frames = 0
    /// Damage found; decoding went on past it.
    public var damage: [MediaDamage] = []
}

/// Demuxes and decodes the segments of one rendition in order, keeping one decoder per kind across
/// segments, as FFmpeg's HLS demuxer does, across discontinuities too. A segment whose streams do not
/// fit them (another rendition's initialization section, new codec settings) drains them and starts new
/// ones. A player that places frames per discontinuity drains them itself (``finish(onFrame:)``,
/// ``reset()``) before such a segment.
///
/// Not thread-safe: use on one task.
public final class RenditionDecoder {
    /// The settings.
    public let options: RenditionDecoderOptions
    private var decoders: [MediaKind: Decoder] = [:]
    private let hasher = FrameHasher()
    private var probed = false
    private var known: CodecParameterSet?
    private var current: DemuxedSegment?
    private var chosen: Set<Int> = []
    private let dumpBridge = FrameDumpBridge()

    /// Creates a decoder for a rendition.
    public init(options: RenditionDecoderOptions = .init()) {
        self.options = options
    }

    /// Processes one segment: `demux` then `decode` of each packet.
    /// - Parameters:
    ///   - bytes: The segment's decrypted bytes (for fMP4: init section, then media).
    ///   - container: The container, or nil to sniff it.
    ///   - discontinuity: The segment follows an EXT-X-DISCONTINUITY (recorded on the segment; the decoders
    ///     go on unless its streams no longer fit them).
    ///   - onPacket: Called for each demuxed packet (all modes).
    ///   - onFrame: Called for each decoded frame, in decode output (presentation) order.
    /// - Throws: `MediaError` when the segment cannot be opened at all.
    public func decodeSegment(
        _ bytes: [UInt8], container: ContainerFormat? = nil, discontinuity: Bool = false,
        onPacket: (Packet) -> Void = { _ in }, onFrame: (DecodedFrame) -> Void
    ) throws(MediaError) -> SegmentDecodeReport {
        let segment = try demux(bytes, container: container, discontinuity: discontinuity)
        var report = SegmentDecodeReport(streams: segment.streams, packets: segment.packets.count)
        var frames = 0
        for packet in segment.packets {
            onPacket(packet)
            decode(packet, in: segment) { frames += 1; onFrame($0) }
        }
        report.frames = frames
        report.damage = segment.damage
        return report
    }

    /// Demuxes one segment into packets (no decoding). The segment keeps its container open so the
    /// decoders can be set up from its codec parameters when its first packet is decoded.
    /// - Throws: `MediaError` when the segment cannot be opened at all; later read errors become damage.
    public func demux(_ bytes: [UInt8], container: ContainerFormat? = nil, discontinuity: Bool = false) throws(MediaError) -> DemuxedSegment {
        // The first segment is probed (a little decoding) so codec parameters and frame rate are known;
        // later ones adopt them, so packets without timestamps (AAC in TS) can still be timed. A segment
        // that cannot be opened leaves the probe to the next one. A segment after a discontinuity is probed
        // too: it may bring another frame rate (a 25 fps ad after 30 fps content was dumped as 30 fps).
        let probe = !probed || discontinuity
        let demuxer = try Demuxer(bytes: bytes, container: container, probeStreams: probe)
        if let known, probed { demuxer.adopt(known) }
        probed = true
        if probe { known = CodecParameterSet(from: demuxer) }
        var packets: [Packet] = []
        var damage: [MediaDamage] = []
        var consecutiveErrors = 0
        var samplesPastEnd = 0
        var saidPastEnd = false
        while true {
            do {
                guard let packet = try demuxer.nextPacket() else { break }
                consecutiveErrors = 0
                samplesPastEnd = 0
                if packet.isCorrupt {
                    damage.append(MediaDamage(stage: "demuxer", byteOffset: packet.bytePosition,
                                              code: nil, message: "corrupt \(packet.kind.rawValue) packet"))
                }
                packets.append(packet)
            } catch .samplePastEnd {
                // Samples out of a cut segment's bytes: said once, at the first. Each is passed (libavformat reads on
                // after it), and a fragment's other track may list many in a row before the next sample in the bytes:
                // they do not count as errors in a row (after 16, the video samples still in the bytes were lost),
                // only against their own bound in a row.
                if !saidPastEnd {
                    saidPastEnd = true
                    damage.append(MediaDamage(stage: "demuxer", byteOffset: demuxer.bytePosition, code: nil,
                                              message: MediaError.samplePastEnd(byteOffset: demuxer.bytePosition).description))
                }
                samplesPastEnd += 1
                if samplesPastEnd >= Self.maxSamplesPastEnd { break }
            } catch {
                damage.append(MediaDamage(stage: "demuxer", byteOffset: demuxer.bytePosition,
                                          code: nil, message: error.description))
                consecutiveErrors += 1
                if consecutiveErrors >= Self.maxConsecutiveDemuxErrors { break }
            }
        }
        demuxer.releaseInput()
        if demuxer.isPackedAudio { continuePackedAudio(packets, timedByTag: demuxer.isTimedByTag) }
        return DemuxedSegment(demuxer: demuxer, packets: Self.interleaved(packets), damage: damage, discontinuity: discontinuity)
    }

    /// Where the last packed audio segment's packets ended, seconds on their timeline.
    private var packedAudioEnd: Double?

    /// Packed audio without a usable ID3 timestamp (no tag, a damaged one) starts where the segment before
    /// ended, as FFmpeg's HLS demuxer goes on (its raw demuxer started it at 0); then notes where it ends.
    private func continuePackedAudio(_ packets: [Packet], timedByTag: Bool) {
        func seconds(_ packet: Packet, _ ticks: Int64) -> Double { Double(ticks) * packet.timeBase.doubleValue }
        let starts = packets.compactMap { packet in packet.pts.map { seconds(packet, $0) } }
        guard let start = starts.min() else { return }
        if !timedByTag, let end = packedAudioEnd {
            for packet in packets { packet.shiftTimestamps(bySeconds: end - start) }
        }
        packedAudioEnd = packets.compactMap { packet in packet.pts.map { seconds(packet, $0 + max(packet.duration, 0)) } }.max()
    }

    /// Decodes one packet of `segment` (skipped unless its stream is decoded in this mode) and hands
    /// out the frames that come out. Entering a new segment sets up decoders from its streams; those its
    /// streams do not fit are drained and replaced first. Damage found is appended to `segment.damage`.
    public func decode(_ packet: Packet, in segment: DemuxedSegment, onFrame: (DecodedFrame) -> Void) {
        if current !== segment { enter(segment, onFrame: onFrame) }
        guard chosen.contains(packet.streamIndex), let decoder = decoders[packet.kind] else { return }
        if options.mode == .keyframes, !packet.isKeyframe { return }
        var damage: [MediaDamage] = []
        let complaint = decoder.decode(packet) { frame in
            self.emit(frame, decoder: decoder, damage: &damage, onFrame: onFrame)
        }
        if let complaint {
            damage.append(MediaDamage(stage: "\(packet.kind.rawValue) decoder", byteOffset: packet.bytePosition,
                                      code: complaint.code, message: complaint.message))
        }
        if options.mode == .keyframes {
            // Keyframes alone have nothing to reorder: each comes out at once (the decoder's reordering
            // delay held the last two back, so a buffer of keyframes ran dry seconds before its end).
            _ = decoder.decode(nil) { frame in
                self.emit(frame, decoder: decoder, damage: &damage, onFrame: onFrame)
            }
        }
        if !damage.isEmpty { segment.damage += damage }
    }

    /// Drains every decoder (end of stream, or before a seek), handing out the frames they still hold.
    public func finish(onFrame: (DecodedFrame) -> Void) {
        var damage: [MediaDamage] = []
        for kind in MediaKind.allCases {
            guard let decoder = decoders[kind] else { continue }
            _ = decoder.decode(nil) { frame in
                self.emit(frame, decoder: decoder, damage: &damage, onFrame: onFrame)
            }
        }
        if let current, !damage.isEmpty { current.damage += damage }
    }

    /// Hands a frame decoded with ``RenditionDecoderOptions/dumpAtPresentation`` to the dump, now that it
    /// is presented. Does nothing without a dump or without the frame's data.
    public func dump(_ frame: DecodedFrame) {
        guard let sink = options.dump, let retained = frame.retained else { return }
        dumpBridge.deliver(retained.frame, kind: retained.kind, timeBase: retained.timeBase, stream: retained.stream, to: sink)
    }

    /// Drops every decoder's pending frames without handing them out (a seek flushes the pipeline).
    public func reset() {
        decoders = [:]
        current = nil
        chosen = []
    }

    /// Whether `segment` needs other decoders than the current ones: one of its streams does not fit the
    /// decoder of its kind (another rendition's fMP4 initialization section, another codec or time base).
    /// Entering it drains and replaces those decoders; a caller that wants their last frames attributed
    /// to the segment before can ``finish(onFrame:)`` and ``reset()`` first.
    public func changesDecoders(_ segment: DemuxedSegment) -> Bool {
        options.mode != .demux && !unfitKinds(segment).isEmpty
    }

    /// The kinds whose decoder `segment`'s first stream of that kind does not fit (the stream
    /// ``chooseStreams(_:damage:)`` picks).
    private func unfitKinds(_ segment: DemuxedSegment) -> [MediaKind] {
        MediaKind.allCases.filter { kind in
            guard let decoder = decoders[kind], let info = segment.streams.first(where: { $0.kind == kind }) else { return false }
            return !decoder.accepts(segment.stream(at: info.index))
        }
    }

    private func enter(_ segment: DemuxedSegment, onFrame: (DecodedFrame) -> Void) {
        // A discontinuity alone keeps the decoders, as FFmpeg's HLS demuxer feeds one decoder across it:
        // an AAC decoder's state (its noise generator among it) carries on, and so must ours for the
        // hashes to stay FFmpeg's. Streams that no longer fit (new codec settings) get new decoders.
        if current != nil { drainDecoders(unfitFor: segment, onFrame: onFrame) }
        current = segment
        var damage: [MediaDamage] = []
        chosen = chooseStreams(segment, damage: &damage)
        segment.damage += damage
    }

    /// Drains and drops each decoder that `segment`'s stream of its kind does not fit (another rendition's
    /// video), handing out the frames they still hold; the others go on (an alternate audio rendition
    /// joined to both renditions keeps its decoder, and its state, across the switch).
    public func drainDecoders(unfitFor segment: DemuxedSegment, onFrame: (DecodedFrame) -> Void) {
        var damage: [MediaDamage] = []
        for kind in unfitKinds(segment) {
            guard let decoder = decoders[kind] else { continue }
            _ = decoder.decode(nil) { frame in
                self.emit(frame, decoder: decoder, damage: &damage, onFrame: onFrame)
            }
            decoders[kind] = nil
        }
        if let current, !damage.isEmpty { current.damage += damage }
    }

    /// The packets in decode-time order across streams, each stream's own order kept. libavformat's MP4
    /// demuxer hands an fMP4 fragment's samples out track by track within about a second, so a segment's
    /// audio came up to a second after the video of the same time: decoded that late, it was presented
    /// late, and a seek dropped the audio of the second before it. A packet without a timestamp keeps its
    /// stream's last one; ties keep the demuxer's order.
    static func interleaved(_ packets: [Packet]) -> [Packet] {
        let streams = Set(packets.map(\.streamIndex)).sorted()
        guard streams.count > 1 else { return packets }
        var keys: [Double] = []
        keys.reserveCapacity(packets.count)
        var last: [Int: Double] = [:]
        for packet in packets {
            let key = (packet.dts ?? packet.pts).map { Double($0) * packet.timeBase.doubleValue }
                ?? last[packet.streamIndex] ?? -.infinity
            last[packet.streamIndex] = key
            keys.append(key)
        }
        // Merge the streams' queues (each in its own order) by key; ties go to the packet demuxed first.
        let queues = streams.map { stream in packets.indices.filter { packets[$0].streamIndex == stream } }
        var heads = [Int](repeating: 0, count: queues.count)
        var merged: [Packet] = []
        merged.reserveCapacity(packets.count)
        while let next = queues.indices.filter({ heads[$0] < queues[$0].count }).min(by: { a, b in
            let x = queues[a][heads[a]], y = queues[b][heads[b]]
            return (keys[x], x) < (keys[y], y)
        }) {
            merged.append(packets[queues[next][heads[next]]])
            heads[next] += 1
        }
        return merged
    }

    /// Demux errors in a row after which the rest of a segment is given up.
    static let maxConsecutiveDemuxErrors = 16
    /// Most ends of file in a row read past once a segment was found cut short: each passes one sample out of its
    /// bytes; at the true end they repeat without one.
    static let maxSamplesPastEnd = 2_000

    /// Picks the first stream of each wanted kind and makes sure a fitting decoder exists.
    private func chooseStreams(_ segment: DemuxedSegment, damage: inout [MediaDamage]) -> Set<Int> {
        var chosen: Set<Int> = []
        guard options.mode != .demux else { return chosen }
        let kinds = options.mode == .keyframes ? options.kinds.intersection([.video]) : options.kinds
        for kind in kinds {
            guard let info = segment.streams.first(where: { $0.kind == kind }) else { continue }
            let stream = segment.stream(at: info.index)
            if let existing = decoders[kind] {  // ``enter(_:onFrame:)`` dropped those the stream does not fit
                existing.streamIndex = info.index
                chosen.insert(info.index)
                continue
            }
            do {
                decoders[kind] = try Decoder(stream: stream, threads: options.threads)
                chosen.insert(info.index)
            } catch {
                damage.append(MediaDamage(stage: "\(kind.rawValue) decoder", byteOffset: nil,
                                                 code: nil, message: error.description))
            }
        }
        return chosen
    }

    private func emit(_ frame: UnsafeMutablePointer<AVFrame>, decoder: Decoder,
                      damage: inout [MediaDamage], onFrame: (DecodedFrame) -> Void) {
        let f = frame.pointee
        let corrupt = f.decode_error_flags != 0 || f.flags & AV_FRAME_FLAG_CORRUPT != 0
        var described = DecodedFrame(
            kind: decoder.kind, streamIndex: decoder.streamIndex,
            pts: f.best_effort_timestamp == noPTS ? nil : f.best_effort_timestamp,
            timeBase: decoder.timeBase, duration: f.pkt_duration, isKeyframe: f.key_frame != 0,
            pictureType: Character(UnicodeScalar(UInt8(bitPattern: av_get_picture_type_char(f.pict_type)))),
            width: Int(f.width), height: Int(f.height), formatName: "", sampleCount: Int(f.nb_samples),
            sampleRate: Int(f.sample_rate), channels: Int(f.ch_layout.nb_channels),
            isCorrupt: corrupt, hashedSize: 0, md5: nil)
        if decoder.kind == .video {
            described.formatName = av_get_pix_fmt_name(AVPixelFormat(f.format)).map { String(cString: $0) } ?? "?"
            described.sampleAspectRatio = Rational(f.sample_aspect_ratio)
            if f.nb_side_data > 0, let side = av_frame_get_side_data(frame, AV_FRAME_DATA_A53_CC), side.pointee.size > 0 {
                described.closedCaptions = Array(UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size)))
            }
        } else {
            var layout = f.ch_layout
            var name = [CChar](repeating: 0, count: 128)
            if av_channel_layout_describe(&layout, &name, name.count) > 0 { described.channelLayoutName = String(cString: name) }
            described.formatName = av_get_sample_fmt_name(AVSampleFormat(f.format)).map { String(cString: $0) } ?? "?"
            described.pictureType = "?"
        }
        if options.hashFrames {
            let hashed = decoder.kind == .video ? hasher.hashVideo(frame) : hasher.hashAudio(frame)
            described.md5 = hashed?.md5
            described.hashedSize = hashed?.size ?? 0
        }
        if corrupt {
            // The timestamp as the stream carries it: libavformat may have unwrapped a TS segment's by 2^33,
            // and a user searching the segment for that value found nothing.
            let bits = current?.streams.first { $0.index == decoder.streamIndex }?.ptsWrapBits ?? 64
            let pts = described.pts.map { bits < 64 ? $0 & ((1 << Int64(bits)) - 1) : $0 }
            damage.append(MediaDamage(stage: "\(decoder.kind.rawValue) decoder", byteOffset: nil, code: nil,
                                      message: "frame at pts \(pts.map(String.init) ?? "?") decoded with concealed errors",
                                      framePTS: described.pts, frameStreamIndex: decoder.streamIndex))
        }
        if let sink = options.dump {
            let stream = current?.streams.first { $0.index == decoder.streamIndex }
            if options.dumpAtPresentation {
                described.retained = RetainedFrame(frame, kind: decoder.kind, timeBase: decoder.timeBase, stream: stream)
            } else {
                dumpBridge.deliver(frame, kind: decoder.kind, timeBase: decoder.timeBase, stream: stream, to: sink)
            }
        }
        onFrame(described)
    }
}
