import Foundation
import PlayheadCore
import Testing

/// Where the shared trace sets live.
let tracesRoot = "/work/shared/traces"

@Suite struct TraceTests {
    @Test func parsesANorwayTraceFile() throws {
        let path = tracesRoot + "/norway-test/norway_bus_1"
        let trace = try BandwidthTrace.load(path: path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
        #expect(trace.name == "norway_bus_1")
        #expect(trace.times.count == lines.count)
        #expect(trace.megabitsPerSecond.count == lines.count)
        #expect(trace.times.first == 0.0)
        #expect(trace.megabitsPerSecond.first == 4.03768755221)
        #expect(trace.times[1] == 0.549999952316)
        #expect(abs(trace.durationSeconds - 154.75999999) < 1e-9)
    }

    @Test func parsesAnFCCTraceThatDoesNotStartAtZero() throws {
        let trace = try BandwidthTrace.parse("180.0\t0.462624\n185.0\t1.115528\n190.0\t2.758448\n", name: "fcc")
        #expect(trace.times == [180, 185, 190])
        #expect(trace.durationSeconds == 10)
        // Sample i's throughput covers [times[i-1], times[i]); times count from the first sample.
        #expect(trace.throughputBitsPerSecond(at: 0) == 1_115_528)
        #expect(trace.throughputBitsPerSecond(at: 7) == 2_758_448)
    }

    @Test func loadsFoldersSortedByName() throws {
        let traces = try BandwidthTrace.loadDirectory(tracesRoot + "/norway-test")
        #expect(traces.count == 142)
        #expect(traces.map(\.name) == traces.map(\.name).sorted())
        let fcc = try BandwidthTrace.loadDirectory(tracesRoot + "/fcc-test")
        #expect(fcc.count == 88)
        #expect(fcc.allSatisfy { $0.times.count >= 2 && $0.durationSeconds > 0 })
    }

    @Test(arguments: [
        ("0 1\n1 x\n", TraceError.badNumber(trace: "t", line: 2, text: "x")),
        ("0 1\n1 2\n1 3\n", .nonIncreasingTime(trace: "t", line: 3, seconds: 1, previousSeconds: 1)),
        ("0 1\n\n2 -1\n", .negativeThroughput(trace: "t", line: 3, megabitsPerSecond: -1)),
        ("0 1 2\n", .malformedLine(trace: "t", line: 1, text: "0 1 2")),
        ("0 1\n1 nan\n", .badNumber(trace: "t", line: 2, text: "nan")),
        ("0 1\n", .tooFewSamples(trace: "t", count: 1)),
        // The first sample's throughput is never walked: this link carries nothing (a session on it
        // used to wait for ever, its virtual clock running away).
        ("0 5\n3 0\n", .carriesNoData(trace: "t")),
        ("0 0\n10 0\n20 0\n", .carriesNoData(trace: "t")),
    ])
    func reportsEachErrorWithItsLine(text: String, expected: TraceError) {
        #expect(throws: expected) { try BandwidthTrace.parse(text, name: "t") }
        #expect(expected.description.hasPrefix("t"))
    }

    /// A trace written on Windows (CRLF) or old Mac OS (lone CR) reads as its lines: in Swift "\r\n" is
    /// one Character, so splitting on "\n" used to see the whole file as one malformed line.
    @Test(arguments: ["\r\n", "\r"])
    func acceptsCRLFAndCRLineEnds(lineEnd: String) throws {
        let trace = try BandwidthTrace.parse(["0 1", "1 2", "", "2 3", ""].joined(separator: lineEnd), name: "t")
        #expect(trace.times == [0, 1, 2] && trace.megabitsPerSecond == [1, 2, 3])
        #expect(throws: TraceError.badNumber(trace: "t", line: 3, text: "x")) {
            try BandwidthTrace.parse(["0 1", "1 2", "2 x"].joined(separator: lineEnd), name: "t")
        }
    }

    /// An error echoes at most about 80 characters of the line, ending in an ellipsis (it used to echo a
    /// whole file read as one line).
    @Test func errorsEchoAtMost80CharactersOfALine() {
        let long = String(repeating: "12 ", count: 400)
        for error in [TraceError.malformedLine(trace: "t", line: 1, text: long), .badNumber(trace: "t", line: 1, text: long)] {
            #expect(error.description.count < 140, "\(error.description)")
            #expect(error.description.contains(String(long.prefix(79)) + "…"), "\(error.description)")
        }
        #expect(TraceError.malformedLine(trace: "t", line: 1, text: "0 1 2").description.contains("\"0 1 2\""))
    }

    @Test func namesUnreadableFiles() {
        #expect(throws: TraceError.self) { try BandwidthTrace.load(path: "/nonexistent/trace") }
        do {
            _ = try BandwidthTrace.load(path: "/nonexistent/trace")
        } catch {
            #expect(error.description.contains("/nonexistent/trace"))
        }
    }

    /// A folder is named as one; a pipe (a shell's `<(…)`) is read as a file is (it failed with "You don't
    /// have permission").
    @Test func aFolderIsNamedAndAPipeIsRead() throws {
        #expect(throws: TraceError.unreadable(path: NSTemporaryDirectory(), reason: "it is a folder, not a trace file")) {
            try BandwidthTrace.load(path: NSTemporaryDirectory())
        }
        let fifo = NSTemporaryDirectory() + "playhead-trace-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data("0\t8\n10\t8\n20\t1.5\n".utf8))
            try? handle?.close()
        }
        writer.start()
        let trace = try BandwidthTrace.load(path: fifo)
        #expect(trace.times == [0, 10, 20] && trace.megabitsPerSecond == [8, 8, 1.5])
    }

    @Test func throughputWrapsAround() {
        let trace = BandwidthTrace(name: "step", times: [0, 1, 2], megabitsPerSecond: [99, 8, 16])
        #expect(trace.throughputBitsPerSecond(at: 0.5) == 8_000_000)
        #expect(trace.throughputBitsPerSecond(at: 1.5) == 16_000_000)
        #expect(trace.throughputBitsPerSecond(at: 2.5) == 8_000_000)
        #expect(trace.throughputBitsPerSecond(at: 7.5) == 16_000_000)
        #expect(trace.throughputBitsPerSecond(at: -0.5) == 16_000_000)
    }
}
