import CFFmpeg

/// Packs a decoded picture's planes one after another with no line padding (what FFmpeg's rawvideo
/// encoder, and so framemd5 and yuv4mpegpipe, produce) into `scratch`, growing it as needed.
/// Returns the packed size, or nil when the picture cannot be packed.
func packImage(_ frame: UnsafeMutablePointer<AVFrame>, into scratch: inout [UInt8]) -> Int? {
    let f = frame.pointee
    let format = AVPixelFormat(f.format)
    let size = Int(av_image_get_buffer_size(format, f.width, f.height, 1))
    guard size > 0 else { return nil }
    if scratch.count < size { scratch = [UInt8](repeating: 0, count: size) }
    let written = withUnsafeBytes(of: &frame.pointee.data) { data in
        withUnsafeBytes(of: &frame.pointee.linesize) { lines in
            scratch.withUnsafeMutableBufferPointer { out in
                av_image_copy_to_buffer(
                    out.baseAddress, Int32(size),
                    data.baseAddress!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                    lines.baseAddress!.assumingMemoryBound(to: Int32.self),
                    format, f.width, f.height, 1)
            }
        }
    }
    return written == size ? size : nil
}
