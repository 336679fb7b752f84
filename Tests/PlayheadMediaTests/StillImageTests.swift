import Foundation
import PlayheadMedia
import PlayheadTestFixtures
import Testing

/// RGBImage and PNG output against the ffmpeg CLI: decoding a JPEG/PNG to rgb24, cropping, PNG round trips.
@Suite struct StillImageTests {
    static let sprite = Fixtures.streams.appendingPathComponent("thumbs/sprite.jpg").path

    init() { MediaLog.level = .quiet }

    /// The rgb24 framemd5 hash ffmpeg gives for `input` through `filters` (nil: none).
    static func ffmpegRGBHash(_ input: String, filters: String? = nil) -> String? {
        let arguments = ["-nostdin", "-loglevel", "error", "-i", input] + (filters.map { ["-vf", $0] } ?? []) + ["-pix_fmt", "rgb24", "-f", "framemd5", "-"]
        let outcome = ChildProcess.runBlocking("ffmpeg", arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return ChildProcess.framemd5Hashes(outcome.stdout).first
    }

    static func spriteImage() throws -> (image: RGBImage, pixelFormat: String) {
        try RGBImage.decoding(Array(try Data(contentsOf: URL(fileURLWithPath: sprite))))
    }

    @Test func aJPEGDecodesToTheRGB24FFmpegGives() throws {
        let (image, format) = try Self.spriteImage()
        #expect(image.width == 640 && image.height == 360)
        #expect(format == "yuvj420p")
        #expect(image.md5 == Self.ffmpegRGBHash(Self.sprite))
    }

    /// Tiles of the sprite sheet and odd rectangles: the crop of our rgb24 is ffmpeg's crop of its rgb24,
    /// and a tile (even offsets) is also ffmpeg's crop of the JPEG's own picture.
    @Test(arguments: [(0, 0, 160, 90), (480, 270, 160, 90), (160, 90, 160, 90), (161, 91, 33, 17), (639, 359, 1, 1)])
    func aCropEqualsFFmpegsCrop(rect: (Int, Int, Int, Int)) throws {
        let (x, y, w, h) = rect
        let crop = try Self.spriteImage().image.cropped(x: x, y: y, width: w, height: h)
        #expect(crop.width == w && crop.height == h && crop.pixels.count == w * h * 3)
        #expect(crop.md5 == Self.ffmpegRGBHash(Self.sprite, filters: "format=rgb24,crop=\(w):\(h):\(x):\(y)"))
        if x % 2 == 0, y % 2 == 0, w % 2 == 0, h % 2 == 0 {
            #expect(crop.md5 == Self.ffmpegRGBHash(Self.sprite, filters: "crop=\(w):\(h):\(x):\(y)"))
        }
    }

    /// Writes one picture of `size` with the ffmpeg CLI (`extra` its output options) and returns its bytes.
    static func ffmpegPicture(_ size: String, _ name: String, _ extra: [String] = [], source: String = "testsrc") throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "playhead-still-\(UUID().uuidString)-\(name)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "\(source)=s=\(size)",
                                                          "-frames:v", "1"] + extra + [path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The size in a picture's header, read without decoding, for each kind of header the decoder takes.
    @Test(arguments: [("sprite", [String]()), ("a.png", []), ("b.webp", []), ("c.webp", ["-lossless", "1"]), ("d.webp", ["-vf", "format=rgba,colorchannelmixer=aa=0.5"]),
                      ("e.jpg", ["-q:v", "2"])])
    func theHeaderGivesThePictureSize(name: String, options: [String]) throws {
        let bytes = name == "sprite" ? Array(try Data(contentsOf: URL(fileURLWithPath: Self.sprite))) : try Self.ffmpegPicture("333x77", name, options)
        let decoded = try RGBImage.decoding(bytes).image
        let header = try #require(StillImageFormat.dimensions(bytes), "no size read from \(name)")
        #expect(header == (decoded.width, decoded.height), "\(name)")
        #expect(name == "sprite" ? header == (640, 360) : header == (333, 77))
        // The chunk each WebP variant carries (lossy VP8, lossless VP8L, extended VP8X with alpha).
        if name.hasSuffix("webp") {
            #expect(String(decoding: bytes[12..<16], as: UTF8.self) == ["b.webp": "VP8 ", "c.webp": "VP8L", "d.webp": "VP8X"][name])
        }
    }

    /// A picture of more pixels than the limit is refused before it is decoded, whatever its file size (a 0.8 MB
    /// PNG of 16000 × 16000 took 1.57 GB to decode); one at the limit decodes.
    @Test func aPictureOverThePixelLimitIsRefusedUndecoded() throws {
        #expect(RGBImage.maxDecodedPixels == 8192 * 4096)
        let over = try Self.ffmpegPicture("8194x4096", "over.png", source: "color")
        #expect(over.count < 200_000)
        #expect {
            _ = try RGBImage.decoding(over)
        } throws: { error in
            "\(error)".contains("png picture of 8194×4096 is too large to decode: 33562624 pixels, more than the limit of 33554432")
        }
        let at = try RGBImage.decoding(try Self.ffmpegPicture("8192x4096", "at.png", source: "color")).image
        #expect(at.width == 8192 && at.height == 4096)
        // Under the limit with a width FFmpeg rounds up to its stride alignment (QA32: its own check failed).
        let under = try RGBImage.decoding(try Self.ffmpegPicture("5792x5792", "under.png", source: "color")).image
        #expect(under.width == 5792 && under.height == 5792)
        // Within the limit but past FFmpeg's bound on the sides (QA33: the decoder's own error): a PNG header of
        // 33554432 × 1 is enough, refused before any decoding.
        var thin = Array(over.prefix(33))
        thin.replaceSubrange(16..<24, with: [0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01])
        #expect(StillImageFormat.dimensions(thin)! == (33_554_432, 1))
        #expect {
            _ = try RGBImage.decoding(thin)
        } throws: { error in
            "\(error)".contains("png picture of 33554432×1 is too long and thin to decode")
        }
        // A header cut short gives no size (and the decoder's own limit still holds).
        #expect(StillImageFormat.dimensions(Array(over.prefix(20))) == nil)
    }

    @Test func aRectangleOutsideThePictureIsRefused() throws {
        let image = try Self.spriteImage().image
        for (x, y, w, h) in [(600, 0, 160, 90), (0, 300, 160, 90), (0, 0, 0, 90), (-1, 0, 10, 10)] {
            #expect(throws: MediaError.self) { try image.cropped(x: x, y: y, width: w, height: h) }
        }
    }

    /// Encode to PNG, decode with ffmpeg: the same rgb24 picture; and with our own decoder too.
    @Test func aPNGRoundTripKeepsEveryPixel() throws {
        let folder = NSTemporaryDirectory() + "playhead-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let full = try Self.spriteImage().image
        for (name, image) in [("full", full), ("tile", try full.cropped(x: 161, y: 91, width: 33, height: 17))] {
            let png = try image.pngData()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let path = "\(folder)/\(name).png"
            try Data(png).write(to: URL(fileURLWithPath: path))
            #expect(Self.ffmpegRGBHash(path) == image.md5, "\(name)")
            let again = try RGBImage.decoding(png)
            #expect(again.image == image)
            #expect(again.pixelFormat == "rgb24")
        }
    }

    @Test func scaledSizesKeepTheAspectWithEvenSides() throws {
        #expect(RGBImage.scaledSize(width: 160, height: 90, toWidth: 80) == (80, 46))
        #expect(RGBImage.scaledSize(width: 416, height: 234, toWidth: 200) == (200, 112))
        #expect(RGBImage.scaledSize(width: 640, height: 360, toWidth: 101) == (100, 56))
        #expect(RGBImage.scaledSize(width: 640, height: 360, toWidth: 1) == (2, 2))
        let scaled = try Self.spriteImage().image.scaled(toWidth: 320)
        #expect(scaled.width == 320 && scaled.height == 180 && scaled.pixels.count == 320 * 180 * 3)
    }

    @Test func bytesThatAreNoImageAreRefusedWithWhatTheyAre() {
        #expect {
            _ = try RGBImage.decoding(Array("<html>not found</html>".utf8))
        } throws: { error in
            (error as? MediaError)?.description.contains("not a JPEG, PNG or WebP") == true
        }
        #expect(throws: MediaError.self) { _ = try RGBImage.decoding([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 64)) }
        #expect(throws: MediaError.self) { _ = try RGBImage(width: 2, height: 2, pixels: [0, 0, 0]) }
    }
}
