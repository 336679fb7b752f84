import CFFmpeg

extension RGBImage {
    /// The picture as a PNG file, written by libavcodec's PNG encoder (rgb24, 8 bits a channel, no alpha).
    /// Decoding it again (`ffmpeg -i file.png -pix_fmt rgb24 -f framemd5 -`) gives ``md5``.
    /// - Throws: ``MediaError/imageFailed(_:)`` when the encoder is missing or fails.
    public func pngData() throws(MediaError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw .imageFailed("this FFmpeg has no PNG encoder") }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { throw .outOfMemory("PNG encoder") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 1)
        var code = avcodec_open2(context, codec, nil)
        guard code >= 0 else { throw .imageFailed("cannot open the PNG encoder: \(AVError.message(code))") }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_RGB24.rawValue
        frame.pointee.pts = 0
        code = av_frame_get_buffer(frame, 0)
        guard code >= 0 else { throw .outOfMemory("PNG frame") }
        // Copy row by row: the frame's lines may be padded.
        let stride = Int(frame.pointee.linesize.0)
        let rowBytes = width * 3
        guard let target = frame.pointee.data.0 else { throw .outOfMemory("PNG frame") }
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                (target + row * stride).update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
            }
        }
        code = avcodec_send_frame(context, frame)
        guard code >= 0 else { throw .imageFailed("the PNG encoder refused the picture: \(AVError.message(code))") }
        code = avcodec_receive_packet(context, packet)
        if code == AVError.again {
            _ = avcodec_send_frame(context, nil)
            code = avcodec_receive_packet(context, packet)
        }
        guard code >= 0, let data = packet.pointee.data, packet.pointee.size > 0 else {
            throw .imageFailed("the PNG encoder gave no picture: \(AVError.message(code))")
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}
