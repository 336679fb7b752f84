import PlayheadMedia

/// Decodes one keyframe of a segment's bytes (or of an I-frame byte range) with FFmpeg: the frame's
/// framemd5 hash and its picture in rgb24.
struct KeyframeGrabber {
    /// What was grabbed.
    struct Grab {
        var frame: DecodedFrame
        var image: RGBImage
        /// The keyframe's presentation time, seconds of media timestamps.
        var keyframeSeconds: Double
        /// The earliest video presentation time of the bytes, seconds of media timestamps.
        var firstSeconds: Double
    }

    /// Why nothing was grabbed.
    enum Failure: Error {
        case open(MediaError)
        case noKeyframe(packets: Int)
        case noFrame(detail: String)
        case image(MediaError)
    }

    /// The earliest video presentation time of a segment's bytes, seconds of media timestamps (demuxed,
    /// not decoded); nil when it has no timed video packet.
    static func firstVideoSeconds(_ bytes: [UInt8]) -> Result<Double?, MediaError> {
        let decoder = RenditionDecoder(options: RenditionDecoderOptions())
        do { return .success(try decoder.demux(bytes).timeSpan(of: .video)?.start) } catch { return .failure(error) }
    }

    /// Decodes the last video keyframe whose presentation time is at most `latest` seconds of media
    /// timestamps (the first keyframe when nil).
    static func grab(_ bytes: [UInt8], atOrBefore latest: Double?) -> Result<Grab, Failure> {
        var options = RenditionDecoderOptions()
        options.mode = .keyframes
        options.kinds = [.video]
        options.hashFrames = true
        let capture = PictureCapture()
        options.dump = capture
        options.dumpAtPresentation = true
        let decoder = RenditionDecoder(options: options)
        let segment: DemuxedSegment
        do { segment = try decoder.demux(bytes) } catch { return .failure(.open(error)) }
        guard let video = segment.streams.first(where: { $0.kind == .video }) else { return .failure(.noKeyframe(packets: 0)) }
        let packets = segment.packets.filter { $0.streamIndex == video.index }
        let first = segment.timeSpan(of: .video)?.start ?? 0
        let keyframes = packets.filter { $0.isKeyframe && $0.pts != nil }
        let chosen: Packet?
        if let latest {
            chosen = keyframes.last { Double($0.pts!) * $0.timeBase.doubleValue <= latest + 1e-6 }
        } else {
            chosen = keyframes.first
        }
        guard let chosen else { return .failure(.noKeyframe(packets: packets.count)) }
        var frames: [DecodedFrame] = []
        decoder.decode(chosen, in: segment) { frames.append($0) }
        if frames.isEmpty { decoder.finish { frames.append($0) } }
        guard let frame = frames.first(where: { $0.pts == chosen.pts }) ?? frames.first else {
            let damage = segment.damage.map(\.description).joined(separator: "; ")
            return .failure(.noFrame(detail: "the keyframe at pts \(chosen.pts!) gave no picture" + (damage.isEmpty ? "" : " (\(damage))")))
        }
        // FFmpeg conceals what is missing (a byte range cut short, damaged data) and hands a smeared picture back:
        // that is no thumbnail of the stream.
        if frame.isCorrupt || chosen.isCorrupt {
            let damage = segment.damage.map(\.description).joined(separator: "; ")
            return .failure(.noFrame(detail: "the keyframe at pts \(chosen.pts!) decoded with errors (data missing or damaged: a byte range cut short?)"
                                     + (damage.isEmpty ? "" : " (\(damage))")))
        }
        decoder.dump(frame)
        guard let result = capture.result else { return .failure(.noFrame(detail: "the decoded frame kept no picture")) }
        switch result {
        case let .success(image):
            let seconds = Double(chosen.pts!) * chosen.timeBase.doubleValue
            return .success(Grab(frame: frame, image: image, keyframeSeconds: seconds, firstSeconds: first))
        case let .failure(error):
            return .failure(.image(error))
        }
    }
}

/// A frame dump that keeps the one picture handed to it, in rgb24.
private final class PictureCapture: FrameDumpSink {
    var result: Result<RGBImage, MediaError>?

    func video(_ frame: RawVideoFrame) {
        result = Result { () throws(MediaError) in try RGBImage(frame) }
    }

    func audio(_ frame: RawAudioFrame) {}

    func close() throws(DumpError) {}
}
