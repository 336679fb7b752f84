import Foundation
import PlayheadTestFixtures
import Testing
@testable import PlayheadMedia

/// A 6 s H.264 clip at 30 fps (no B-frames) with scripted pop-on captions in GA94 SEI, muxed into MPEG-TS,
/// and the same clip without captions; made once per test run in a temporary folder.
enum CaptionMedia {
    static let frameRate = 30.0
    static let frames = 180

    /// The captions: frame 30 "HELLO WORLD" (shown at its EOC, frame 40), frame 90 erase and "SECOND LINE"
    /// (shown at frame 102), frame 130 a two-row caption left on screen to the end (shown at frame 144).
    static let script: [CaptionInjector.Pair?] = CaptionInjector.schedule([
        (frame: 30, pairs: CaptionInjector.popOn("HELLO WORLD")),
        (frame: 90, pairs: CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory) + CaptionInjector.popOn("SECOND LINE")),
        (frame: 130, pairs: CaptionInjector.popOn(rows: [(row: 14, text: "TWO ROWS"), (row: 15, text: "OF TEXT")])),
    ], frames: frames)

    /// Roll-up captions, two rows: frame 30 RU2, PAC row 15 and "FIRST ROLL"; frame 60 CR, "SECOND ROLL";
    /// frame 90 CR, "THIRD ROLL"; frame 150 erase.
    static let rollUpScript: [CaptionInjector.Pair?] = CaptionInjector.schedule([
        (frame: 30, pairs: CaptionInjector.twice(CaptionInjector.rollUp(rows: 2)) + CaptionInjector.twice(CaptionInjector.preamble(row: 15))
            + CaptionInjector.characters("FIRST ROLL")),
        (frame: 60, pairs: CaptionInjector.twice(CaptionInjector.carriageReturn) + CaptionInjector.characters("SECOND ROLL")),
        (frame: 90, pairs: CaptionInjector.twice(CaptionInjector.carriageReturn) + CaptionInjector.characters("THIRD ROLL")),
        (frame: 150, pairs: CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory)),
    ], frames: frames)

    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-cc-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let raw = folder.appendingPathComponent("clip.h264").path
        let made = ChildProcess.runBlocking("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30",
            "-frames:v", "\(frames)", "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p",
            "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw,
        ])
        precondition(made.status == 0, "ffmpeg: \(made.stderr)")
        let stream = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: raw)))
        try! Data(CaptionInjector.inject(script, into: stream)!).write(to: folder.appendingPathComponent("cc.h264"))
        try! Data(CaptionInjector.inject(rollUpScript, into: stream)!).write(to: folder.appendingPathComponent("ru.h264"))
        for name in ["clip", "cc", "ru"] { mux(folder.appendingPathComponent("\(name).h264").path, folder.appendingPathComponent("\(name).ts").path) }
        return folder
    }()

    /// The captioned MPEG-TS file.
    static var captioned: URL { folder.appendingPathComponent("cc.ts") }
    /// The roll-up captioned MPEG-TS file.
    static var rolledUp: URL { folder.appendingPathComponent("ru.ts") }
    /// The same clip without captions.
    static var plain: URL { folder.appendingPathComponent("clip.ts") }

    static func mux(_ input: String, _ output: String) {
        let outcome = ChildProcess.runBlocking("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-r", "30", "-i", input, "-c", "copy", "-f", "mpegts", output])
        precondition(outcome.status == 0, "ffmpeg: \(outcome.stderr)")
    }

    /// Decodes `file` as one segment and returns its video frames in presentation order.
    static func frames(_ file: URL) throws -> [DecodedFrame] {
        var options = RenditionDecoderOptions()
        options.kinds = [.video]
        let decoder = RenditionDecoder(options: options)
        var frames: [DecodedFrame] = []
        let report = try decoder.decodeSegment([UInt8](try Data(contentsOf: file))) { frames.append($0) }
        #expect(report.damage.isEmpty, "\(report.damage)")
        decoder.finish { frames.append($0) }
        return frames
    }

    /// Our cues: each frame's cc_data through ``CaptionDecoder``, then its drain.
    static func cues(_ frames: [DecodedFrame]) throws -> [CaptionCue] {
        let decoder = try CaptionDecoder()
        return frames.flatMap { decoder.decode($0) } + decoder.finish()
    }

    /// FFmpeg's cues for `file`: `ffmpeg -copyts -f lavfi -i "movie=FILE[out0+subcc]" -map 0:s -c:s webvtt`
    /// (cc_dec's ASS turned to plain text by FFmpeg's WebVTT encoder; -copyts keeps the stream's timestamps).
    static func ffmpegCues(_ file: URL) -> [CaptionCue] {
        let outcome = ChildProcess.runBlocking("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-copyts", "-f", "lavfi", "-i", "movie=\(file.path)[out0+subcc]",
            "-map", "0:s", "-c:s", "webvtt", "-f", "webvtt", "-",
        ])
        precondition(outcome.status == 0, "ffmpeg: \(outcome.stderr)")
        return parseWebVTT(outcome.stdout)
    }

    /// The cues of a WebVTT document as ffmpeg writes it (no identifiers, no settings).
    static func parseWebVTT(_ text: String) -> [CaptionCue] {
        func seconds(_ stamp: Substring) -> Double {
            stamp.split(separator: ":").reduce(0) { $0 * 60 + Double($1)! }
        }
        var cues: [CaptionCue] = []
        for block in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard let timing = lines.firstIndex(where: { $0.contains("-->") }) else { continue }
            let parts = lines[timing].split(separator: " ")
            guard parts.count >= 3 else { continue }
            let body = lines[(timing + 1)...].joined(separator: "\n").trimmingCharacters(in: .newlines)
            cues.append(CaptionCue(start: seconds(parts[0]), end: seconds(parts[2]), text: body))
        }
        return cues
    }
}

@Suite struct CaptionDecoderTests {
    init() { MediaLog.level = .quiet }

    @Test func captionedFramesCarryCCData() throws {
        let frames = try CaptionMedia.frames(CaptionMedia.captioned)
        #expect(frames.count == CaptionMedia.frames)
        // One triplet a frame, as injected: valid field-1 marker 0xFC, then the pair with odd parity.
        for (frame, pair) in zip(frames, CaptionMedia.script) {
            #expect(frame.closedCaptions == CaptionInjector.ccData(pair))
        }
    }

    @Test func cuesEqualFFmpegs() throws {
        let frames = try CaptionMedia.frames(CaptionMedia.captioned)
        let ours = try CaptionMedia.cues(frames)
        let reference = CaptionMedia.ffmpegCues(CaptionMedia.captioned)
        #expect(ours.map(\.text) == ["HELLO WORLD", "SECOND LINE", "TWO ROWS\nOF TEXT"])
        #expect(ours.map(\.text) == reference.map(\.text))
        let frame = 1 / CaptionMedia.frameRate
        #expect(ours.count == reference.count)
        for (mine, theirs) in zip(ours, reference) {
            #expect(abs(mine.start - theirs.start) < frame, "\(mine) vs \(theirs)")
            #expect(abs(mine.end - theirs.end) < frame, "\(mine) vs \(theirs)")
        }
        // The script's times: shown at each EOC (frames 40, 102, 144), gone at the erase (frame 90) or the
        // next EOC; the last, left on screen, gets the duration of the one before (cc_dec's drain).
        guard let first = frames.first?.ptsSeconds, ours.count == 3 else { return }
        let expected: [(Double, Double)] = [(40, 90), (102, 144), (144, 186)]
        for (cue, (start, end)) in zip(ours, expected) {
            #expect(abs(cue.start - (first + start * frame)) < 0.001, "\(cue)")
            #expect(abs(cue.end - (first + end * frame)) < 0.001, "\(cue)")
        }
    }

    @Test func rollUpCuesEqualFFmpegs() throws {
        let ours = try CaptionMedia.cues(try CaptionMedia.frames(CaptionMedia.rolledUp))
        let reference = CaptionMedia.ffmpegCues(CaptionMedia.rolledUp)
        #expect(ours.map(\.text) == ["FIRST ROLL", "FIRST ROLL\nSECOND ROLL", "SECOND ROLL\nTHIRD ROLL"])
        #expect(ours.map(\.text) == reference.map(\.text))
        #expect(ours.count == reference.count)
        for (mine, theirs) in zip(ours, reference) {
            #expect(abs(mine.start - theirs.start) < 1 / CaptionMedia.frameRate, "\(mine) vs \(theirs)")
            #expect(abs(mine.end - theirs.end) < 1 / CaptionMedia.frameRate, "\(mine) vs \(theirs)")
        }
        // cc_dec (buffered) hands a roll-up screen out at the next carriage return or erase, timed from the
        // screen before: the first from time 0, before the stream starts (FFmpeg's reading, kept).
        #expect(ours.first?.start == 0)
    }

    @Test func videoWithoutCaptionsYieldsNone() throws {
        let frames = try CaptionMedia.frames(CaptionMedia.plain)
        #expect(frames.count == CaptionMedia.frames)
        #expect(frames.allSatisfy { $0.closedCaptions == nil })
        #expect(try CaptionMedia.cues(frames).isEmpty)
        #expect(CaptionMedia.ffmpegCues(CaptionMedia.plain).isEmpty)
    }

    @Test func badParityAndJunkDoNotCrash() throws {
        let decoder = try CaptionDecoder()
        var time = 0.0
        func feed(_ data: [UInt8]) -> [CaptionCue] {
            time += 1 / 30
            return decoder.decode(ccData: data, at: time)
        }
        var cues: [CaptionCue] = []
        // A caption sent without parity bits: cc_dec drops pairs whose second byte fails parity.
        for pair in CaptionInjector.popOn("BAD PARITY") { cues += feed(CaptionInjector.ccData(pair, parity: false)) }
        // Junk: partial triplets, 708 and invalid triplets, random bytes.
        cues += feed([0xFC])
        cues += feed([0xFC, 0x94])
        cues += feed([0xFF, 0x01, 0x02, 0xFE, 0x03, 0x04, 0xF8, 0x94, 0x2C])
        var rng = SplitMix64(seed: 608)
        for _ in 0..<200 {
            let count = Int(rng.next() % 31)
            cues += feed((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        cues += feed([])
        // Good captions after it all still come through.
        for pair in CaptionInjector.popOn("GOOD") + CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory) {
            cues += feed(CaptionInjector.ccData(pair))
        }
        cues += decoder.finish()
        #expect(cues.contains { $0.text.contains("GOOD") }, "\(cues)")
        #expect(cues.allSatisfy { $0.end >= $0.start })
    }

    @Test func assEventsBecomePlainText() {
        #expect(CaptionDecoder.plainText(ass: "0,0,Default,,0,0,0,,{\\an7}{\\pos(38,228)}TWO ROWS\\N{\\an7}{\\pos(38,243)}OF TEXT")
            == "TWO ROWS\nOF TEXT")
        #expect(CaptionDecoder.plainText(ass: "Dialogue: 0,0:00:01.33,0:00:03.00,Default,,0,0,0,,{\\i1}A, B{\\i0}\\h!")
            == "A, B !")
        #expect(CaptionDecoder.plainText(ass: "no fields") == "")
    }

    @Test func seiEscapesStartCodePrefixes() {
        let nal = CaptionInjector.seiNAL(ccData: [0x00, 0x00, 0x01])
        #expect(nal.first == 0x06)
        let body = Array(nal.dropFirst())
        for i in 0..<(body.count - 2) where body[i] == 0 && body[i + 1] == 0 {
            #expect(body[i + 2] == 0x03, "\(body)")
        }
        #expect(body.count > 1 + 1 + 3 + 4 + 3 + 3 + 1 + 1)
    }
}

/// Each field carries two data channels; cc_dec reads them as one. A decoder keeps to its own channel: CC1
/// and CC2 on field 1, CC3 and CC4 on field 2.
@Suite struct CaptionChannelTests {
    /// `pairs` moved to channel 2 (control codes 0x14… become 0x1C…).
    static func onChannelTwo(_ pairs: [CaptionInjector.Pair]) -> [CaptionInjector.Pair] { CaptionInjector.onSecondChannel(pairs) }

    /// Cues of caption channel `channel` from feeding one pair a frame at 30 fps on field 1 (and `fieldTwo`'s on
    /// field 2).
    static func cues(_ pairs: [CaptionInjector.Pair?], fieldTwo: [CaptionInjector.Pair?] = [], channel: Int = 1) throws -> [CaptionCue] {
        let decoder = try CaptionDecoder(channel: channel)
        var cues: [CaptionCue] = []
        for index in 0..<max(pairs.count, fieldTwo.count) {
            let one = index < pairs.count ? pairs[index] : nil
            let two: CaptionInjector.Pair?? = fieldTwo.isEmpty ? nil : .some(index < fieldTwo.count ? fieldTwo[index] : nil)
            cues += decoder.decode(ccData: CaptionInjector.ccData(one, fieldTwo: two), at: Double(index) / 30)
        }
        return cues + decoder.finish()
    }

    /// A caption on each of the four channels, CC1 then CC2 on field 1 while CC3 then CC4 go on field 2: each
    /// decoder gives its own channel's cue only, timed as the same script alone on CC1 is (whose timing is
    /// FFmpeg's, `cuesEqualFFmpegs`); the second channel's a script later.
    @Test func eachChannelDecodesItsOwnCaptions() throws {
        func script(_ text: String, second: Bool) -> [CaptionInjector.Pair?] {
            let pairs = CaptionInjector.popOn(text) + [nil, nil] + CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory)
            return pairs.map { $0.map { second ? Self.onChannelTwo([$0])[0] : $0 } }
        }
        let one = script("CHANNEL ONE", second: false), two = script("CHANNEL TWO", second: true)
        let three = script("CHANNEL 333", second: false), four = script("CHANNEL 444", second: true)
        let rest = [CaptionInjector.Pair?](repeating: nil, count: 40)
        let cues = try (1...4).map { try Self.cues(one + two + rest, fieldTwo: three + four + rest, channel: $0) }
        #expect(cues.map { $0.map(\.text) } == [["CHANNEL ONE"], ["CHANNEL TWO"], ["CHANNEL 333"], ["CHANNEL 444"]], "\(cues)")
        let alone = try Self.cues(one + rest + rest)
        #expect(cues[0] == alone)
        let later = one.count
        for (channel, shift) in [(2, later), (3, 0), (4, later)] {
            let expected = alone.map { (start: $0.start + Double(shift) / 30, end: $0.end + Double(shift) / 30) }
            let got = cues[channel - 1]
            #expect(got.count == expected.count && zip(got, expected).allSatisfy { abs($0.start - $1.start) < 1e-6 && abs($0.end - $1.end) < 1e-6 },
                    "CC\(channel): \(got) against \(expected)")
        }
    }

    @Test func aCaptionOnChannelTwoIsNotChannelOnes() throws {
        let cc2 = Self.onChannelTwo(CaptionInjector.popOn("SEGUNDA")) + Self.onChannelTwo(CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory))
        #expect(try Self.cues(cc2 + [CaptionInjector.Pair?](repeating: nil, count: 30)).isEmpty)
    }

    @Test func interleavedChannelsGiveChannelOnesCaption() throws {
        // CC1 starts loading a caption, CC2 sends a whole one, CC1 takes the channel back (a control code
        // names the channel; the characters after it are that channel's) and finishes "ENGLISH LINE".
        let start = CaptionInjector.twice(CaptionInjector.resumeCaptionLoading) + CaptionInjector.twice(CaptionInjector.preamble(row: 15))
        let two = Self.onChannelTwo(CaptionInjector.popOn("SEGUNDA LINEA"))
        let back = CaptionInjector.twice(CaptionInjector.preamble(row: 15)) + CaptionInjector.characters("ENGLISH LINE")
            + CaptionInjector.twice(CaptionInjector.endOfCaption)
        var pairs: [CaptionInjector.Pair?] = start + two + back
        pairs += [CaptionInjector.Pair?](repeating: nil, count: 60) + CaptionInjector.twice(CaptionInjector.eraseDisplayedMemory)
        let cues = try Self.cues(pairs)
        #expect(cues.map(\.text) == ["ENGLISH LINE"], "\(cues)")
    }
}
