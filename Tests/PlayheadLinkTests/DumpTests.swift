import Foundation
import PlayheadMedia
import PlayheadTestFixtures
import Testing

/// Runs a program to its end and returns its standard output (expects exit status 0).
func run(_ program: String, _ arguments: [String]) throws -> Data {
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try ChildProcess.launch(process)
    let data = ChildProcess.readToEnd(pipe.fileHandleForReading)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(program) \(arguments)")
    return data
}

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

@Suite struct DumpTests {
    init() { MediaLog.level = .quiet }

    @Test func y4mAndWAVEqualFFmpegs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("x.ts").path
        _ = try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=1",
                               "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1",
                               "-c:v", "libx264", "-c:a", "aac", "-f", "mpegts", clip])
        let dumpFolder = folder.appendingPathComponent("out/nested").path
        let dump = try DirectoryDump(directory: dumpFolder)
        var options = RenditionDecoderOptions()
        options.dump = dump
        let decoder = RenditionDecoder(options: options)
        let report = try decoder.decodeSegment([UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))) { _ in }
        decoder.finish { _ in }
        try dump.close()
        #expect(report.damage.isEmpty)

        let y4m = try Data(contentsOf: URL(fileURLWithPath: dump.videoPath))
        let reference = try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", clip, "-f", "yuv4mpegpipe", "-"])
        #expect(reference.count == 58 + 10 * (6 + 64 * 48 * 3 / 2), "a 58-byte header, then 10 frames")
        #expect(String(decoding: y4m.prefix(58), as: UTF8.self) == "YUV4MPEG2 W64 H48 F10:1 Ip A1:1 C420mpeg2 XYSCSS=420MPEG2\n")
        #expect(y4m == reference)

        let wav = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump.audioPath)))
        let pcm = [UInt8](try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", clip, "-f", "s16le", "-"]))
        #expect(pcm.count > 80_000)
        #expect(wav.count == 44 + pcm.count)
        #expect(Array(wav.dropFirst(44)) == pcm)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(le32(wav, 4) == 36 + pcm.count)
        #expect(le16(wav, 22) == 1)  // channels
        #expect(le32(wav, 24) == 44_100)
        #expect(le16(wav, 34) == 16)
        #expect(le32(wav, 40) == pcm.count)
    }

    @Test func wavStopsAtItsLimitWithAClearError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.wav").path
        let writer = try WAVWriter(path: path, dataByteLimit: 1_001)
        let samples = [Int16](repeating: 1_234, count: 300)
        samples.withUnsafeBytes { raw in
            for _ in 0..<3 {
                writer.audio(RawAudioFrame(sampleCount: 300, sampleRate: 8_000, channels: 1, sampleFormatName: "s16",
                                           planes: [raw], pts: nil, timeBase: Rational(1, 8_000)))
            }
        }
        #expect(throws: DumpError.tooLarge(path: path, limitBytes: 1_000)) { try writer.close() }
        let wav = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(wav.count == 1_044)
        #expect(le32(wav, 4) == 1_036 && le32(wav, 40) == 1_000)
        #expect(WAVWriter.defaultDataByteLimit == 4_294_967_259)
    }

    @Test func y4mRefusesASizeChangeAndUnknownFormats() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v.y4m").path
        let writer = try Y4MWriter(path: path)
        let pixels = [UInt8](repeating: 16, count: 4 * 4 * 3 / 2)
        pixels.withUnsafeBytes { raw in
            writer.video(frame(raw, width: 4, height: 4, format: "yuv420p"))
            writer.video(frame(raw, width: 2, height: 2, format: "yuv420p"))
        }
        #expect(writer.framesWritten == 1)
        do {
            try writer.close()
            Issue.record("expected formatChanged")
        } catch {
            guard case .formatChanged(let named, _) = error else { Issue.record("\(error)"); return }
            #expect(named == path)
        }
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64), as: UTF8.self)
            .hasPrefix("YUV4MPEG2 W4 H4 F25:1 Ip A0:0 C420jpeg XYSCSS=420JPEG\nFRAME\n"))

        let rgb = try Y4MWriter(path: path)
        pixels.withUnsafeBytes { rgb.video(frame($0, width: 2, height: 1, format: "rgb24")) }
        #expect(throws: DumpError.unsupportedPixelFormat(path: path, pixelFormat: "rgb24")) { try rgb.close() }
        #expect(Y4MWriter.colourSpace(pixelFormatName: "yuv420p10le", chromaLocationName: "left") == "C420p10 XYSCSS=420P10")
        #expect(Y4MWriter.colourSpace(pixelFormatName: "yuvj444p", chromaLocationName: "center") == "C444 XYSCSS=444")
        #expect(Y4MWriter.colourSpace(pixelFormatName: "nv12", chromaLocationName: "left") == nil)
    }

    @Test func errorsNameThePath() {
        #expect(throws: DumpError.self) { try Y4MWriter(path: "/nonexistent/dir/v.y4m") }
        do {
            _ = try WAVWriter(path: "/nonexistent/dir/a.wav")
        } catch {
            #expect(error.path == "/nonexistent/dir/a.wav")
            #expect(error.description.contains("/nonexistent/dir/a.wav"))
        }
    }

    private func frame(_ raw: UnsafeRawBufferPointer, width: Int, height: Int, format: String) -> RawVideoFrame {
        RawVideoFrame(width: width, height: height, pixelFormatName: format,
                      packed: UnsafeRawBufferPointer(rebasing: raw[0..<(width * height * 3 / 2)]), planes: [],
                      pts: nil, timeBase: Rational(1, 90_000), frameRate: nil, sampleAspectRatio: Rational(0, 1),
                      colorRangeName: "unknown", chromaLocationName: "unspecified", isInterlaced: false, topFieldFirst: false)
    }
}

func le32(_ bytes: [UInt8], _ at: Int) -> Int {
    Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
}

func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
