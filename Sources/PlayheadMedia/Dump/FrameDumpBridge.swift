import CFFmpeg

/// Turns the decoder's `AVFrame`s into ``RawVideoFrame`` and ``RawAudioFrame`` for a ``FrameDumpSink``:
/// video packed with `av_image_copy_to_buffer` (alignment 1) into a reused buffer, audio handed over
/// as decoded. Not thread-safe: one per ``RenditionDecoder``.
final class FrameDumpBridge {
    private var scratch: [UInt8] = []
    /// The last frame rate known for video; kept for frames drained after the last segment.
    private var lastFrameRate: Rational?

    /// Describes `frame` and hands it to `sink`.
    /// - Parameters:
    ///   - stream: What the demuxer knows of the frame's stream, when it is known (not while draining).
    func deliver(_ frame: UnsafeMutablePointer<AVFrame>, kind: MediaKind, timeBase: Rational,
                 stream: StreamInfo?, to sink: FrameDumpSink) {
        switch kind {
        case .video:
            if let rate = stream?.frameRate, rate.num > 0, rate.den > 0 { lastFrameRate = rate }
            deliverVideo(frame, timeBase: timeBase, to: sink)
        case .audio:
            deliverAudio(frame, timeBase: timeBase, to: sink)
        default:
            return
        }
    }

    private func deliverVideo(_ frame: UnsafeMutablePointer<AVFrame>, timeBase: Rational, to sink: FrameDumpSink) {
        let f = frame.pointee
        let format = AVPixelFormat(f.format)
        guard let size = packImage(frame, into: &scratch) else { return }
        let planeSizes = Self.planeSizes(format, width: f.width, height: f.height)
        scratch.withUnsafeBytes { all in
            let packed = UnsafeRawBufferPointer(rebasing: all[0..<size])
            var planes: [UnsafeRawBufferPointer] = []
            var start = 0
            for planeSize in planeSizes where start + planeSize <= size {
                planes.append(UnsafeRawBufferPointer(rebasing: packed[start..<(start + planeSize)]))
                start += planeSize
            }
            let raw = RawVideoFrame(
                width: Int(f.width), height: Int(f.height),
                pixelFormatName: av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "?",
                packed: packed, planes: planes,
                pts: f.best_effort_timestamp == noPTS ? nil : f.best_effort_timestamp, timeBase: timeBase,
                frameRate: lastFrameRate, sampleAspectRatio: Rational(f.sample_aspect_ratio),
                colorRangeName: av_color_range_name(f.color_range).map { String(cString: $0) } ?? "unknown",
                chromaLocationName: av_chroma_location_name(f.chroma_location).map { String(cString: $0) } ?? "unspecified",
                isInterlaced: f.interlaced_frame != 0, topFieldFirst: f.top_field_first != 0)
            sink.video(raw)
        }
    }

    /// Byte sizes of each plane of a packed picture (alignment 1).
    private static func planeSizes(_ format: AVPixelFormat, width: Int32, height: Int32) -> [Int] {
        var lines: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        var sizes: (Int, Int, Int, Int) = (0, 0, 0, 0)
        guard withUnsafeMutableBytes(of: &lines, { av_image_fill_linesizes($0.baseAddress!.assumingMemoryBound(to: Int32.self), format, width) }) >= 0 else {
            return []
        }
        var widened: (Int, Int, Int, Int) = (Int(lines.0), Int(lines.1), Int(lines.2), Int(lines.3))
        let code = withUnsafeMutableBytes(of: &sizes) { out in
            withUnsafeMutableBytes(of: &widened) { linesizes in
                av_image_fill_plane_sizes(out.baseAddress!.assumingMemoryBound(to: Int.self), format, height,
                                          linesizes.baseAddress!.assumingMemoryBound(to: Int.self))
            }
        }
        guard code >= 0 else { return [] }
        return [sizes.0, sizes.1, sizes.2, sizes.3].filter { $0 > 0 }
    }

    private func deliverAudio(_ frame: UnsafeMutablePointer<AVFrame>, timeBase: Rational, to sink: FrameDumpSink) {
        let f = frame.pointee
        let format = AVSampleFormat(f.format)
        let channels = Int(f.ch_layout.nb_channels)
        guard channels > 0, f.nb_samples > 0, let data = f.extended_data else { return }
        let bytesPerSample = Int(av_get_bytes_per_sample(format))
        let planar = av_sample_fmt_is_planar(format) != 0
        let planeCount = planar ? channels : 1
        let planeBytes = Int(f.nb_samples) * bytesPerSample * (planar ? 1 : channels)
        var planes: [UnsafeRawBufferPointer] = []
        for index in 0..<planeCount {
            guard let base = data[index] else { return }
            planes.append(UnsafeRawBufferPointer(start: base, count: planeBytes))
        }
        let raw = RawAudioFrame(
            sampleCount: Int(f.nb_samples), sampleRate: Int(f.sample_rate), channels: channels,
            sampleFormatName: av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "?",
            planes: planes, pts: f.best_effort_timestamp == noPTS ? nil : f.best_effort_timestamp, timeBase: timeBase)
        sink.audio(raw)
    }
}
