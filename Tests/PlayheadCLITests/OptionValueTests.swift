import Foundation
import Testing

/// Option values that parse as numbers but cannot be played (each used to start a session that never
/// ended) are refused before anything is fetched, with exit code 2 and the option named.
@Suite struct OptionValueTests {
    @Test(arguments: [
        (["--pause", "2:inf"], "--pause takes AT:SECONDS with two finite non-negative numbers"),
        (["--seek", "nan:4"], "--seek takes AT:SECONDS"),
        (["--rate", "1e-9"], "--rate must be from 0.01 to 100.0"),
        (["--resume-after-failure", "0"], "--resume-after-failure '0': the number of resumes must be a whole number from 1 to 1000"),
        (["--resume-after-failure", "2:-1"], "--resume-after-failure '2:-1': the delay must be 0 to 86400 seconds"),
        (["--rate", "inf"], "--rate must be from"),
        (["--bandwidth", "nan"], "--bandwidth must be a positive number"),
        // The real clock takes the network as it is: a bandwidth given with it was ignored silently.
        (["--clock", "real", "--bandwidth", "1"], "--bandwidth needs --clock virtual"),
        (["--trace", "/dev/null", "--bandwidth", "3"], "give --trace or --bandwidth, not both"),
        (["--duration", "inf"], "--duration must be a positive number"),
        (["--start=-1"], "--start must be 0 or more seconds"),
        // A negative number after a space is the option's value, not a missing value.
        (["--start", "-1"], "--start must be 0 or more seconds, got -1.0"),
        (["--variant", "-1"], "--variant must be 0 or more, got -1"),
        (["--lock-rung", "-2"], "--lock-rung must be 0 or more, got -2"),
        (["--peak-bitrate", "-5"], "--peak-bitrate must be 0 or more bits per second, got -5"),
        (["--seek", "-1:3"], "--seek takes AT:SECONDS with two finite non-negative numbers, got \"-1:3\""),
        (["--report", "/nonexistent-folder/report.json"], "--report /nonexistent-folder/report.json: no folder /nonexistent-folder"),
        (["--report-html", "/tmp"], "--report-html /tmp: is a folder"),
        // A minimum above the maximum was taken silently (the minimum won).
        (["--min-bitrate", "5000000", "--max-bitrate", "1000000"], "--min-bitrate 5000000 is above --max-bitrate 1000000"),
        // ABR options with an option that turns ABR off were ignored silently.
        (["--variant", "1", "--abr", "bba"], "--abr has no effect with --variant"),
        (["--max-bandwidth", "800000", "--min-bitrate", "1"], "--min-bitrate has no effect with --max-bandwidth"),
        (["--variant", "0", "--max-bitrate", "1"], "--max-bitrate has no effect with --variant"),
        (["--variant", "0", "--initial-bitrate", "1"], "--initial-bitrate has no effect with --variant"),
        (["--max-bandwidth", "1", "--peak-bitrate", "0"], "--peak-bitrate has no effect with --max-bandwidth"),
        (["--variant", "0", "--lock-rung", "0"], "--lock-rung has no effect with --variant"),
        // Two outputs to one file: the report overwrote the events.
        (["--events", "/tmp/playhead-same.json", "--report", "/tmp/./playhead-same.json"],
         "--events and --report both write to /tmp/playhead-same.json"),
        (["--report-html", "playhead-same.html", "--events", "./playhead-same.html"], "--events and --report-html both write to"),
        (["--framemd5", "/tmp/x/../playhead-same.txt", "--report", "/tmp/playhead-same.txt"],
         "--framemd5 and --report both write to /tmp/playhead-same.txt"),
        // Demux mode decodes nothing: the framemd5 file held a header and no frame (exit 0).
        (["--mode", "demux", "--framemd5", "-"], "--framemd5 hashes decoded frames; --mode demux decodes none"),
    ])
    func playRefuses(_ options: [String], _ message: String) async {
        // Nothing listens on the URL: a refusal must come before any fetch.
        let outcome = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/none.m3u8"] + options)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    /// Two outputs may both be thrown away: /dev/null is not "the same file" in the sense that matters.
    @Test func twoOutputsMayGoToDevNull() async {
        let outcome = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/none.m3u8", "--events", "/dev/null", "--report", "/dev/null"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
    }

    /// `--rate` at or below 0 means 1.0 (the PSDK's rule), also when written `--rate -1`: the session
    /// starts and fails on the fetch (exit 1), it is not refused as a usage error.
    @Test(arguments: [["--rate", "-1"], ["--ad-domain", "http://127.0.0.1:9", "--ad-zone", "-1"]])
    func aNegativeNumberIsAValue(_ options: [String]) async {
        let outcome = await CLI.run(CLI.playhead, ["play", "http://127.0.0.1:9/none.m3u8"] + options)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Missing value"), "\(outcome.stderr)")
    }

    @Test(arguments: [
        (["--duration", "inf"], "--duration is inf: it must be above 0 to 1000000000 seconds"),
        (["--duration", "nan"], "--duration is nan"),
        (["--interval", "nan"], "--interval is nan"),
        (["--warm-up", "nan"], "--warm-up is nan"),
        (["--memory-growth-limit", "nan"], "--memory-growth-limit is nan"),
        (["--duration", "-5"], "--duration is -5"),
        (["--report", "/nonexistent-folder/soak.json"], "--report /nonexistent-folder/soak.json: no folder /nonexistent-folder"),
    ])
    func soakRefuses(_ options: [String], _ message: String) async {
        let outcome = await CLI.run(CLI.playhead, ["soak", "http://127.0.0.1:9/none.m3u8", "--sessions", "1"] + options)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func soakRefusesAURLItCannotFetch() async {
        let outcome = await CLI.run(CLI.playhead, ["soak", "/tmp/stream.m3u8", "--sessions", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the stream URL /tmp/stream.m3u8 is not an http or https URL"), "\(outcome.stderr)")
    }

    @Test func serversRefuseFilesTheyCannotUse() async throws {
        let folder = NSTemporaryDirectory() + "playhead-servers-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: folder + "/binary.xml"))
        try Data("<VAST/>".utf8).write(to: URL(fileURLWithPath: folder + "/vast.xml"))
        let cases: [([String], String)] = [
            (["serve", "--port", "0", "--data", file], "--data \(file): is a file, not a folder"),
            (["serve", "--port", "0", "--data", file + "/sub"], "--data \(file)/sub: \(file) is a file, not a folder"),
            (["origin", folder, "--port", "0", "--port-file", "/nonexistent-folder/port"], "--port-file /nonexistent-folder/port: no folder"),
            (["ad-server", "--port", "0", "--port-file", folder], "--port-file \(folder): is a folder"),
            (["ad-server", "--port", "0", "--document", "/v=\(folder)/binary.xml"], "is not UTF-8 text"),
            (["ad-server", "--port", "0", "--document", "/v=\(folder)"], "cannot read \(folder) (a folder)"),
            (["ad-server", "--port", "0", "--document", "/v=\(folder)/vast.xml", "--document", "/v=\(folder)/vast.xml"], "/v is given twice"),
            (["ad-server", "--port", "0", "--document", "/vmap=\(folder)/vast.xml", "--demo-ad", "/a.m3u8:10"], "/vmap is also registered by --demo-ad"),
        ]
        for (arguments, message) in cases {
            let outcome = await CLI.run(CLI.playhead, arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func inspectSaysAFolderIsAFolder() async {
        let outcome = await CLI.run(CLI.playhead, ["inspect", NSTemporaryDirectory()])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("is a folder, not a file"), "\(outcome.stderr)")
    }

    @Test func framesRefusesAbsurdThreadCounts() async {
        let outcome = await CLI.run(CLI.playhead, ["frames", "http://127.0.0.1:9/none.m3u8", "--threads", "100000"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--threads must be from 0 (FFmpeg chooses) to 64, got 100000"), "\(outcome.stderr)")
    }

    @Test func aBadAdMapIsNamedWithThePathOfTheValue() async throws {
        let folder = NSTemporaryDirectory() + "playhead-admap-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(json: String?, message: String)] = [
            (#"{"breaks":[{"time":1e300,"ads":[{"url":"a.m3u8","duration":10}]}]}"#, "breaks[0].time is 1e+300: it must be 0 to 1000000000 seconds"),
            (#"{"breaks":[{"time":4,"ads":[{"url":"a.m3u8","duration":"ten"}]}]}"#, "breaks[0].ads[0].duration should be a number"),
            (#"{"breaks":[{"time":4,"ads":[{"duration":10}]}]}"#, "breaks[0].ads[0].url is missing"),
            (#"{"breaks":[{"ads":[{"url":"a.m3u8","duration":10}]}]}"#, "breaks[0] has neither a time nor a cueId"),
            (#"{"breaks":[{"time":4,"#, "not valid JSON: it ends too soon: the object opened at byte 11 is never closed"),
            ("{\"breaks\": [\n  {\"time\": 4 \"ads\": []}\n]}", "not valid JSON: it goes wrong at line 2, column 14 (byte offset 26): expected ',' or '}', found '\"'"),
            // Foundation's parser takes a comma before `]` and keeps one of a key given twice: both refused (QA43 #4).
            (#"{"breaks":[{"time":4,"ads":[{"url":"a.m3u8","duration":10}]},]}"#, "not valid JSON: it goes wrong at line 1, column 61 (byte offset 60): a comma before ']'"),
            (#"{"breaks":[{"time":4,"time":8,"ads":[{"url":"a.m3u8","duration":10}]}]}"#, "not valid JSON: $.breaks[0].time is given twice"),
            (nil, "cannot read the ad map"),
        ]
        for (index, item) in cases.enumerated() {
            let path = folder + "/map\(index).json"
            if let json = item.json { try json.write(toFile: path, atomically: true, encoding: .utf8) }
            for command in [["play", "http://127.0.0.1:9/none.m3u8", "--ad-map", path], ["check-ads", "http://127.0.0.1:9/none.m3u8", "--ad-map", path]] {
                let outcome = await CLI.run(CLI.playhead, command)
                #expect(outcome.status == 2, "\(command[0]) \(item.message): \(outcome.stderr)")
                #expect(outcome.stderr.contains("\(path): \(item.message)"), "\(command[0]): \(outcome.stderr)")
            }
        }
    }
}
