import CFFmpeg

/// The still-image formats a thumbnail track's pictures come in, told from their first bytes.
public enum StillImageFormat: String, Sendable {
    /// JPEG (`FF D8 FF`), decoded by FFmpeg's `mjpeg` decoder.
    case jpeg
    /// PNG (`89 50 4E 47 0D 0A 1A 0A`).
    case png
    /// WebP (`RIFF` … `WEBP`).
    case webp

    /// The format of `bytes`, or nil when they start as none of the above.
    public static func sniff(_ bytes: [UInt8]) -> StillImageFormat? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The picture's width and height as its header gives them, read without decoding; nil when the header
    /// is cut short or not one this reads (PNG's IHDR, a JPEG's SOF marker, WebP's VP8, VP8L or VP8X chunk).
    public static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        func le16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : nil }
        func le24(_ at: Int) -> Int? { at + 3 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 : nil }
        func tag(_ at: Int) -> String? { at + 4 <= bytes.count ? String(decoding: bytes[at..<at + 4], as: UTF8.self) : nil }
        switch sniff(bytes) {
        case .png?:
            guard tag(12) == "IHDR", let wHigh = be16(16), let wLow = be16(18), let hHigh = be16(20), let hLow = be16(22) else { return nil }
            return (wHigh << 16 | wLow, hHigh << 16 | hLow)
        case .jpeg?:
            var at = 2
            while at + 1 < bytes.count {
                guard bytes[at] == 0xFF else { return nil }
                while at < bytes.count, bytes[at] == 0xFF { at += 1 }
                guard at < bytes.count else { return nil }
                let marker = bytes[at]
                at += 1
                if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }
                guard let length = be16(at), length >= 2 else { return nil }
                // SOF0–SOF15 carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard let height = be16(at + 3), let width = be16(at + 5) else { return nil }
                    return (width, height)
                }
                at += length
            }
            return nil
        case .webp?:
            switch tag(12) {
            case "VP8 ":
                guard let width = le16(26), let height = le16(28) else { return nil }
                return (width & 0x3FFF, height & 0x3FFF)
            case "VP8L":
                guard bytes.count >= 25, bytes[20] == 0x2F else { return nil }
                let bits = Int(bytes[21]) | Int(bytes[22]) << 8 | Int(bytes[23]) << 16 | Int(bytes[24]) << 24
                return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                guard let width = le24(24), let height = le24(27) else { return nil }
                return (width + 1, height + 1)
            default:
                return nil
            }
        case nil:
            return nil
        }
    }

    var codecID: AVCodecID {
        switch self {
        case .jpeg: AV_CODEC_ID_MJPEG
        case .png: AV_CODEC_ID_PNG
        case .webp: AV_CODEC_ID_WEBP
        }
    }
}

extension RGBImage {
    /// The most pixels a still image may have to be decoded: 2^25 (for example 8192 × 4096, far above any
    /// thumbnail sprite sheet). A larger one is refused before it is decoded: a 16000 × 16000 PNG of 0.8 MB
    /// took 1.57 GB of memory to decode and convert.
    public static let maxDecodedPixels = 1 << 25

    /// Decodes a JPEG, PNG or WebP file with libavcodec and converts it to rgb24 (as `ffmpeg -i file
    /// -pix_fmt rgb24` does).
    /// - Returns: The picture and the pixel format it was decoded in (`yuvj420p` for most JPEGs).
    /// - Throws: ``MediaError/imageFailed(_:)`` when the bytes are not such a file, do not decode, or hold more
    ///   than ``maxDecodedPixels`` pixels.
    public static func decoding(_ bytes: [UInt8]) throws(MediaError) -> (image: RGBImage, pixelFormat: String) {
        guard let format = StillImageFormat.sniff(bytes) else {
            let start = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
            throw .imageFailed("not a JPEG, PNG or WebP file (\(bytes.count) bytes, starting \(start.isEmpty ? "with nothing" : start))")
        }
        if let (width, height) = StillImageFormat.dimensions(bytes) {
            if width * height > maxDecodedPixels {
                throw .imageFailed("\(format.rawValue) picture of \(width)×\(height) is too large to decode: "
                                   + "\(width * height) pixels, more than the limit of \(maxDecodedPixels)")
            }
            // FFmpeg's own bound on a picture's sides (av_image_check_size): a long thin one fails inside it.
            if (width + 128) * (height + 128) >= Int(Int32.max) / 8 {
                throw .imageFailed("\(format.rawValue) picture of \(width)×\(height) is too long and thin to decode (FFmpeg takes "
                                   + "(width + 128) × (height + 128) below \(Int(Int32.max) / 8))")
            }
        }
        guard let codec = avcodec_find_decoder(format.codecID) else { throw .decoderNotFound(codec: format.rawValue) }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { throw .outOfMemory("image decoder") }
        context.pointee.thread_count = 1
        // A net for a header this file does not read: the decoder refuses such a picture itself. Twice the limit,
        // as FFmpeg counts the width rounded up to its stride alignment (a 5792 × 5792 picture, under the limit,
        // failed its check at the limit itself).
        context.pointee.max_pixels = Int64(maxDecodedPixels) * 2
        // An image cut short or damaged is an error, not a picture with its missing part concealed.
        context.pointee.err_recognition |= AV_EF_EXPLODE
        var code = avcodec_open2(context, codec, nil)
        guard code >= 0 else { throw .decoderOpenFailed(codec: format.rawValue, code: code, message: AVError.message(code)) }
        guard av_new_packet(packet, Int32(bytes.count)) >= 0, let data = packet.pointee.data else { throw .outOfMemory("image packet") }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        code = avcodec_send_packet(context, packet)
        guard code >= 0 else { throw .imageFailed("\(format.rawValue) decoder: \(AVError.message(code))") }
        code = avcodec_receive_frame(context, frame)
        if code == AVError.again {
            _ = avcodec_send_packet(context, nil)
            code = avcodec_receive_frame(context, frame)
        }
        guard code >= 0, frame.pointee.width > 0, frame.pointee.height > 0 else {
            throw .imageFailed("\(format.rawValue) file of \(bytes.count) bytes gave no picture: \(AVError.message(code))")
        }
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            throw .imageFailed("\(format.rawValue) file of \(bytes.count) bytes decoded with errors (cut short or damaged)")
        }
        let image = try RGBImage(frame)
        let name = av_get_pix_fmt_name(AVPixelFormat(frame.pointee.format)).map { String(cString: $0) } ?? "?"
        return (image, name)
    }

    /// Converts a decoded `AVFrame` to rgb24 at its own size.
    init(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        let f = frame.pointee
        self = try withUnsafeBytes(of: &frame.pointee.data) { data throws(MediaError) in
            try withUnsafeBytes(of: &frame.pointee.linesize) { lines throws(MediaError) in
                try Self.convert(planes: data.baseAddress!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                                 lineSizes: lines.baseAddress!.assumingMemoryBound(to: Int32.self),
                                 format: AVPixelFormat(f.format), width: Int(f.width), height: Int(f.height),
                                 toWidth: Int(f.width), toHeight: Int(f.height))
            }
        }
    }
}
