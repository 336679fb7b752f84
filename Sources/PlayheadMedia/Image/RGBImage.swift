import CFFmpeg

/// A picture as packed 8-bit RGB (FFmpeg's `rgb24`: three bytes a pixel, rows one after another with no
/// padding), the form thumbnails are cropped, scaled and written as PNG in.
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes, row by row.
    public let pixels: [UInt8]

    /// Wraps packed rgb24 pixels.
    /// - Throws: ``MediaError/imageFailed(_:)`` when the sizes and the byte count disagree.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(MediaError) {
        guard width > 0, height > 0, pixels.count == width * height * 3 else {
            throw .imageFailed("an rgb24 picture of \(width)x\(height) needs \(max(0, width * height * 3)) bytes, got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Converts a decoded picture as a frame dump receives it (any pixel format libswscale reads) to rgb24.
    /// - Throws: ``MediaError/imageFailed(_:)`` for an unknown pixel format or a failed conversion.
    public init(_ frame: RawVideoFrame) throws(MediaError) {
        let format = av_get_pix_fmt(frame.pixelFormatName)
        guard format != AV_PIX_FMT_NONE else { throw .imageFailed("unknown pixel format \(frame.pixelFormatName)") }
        var data: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (nil, nil, nil, nil)
        var lines: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let base = UnsafeMutablePointer(mutating: frame.packed.baseAddress?.assumingMemoryBound(to: UInt8.self))
        let filled = withUnsafeMutableBytes(of: &data) { d in
            withUnsafeMutableBytes(of: &lines) { l in
                av_image_fill_arrays(d.baseAddress!.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self),
                                     l.baseAddress!.assumingMemoryBound(to: Int32.self), base, format,
                                     Int32(frame.width), Int32(frame.height), 1)
            }
        }
        guard filled >= 0, filled <= frame.packed.count else {
            throw .imageFailed("a \(frame.width)x\(frame.height) \(frame.pixelFormatName) picture does not fit its \(frame.packed.count) bytes")
        }
        self = try withUnsafeBytes(of: &data) { d throws(MediaError) in
            try withUnsafeBytes(of: &lines) { l throws(MediaError) in
                try Self.convert(planes: d.baseAddress!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                                 lineSizes: l.baseAddress!.assumingMemoryBound(to: Int32.self), format: format,
                                 width: frame.width, height: frame.height, toWidth: frame.width, toHeight: frame.height)
            }
        }
    }

    /// Converts (and, when the sizes differ, scales with bicubic filtering) a picture to rgb24.
    static func convert(planes: UnsafePointer<UnsafePointer<UInt8>?>, lineSizes: UnsafePointer<Int32>, format: AVPixelFormat,
                        width: Int, height: Int, toWidth: Int, toHeight: Int) throws(MediaError) -> RGBImage {
        guard width > 0, height > 0, toWidth > 0, toHeight > 0 else { throw .imageFailed("empty picture (\(width)x\(height) to \(toWidth)x\(toHeight))") }
        guard let context = sws_getContext(Int32(width), Int32(height), format, Int32(toWidth), Int32(toHeight), AV_PIX_FMT_RGB24,
                                           Self.scalerFlags, nil, nil, nil) else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "?"
            throw .imageFailed("libswscale cannot convert \(name) \(width)x\(height) to rgb24 \(toWidth)x\(toHeight)")
        }
        defer { sws_freeContext(context) }
        var out = [UInt8](repeating: 0, count: toWidth * toHeight * 3)
        let rows = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            var stride = Int32(toWidth * 3)
            return sws_scale(context, planes, lineSizes, 0, Int32(height), &target, &stride)
        }
        guard rows == Int32(toHeight) else { throw .imageFailed("libswscale gave \(rows) of \(toHeight) rows") }
        return try RGBImage(width: toWidth, height: toHeight, pixels: out)
    }

    /// The flags of every conversion: bicubic, the filter `ffmpeg`'s automatic scaler uses.
    static let scalerFlags = Int32(SWS_BICUBIC)

    /// The rectangle at (`x`, `y`) of `width` by `height` pixels (a sprite sheet's tile).
    /// - Throws: ``MediaError/imageFailed(_:)`` when the rectangle is empty or not inside the picture.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws(MediaError) -> RGBImage {
        guard w > 0, h > 0, x >= 0, y >= 0, x + w <= width, y + h <= height else {
            throw .imageFailed("the rectangle \(w)x\(h) at \(x),\(y) is not inside the \(width)x\(height) picture")
        }
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 3)
        for row in y..<(y + h) {
            let start = (row * width + x) * 3
            out.append(contentsOf: pixels[start..<(start + w * 3)])
        }
        return try RGBImage(width: w, height: h, pixels: out)
    }

    /// The size a picture takes when scaled to `toWidth` keeping its aspect ratio, both sides even (the
    /// width rounded down to even, the height to the nearest even, at least 2), as `scale=W:-2` gives.
    public static func scaledSize(width: Int, height: Int, toWidth: Int) -> (width: Int, height: Int) {
        let w = max(2, toWidth / 2 * 2)
        let exact = Double(height) * Double(w) / Double(max(width, 1))
        let h = max(2, Int((exact / 2).rounded()) * 2)
        return (w, h)
    }

    /// This picture scaled to `toWidth` pixels wide (aspect kept, even sides: ``scaledSize(width:height:toWidth:)``),
    /// bicubic; the picture itself when it already has that size.
    public func scaled(toWidth: Int) throws(MediaError) -> RGBImage {
        let size = Self.scaledSize(width: width, height: height, toWidth: toWidth)
        if size == (width, height) { return self }
        return try pixels.withUnsafeBufferPointer { buffer throws(MediaError) in
            var planes: [UnsafePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var lines: [Int32] = [Int32(width * 3), 0, 0, 0]
            return try Self.convert(planes: &planes, lineSizes: &lines, format: AV_PIX_FMT_RGB24,
                                    width: width, height: height, toWidth: size.width, toHeight: size.height)
        }
    }

    /// MD5 of the pixels, lowercase hex: what `ffmpeg -f framemd5` prints for this picture in rgb24.
    public var md5: String {
        var digest = [UInt8](repeating: 0, count: 16)
        pixels.withUnsafeBufferPointer { av_md5_sum(&digest, $0.baseAddress, $0.count) }
        return hex(digest)
    }
}
