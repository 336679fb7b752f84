import CFFmpeg

/// Computes a decoded frame's MD5 the way FFmpeg's framemd5 muxer does after its default encoders:
/// video as `rawvideo` (planes packed one after another, no line padding: `av_image_copy_to_buffer`
/// with alignment 1), audio as `pcm_s16le` (converted with libswresample to interleaved s16).
final class FrameHasher {
    private var scratch: [UInt8] = []
    private var resampler: OpaquePointer?
    private var resamplerKey: (format: Int32, rate: Int32, channels: Int32)?

    deinit { swr_free(&resampler) }

    /// The hash and hashed size of a video frame.
    func hashVideo(_ frame: UnsafeMutablePointer<AVFrame>) -> (md5: String, size: Int)? {
        guard let size = packImage(frame, into: &scratch) else { return nil }
        return (md5(count: size), size)
    }

    /// The hash and hashed size of an audio frame after conversion to interleaved s16.
    func hashAudio(_ frame: UnsafeMutablePointer<AVFrame>) -> (md5: String, size: Int)? {
        let f = frame.pointee
        let channels = f.ch_layout.nb_channels
        guard channels > 0, f.nb_samples > 0 else { return nil }
        let key = (format: f.format, rate: f.sample_rate, channels: channels)
        if resampler == nil || resamplerKey.map({ $0 != key }) ?? true {
            swr_free(&resampler)
            var outLayout = f.ch_layout
            var inLayout = f.ch_layout
            let code = swr_alloc_set_opts2(&resampler, &outLayout, AV_SAMPLE_FMT_S16, f.sample_rate,
                                           &inLayout, AVSampleFormat(f.format), f.sample_rate, 0, nil)
            guard code >= 0, swr_init(resampler) >= 0 else { swr_free(&resampler); return nil }
            resamplerKey = key
        }
        let size = Int(f.nb_samples) * Int(channels) * 2
        if scratch.count < size { scratch = [UInt8](repeating: 0, count: size) }
        // The planes through extended_data: `data` holds eight, and a planar frame of more channels (garbage
        // read as AAC can decode to one) has the rest only there; reading past `data` handed libswresample its
        // line sizes as plane pointers, and it crashed.
        guard let planes = f.extended_data else { return nil }
        let converted = scratch.withUnsafeMutableBufferPointer { out -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = out.baseAddress
            let input = UnsafeMutableRawPointer(planes).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            return swr_convert(resampler, &target, f.nb_samples, input, f.nb_samples)
        }
        guard converted == f.nb_samples else { return nil }
        return (md5(count: size), size)
    }

    private func md5(count: Int) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        scratch.withUnsafeBufferPointer { av_md5_sum(&digest, $0.baseAddress, count) }
        return hex(digest)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// Lowercase hexadecimal of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}
